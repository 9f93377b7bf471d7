"""Spec values as Markdown tables, and the game's "Components and tables" page.

Spec files have free structure, so tables are rendered generically: a mapping
of entries becomes a table with a row per entry, a list of mappings a table
with a row per item, a small mapping or list a single cell. A value that is
less than certain carries a link to the verify page. Data that cannot be laid
out as tables stops the build with a `DocsError`.

`GamePages` holds one game's spec and the anchors of its tables, which the
other pages link to; every page module renders from it.
"""

from __future__ import annotations

import datetime
import itertools
import json
from pathlib import Path
from typing import Any

from referee.i18n import _, current
from referee.site.markdown import (
    LANGS,
    MAX_INLINE_ITEMS,
    DocsError,
    dotted,
    entry_title,
    escape,
    flatten,
    human,
    is_entries,
    is_names,
    is_scalar,
    key_header,
    names_line,
    names_of,
    page_file,
    slug,
    table,
    table_like,
    verify_anchor,
    words,
)
from referee.spec.loader import Spec, read_spec_text

GAME_KEYS = {"kind", "id", "names", "designer", "publisher", "players", "colours", "summary", "sources", "phases", "turn"}
MAX_TABLE_COLUMNS = 10  # entries with more fields than this get a small table each instead of one wide table
GRID_WIDTH = 10  # long lists of numbers are shown ten to a row


class GamePages:
    """The pages of one game, rendered from its spec."""

    def __init__(self, spec: Spec, data: Path):
        self.spec = spec
        self.data = data
        self.game = spec.game
        self.title = spec.meta["names"]["en"]
        self.anchors: dict[str, str] = {}  # "file:key" -> anchor on the tables page
        self.verify_links = True  # False for a variant's values, which the verify page does not list

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
        return f" <sup>[{p.status}]({page_file('verify')}#{verify_anchor(p)})</sup>" if self.verify_links else f" <sup>{p.status}</sup>"

    def cell(self, value: Any, stem: str, path: tuple) -> str:
        """A value as the text of one table cell."""
        return self.inline(value, stem, path) + self.mark(stem, path)

    def inline(self, value: Any, stem: str, path: tuple) -> str:
        if value is None:
            return "*" + _("not known") + "*"
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if isinstance(value, datetime.date):
            return value.isoformat()
        if isinstance(value, (int, float, str)):
            return escape(value)
        if isinstance(value, list):
            if not value:
                return _("none")
            sep = "; " if any(isinstance(v, (dict, list)) for v in value) else ", "
            return sep.join(self.cell(v, stem, path + (i,)) for i, v in enumerate(value))
        if isinstance(value, dict):
            if names_of(value):
                return escape(self.named(names_of(value)))
            if not value:
                return _("none")
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
            status, verify = _("{status} data:").format(status=p.status.capitalize()), _("Verify")
            out += [f"*{status}* {escape(p.note)} [{verify}]({page_file('verify')}#{verify_anchor(p)}).", ""]
        if ident is not None:
            out += [_("Id") + f": `{ident}`", ""]
        return out + self.body(node, stem, path, level)

    def body(self, node: Any, stem: str, path: tuple, level: int) -> list[str]:
        if isinstance(node, dict):
            out = [names_line(node["names"]), ""] if is_names(node.get("names")) else []
            items = {k: v for k, v in node.items() if k != "kind" and not (k == "names" and out)}
            if not items:
                return out or ["*(" + _("empty") + ")*", ""]
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
            out.append(table(["", _("Value")], [[human(k), self.cell(v, stem, path + (k,))] for k, v in small.items()]))
        for k, v in items.items():
            if k not in small:
                out += self.block(v, stem, path + (k,), level + 1, self.entry_title(v) or human(k))
        return out

    def entries(self, entries: list[tuple], stem: str, path: tuple, level: int, listed: bool) -> list[str]:
        """Mappings side by side: a row each, or a small table each when they do not fit in one table."""
        entries = [(key, {"names": e} if is_names(e) else e) for key, e in entries]
        flat = {key: flatten(entry) for key, entry in entries}
        langs = [lang for lang in LANGS if any(names_of(e).get(lang) for _key, e in entries)]  # columns with a name in them
        by_id = listed and all(is_scalar(e.get("id")) and e.get("id") is not None for _key, e in entries)
        columns: list[tuple] = []
        for leaves, _opened in flat.values():
            columns += [c for c in leaves if c not in columns and not (by_id and c == ("id",))]
        # fields that few entries have share one column
        rare = [c for c in columns if len(entries) >= 4 and 4 * sum(c in leaves for leaves, _opened in flat.values()) < len(entries)]
        main = [c for c in columns if c not in rare]
        nested = any(table_like(v) for leaves, _opened in flat.values() for v in leaves.values())
        if nested or len(main) + bool(rare) > MAX_TABLE_COLUMNS:
            out = []
            for key, entry in entries:
                if listed:  # the third of the faces, ...
                    title = f"{human(path[-1] if path else stem)} {key + 1}"
                else:  # a card type, a player count
                    title = human(key) if key_header(path) == "Id" else f"{self.key_header(path)}: {key}"
                out += self.block(entry, stem, path + (key,), level + 1, self.entry_title(entry) or title, None if listed else key)
            return out
        keyed = not listed or by_id
        header = [self.key_header(path)] if keyed else []
        header += [_(LANGS[lang]).capitalize() for lang in langs]
        header += [" › ".join(human(k) for k in c) for c in main] + ([_("Other")] if rare else [])
        if not header:  # mappings with nothing in them
            return [_("none"), ""]
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
            return table(["", _("Value")], [[escape(k), self.cell(items[k], stem, path + (k,))] for k in keys])
        rows = []
        for start in range(keys[0], keys[-1] + 1, GRID_WIDTH):
            row = [self.cell(items[k], stem, path + (k,)) if k in items else "" for k in range(start, start + GRID_WIDTH)]
            rows.append([f"**{start}**"] + row)
        return table([""] + [f"+{i}" for i in range(GRID_WIDTH)], rows)

    def table_stems(self) -> list[str]:
        """Spec files shown on the tables page: components and setup first, then scoring, then how `referee play` plays."""
        order = ["components", "setup", "*", "scoring", "play"]
        # figures: on the notation page; rules.<lang>: on the rules pages in that language
        stems = [s for s in self.spec.files if s not in ("game", "rules", "figures") and not s.startswith("rules.")]
        return sorted(stems, key=lambda s: (order.index(s if s in order else "*"), s))

    def about(self, kind: str) -> str:
        """What a kind of spec file holds, from its schema's title ("The Speicherstadt: setup by player count")."""
        path = self.spec.directory.parent / "schema" / f"{kind}.schema.json"
        title = json.loads(read_spec_text(path)).get("title", "") if path.is_file() else ""
        return title.split(": ", 1)[-1]

    def link(self, address: str) -> str:
        """A spec address as a link to the closest table that shows it."""
        stem, _colon, key = address.partition(":")
        parts = key.split(".") if key else []
        if "*" in parts:
            parts = parts[: parts.index("*")]
        text = f"`{address}`"
        if stem == "game":
            return f"[{text}]({page_file('index')})"
        while True:
            anchor = self.anchors.get(f"{stem}:{'.'.join(parts)}")
            if anchor:
                return f"[{text}]({page_file('tables')}#{anchor})"
            if not parts:
                return text
            parts.pop()

    def rule_groups(self) -> list[tuple[str, str]]:
        """(section id, title) of every group of rules, in the order of rules.yaml."""
        declared = [(s["id"], s["title"]) for s in self.spec.files["rules"].get("sections", [])]
        used = list(dict.fromkeys(r.section or "other" for r in self.spec.rules.values()))
        groups = [(sid, title) for sid, title in declared if sid in used]
        return groups + [(sid, "Other rules" if sid == "other" else human(sid)) for sid in used if sid not in dict(declared)]

    # --- words in the language in use -----------------------------------------------------

    def texts(self) -> dict:
        """The game's rule texts in the language in use (rules.<lang>.yaml); none in English."""
        return (self.spec.files.get(f"rules.{current()}") or {}) if current() != "en" else {}

    def name(self) -> str:
        """The game's name in the language in use."""
        return self.spec.meta["names"].get(current()) or self.title

    def named(self, names: dict) -> str:
        """A thing's name in the language in use, else its English name."""
        return names.get(current()) or names.get("en", "")

    def words(self, key: str, english: str) -> str:
        """A text of game.yaml (its summary, its turn) in the language in use, where the rule
        texts of that language give it; else the English."""
        return self.texts().get(key) or english

    def group_title(self, sid: str, english: str) -> str:
        """A group of rules' title in the language in use."""
        if sid == "other" and english == "Other rules":
            return _("Other rules")
        return ((self.texts().get("sections") or {}).get(sid) or {}).get("title") or english

    def rule_title(self, rule) -> str:
        """A rule's title in the language in use, else the English."""
        return (rule.words(current()) or (rule.title, rule.text))[0]

    def entry_title(self, value: Any) -> str | None:
        """A heading for one entry: its name in the language in use, or its id or title."""
        names = names_of(value)
        if names.get(current()) and names.get("en"):
            return human(names[current()]) if current() != "en" else entry_title(value)
        return entry_title(value)

    @staticmethod
    def key_header(path: tuple) -> str:
        header = key_header(path)
        return _("Id") if header == "Id" else header

    def variant_files(self) -> list[Path]:
        return sorted((self.spec.directory / "variants").glob("*.yaml"))

    def where_path(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.data.resolve()).as_posix()
        except ValueError:
            return path.as_posix()

    def examples(self) -> list[Path]:
        return sorted((self.spec.directory / "examples").glob("*.log"))

    @staticmethod
    def example_about(text: str) -> str:
        """What an example record is about: its leading comment lines, joined."""
        return " ".join(line.lstrip("#").strip() for line in itertools.takewhile(lambda line: line.startswith("#"), text.splitlines()))


def render(doc: GamePages) -> str:
    game = escape(doc.name())
    out = [
        "# " + _("{game}: components and tables").format(game=game),
        "",
        _(
            "Every number below is read from the spec files of {game} when the site is built. "
            "A value marked *likely*, *guess*, *provisional* or *unknown* is less than certain; "
            "its link leads to the page that says where it came from."
        ).format(game=game),
        "",
    ]
    if current() != "en":
        out += [_("The spec's keys (the row and column names) are written as in the spec files, in English, in every language."), ""]
    extra = {k: v for k, v in doc.spec.meta.items() if k not in GAME_KEYS}
    if extra:
        out += file_section(doc, "game", extra, _("Game"))
    for stem in doc.table_stems():
        out += file_section(doc, stem, doc.spec.files[stem], human(stem))
    return "\n".join(out)


def file_section(doc: GamePages, stem: str, data: dict, title: str) -> list[str]:
    doc.anchors[f"{stem}:"] = slug(stem)
    about = doc.about(str(data.get("kind", ""))) if current() == "en" else ""  # a schema's title is English
    where = f"`{doc.where(stem)}`"
    came = _("From {file}: {about}.").format(file=where, about=escape(about)) if about else _("From {file}.").format(file=where)
    out = [f"## {title} {{#{slug(stem)}}}", "", came, ""]
    out += doc.body(data, stem, (), 2)
    touch = TOUCHES.get(str(data.get("kind")))
    return out + (touch(doc, stem, data) if touch else [])


def deck_by_season(doc: GamePages, stem: str, data: dict) -> list[str]:
    """The Speicherstadt's draw pile: how many cards of each type every season stack holds."""
    seasons = data["seasons"]
    ids = [s["id"] for s in seasons]
    rows, totals = [], dict.fromkeys(ids, 0)
    for key, card in data["types"].items():
        counts = card.get("counts") or {}
        for sid in ids:
            totals[sid] += counts.get(sid, 0)
        name = f"[{escape(doc.named(card['names']))}](#{slug(stem, 'types', key)})"
        rows.append([name, *(str(counts[sid]) if sid in counts else "" for sid in ids), str(sum(counts.values()))])
    counted = _("Cards counted")
    rows.append([f"**{counted}**", *(f"**{totals[sid]}**" for sid in ids), f"**{sum(totals.values())}**"])
    rows.append([_("Cards in the stack"), *(doc.cell(s.get("cards"), stem, ("seasons", i, "cards")) for i, s in enumerate(seasons)), doc.cell(data.get("deck"), stem, ("deck",))])
    header = [_("Card"), *(f"{s['id']}: {escape(doc.named(s['names']))}" for s in seasons), _("Total")]
    return [
        "### " + _("The deck by season") + " {#cards-deck-by-season}",
        "",
        _("The draw pile is built from the season stacks, the first season on top. A card type's row says how many copies each stack holds."),
        "",
        table(header, rows),
    ]


TOUCHES = {"speicherstadt/cards": deck_by_season}
