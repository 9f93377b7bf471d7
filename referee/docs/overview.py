"""A game's overview page: what it is, its turn structure, the pages of its rulebook, its
names in three languages and its sources."""

from __future__ import annotations

from typing import Any

from ..spec import iter_uncertain
from .markdown import LANGS, count, dotted, escape, human, is_names, link_or_text, names_line, slug, table
from .tables import GamePages


def render(doc: GamePages) -> str:
    meta = doc.spec.meta
    players = meta["players"]
    out = [f"# {doc.title}", "", names_line(meta["names"]), "", escape(meta["summary"]), ""]
    facts = [["Players", f"{players['min']}–{players['max']}"]]
    facts += [[human(k), doc.cell(meta[k], "game", (k,))] for k in ("designer", "publisher", "colours") if k in meta]
    out += [table(["", ""], facts), "## Turn structure {#turn-structure}", ""]
    sections = {s["id"]: s for s in doc.spec.files["rules"].get("sections", [])}
    if meta.get("phases"):
        out += [f"A round of {doc.title} runs through these phases in order.", ""]
        rows = []
        for i, phase in enumerate(meta["phases"], 1):
            rules = f"[rules](rules.md#section-{slug(phase['id'])})" if phase["id"] in sections else "—"
            rows.append([str(i), *(escape(phase["names"].get(lang, "—")) for lang in LANGS), rules])
        out.append(table(["", *LANGS.values(), "Rules"], rows))
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
