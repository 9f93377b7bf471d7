"""Canterbury moves read from a record's parse tree and written back as a record writes them.

A record names structures and districts the way a player says them: a structure by its id
or any of its names (`names.spelling`: any case, hyphens for spaces), a district by its id
or an alias from `specs/canterbury/board.yaml`. An unknown name is a RecordError that points
at it and offers the nearest names the game accepts.
"""

from __future__ import annotations

from collections.abc import Iterable

from lark import Token, Tree

from referee.errors import Pos
from referee.games.canterbury.moves import FULL, LEVY, TAX, Action, Build, NeutralStep
from referee.notation import names
from referee.notation.parser import Keywords, Move, unknown_name
from referee.spec.loader import Spec


class Notation:
    """The names a record may use for the game's structures and districts, and the moves
    built from them."""

    def __init__(self, spec: Spec):
        self._structures = list(spec["structures"]["structures"])
        self._structure_names = names.index(spec["structures"]["structures"])
        self._district_names = names.index(spec["board"]["districts"], spec["board"].get("aliases"))
        actions = spec["setup"]["actions"]
        self.keywords: Keywords = tuple((f"_{a.replace('-', '_')}", tuple(names.names_of(e))) for a, e in actions.items())

    def structure_of(self, token: Token) -> str:
        return _look_up(self._structure_names, token, "structure", self._structures)

    def district_of(self, token: Token) -> str:
        return _look_up(self._district_names, token, "district", self._district_names)

    def build_move(self, tree: Tree) -> Move:
        player_tok, action = tree.children
        player = str(player_tok).lower()
        if action.data == "levy":
            return Action(player, LEVY)
        if action.data in ("full_build", "tax_build"):
            kind = FULL if action.data == "full_build" else TAX
            return Action(player, kind, tuple(self._build(t) for t in action.children))
        skipped = None
        tile = action.children[-1]
        if len(action.children) > 1:
            skipped = self.structure_of(action.children[0].children[0])
        if tile.data == "neutral_discard":
            return NeutralStep(player, self.structure_of(tile.children[0]), None, skipped)
        structure, district = tile.children
        return NeutralStep(player, self.structure_of(structure), self.district_of(district), skipped)

    def _build(self, tree: Tree) -> Build:
        structure, district, *extra = tree.children
        build = Build(self.structure_of(structure), self.district_of(district), pos=Pos.of(tree))
        for part in extra:
            if part.data == "demolish":
                build.demolish = tuple(self.structure_of(t) for t in part.children)
            else:
                build.serving = tuple(self.district_of(t) for t in part.children)
        return build


def format_move(move: Move) -> str:
    if isinstance(move, NeutralStep):
        skip = f"skip {move.skipped}, " if move.skipped else ""
        tile = f"{move.structure} {move.district}" if move.district else f"discard {move.structure}"
        return f"{move.player}: neutral {skip}{tile}"
    if move.kind == LEVY:
        return f"{move.player}: levy"
    words = "full build" if move.kind == FULL else "tax build"
    return f"{move.player}: {words} {', '.join(map(_build_text, move.builds))}"


def _look_up(index: dict[str, str], token: Token, what: str, known: Iterable[str]) -> str:
    """A name from the record, or a RecordError pointing at it."""
    key = names.spelling(token)
    if key not in index:
        raise unknown_name(what, token, known, index)
    return index[key]


def _build_text(build: Build) -> str:
    text = f"{build.structure} {build.district}"
    if build.demolish:
        text += " demolish " + " ".join(build.demolish)
    if build.serving:
        text += " serving " + " ".join(build.serving)
    return text
