"""A game's overview page: what it is, its turn structure, the pages of its rulebook, its
names in three languages and its sources."""

from __future__ import annotations

import re
from typing import Any

from referee.site.markdown import LANGS, count, dotted, escape, human, is_names, link_or_text, names_line, slug, table
from referee.site.tables import GamePages
from referee.spec.loader import iter_uncertain


def render(doc: GamePages) -> str:
    meta = doc.spec.meta
    players = meta["players"]
    out = [f"# {doc.title}", "", names_line(meta["names"]), "", escape(meta["summary"]), ""]
    facts = [["Players", f"{players['min']}–{players['max']}"]]
    facts += [[human(k), doc.cell(meta[k], "game", (k,))] for k in ("designer", "publisher", "colours") if k in meta]
    out += [*at_a_glance(facts), "## Turn structure {#turn-structure}", ""]
    out += turn_structure(doc)
    out += ["The rules come in these groups:", ""]
    out += [f"- [{escape(title)}](rules.md#section-{slug(sid)})" for sid, title in doc.rule_groups()]
    out += ["", "## In this rulebook {#pages}", ""]
    uncertain = len(list(iter_uncertain(doc.spec)))
    examples = len(doc.examples())
    out += [
        f"- [Rules](rules.md): {count(len(doc.spec.rules), 'rule')}, from setting up to final scoring and tie-breaks, each under its id.",
        "- [Components and tables](tables.md): components, setup by player count and every table of the spec.",
        f"- [Variants](variants.md): {count(len(doc.variant_files()), 'overlay file')} and what each changes.",
        f"- [Verify with your box](verify.md): {count(uncertain, 'value')} that are less than certain.",
        f"- [Notation](notation.md): how to write a game down, with {count(examples, 'complete example record')}.",
        "",
    ]
    groups = dict(doc.rule_groups())
    for title, section, stem in (("Setting up", "setup", "setup"), ("Final scoring and tie-breaks", "end", "scoring")):
        links = [f"[the rules](rules.md#section-{section})"] if section in groups else []
        links += [f"[the {stem} tables](tables.md#{stem})"] if stem in doc.spec.files else []
        if links:
            out += [f"**{title}:** see {' and '.join(links)}.", ""]
    glossary = names_glossary(doc)
    if glossary:
        out += ["## Names in three languages {#names}", "", "Names as printed in the English, German and Hungarian editions, where known.", ""]
        out.append(table([*LANGS.values(), "Shown in"], glossary))
    out += ["## Sources {#sources}", ""]
    out.append(table(["Id", "Source", "Where"], [[f"`{s['id']}`", escape(s["title"]), link_or_text(s["where"])] for s in meta["sources"]]))
    return "\n".join(out)


def at_a_glance(facts: list[list[str]]) -> list[str]:
    """The box of facts under the summary: a line per fact, with no table header to leave empty."""
    return ['!!! info "At a glance"', "", *(f"    **{label}:** {value}  " for label, value in facts), ""]


def turn_structure(doc: GamePages) -> list[str]:
    """Phases that every round runs through in order (game.yaml, phases), or the actions a
    player chooses one of on a turn (game.yaml, turn)."""
    meta, out = doc.spec.meta, []
    sections = {s["id"]: s.get("title", "") for s in doc.spec.files["rules"].get("sections", [])}
    if meta.get("phases"):
        out += [f"A round of {doc.title} runs through these phases in order.", ""]
        rows = []
        for i, phase in enumerate(meta["phases"], 1):
            rules = f"[rules](rules.md#section-{slug(phase['id'])})" if phase["id"] in sections else "—"
            rows.append([str(i), *(escape(phase["names"].get(lang, "—")) for lang in LANGS), rules])
        out.append(table(["", *LANGS.values(), "Rules"], rows))
    if meta.get("turn"):
        turn = meta["turn"]
        out += [escape(turn.get("text") or f"On a turn, a player of {doc.title} takes one of these actions."), ""]
        anchors = {rule.anchor: rule for rule in doc.spec.rules.values()}
        rows = []
        for action, entry in doc.spec.get(turn["actions"]).items():
            rule = anchors.get(str(action))
            # its own rule, else its own group of rules, else the group whose title names it
            name = str(entry["names"].get("en", action)).lower()
            section = action if action in sections else next((sid for sid, title in sections.items() if re.search(rf"\b{re.escape(name)}\b", title.lower())), None)
            rules = f"[{escape(rule.title)}](rules.md#{rule.anchor})" if rule else f"[{escape(sections[section])}](rules.md#section-{slug(section)})" if section else "—"
            rows.append([f"`{action}`", *(escape(entry["names"].get(lang, "—")) for lang in LANGS), rules])
        out.append(table(["Action", *LANGS.values(), "Rules"], rows))
    return out


def names_glossary(doc: GamePages) -> list[list[str]]:
    rows = []

    def walk(node: Any, stem: str, path: tuple) -> None:
        if is_names(node):
            where = path[:-1] if path[-1:] == ("names",) else path
            if where:
                rows.append([escape(node.get(lang, "—")) for lang in LANGS] + [doc.link(f"{stem}:{dotted(where)}")])
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(v, stem, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, stem, path + (i,))

    for stem in doc.table_stems():
        walk(doc.spec.files[stem], stem, ())
    return rows
