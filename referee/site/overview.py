"""A game's overview page: what it is, its turn structure, the pages of its rulebook, its
names in three languages and its sources; in each language of the site, the summary and
the turn's text from the game's rule texts in that language (rules.<lang>.yaml)."""

from __future__ import annotations

import re
from typing import Any

from referee.i18n import N_, _, localized, ngettext
from referee.notation.colours import colour_named
from referee.site.markdown import LANGS, dotted, escape, is_names, link_or_text, names_line, page_file, slug, table
from referee.site.tables import GamePages
from referee.spec.loader import iter_uncertain


def render(doc: GamePages) -> str:
    meta = doc.spec.meta
    players = meta["players"]
    rules, tables = page_file("rules"), page_file("tables")
    out = [f"# {escape(doc.name())}", "", names_line(meta["names"]), "", escape(doc.words("summary", meta["summary"])), ""]
    facts = [[_("Players"), f"{players['min']}–{players['max']}"]]
    facts += [[_(label), colours(doc) if k == "colours" else doc.cell(meta[k], "game", (k,))] for k, label in FACTS.items() if k in meta]
    out += [*at_a_glance(facts), "## " + _("Turn structure") + " {#turn-structure}", ""]
    out += turn_structure(doc)
    out += [_("The rules come in these groups:"), ""]
    out += [f"- [{escape(doc.group_title(sid, title))}]({rules}#section-{slug(sid)})" for sid, title in doc.rule_groups()]
    out += ["", "## " + _("In this rulebook") + " {#pages}", ""]
    uncertain = len(list(iter_uncertain(doc.spec)))
    examples = len(doc.examples())
    n_rules, n_variants = len(doc.spec.rules), len(doc.variant_files())
    listed = [
        (_("Rules"), rules),
        (_("Components and tables"), tables),
        (_("Variants"), page_file("variants")),
        (_("Verify with your box"), page_file("verify")),
        (_("Notation"), page_file("notation")),
    ]
    says = [
        ngettext("{n} rule, from setting up to final scoring and tie-breaks, each under its id.", "{n} rules, from setting up to final scoring and tie-breaks, each under its id.", n_rules).format(
            n=n_rules
        ),
        _("components, setup by player count and every table of the spec."),
        ngettext("{n} overlay file and what it changes.", "{n} overlay files and what each changes.", n_variants).format(n=n_variants),
        ngettext("{n} value that is less than certain.", "{n} values that are less than certain.", uncertain).format(n=uncertain),
        ngettext("how to write a game down, with {n} complete example record.", "how to write a game down, with {n} complete example records.", examples).format(n=examples),
    ]
    out += [f"- [{title}]({page}): {text}" for (title, page), text in zip(listed, says, strict=True)] + [""]
    groups = dict(doc.rule_groups())
    for title, section, stem, tables_of in (
        (_("Setting up"), "setup", "setup", _("the setup tables")),
        (_("Final scoring and tie-breaks"), "end", "scoring", _("the scoring tables")),
    ):
        the_rules = _("the rules")
        links = [f"[{the_rules}]({rules}#section-{section})"] if section in groups else []
        links += [f"[{tables_of}]({tables}#{stem})"] if stem in doc.spec.files else []
        if links:
            out += [_("**{title}:** see {links}.").format(title=title, links=_(" and ").join(links)), ""]
    glossary = names_glossary(doc)
    if glossary:
        out += ["## " + _("Names in three languages") + " {#names}", "", _("Names as printed in the English, German and Hungarian editions, where known."), ""]
        out.append(table([*(_(name).capitalize() for name in LANGS.values()), _("Shown in")], glossary))
    out += ["## " + _("Sources") + " {#sources}", ""]
    out.append(table([_("Id"), _("Source"), _("Where")], [[f"`{s['id']}`", escape(s["title"]), link_or_text(s["where"])] for s in meta["sources"]]))
    return "\n".join(out)


FACTS = {"designer": N_("Designer"), "publisher": N_("Publisher"), "colours": N_("Colours")}  # game.yaml keys shown at a glance


def colours(doc: GamePages) -> str:
    """The players' colours, named in the language in use (specs/common/colours.yaml)."""
    listed = doc.spec.meta["colours"]
    if not isinstance(listed, list) or not all(isinstance(c, str) for c in listed):
        return doc.cell(listed, "game", ("colours",))
    return escape(", ".join(localized(colour_named(c)) for c in listed)) + doc.mark("game", ("colours",))


def at_a_glance(facts: list[list[str]]) -> list[str]:
    """The box of facts under the summary: a line per fact, with no table header to leave empty."""
    title = _("At a glance")
    return [f'!!! info "{title}"', "", *(f"    **{label}:** {value}  " for label, value in facts), ""]


def turn_structure(doc: GamePages) -> list[str]:
    """Phases that every round runs through in order (game.yaml, phases), or the actions a
    player chooses one of on a turn (game.yaml, turn)."""
    meta, out = doc.spec.meta, []
    rules_page = page_file("rules")
    sections = {s["id"]: s.get("title", "") for s in doc.spec.files["rules"].get("sections", [])}
    languages = [_(name).capitalize() for name in LANGS.values()]
    if meta.get("phases"):
        out += [_("A round of {game} runs through these phases in order.").format(game=escape(doc.name())), ""]
        rows, phase_rules = [], _("rules")
        for i, phase in enumerate(meta["phases"], 1):
            rules = f"[{phase_rules}]({rules_page}#section-{slug(phase['id'])})" if phase["id"] in sections else "—"
            rows.append([str(i), *(escape(phase["names"].get(lang, "—")) for lang in LANGS), rules])
        out.append(table(["", *languages, _("Rules")], rows))
    if meta.get("turn"):
        turn = meta["turn"]
        text = doc.words("turn", turn["text"]) if turn.get("text") else _("On a turn, a player of {game} takes one of these actions.").format(game=doc.name())
        out += [escape(text), ""]
        anchors = {rule.anchor: rule for rule in doc.spec.rules.values()}
        rows = []
        for action, entry in doc.spec.get(turn["actions"]).items():
            rule = anchors.get(str(action))
            # its own rule, else its own group of rules, else the group whose title names it
            name = str(entry["names"].get("en", action)).lower()
            section = action if action in sections else next((sid for sid, title in sections.items() if re.search(rf"\b{re.escape(name)}\b", title.lower())), None)
            if rule:
                rules = f"[{escape(doc.rule_title(rule))}]({rules_page}#{rule.anchor})"
            else:
                rules = f"[{escape(doc.group_title(section, sections[section]))}]({rules_page}#section-{slug(section)})" if section else "—"
            rows.append([f"`{action}`", *(escape(entry["names"].get(lang, "—")) for lang in LANGS), rules])
        out.append(table([_("Action"), *languages, _("Rules")], rows))
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
