"""The position's picture for a page, written as text with only what changed written anew.

A game draws its picture as an element tree (`referee.drawing.svg.Drawing`); writing that
tree out as text took as long as drawing it (Canterbury: about 4 ms of a tap's 15). From one
move to the next most of a picture is the same (the board, the legend, the players' boxes),
so the server keeps the text of each element it has written, by what the element is (its
tag, attributes and text; a group by its own tag and attributes, its children each in
turn), and writes only the elements it has not seen. The text is the same, byte for byte,
as `Drawing.tostring` gives (tests/test_serve.py compares them).
"""

from __future__ import annotations

import threading
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

from referee.drawing.svg import Drawing, serialize, xml_safe

MOST_KEPT = 60_000  # written elements kept, at most (a few megabytes); past it, the memo starts again


class Writer:
    """Writes pictures, keeping the text of the elements written before."""

    def __init__(self) -> None:
        self._leaves: dict[tuple, str] = {}
        self._opening: dict[tuple, str] = {}
        self._lock = threading.Lock()

    def tostring(self, drawing: Drawing) -> str:
        root = drawing.root
        attrs = " ".join(f"{k}={quoteattr(xml_safe(v))}" for k, v in root.attrib.items())
        with self._lock:
            if len(self._leaves) + len(self._opening) > MOST_KEPT:
                self._leaves.clear()
                self._opening.clear()
            return f"<svg {attrs}>" + "".join(self._element(child) for child in root) + "</svg>"

    def _element(self, node: ET.Element) -> str:
        if not len(node):
            key = (node.tag, tuple(node.attrib.items()), node.text)
            found = self._leaves.get(key)
            if found is None:
                found = self._leaves[key] = serialize(node)
            return found
        key = (node.tag, tuple(node.attrib.items()))
        opening = self._opening.get(key)
        if opening is None:
            opening = self._opening[key] = f"<{node.tag}" + "".join(f" {k}={quoteattr(xml_safe(v))}" for k, v in node.attrib.items()) + ">"
        text = escape(xml_safe(node.text)) if node.text else ""
        return opening + text + "".join(self._element(child) for child in node) + f"</{node.tag}>"
