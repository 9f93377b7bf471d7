"""SVG pictures: the shared pieces every game's picture is drawn with, and the score chart.

A picture is built as an element tree (`xml.etree.ElementTree`) and returned as a string,
so that it is well-formed XML whatever a record or a spec holds: every piece of text goes in
as an element's text, escaped by the serializer, after `terminal.visible` has written any
control character (which XML 1.0 cannot hold) as a visible escape. The root has a `viewBox`
and a width of 100%, so a picture scales to the width of a phone or of a page.

A `Drawing` keeps its top-level groups apart (`parts`): the replay page stores each distinct
group once and rebuilds a position from the groups it is made of, which keeps a long game's
page small, since most groups do not change from one move to the next.

Colours come from the specs: a game names its players' colours (game.yaml) and its goods'
colours (components), and `specs/common/colours.yaml` says how each name is painted.

The score chart is drawn here too, as plain SVG (`line_chart`). A charting library was
considered: the well-kept JavaScript ones draw on a canvas at view time, so the page would
have to carry a script of tens of kilobytes, and the chart would be neither parseable XML for
the tests nor visible without scripts; the Python ones either fetch their scripts from the
network when the chart is opened or bring a plotting stack many times the size of this
package. A step chart of a few whole numbers per round needs neither: a few dozen lines here.
"""

from __future__ import annotations

import functools
import math
import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from referee.i18n import _
from referee.spec.loader import on_forget, read_yaml, specs_root, validate_against_schema
from referee.terminal import visible

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
INK = "#1f1f1f"  # text on the page
MUTED = "#6b6b6b"  # secondary text
LINE = "#9a9a9a"  # outlines
PAPER = "#ffffff"
PANEL = "#f4f1ea"  # the background of a box of figures
HIGHLIGHT = "#d9480f"  # what the game waits for
PROVISIONAL = "#b35c00"  # the mark of a value that rests on a stand-in
FAINT = "#d8d8d8"  # an empty place: a building space, a berth, a slot
# Font sizes, from a picture's title down to the smallest label.
TITLE, BODY, LABEL, SMALL, TINY, MICRO = 14, 12, 11, 10, 9, 8
PAD = 6  # the space inside a box before its text
RADIUS = 4  # the rounding of a box's corners
FADED = "0.25"  # the opacity of a piece that has had its turn (a worker who passed)
CHAR = 0.6  # a character's width, as a share of the font size (for cutting text to fit)


class Layout:
    """A game's drawing sizes, read from its spec file `picture.yaml` as attributes
    (`layout.display.space`): a game's picture module holds no numbers of its own."""

    def __init__(self, data: dict):
        self._data = data

    def __getattr__(self, key: str):
        try:
            value = self._data[key]
        except KeyError:
            raise AttributeError(key) from None
        return Layout(value) if isinstance(value, dict) else value


def fit(width: float, size: float = SMALL) -> int:
    """How many characters of a font size fit in a width."""
    return max(1, int(width / (size * CHAR)))


def middle(start: float, length: float) -> float:
    """The middle of a stretch."""
    return start + half(length)


def half(length: float) -> float:
    return length / 2


def inside(width: float, margin: float) -> float:
    """The width left between two margins."""
    return width - 2 * margin


def fade(node: ET.Element) -> ET.Element:
    node.set("fill-opacity", FADED)
    return node


# --- colours from the spec ------------------------------------------------------------


@dataclass(frozen=True)
class Paint:
    """How a colour is painted: its fill, and the ink that reads on it."""

    fill: str
    ink: str  # text that reads on the fill
    known: bool = True  # False: the name is not in colours.yaml, drawn in the `unknown` paint


def paint(name: str | None) -> Paint:
    """How a colour named in a spec is painted (specs/common/colours.yaml)."""
    table, unknown = _colours_for(os.environ.get("REFEREE_DATA"))
    if name and name.lower() in table:
        return table[name.lower()]
    return unknown


@functools.cache
def _colours_for(data: str | None) -> tuple[dict[str, Paint], Paint]:
    """The colours of a data root, looked up once per root (a picture asks for hundreds)."""
    return colours_of(str(specs_root()))


@functools.cache
def colours_of(root: str) -> tuple[dict[str, Paint], Paint]:
    path = Path(root) / "common" / "colours.yaml"
    data = read_yaml(path)
    validate_against_schema(data, "colours", path, Path(root))
    table = {name: Paint(p["fill"], p["ink"]) for name, p in data["colours"].items()}
    return table, Paint(data["unknown"]["fill"], data["unknown"]["ink"], known=False)


on_forget(colours_of.cache_clear)  # an edited colours.yaml is read again with the specs
on_forget(_colours_for.cache_clear)


# --- the document ---------------------------------------------------------------------


class Drawing:
    """An SVG document of a given size in user units, drawn into named top-level groups."""

    def __init__(self, width: float, height: float, title: str):
        self.width, self.height = width, height
        self.xs: list[float] = []  # a chart's x of each point of its axis
        self.root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NS,
                "viewBox": f"0 0 {_n(width)} {_n(height)}",
                "width": "100%",
                "role": "img",
                "font-family": FONT,
                "fill": INK,  # text is in ink unless it says otherwise
                "class": "referee-picture",
            },
        )
        self.title = ET.SubElement(self.root, "title")
        self.title.text = visible(title)
        ET.SubElement(self.root, "rect", {"width": "100%", "height": "100%", "fill": PAPER})

    def part(self, name: str) -> ET.Element:
        """A new top-level group: the unit the replay page shares between positions."""
        return ET.SubElement(self.root, "g", {"class": name})

    def resize(self, height: float) -> None:
        """Set the height once the content is known."""
        self.height = height
        self.root.set("viewBox", f"0 0 {_n(self.width)} {_n(height)}")

    def finish(self, bottom: float) -> None:
        """Close the picture at `bottom`: add the key to the provisional mark when one is drawn."""
        if any(node.get("class") == "provisional" for node in self.root.iter()):
            provisional_legend(self.part("legend"), 12, bottom + 14)
            bottom += 20
        self.resize(bottom + 6)

    def tostring(self) -> str:
        opening, parts = self.parts()
        return opening + "".join(parts) + "</svg>"

    def parts(self) -> tuple[str, list[str]]:
        """The root's opening tag, and each top-level element serialized on its own."""
        from xml.sax.saxutils import quoteattr

        attrs = " ".join(f"{k}={quoteattr(xml_safe(v))}" for k, v in self.root.attrib.items())
        return f"<svg {attrs}>", [serialize(child) for child in self.root]


# Characters XML 1.0 cannot hold at all (not even as a reference): what `visible` leaves
# of them (U+FFFE, U+FFFF, lone surrogates) is written as a visible escape, so a picture is
# well-formed whatever a record's names hold.
MAX_LABEL = 120  # characters of any text in a picture (a name from a record may be thousands)
MAX_TIP = 240  # characters of a tooltip
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def serialize(node: ET.Element) -> str:
    """An element as XML. The pictures use elements, attributes and text only (no tails, no
    namespaces but the root's), which this writes several times faster than ElementTree.
    The escapes are imported here, when a picture is written: their module brings urllib,
    email and ssl with it, which every start of `check` would otherwise pay for."""
    from xml.sax.saxutils import escape, quoteattr

    attrs = "".join(f" {k}={quoteattr(xml_safe(v))}" for k, v in node.attrib.items())
    inner = (escape(xml_safe(node.text)) if node.text else "") + "".join(serialize(child) for child in node)
    return f"<{node.tag}{attrs}>{inner}</{node.tag}>" if inner else f"<{node.tag}{attrs}/>"


def _n(value: float) -> str:
    """A coordinate as short text: whole numbers without a decimal point."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _attrs(attrs: dict) -> dict[str, str]:
    """Keyword attributes as SVG spells them: `stroke_width` is `stroke-width`, None is left out."""
    return {k.rstrip("_").replace("_", "-"): (_n(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v)) for k, v in attrs.items() if v is not None}


def element(parent: ET.Element, tag: str, **attrs) -> ET.Element:
    return ET.SubElement(parent, tag, _attrs(attrs))


def group(parent: ET.Element, cls: str | None = None, **attrs) -> ET.Element:
    return element(parent, "g", class_=cls, **attrs)


def rect(parent: ET.Element, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str | None = LINE, **attrs) -> ET.Element:
    return element(parent, "rect", x=x, y=y, width=w, height=h, fill=fill, stroke=stroke, **attrs)


def circle(parent: ET.Element, cx: float, cy: float, r: float, fill: str, stroke: str | None = INK, **attrs) -> ET.Element:
    return element(parent, "circle", cx=cx, cy=cy, r=r, fill=fill, stroke=stroke, **attrs)


def line(parent: ET.Element, x1: float, y1: float, x2: float, y2: float, stroke: str = LINE, **attrs) -> ET.Element:
    return element(parent, "line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, **attrs)


def polyline(parent: ET.Element, points: list[tuple[float, float]], stroke: str, **attrs) -> ET.Element:
    return element(parent, "polyline", points=" ".join(f"{_n(x)},{_n(y)}" for x, y in points), fill="none", stroke=stroke, **attrs)


def polygon(parent: ET.Element, points: list[tuple[float, float]], fill: str, stroke: str | None = INK, **attrs) -> ET.Element:
    return element(parent, "polygon", points=" ".join(f"{_n(x)},{_n(y)}" for x, y in points), fill=fill, stroke=stroke, **attrs)


def text(parent: ET.Element, x: float, y: float, content: object, size: float = 12, anchor: str = "start", fill: str = INK, weight: str | None = None, limit: int | None = None, **attrs) -> ET.Element:
    """Text with its baseline at y. `limit` cuts it to that many characters (with an ellipsis),
    the full text kept as a tooltip (itself cut at MAX_TIP); no text is longer than MAX_LABEL,
    whatever a record names its players."""
    words = visible(str(content))
    limit = MAX_LABEL if limit is None else min(limit, MAX_LABEL)
    node = element(parent, "text", x=x, y=y, font_size=size, text_anchor=None if anchor == "start" else anchor, fill=None if fill == INK else fill, font_weight=weight, **attrs)
    if limit is not None and len(words) > limit:
        node.text = words[: max(1, limit - 1)] + "…"
        tip(node, words)
    else:
        node.text = words
    return node


def final_panel(d: Drawing, lines: list[str]) -> None:
    """The final standings under an ended game's picture: a box with the lines (the first,
    its heading, in bold), the picture made taller to hold it."""
    top = d.height + PAD
    step = BODY + PAD
    g = d.part("final-standings")
    rect(g, PAD, top, d.width - 2 * PAD, step * len(lines) + PAD, fill=PANEL, stroke=LINE, rx=RADIUS)
    fits = int((d.width - 4 * PAD) / (BODY * CHAR))
    for n, words in enumerate(lines):
        text(g, 2 * PAD, top + step * (n + 1), words, size=BODY, weight="bold" if n == 0 else None, limit=fits)
    d.resize(top + step * len(lines) + 2 * PAD)


def tip(node: ET.Element, words: str) -> ET.Element:
    """A tooltip: the element's <title>, shown on hover and read by screen readers."""
    title = ET.SubElement(node, "title")
    words = visible(words)
    title.text = words if len(words) <= MAX_TIP else words[: MAX_TIP - 1] + "…"
    return node


def piece(parent: ET.Element, x: float, y: float, r: float, colour: str | None, label: str | None = None) -> ET.Element:
    """A round piece in a colour named by the spec (a worker, a marker, a disc), named on hover."""
    p = paint(colour)
    node = circle(parent, x, y, r, p.fill, stroke=INK, stroke_width=0.8)
    tip(node, label or colour or "")
    if not p.known and colour:
        text(parent, x, y + r / 3, colour[:1], size=r * 1.2, anchor="middle", fill=p.ink)
    return node


def cube(parent: ET.Element, x: float, y: float, size: float, colour: str | None, label: str | None = None) -> ET.Element:
    """A square piece (a goods cube, a service cube) in a colour named by the spec."""
    p = paint(colour)
    node = rect(parent, x, y, size, size, fill=p.fill, stroke=INK, stroke_width=0.6, rx=size / 6)
    tip(node, label or colour or "")
    return node


def swatch_label(parent: ET.Element, x: float, y: float, colour: str, words: str, size: float = 12, weight: str | None = None, limit: int | None = None) -> float:
    """A player's colour disc followed by their name; returns where the text ends (roughly)."""
    piece(parent, x + size / 2, y - size / 3, size / 2, colour, words)
    text(parent, x + size * 1.4, y, words, size=size, weight=weight, limit=limit)
    return x + size * 1.4 + len(words) * size * 0.55


def provisional(parent: ET.Element, x: float, y: float, size: float = 10) -> ET.Element:
    """The mark of a value that rests on a provisional stand-in (see the rulebook's verify page)."""
    node = text(parent, x, y, "?", size=size, fill=PROVISIONAL, weight="bold", class_="provisional")
    tip(node, _("provisional: this value rests on a stand-in that no source confirms; check it against your box"))
    return node


def figure(parent: ET.Element, x: float, y: float, value: object, provisional_value: bool = False, size: float = 12, anchor: str = "start", weight: str | None = None) -> ET.Element:
    """A number in a table of figures, marked when it rests on a provisional value."""
    node = text(parent, x, y, value, size=size, anchor=anchor, weight=weight)
    if provisional_value:
        offset = 2 if anchor != "end" else -size * 0.1
        width = len(str(value)) * size * 0.6 if anchor == "start" else 0
        provisional(parent, x + width + offset, y - size * 0.35, size * 0.8)
        node.set("class", "provisional-value")
    return node


HEADING = 56  # the height of a picture's first lines


def heading(d: Drawing, title: str, caption: str, situation: str, x: float = 12) -> float:
    """A picture's first lines: the game and the position, then where the game stands.
    Returns where the rest of the picture begins."""
    g = d.part("heading")
    room = d.width - 2 * x
    text(g, x, 20, f"{title} · {caption}", size=TITLE, weight="bold", limit=fit(room, TITLE))
    text(g, x, 40, situation, size=BODY, fill=HIGHLIGHT, limit=fit(room, BODY))
    return HEADING


def player_band(g: ET.Element, x: float, y: float, width: float, height: float, colour: str, label: str, to_act: bool) -> float:
    """A player's band of figures, outlined when they act next; returns the first baseline."""
    rect(g, x, y, width, height, fill=PANEL, stroke=HIGHLIGHT if to_act else "none", rx=RADIUS)
    baseline = y + BODY + RADIUS
    swatch_label(g, x + PAD, baseline, colour, label, weight="bold", limit=18)
    return baseline


def band_notes(g: ET.Element, x: float, y: float, notes: list[str], width: float) -> None:
    """Short notes on a player's band ("to act", "start player")."""
    text(g, x, y, ", ".join(notes), size=SMALL, fill=HIGHLIGHT, limit=fit(width))


def labelled(g: ET.Element, x: float, y: float, label: str, value: object, provisional_value: bool = False, width: float = 58) -> None:
    """A figure after its name ("coins 5"), the number's right edge `width` after the name."""
    text(g, x, y, label, size=9, fill=MUTED)
    figure(g, x + width, y, value, provisional_value, anchor="end", weight="bold")


def key_row(d: Drawing, entries: list[tuple[str | None, str, str]], bottom: float, heading: str) -> float:
    """A key under a picture: for each entry (colour or None, a mark, a name) a cube in that
    colour, or the mark in small type, and its name; returns the new bottom."""
    g = d.part("key")
    x, y = PAD * 2, bottom + BODY + PAD
    text(g, x, y, heading, size=SMALL, fill=MUTED)
    x += len(heading) * SMALL * CHAR + PAD
    for colour, mark, name in entries:
        width = SMALL + PAD + len(name) * SMALL * CHAR + PAD * 2
        if x + width > d.width - PAD:  # the next entry goes on a new line
            x, y = PAD * 2, y + SMALL + PAD
        if colour is not None:
            cube(g, x, y - SMALL, SMALL, colour, name)
        else:
            rect(g, x, y - SMALL, SMALL, SMALL, fill=PAPER, stroke=LINE, rx=RADIUS / 2)
            text(g, x + SMALL / 2, y - RADIUS / 2, mark, size=MICRO, anchor="middle", fill=MUTED)
        text(g, x + SMALL + PAD / 2, y, name, size=SMALL)
        x += width
    return y


def provisional_legend(parent: ET.Element, x: float, y: float, size: float = 10) -> None:
    provisional(parent, x, y, size)
    text(parent, x + size, y, _("rests on a provisional value (check it against your box)"), size=size, fill=MUTED)


# --- the score chart --------------------------------------------------------------------


@dataclass
class Series:
    """One line of a chart: a player's figure at every point of the x axis."""

    label: str  # a player, as the legend names them
    colour: str  # a colour name of the spec
    values: list[int | None]  # one per point of the x axis; None where not known


def line_chart(title: str, x_labels: list[str], series: list[Series], y_label: str, width: float = 480, height: float = 240) -> Drawing:
    """A step chart of whole numbers: one line per player, one point per round."""
    d = Drawing(width, height, title)
    left, right, top, bottom = 44, 12, 28, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for s in series for v in s.values if v is not None] or [0]
    low, high = min(0, min(values)), max(1, max(values))
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    count = max(1, len(x_labels) - 1)

    def px(i: int) -> float:
        return left + plot_w * i / count

    def py(v: float) -> float:
        return top + plot_h * (high - v) / (high - low)

    frame = d.part("chart-frame")
    text(frame, left, top - 12, title, size=12, weight="bold")
    tick = low
    while tick <= high:
        line(frame, left, py(tick), left + plot_w, py(tick), stroke="#e3e3e3")
        text(frame, left - 4, py(tick) + 3, tick, size=9, anchor="end", fill=MUTED)
        tick += step
    every = max(1, math.ceil(len(x_labels) / 12))
    for i, label in enumerate(x_labels):
        if i % every == 0 or i == len(x_labels) - 1:
            text(frame, px(i), top + plot_h + 12, label, size=9, anchor="middle", fill=MUTED)
    text(frame, left + plot_w / 2, height - 14, y_label, size=10, anchor="middle", fill=MUTED)
    lines = d.part("chart-lines")
    for s in series:
        points: list[tuple[float, float]] = []
        for i, v in enumerate(s.values):
            if v is None:
                continue
            if points:
                points.append((px(i), points[-1][1]))
            points.append((px(i), py(v)))
        if points:
            node = polyline(lines, points, stroke=paint(s.colour).fill, stroke_width=2.2)
            tip(node, f"{s.label}: {', '.join('-' if v is None else str(v) for v in s.values)}")
            circle(lines, points[-1][0], points[-1][1], 3, paint(s.colour).fill, stroke=INK, stroke_width=0.6)
    d.xs = [px(i) for i in range(len(x_labels))]  # where each round stands, for a marker of the position shown
    now = line(frame, px(0), top, px(0), top + plot_h, stroke=HIGHLIGHT, stroke_dasharray="3 3", class_="chart-now")
    tip(now, _("the position shown"))
    legend = d.part("chart-legend")
    x = left
    for s in series:
        x = swatch_label(legend, x, height - 2, s.colour, s.label, size=9) + 8
    return d


def nice_step(span: float) -> int:
    """A round step for the value axis: 1, 2 or 5 times a power of ten, about five to a chart."""
    rough = max(1.0, span / 5)
    power = 10 ** math.floor(math.log10(rough))
    for factor in (1, 2, 5, 10):
        if factor * power >= rough:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns
