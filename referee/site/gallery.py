"""A game's component gallery: its cards, structures, houses and tokens as tiles to recognise.

The groups are listed in the game's picture.yaml (`gallery`: a title and the spec entries, as
`file:key`). Each entry is drawn as a small tile from its spec data: its English name, its
colour where the spec gives one, and its figures; beside the tile stand its names in English,
German and Hungarian. A figure no source confirms is marked: a provisional one is a stand-in
(drawn with the picture's `?` and named a stand-in under the tile), a likely or guessed one is
named uncertain; each links to the verify page that says where it came from.
"""

from __future__ import annotations

import html

from referee.drawing import svg
from referee.i18n import _, current
from referee.site.markdown import LANGS, DocsError, escape, flatten, page_file, slug, verify_anchor, words
from referee.site.tables import GamePages
from referee.spec.loader import Provenance

TILE = 220  # the tile's width in drawing units
LINE = 16  # the height of one line of figures
HEAD = 34  # the height of the name band
VALUES = 100  # where a figure's value starts on the tile
CUT = 16  # characters of a value drawn on the tile; the caption and the alt text have it whole
MAX_FIGURES = 8  # figures drawn on a tile; the rest are listed under it
SKIPPED = {"aliases", "note", "id"}  # spec keys that are no printed figure


def groups(doc: GamePages) -> list[dict]:
    return list(doc.spec.files["picture"].get("gallery", []))


def entries(doc: GamePages, address: str) -> list[tuple[str, str, dict]]:
    """(id, key, entry) of every named entry at `file:key`, a mapping of entries or a list with
    ids; `key` is the entry's own key in its file (a list's entries are keyed by position)."""
    stem, _, key = address.partition(":")
    node = doc.spec.files.get(stem)
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    if isinstance(node, dict):
        found = [(str(k), f"{key}.{k}", v) for k, v in node.items() if isinstance(v, dict) and "names" in v]
    elif isinstance(node, list):
        found = [(str(v.get("id", i)), f"{key}.{i}", v) for i, v in enumerate(node) if isinstance(v, dict) and "names" in v]
    else:
        found = []
    if not found:
        raise DocsError(doc.spec.path_of("picture"), f"gallery: {address}", "the gallery needs named entries there (each with names)")
    return found


def uncertain(doc: GamePages, address: str, base: str) -> dict[tuple, Provenance]:
    """The figures of the entry at `base` (its key in the file) that rest on less than certain
    values, by key path inside the entry."""
    stem = address.partition(":")[0]
    out: dict[tuple, Provenance] = {}
    for p in doc.spec.provenance.values():
        if p.file == stem and (p.key == base or p.key.startswith(base + ".")):
            rest = p.key[len(base) + 1 :]
            out[tuple(rest.split(".")) if rest else ()] = p
    return out


def figures(entry: dict) -> list[tuple[tuple, object]]:
    leaves, _ = flatten(entry)
    return [(path, value) for path, value in leaves.items() if path[-1] not in SKIPPED and path[0] not in SKIPPED and value is not None]


def shown(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(shown(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {shown(v)}" for k, v in value.items())
    return str(value)


def rests_on(path: tuple, marks: dict[tuple, Provenance]) -> Provenance | None:
    """The provenance a figure rests on: its own, or that of an entry around it."""
    for n in range(len(path), -1, -1):
        if path[:n] in marks:
            return marks[path[:n]]
    return None


def tile(doc: GamePages, title: str, entry: dict, marks: dict[tuple, Provenance]) -> str:
    """The SVG tile of one component."""
    name = entry["names"].get("en") or next(iter(entry["names"].values()))
    items = figures(entry)[:MAX_FIGURES]
    height = HEAD + LINE * len(items) + 4
    d = svg.Drawing(TILE, height, f"{title}: {name}")
    g = d.part("tile")
    colour = entry.get("colour")
    band = svg.paint(colour) if isinstance(colour, str) else None
    svg.rect(g, 1, 1, TILE - 2, height - 2, fill="#ffffff", stroke="#555555", rx=8)
    svg.rect(g, 1, 1, TILE - 2, HEAD - 6, fill=band.fill if band else "#ece7dc", stroke=None, rx=8)
    svg.text(g, 10, 22, name, size=14, weight="bold", fill=band.ink if band else "#1f1f1f", limit=26)
    y = HEAD + 8
    for path, value in items:
        mark = rests_on(path, marks)
        words_of = shown(value)
        svg.text(g, 10, y, words(".".join(str(p) for p in path)), size=11, fill="#555555", limit=15)
        svg.figure(g, VALUES, y, words_of if len(words_of) <= CUT else words_of[: CUT - 1] + "…", provisional_value=mark is not None and mark.status == "provisional", size=11, weight="bold")
        y += LINE
    return d.tostring()


def picture_path(doc: GamePages, group: dict, ident: str) -> str:
    return f"gallery/{slug(group['from'].split(':', 1)[1].split('.')[-1], ident)}.svg"


def render(doc: GamePages) -> str:
    """The gallery in the language in use: the tiles are drawn once, with English names; each
    caption gives the component's names in every language."""
    title = escape(doc.name())
    out = [
        "# " + _("{game}: the components").format(game=title),
        "",
        _(
            "The pieces of {game} as the spec describes them, to find each one by its name on any edition's box: "
            "every tile is drawn from the spec data, with its English, German and Hungarian names and its figures. "
            "A figure that no source confirms is marked: a **stand-in** is a reasoned value that the referee uses until "
            "you check it against your box, and an *uncertain* one is likely but not confirmed; the "
            "[verify page]({verify}) says where each came from."
        ).format(game=title, verify=page_file("verify")),
        "",
    ]
    if current() != "en":
        out += [_("The tiles, the groups' titles and the figures' names are written in English, as the spec names them."), ""]
    if not groups(doc):
        return "\n".join(out + [_("No gallery is listed for {game} yet (picture.yaml, `gallery`).").format(game=title), ""])
    for group in groups(doc):
        out += [f"## {escape(group['title'])} {{#gallery-{slug(group['title'])}}}", ""]
        if group.get("about"):
            out += [escape(group["about"]), ""]
        out += ['<div class="component-gallery">']
        for ident, key, entry in entries(doc, group["from"]):
            out += component(doc, group, ident, entry, uncertain(doc, group["from"], key))
        out += ["</div>", ""]
    return "\n".join(out)


def component(doc: GamePages, group: dict, ident: str, entry: dict, marks: dict[tuple, Provenance]) -> list[str]:
    """One component as a figure: its tile and its names, with its marks."""
    names = entry["names"]
    name = names.get("en") or next(iter(names.values()))
    every = figures(entry)
    alt = f"{group['title']}: {name}. " + "; ".join(f"{words('.'.join(map(str, p)))} {shown(v)}" for p, v in every[:MAX_FIGURES])
    lines = [f"<strong>{html.escape(name)}</strong> <code>{html.escape(ident)}</code>"]
    not_given = "<em>" + html.escape(_("not given yet")) + "</em>"
    lines += [f"{html.escape(label(lang))}: {html.escape(names[lang]) if names.get(lang) else not_given}" for lang in ("de", "hu")]
    stand_ins = sorted({p.address: p for p in marks.values() if p.status == "provisional"}.values(), key=lambda p: p.address)
    doubtful = sorted({p.address: p for p in marks.values() if p.status != "provisional"}.values(), key=lambda p: p.address)
    verify = "verify.html"  # raw HTML, left as written: each language's site has its own verify.html
    stand_in, unsure = html.escape(_("stand-in")), html.escape(_("uncertain"))
    if stand_ins:
        lines.append(f'<span class="stand-in">{stand_in}</span> ' + ", ".join(f'<a href="{verify}#{verify_anchor(p)}">{html.escape(p.key.rsplit(".", 1)[-1])}</a>' for p in stand_ins))
    if doubtful:
        lines.append(f"<em>{unsure}</em>: " + ", ".join(f'<a href="{verify}#{verify_anchor(p)}">{html.escape(p.key.rsplit(".", 1)[-1])}</a> ({html.escape(p.status)})' for p in doubtful))
    rest = every[MAX_FIGURES:]
    if rest:
        lines.append(html.escape(_("also:")) + " " + html.escape("; ".join(f"{words('.'.join(map(str, p)))} {shown(v)}" for p, v in rest)))
    anchor = f"component-{slug(group['from'].split(':', 1)[1].split('.')[-1], ident)}"
    return [
        f'<figure class="component" id="{anchor}">',
        f'<img src="{picture_path(doc, group, ident)}" alt="{html.escape(alt)}" loading="lazy" width="{TILE}">',
        "<figcaption>" + "<br>".join(lines) + "</figcaption>",
        "</figure>",
    ]


def label(lang: str) -> str:
    """A language's name as a caption names it: German, Deutsch, német (English keeps its capital)."""
    return LANGS[lang] if current() == "en" else _(LANGS[lang]).capitalize()


def files(doc: GamePages) -> list[tuple[str, str]]:
    """(path, text) of every tile of the gallery, relative to the site."""
    out = []
    for group in groups(doc):
        for ident, key, entry in entries(doc, group["from"]):
            out.append((f"{doc.game}/{picture_path(doc, group, ident)}", tile(doc, group["title"], entry, uncertain(doc, group["from"], key))))
    return out
