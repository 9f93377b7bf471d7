"""The rulebook site's pages, rendered from the specs.

Every game gets six pages: an overview, its rules (each rule's anchor is the
part of its id after the game, which is where a diagnostic's `see:` link
points), its components and tables, its variants (values before and after
each overlay), the values to verify against a physical box, and its notation
with the complete example records. The command-line reference is rendered
from the argument parser. Nothing here is copied by hand from a rulebook:
when a spec changes, the next build shows the change.

Spec files have free structure, so tables are rendered generically: a mapping
of entries becomes a table with a row per entry, a list of mappings a table
with a row per item, a small mapping or list a single cell. A value that is
less than certain carries a link to the verify page. A rule without text, or
data that cannot be laid out as tables, stops the build with a `DocsError`.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .arguments import EPILOG, build_parser
from .spec import Provenance, Spec, SpecError, available_games, data_root, iter_uncertain, load_spec

LANGS = {"en": "English", "de": "German", "hu": "Hungarian"}
STATUS_ORDER = ("unknown", "provisional", "guess", "likely")
STATUS_MEANING = {
    "unknown": (
        "No source gives these values. A rule that needs one reports *not checked: needs "
        "&lt;file&gt;:&lt;key&gt;* as a warning and everything else is still checked; where a record "
        "states the value itself (a card face when it is revealed), the record's value is used."
    ),
    "provisional": (
        "Reasoned stand-ins. The referee uses them, and every report names the provisional "
        "values its verdict relied on, so the verdict is visibly conditional."
    ),
    "guess": "Inferred without direct support from a source. The referee uses them and every report that relies on one lists it.",
    "likely": "Strongly implied by the sources but not stated outright. The referee uses them and every report that relies on one lists it.",
}
CHECKED = {
    "move": "a move that breaks it is reported",
    "figure": "applied by the referee; a recorded figure that disagrees is reported",
    "record": "checked on the record as a whole",
    "not-checked": "described here, not checked by the referee",
}
GAME_KEYS = {"kind", "id", "names", "designer", "publisher", "players", "colours", "summary", "sources", "phases"}
MAX_TABLE_COLUMNS = 10  # entries with more fields than this get a small table each instead of one wide table
MAX_INLINE_ITEMS = 12  # longer lists and mappings get a table of their own
GRID_WIDTH = 10  # long lists of numbers are shown ten to a row
MAX_LISTED = 5  # uncertain values named under a rule; more are counted


class DocsError(SpecError):
    """Spec data that the rulebook cannot show."""


@dataclass
class Page:
    path: str  # relative to the site's docs directory, e.g. "speicherstadt/rules.md"
    title: str  # its title in the navigation
    group: str | None  # the navigation section it belongs to (a game's name)
    text: str


# --- the site ---------------------------------------------------------------------


def game_specs(data: Path | None = None) -> tuple[Path, list[Spec]]:
    """The data root and the spec of every game in it (a spec that does not load raises)."""
    data = Path(data) if data else data_root()
    return data, [load_spec(game, root=data / "specs") for game in available_games(data / "specs")]


def render_site(data: Path | None = None) -> list[Page]:
    """Every generated page: the command-line reference, then six pages per game."""
    data, specs = game_specs(data)
    pages = [Page("cli.md", "Command line", None, render_cli())]
    for spec in specs:
        pages += GamePages(spec, data).pages()
    return pages


def write_docs(out: Path, data: Path | None = None) -> list[Path]:
    """Write the generated pages as Markdown under `out`; returns the paths written."""
    written = []
    for page in render_site(data):
        path = Path(out) / page.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page.text, encoding="utf-8")
        written.append(path)
    return written


def nav(pages: list[Page]) -> list:
    """mkdocs navigation entries for the generated pages, a section per game."""
    entries: list = []
    groups: dict[str, list] = {}
    for page in pages:
        if page.group is None:
            entries.append({page.title: page.path})
        else:
            if page.group not in groups:
                groups[page.group] = []
                entries.append({page.group: groups[page.group]})
            groups[page.group].append({page.title: page.path})
    return entries


def games_table(data: Path | None = None) -> str:
    """A table of the games with links to their pages, for the home page."""
    rows = []
    for spec in game_specs(data)[1]:
        names, players, game = spec.meta["names"], spec.meta["players"], spec.game
        rows.append([
            f"[{names['en']}]({game}/index.md)",
            *(names.get(lang, "—") for lang in ("de", "hu")),
            f"{players['min']}–{players['max']}",
            f"[rules]({game}/rules.md) · [tables]({game}/tables.md) · [notation]({game}/notation.md) · [verify]({game}/verify.md)",
        ])
    return table(["Game", LANGS["de"], LANGS["hu"], "Players", "Pages"], rows)


def notation_links(data: Path | None = None) -> str:
    """A list of the games' notation pages, for the general notation page."""
    return "".join(f"- [{spec.meta['names']['en']}]({spec.game}/notation.md)\n" for spec in game_specs(data)[1])


SNIPPETS = {"games": games_table, "notation": notation_links}
SNIPPET = re.compile(r"<!-- referee:([a-z-]+) -->")


def expand_snippets(markdown: str, data: Path | None = None) -> str:
    """Replace `<!-- referee:NAME -->` in a hand-written page by generated Markdown."""

    def expand(match: re.Match) -> str:
        if match.group(1) not in SNIPPETS:
            raise DocsError("docs", match.group(0), f"no generated snippet {match.group(1)!r}; known: {', '.join(SNIPPETS)}")
        return SNIPPETS[match.group(1)](data)

    return SNIPPET.sub(expand, markdown)


# --- Markdown helpers -----------------------------------------------------------------


def slug(*parts: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "-", "-".join(str(p) for p in parts).lower()).strip("-")


def words(key: Any) -> str:
    """A spec key as words: `end_points_per_coin` -> `end points per coin`."""
    return str(key).replace("_", " ")


def human(key: Any) -> str:
    text = words(key)
    return text[:1].upper() + text[1:]


def escape(text: str) -> str:
    return str(text).replace("<", "&lt;").replace("|", "\\|").replace("\n", " ").strip()


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def is_names(value: Any) -> bool:
    """A mapping of a thing's names by language: {en: fireman, de: Feuerwehrmann, hu: tűzoltó}."""
    return isinstance(value, dict) and bool(value) and set(value) <= set(LANGS) and all(isinstance(v, str) for v in value.values())


def names_of(value: Any) -> dict:
    """The names of a thing: its `names` mapping, or the mapping itself when it is only names."""
    if is_names(value):
        return value
    return value["names"] if isinstance(value, dict) and is_names(value.get("names")) else {}


def names_line(names: dict) -> str:
    return " · ".join(f"{LANGS[lang]}: **{escape(names[lang])}**" for lang in LANGS if names.get(lang))


def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool, datetime.date))


def table_like(value: Any) -> bool:
    """Too big or too nested for one table cell: it gets a heading and a table of its own."""
    if isinstance(value, dict):
        items = [v for k, v in value.items() if not (k == "names" and is_names(v))]
        numeric = len(items) >= 3 and all(isinstance(k, int) for k in value) and all(map(is_scalar, items))
        return numeric or len(items) > MAX_INLINE_ITEMS or any((isinstance(v, dict) and not only_names(v)) or table_like(v) for v in items)
    if isinstance(value, list):
        return len(value) > MAX_INLINE_ITEMS or any(isinstance(v, dict) for v in value)
    return False


def is_entries(items: dict) -> bool:
    """Mappings of one kind side by side (goods, card types, player counts): they share a field or have names."""
    values = list(items.values())
    if not values or not all(isinstance(v, dict) for v in values):
        return False
    shared = set.intersection(*(set(v) for v in values))
    return any(names_of(v) for v in values) or (len(values) >= 2 and bool(shared))


def only_names(value: Any) -> bool:
    """Names and nothing else: shown as a name, never opened up into a table."""
    return is_names(value) or (isinstance(value, dict) and set(value) == {"names"} and is_names(value["names"]))


def key_header(path: tuple) -> str:
    """The heading of a table's key column: `by_players` keys are players, others ids."""
    last = str(path[-1]) if path else ""
    return human(last[3:]) if last.startswith("by_") else "Id"


def entry_title(value: Any) -> str | None:
    """A heading for one entry: its English name, id or title, when it has one."""
    if isinstance(value, dict):
        if names_of(value).get("en"):
            return human(names_of(value)["en"])
        for field in ("id", "title"):
            if value.get(field) is not None and is_scalar(value[field]):
                return str(value[field])
    return None


def flatten(entry: dict, prefix: tuple = ()) -> tuple[dict[tuple, Any], list[tuple]]:
    """An entry's values by key path, nested mappings opened up; also the paths opened."""
    leaves: dict[tuple, Any] = {}
    through: list[tuple] = []
    for k, v in entry.items():
        if not prefix and k == "names" and is_names(v):
            continue
        if isinstance(v, dict) and v and not only_names(v):
            sub, sub_through = flatten(v, prefix + (k,))
            leaves.update(sub)
            through += [prefix + (k,), *sub_through]
        else:
            leaves[prefix + (k,)] = v
    return leaves, through


def count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def dotted(path: tuple) -> str:
    return ".".join(str(p) for p in path)


# --- one game -----------------------------------------------------------------------


class GamePages:
    """The pages of one game, rendered from its spec."""

    def __init__(self, spec: Spec, data: Path):
        self.spec = spec
        self.data = data
        self.game = spec.game
        self.title = spec.meta["names"]["en"]
        self.anchors: dict[str, str] = {}  # "file:key" -> anchor on the tables page
        self.verify_links = True  # False for a variant's values, which the verify page does not list

    def pages(self) -> list[Page]:
        tables = self.tables_page()  # first: it records the anchors the other pages link to
        return [
            Page(f"{self.game}/index.md", "Overview", self.title, self.overview_page()),
            Page(f"{self.game}/rules.md", "Rules", self.title, self.rules_page()),
            Page(f"{self.game}/tables.md", "Components and tables", self.title, tables),
            Page(f"{self.game}/variants.md", "Variants", self.title, self.variants_page()),
            Page(f"{self.game}/verify.md", "Verify with your box", self.title, self.verify_page()),
            Page(f"{self.game}/notation.md", "Notation", self.title, self.notation_page()),
        ]

    # --- values and cells ---------------------------------------------------------------

    def where(self, stem: str) -> str:
        """A spec file's path as a user finds it, e.g. specs/speicherstadt/cards.yaml."""
        path = Path(self.spec.path_of(stem))
        try:
            return path.relative_to(self.data).as_posix()
        except ValueError:
            return path.as_posix()

    def mark(self, stem: str, path: tuple) -> str:
        """A link to the verify page when the value at this address is not certain."""
        p = self.spec.provenance.get(f"{stem}:{dotted(path)}")
        if not p:
            return ""
        return f" <sup>[{p.status}](verify.md#{verify_anchor(p)})</sup>" if self.verify_links else f" <sup>{p.status}</sup>"

    def cell(self, value: Any, stem: str, path: tuple) -> str:
        """A value as the text of one table cell."""
        return self.inline(value, stem, path) + self.mark(stem, path)

    def inline(self, value: Any, stem: str, path: tuple) -> str:
        if value is None:
            return "*not known*"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, datetime.date):
            return value.isoformat()
        if isinstance(value, (int, float, str)):
            return escape(value)
        if isinstance(value, list):
            if not value:
                return "none"
            sep = "; " if any(isinstance(v, (dict, list)) for v in value) else ", "
            return sep.join(self.cell(v, stem, path + (i,)) for i, v in enumerate(value))
        if isinstance(value, dict):
            if names_of(value):
                return escape(names_of(value).get("en", ""))
            if not value:
                return "none"
            parts = []
            for k, v in value.items():
                text = self.cell(v, stem, path + (k,))
                label = escape(words(k))
                parts.append(f"{label} ({text})" if isinstance(v, (dict, list)) and v else f"{label}: {text}")
            return ", ".join(parts)
        raise DocsError(self.spec.path_of(stem), dotted(path), f"cannot show a value of type {type(value).__name__} in a table")

    # --- generic tables -------------------------------------------------------------------

    def block(self, node: Any, stem: str, path: tuple, level: int, title: str, ident: Any = None) -> list[str]:
        """A heading, then the node as tables; parts too big for a cell get headings of their own."""
        if level > 6:
            raise DocsError(self.spec.path_of(stem), dotted(path), "nested too deeply to be shown as tables; the docs renderer needs a layout for it")
        anchor = slug(stem, *path)
        self.anchors[f"{stem}:{dotted(path)}"] = anchor
        out = [f"{'#' * level} {escape(title)} {{#{anchor}}}", ""]
        p = self.spec.provenance.get(f"{stem}:{dotted(path)}")
        if p:
            out += [f"*{p.status.capitalize()} data:* {escape(p.note)} [Verify]({'verify.md#' + verify_anchor(p)}).", ""]
        if ident is not None:
            out += [f"Id: `{ident}`", ""]
        return out + self.body(node, stem, path, level)

    def body(self, node: Any, stem: str, path: tuple, level: int) -> list[str]:
        if isinstance(node, dict):
            out = [names_line(node["names"]), ""] if is_names(node.get("names")) else []
            items = {k: v for k, v in node.items() if k != "kind" and not (k == "names" and out)}
            if not items:
                return out or ["*(empty)*", ""]
            if level <= 2:  # a whole file: every part gets a heading
                return out + self.fields(items, stem, path, level, split=True)
            if is_entries(items):
                return out + self.entries(list(items.items()), stem, path, level, listed=False)
            if all(isinstance(k, int) for k in items) and all(map(is_scalar, items.values())):
                return out + [self.numbered(items, stem, path)]
            return out + self.fields(items, stem, path, level, split=False)
        if isinstance(node, list):
            if node and all(isinstance(v, dict) for v in node):
                return self.entries(list(enumerate(node)), stem, path, level, listed=True)
            if len(node) > MAX_INLINE_ITEMS and all(map(is_scalar, node)):
                return [self.numbered(dict(enumerate(node)), stem, path)]
            if any(isinstance(v, (dict, list)) for v in node):
                return self.fields(dict(enumerate(node)), stem, path, level, split=False)
        return [self.cell(node, stem, path), ""]

    def fields(self, items: dict, stem: str, path: tuple, level: int, split: bool) -> list[str]:
        """Small values in a two-column table; big ones (all mappings and lists when `split`) below it."""
        small = {k: v for k, v in items.items() if not (table_like(v) or (split and isinstance(v, dict)))}
        out = []
        if small:
            out.append(table(["", "Value"], [[human(k), self.cell(v, stem, path + (k,))] for k, v in small.items()]))
        for k, v in items.items():
            if k not in small:
                out += self.block(v, stem, path + (k,), level + 1, entry_title(v) or human(k))
        return out

    def entries(self, entries: list[tuple], stem: str, path: tuple, level: int, listed: bool) -> list[str]:
        """Mappings side by side: a row each, or a small table each when they do not fit in one table."""
        entries = [(key, {"names": e} if is_names(e) else e) for key, e in entries]
        flat = {key: flatten(entry) for key, entry in entries}
        langs = [lang for lang in LANGS if any(names_of(e).get(lang) for _, e in entries)]  # columns with a name in them
        by_id = listed and all(is_scalar(e.get("id")) and e.get("id") is not None for _, e in entries)
        columns: list[tuple] = []
        for leaves, _ in flat.values():
            columns += [c for c in leaves if c not in columns and not (by_id and c == ("id",))]
        # fields that few entries have share one column
        rare = [c for c in columns if len(entries) >= 4 and 4 * sum(c in leaves for leaves, _ in flat.values()) < len(entries)]
        main = [c for c in columns if c not in rare]
        nested = any(table_like(v) for leaves, _ in flat.values() for v in leaves.values())
        if nested or len(main) + bool(rare) > MAX_TABLE_COLUMNS:
            out = []
            for key, entry in entries:
                if listed:  # the third of the faces, ...
                    title = f"{human(path[-1] if path else stem)} {key + 1}"
                else:  # a card type, a player count
                    title = human(key) if key_header(path) == "Id" else f"{key_header(path)}: {key}"
                out += self.block(entry, stem, path + (key,), level + 1, entry_title(entry) or title, None if listed else key)
            return out
        keyed = not listed or by_id
        header = [key_header(path)] if keyed else []
        header += [LANGS[lang] for lang in langs]
        header += [" › ".join(human(k) for k in c) for c in main] + (["Other"] if rare else [])
        if not header:  # mappings with nothing in them
            return ["none", ""]
        rows = []
        for key, entry in entries:
            anchor = slug(stem, *path, key)
            self.anchors[f"{stem}:{dotted(path + (key,))}"] = anchor
            leaves, through = flat[key]
            names = names_of(entry)
            row = [f"`{entry['id'] if listed else key}`"] if keyed else []
            row += [escape(names.get(lang, "—")) for lang in langs]
            row += [self.cell(leaves[c], stem, path + (key, *c)) if c in leaves else "—" for c in main]
            if rare:
                row.append(", ".join(f"{escape(' '.join(map(words, c)))}: {self.cell(leaves[c], stem, path + (key, *c))}" for c in rare if c in leaves) or "—")
            marks = "".join(self.mark(stem, path + (key, *c)) for c in [("names",), *through])
            row[0] = f'<span id="{anchor}"></span>{row[0]}{marks}'
            rows.append(row)
        return [table(header, rows)]

    def numbered(self, items: dict, stem: str, path: tuple) -> str:
        """Values by number: one row when few, else ten to a row (row label + column = the number)."""
        keys = list(items)
        if len(keys) <= MAX_INLINE_ITEMS:
            header = [""] + [escape(k) for k in keys]
            return table(header, [[human(path[-1]) if path else ""] + [self.cell(items[k], stem, path + (k,)) for k in keys]])
        if keys != list(range(keys[0], keys[0] + len(keys))):
            return table(["", "Value"], [[escape(k), self.cell(items[k], stem, path + (k,))] for k in keys])
        rows = []
        for start in range(keys[0], keys[-1] + 1, GRID_WIDTH):
            row = [self.cell(items[k], stem, path + (k,)) if k in items else "" for k in range(start, start + GRID_WIDTH)]
            rows.append([f"**{start}**"] + row)
        return table([""] + [f"+{i}" for i in range(GRID_WIDTH)], rows)

    # --- the pages ----------------------------------------------------------------------

    def table_stems(self) -> list[str]:
        """Spec files shown on the tables page: components and setup first, then scoring, then how `referee play` plays."""
        order = ["components", "setup", "*", "scoring", "play"]
        stems = [s for s in self.spec.files if s not in ("game", "rules")]
        return sorted(stems, key=lambda s: (order.index(s if s in order else "*"), s))

    def about(self, kind: str) -> str:
        """What a kind of spec file holds, from its schema's title ("The Speicherstadt: setup by player count")."""
        path = self.spec.directory.parent / "schema" / f"{kind}.schema.json"
        title = json.loads(path.read_text(encoding="utf-8")).get("title", "") if path.is_file() else ""
        return title.split(": ", 1)[-1]

    def tables_page(self) -> str:
        out = [
            f"# {self.title}: components and tables",
            "",
            f"Every number below is read from the spec files of {self.title} when the site is built. "
            "A value marked *likely*, *guess*, *provisional* or *unknown* is less than certain; "
            "its link leads to the page that says where it came from.",
            "",
        ]
        extra = {k: v for k, v in self.spec.meta.items() if k not in GAME_KEYS}
        if extra:
            out += self.file_section("game", extra, "Game")
        for stem in self.table_stems():
            out += self.file_section(stem, self.spec.files[stem], human(stem))
        return "\n".join(out)

    def file_section(self, stem: str, data: dict, title: str) -> list[str]:
        self.anchors[f"{stem}:"] = slug(stem)
        about = self.about(str(data.get("kind", "")))
        out = [f"## {title} {{#{slug(stem)}}}", "", f"From `{self.where(stem)}`" + (f": {escape(about)}." if about else "."), ""]
        out += self.body(data, stem, (), 2)
        touch = TOUCHES.get(str(data.get("kind")))
        return out + (touch(self, stem, data) if touch else [])

    def link(self, address: str) -> str:
        """A spec address as a link to the closest table that shows it."""
        stem, _, key = address.partition(":")
        parts = key.split(".") if key else []
        if "*" in parts:
            parts = parts[: parts.index("*")]
        text = f"`{address}`"
        if stem == "game":
            return f"[{text}](index.md)"
        while True:
            anchor = self.anchors.get(f"{stem}:{'.'.join(parts)}")
            if anchor:
                return f"[{text}](tables.md#{anchor})"
            if not parts:
                return text
            parts.pop()

    def overview_page(self) -> str:
        meta = self.spec.meta
        players = meta["players"]
        out = [f"# {self.title}", "", names_line(meta["names"]), "", escape(meta["summary"]), ""]
        facts = [["Players", f"{players['min']}–{players['max']}"]]
        facts += [[human(k), self.cell(meta[k], "game", (k,))] for k in ("designer", "publisher", "colours") if k in meta]
        out += [table(["", ""], facts), "## Turn structure {#turn-structure}", ""]
        sections = {s["id"]: s for s in self.spec.files["rules"].get("sections", [])}
        if meta.get("phases"):
            out += [f"A round of {self.title} runs through these phases in order.", ""]
            rows = []
            for i, phase in enumerate(meta["phases"], 1):
                rules = f"[rules](rules.md#section-{slug(phase['id'])})" if phase["id"] in sections else "—"
                rows.append([str(i), *(escape(phase["names"].get(lang, "—")) for lang in LANGS), rules])
            out.append(table(["", *LANGS.values(), "Rules"], rows))
        out += ["The rules come in these groups:", ""]
        out += [f"- [{escape(title)}](rules.md#section-{slug(sid)})" for sid, title in self.rule_groups()]
        out += ["", "## In this rulebook {#pages}", ""]
        uncertain = len(list(iter_uncertain(self.spec)))
        examples = len(self.examples())
        out += [
            f"- [Rules](rules.md): {count(len(self.spec.rules), 'rule')}, from setting up to final scoring and tie-breaks, each under its id.",
            "- [Components and tables](tables.md): components, setup by player count and every table of the spec.",
            f"- [Variants](variants.md): {count(len(self.variant_files()), 'overlay file')} and what each changes.",
            f"- [Verify with your box](verify.md): {count(uncertain, 'value')} that are less than certain.",
            f"- [Notation](notation.md): how to write a game down, with {count(examples, 'complete example record')}.",
            "",
        ]
        groups = dict(self.rule_groups())
        for title, section, stem in (("Setting up", "setup", "setup"), ("Final scoring and tie-breaks", "end", "scoring")):
            links = [f"[the rules](rules.md#section-{section})"] if section in groups else []
            links += [f"[the {stem} tables](tables.md#{stem})"] if stem in self.spec.files else []
            if links:
                out += [f"**{title}:** see {' and '.join(links)}.", ""]
        glossary = self.glossary()
        if glossary:
            out += ["## Names in three languages {#names}", "", "Names as printed in the English, German and Hungarian editions, where known.", ""]
            out.append(table([*LANGS.values(), "Shown in"], glossary))
        out += ["## Sources {#sources}", ""]
        out.append(table(["Id", "Source", "Where"], [[f"`{s['id']}`", escape(s["title"]), link_or_text(s["where"])] for s in meta["sources"]]))
        return "\n".join(out)

    def glossary(self) -> list[list[str]]:
        rows = []

        def walk(node: Any, stem: str, path: tuple) -> None:
            if is_names(node):
                where = path[:-1] if path[-1:] == ("names",) else path
                if where:
                    rows.append([escape(node.get(lang, "—")) for lang in LANGS] + [self.link(f"{stem}:{dotted(where)}")])
            elif isinstance(node, dict):
                for k, v in node.items():
                    walk(v, stem, path + (k,))
            elif isinstance(node, list):
                for i, v in enumerate(node):
                    walk(v, stem, path + (i,))

        for stem in self.table_stems():
            walk(self.spec.files[stem], stem, ())
        return rows

    def rule_groups(self) -> list[tuple[str, str]]:
        """(section id, title) of every group of rules, in the order of rules.yaml."""
        declared = [(s["id"], s["title"]) for s in self.spec.files["rules"].get("sections", [])]
        used = list(dict.fromkeys(r.section or "other" for r in self.spec.rules.values()))
        groups = [(sid, title) for sid, title in declared if sid in used]
        return groups + [(sid, "Other rules" if sid == "other" else human(sid)) for sid in used if sid not in dict(declared)]

    def rules_page(self) -> str:
        sections = {s["id"]: s for s in self.spec.files["rules"].get("sections", [])}
        out = [
            f"# Rules of {self.title}",
            "",
            f"Every rule has an id such as `{next(iter(self.spec.rules))}`. The referee names that id when a record "
            "breaks the rule, and its `see:` link leads to the rule's heading on this page.",
            "",
        ]
        for sid, title in self.rule_groups():
            out += [f"## {escape(title)} {{#section-{slug(sid)}}}", ""]
            if sections.get(sid, {}).get("text"):
                out += [sections[sid]["text"].strip(), ""]
            for rule in self.spec.rules.values():
                if (rule.section or "other") == sid:
                    out += self.rule(rule)
        return "\n".join(out)

    def rule(self, rule) -> list[str]:
        if not rule.text.strip() or not rule.title.strip():
            raise DocsError(self.spec.path_of("rules"), rule.id, "a rule needs a title and text to be shown in the rulebook")
        out = [f"### {escape(rule.title)} {{#{rule.anchor}}}", "", rule.text, ""]
        out += [f"`{rule.id}` · source: {escape(rule.source)} · {CHECKED.get(rule.checked, rule.checked)}", ""]
        if rule.reading:
            out += ['!!! note "How we read it"', "", *("    " + line for line in rule.reading.splitlines()), ""]
        if rule.reads:
            out += ["Reads " + ", ".join(self.link(a) for a in rule.reads) + ".", ""]
        relied = [f"[`{p.address}`](verify.md#{verify_anchor(p)}) ({p.status})" for p in self.spec.relied_on([rule.id])]
        if len(relied) > MAX_LISTED:
            relied[MAX_LISTED - 1 :] = [f"and {len(relied) - MAX_LISTED + 1} more on the [verify page](verify.md)"]
        if relied:
            out += ["Relies on values to verify: " + ", ".join(relied) + ".", ""]
        return out

    def variant_files(self) -> list[Path]:
        return sorted((self.spec.directory / "variants").glob("*.yaml"))

    def variants_page(self) -> str:
        out = [
            f"# Variants of {self.title}",
            "",
            f"A variant is an overlay file in `{self.where('game').rsplit('/', 1)[0]}/variants/`. It is merged over the spec "
            "(mappings key by key, anything else replaced) and validated again. A record selects it with a "
            "`[Variant \"name\"]` header tag, or `--variant name` selects it on the command line. An overlay file of "
            "your own is given by its path, and only on the command line (`--variant my-rules.yaml`): a record names "
            "variants by name, so that reading a record never opens other files.",
            "",
        ]
        if not self.variant_files():
            return "\n".join(out + [f"No variants of {self.title} are defined yet.", ""])
        for path in self.variant_files():
            vspec = load_spec(self.game, (path.stem,), root=self.spec.directory.parent)
            variant = vspec.variants[-1]
            after = GamePages(vspec, self.data)
            after.verify_links = False
            out += [f"## {escape(variant.title)} {{#variant-{slug(path.stem)}}}", ""]
            if variant.description:
                out += [variant.description.strip(), ""]
            out += [f"Select it with `[Variant \"{path.stem}\"]` or `--variant {path.stem}`. File: `{self.where_path(path)}`.", ""]
            rows = []
            for stem, key in overlay_leaves(variant.changes, self.spec):
                address = f"{stem}:{dotted(key)}"
                before = self.cell(self.spec.get(address), stem, key) if self.spec.has(address) else "*(not set)*"
                rows.append([f"`{stem}`", f"`{dotted(key)}`", before, after.cell(vspec.get(address), stem, key)])
            out.append(table(["File", "Key", "Before", "After"], rows))
        return "\n".join(out)

    def where_path(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.data.resolve()).as_posix()
        except ValueError:
            return path.as_posix()

    def verify_page(self) -> str:
        uncertain = list(iter_uncertain(self.spec))
        readers: dict[str, list] = {}
        for rule in self.spec.rules.values():
            for p in self.spec.relied_on([rule.id]):
                readers.setdefault(p.address, []).append(rule)
        out = [
            f"# Verify with your box: {self.title}",
            "",
            f"The spec of {self.title} holds {count(len(uncertain), 'value')} that no source gives for certain. Each is listed "
            "with its spec file and key, the value the referee uses now, where it came from and the rules that read it.",
            "",
            "If your box shows a value, write it into the spec file at that key in place of the whole "
            "`{value: …, provenance: …, note: …}` entry, then run `referee validate`; the referee uses it from then on, "
            "with no change to any program. To keep the original, put the value in a variant overlay instead.",
            "",
        ]
        if not uncertain:
            return "\n".join(out + [f"Every value in the spec of {self.title} is certain.", ""])
        out.append(table(["Status", "Values", "What the referee does"], [
            [f"[{status}](#{status})", str(sum(p.status == status for p in uncertain)), STATUS_MEANING[status]]
            for status in STATUS_ORDER if any(p.status == status for p in uncertain)
        ]))
        for status in STATUS_ORDER:
            group = [p for p in uncertain if p.status == status]
            if not group:
                continue
            out += [f"## {status.capitalize()} {{#{status}}}", "", STATUS_MEANING[status], ""]
            rows = []
            for p in group:
                shown = self.link(p.address).replace(f"`{p.address}`", "the tables")
                if p.status == "unknown":
                    used = "nothing: *not known*"
                elif table_like(p.value):
                    used = f"the values in {shown}"
                else:
                    used = self.inline(p.value, p.file, tuple(p.key.split(".")))
                note = escape(p.note) + (f" (source: {escape(p.source)})" if p.source else "")
                rules = ", ".join(f"[{r.anchor}](rules.md#{r.anchor})" for r in readers.get(p.address, [])) or "no rule reads it"
                where = f'<span id="{verify_anchor(p)}"></span>`{self.where(p.file)}`<br>key `{p.key}`'
                rows.append([where, used, note, rules])
            out.append(table(["Spec file and key", "Used now", "Where it comes from", "Rules that read it"], rows))
        return "\n".join(out)

    def examples(self) -> list[Path]:
        return sorted((self.spec.directory / "examples").glob("*.log"))

    def notation_page(self) -> str:
        grammar = self.data / "grammar" / f"{self.game}.lark"
        common = self.data / "grammar" / "common.lark"
        out = [
            f"# Notation for {self.title}",
            "",
            f"A record of {self.title} is a UTF-8 text file: header tags, then one move per line. Header tags, move "
            "numbers, checkpoints, the result line and comments work the same in every game; the "
            "[notation page](../notation.md) explains them. This page shows the moves of "
            f"{self.title} and complete records.",
            "",
            "## Moves {#moves}",
            "",
        ]
        if grammar.is_file():
            out += comment_block(grammar.read_text(encoding="utf-8"))
        else:
            out += [f"There is no grammar for {self.title} yet (`grammar/{self.game}.lark`), so its records cannot be read.", ""]
        out += ["## Complete examples {#examples}", ""]
        if not self.examples():
            out += [f"No example records of {self.title} are bundled yet.", ""]
        for path in self.examples():
            text = path.read_text(encoding="utf-8")
            about = " ".join(line.lstrip("#").strip() for line in itertools.takewhile(lambda line: line.startswith("#"), text.splitlines()))
            out += [
                f"### {path.name} {{#example-{slug(path.stem)}}}",
                "",
                *([escape(about), ""] if about else []),
                f"Check it with `referee check {self.where_path(path)}`.",
                "",
                f'??? example "{path.name}: {len(text.splitlines())} lines"',
                "",
                *("    " + line for line in fenced(text, "text")),
                "",
            ]
        out += ["## Grammar {#grammar}", "", "The exact grammar (Lark) that reads these records: the shared part, then this game's moves.", ""]
        for path in (common, grammar):
            if path.is_file():
                out += [f'??? note "grammar/{path.name}"', "", *("    " + line for line in fenced(path.read_text(encoding="utf-8"), "text")), ""]
        return "\n".join(out)


# --- per-kind touches ------------------------------------------------------------------


def deck_by_season(pages: GamePages, stem: str, data: dict) -> list[str]:
    """The Speicherstadt's draw pile: how many cards of each type every season stack holds."""
    seasons = data["seasons"]
    ids = [s["id"] for s in seasons]
    rows, totals = [], dict.fromkeys(ids, 0)
    for key, card in data["types"].items():
        counts = card.get("counts") or {}
        for sid in ids:
            totals[sid] += counts.get(sid, 0)
        name = f"[{escape(card['names']['en'])}](#{slug(stem, 'types', key)})"
        rows.append([name, *(str(counts[sid]) if sid in counts else "" for sid in ids), str(sum(counts.values()))])
    rows.append(["**Cards counted**", *(f"**{totals[sid]}**" for sid in ids), f"**{sum(totals.values())}**"])
    rows.append(["Cards in the stack", *(pages.cell(s.get("cards"), stem, ("seasons", i, "cards")) for i, s in enumerate(seasons)), pages.cell(data.get("deck"), stem, ("deck",))])
    header = ["Card", *(f"{s['id']}: {escape(s['names']['en'])}" for s in seasons), "Total"]
    return [
        "### The deck by season {#cards-deck-by-season}",
        "",
        "The draw pile is built from the season stacks, the first season on top. A card type's row says how many "
        "copies each stack holds.",
        "",
        table(header, rows),
    ]


TOUCHES = {"speicherstadt/cards": deck_by_season}


# --- small pieces ----------------------------------------------------------------------


def verify_anchor(p: Provenance) -> str:
    return slug("value", p.file, p.key)


def link_or_text(where: str) -> str:
    return f"<{where}>" if re.match(r"https?://", where) else f"`{escape(where)}`"


def overlay_leaves(changes: dict, base: Spec):
    """(file stem, key path) of every value a variant sets, as deep as the base spec has mappings."""

    def walk(stem: str, node: Any, path: tuple):
        address = f"{stem}:{dotted(path)}"
        opens = not path or (base.has(address) and isinstance(base.get(address), dict))
        if opens and isinstance(node, dict) and node and not ("provenance" in node and "value" in node):
            for k, v in node.items():
                if path or k != "kind":
                    yield from walk(stem, v, path + (k,))
        else:
            yield stem, path

    for stem, overlay in changes.items():
        yield from walk(stem, overlay, ())


def fenced(text: str, lang: str) -> list[str]:
    fence = "`" * max(3, max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    return [fence + lang, *text.rstrip("\n").splitlines(), fence]


def comment_block(grammar: str) -> list[str]:
    """The leading `//` comments of a grammar: prose as paragraphs, indented lines as code."""
    lines = []
    for line in grammar.splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:][1:] if line[2:3] == " " else line[2:])
    out: list[str] = []
    code: list[str] = []
    for line in lines + ["end"]:
        if line.startswith("  ") or (code and not line.strip()):
            code.append(line[2:])
            continue
        if code:
            while not code[-1].strip():
                code.pop()
            out += [*fenced("\n".join(code), "text"), ""]
            code = []
        if line != "end" or out[-1:] != [""]:
            out.append(escape(line) if line.strip() and line != "end" else "")
    return out


# --- the command line -------------------------------------------------------------------


ARGUMENTS = {"FILE": "a game record; `-` reads it from standard input"}  # arguments the parser does not explain


def sentence(text: str) -> str:
    text = escape(text)
    return text[:1].upper() + text[1:] + ("" if not text or text.endswith(".") else ".")


def render_cli() -> str:
    """The command-line reference, from the `referee` command's own argument parser."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help for a in commands._choices_actions}
    known = {}  # an option's help where one subcommand explains it, for the others
    for sub in commands.choices.values():
        for action in sub._actions:
            if action.help and action.help != argparse.SUPPRESS:
                known.setdefault(action.dest, action.help)
    out = ["# Command line", "", escape(parser.description or ""), ""]
    out.append(table(["Command", "Does"], [[f"[`referee {name}`](#{name})", escape(helps.get(name) or "")] for name in commands.choices]))
    for name, sub in commands.choices.items():
        out += [f"## referee {name} {{#{name}}}", "", sentence(helps.get(name) or ""), ""]
        out += [*fenced(sub.format_usage().strip(), "text"), ""]
        rows = []
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            label = ", ".join(action.option_strings)
            metavar = action.metavar or (action.dest.upper() if not action.option_strings else None)
            if action.nargs != 0 and metavar:
                label = f"{label} {metavar}".strip()
            meaning = [sentence(action.help or known.get(action.dest) or ARGUMENTS.get(metavar or "", ""))]
            if action.choices:
                meaning.append(f"One of {', '.join(f'`{c}`' for c in action.choices)}.")
            if action.default not in (None, False, [], argparse.SUPPRESS):
                meaning.append(f"Default: `{action.default}`.")
            rows.append([f"`{label}`", " ".join(m for m in meaning if m)])
        if rows:
            out.append(table(["Argument", "Meaning"], rows))
    out += ["## Exit codes {#exit-codes}", "", *fenced(EPILOG, "text"), ""]
    return "\n".join(out)
