"""Each game's component gallery: every named entry the gallery lists, drawn as a tile from the
spec, with its names in three languages and its stand-ins marked."""

import re
import xml.etree.ElementTree as ET

import pytest

from referee.site import gallery
from referee.site.tables import GamePages
from referee.spec.loader import available_games, data_root, load_spec

GAMES = available_games()


def doc(game):
    return GamePages(load_spec(game), data_root())


def figures_of(page: str) -> dict[str, str]:
    return dict(re.findall(r'<figure class="component" id="([^"]+)">(.*?)</figure>', page, re.S))


@pytest.mark.parametrize("game", GAMES)
def test_every_component_has_a_drawn_tile_with_its_names_and_its_stand_ins(site, game):
    pages = doc(game)
    page = (site / game / "gallery.html").read_text(encoding="utf-8")
    shown = figures_of(page)
    groups = gallery.groups(pages)
    assert groups, f"{game} lists no gallery in picture.yaml"
    expected = 0
    for group in groups:
        for ident, key, entry in gallery.entries(pages, group["from"]):
            expected += 1
            anchor = f"component-{gallery.slug(group['from'].split(':', 1)[1].split('.')[-1], ident)}"
            figure = shown[anchor]
            src = re.search(r'<img src="([^"]+)" alt="([^"]+)"', figure)
            assert src and src.group(2).strip(), anchor
            tile = ET.parse(site / game / src.group(1)).getroot()
            assert tile.get("viewBox") and tile.get("width") == "100%"
            assert entry["names"]["en"] in (tile.find("{http://www.w3.org/2000/svg}title").text or "")
            for lang, label in (("de", "German"), ("hu", "Hungarian")):
                name = entry["names"].get(lang)
                assert f"{label}: {name}" in figure if name else f"{label}: <em>not given yet</em>" in figure
            provisional = [p for p in gallery.uncertain(pages, group["from"], key).values() if p.status == "provisional"]
            assert ('class="stand-in"' in figure) == bool(provisional), anchor
            if provisional:  # the tile marks each figure that rests on it
                assert 'class="provisional"' in (site / game / src.group(1)).read_text(encoding="utf-8")
    assert len(shown) == expected


def test_the_stand_ins_of_canterburys_structures_are_marked():
    """No source gives the structures' printed numbers: every structure is a stand-in."""
    pages = doc("canterbury")
    page = gallery.render(pages)
    for ident, _, _ in gallery.entries(pages, "structures:structures"):
        figure = page.split(f'id="component-structures-{ident}"')[1].split("</figure>")[0]
        assert 'class="stand-in"' in figure, ident


def test_a_gallery_group_without_named_entries_stops_the_build():
    pages = doc("speicherstadt")
    with pytest.raises(gallery.DocsError) as caught:
        gallery.entries(pages, "components:bag")
    assert "the gallery needs named entries there" in caught.value.display()
