"""Civitas Hamburgum: the base game and both advanced games, as one package.

Where to find what:

- `moves`: the moves as a record writes them (a turn on the rondel, a reveal).
- `notation`: reading those moves from the parse tree, names resolved through
  the spec, and writing them back.
- `rules`: the state of a game and the rules that change it, in rulebook order.
- `scoring`: final scoring and standings.
- `play`: the search for legal and random moves, for `referee moves` and `play`.
- `checks`: cross-checks of the spec that its schemas cannot state.
- `game`: the `Hamburgum` game object that ties them together for the engine.

Every number, table and name comes from `specs/hamburgum/`.
"""

from referee.games.hamburgum.game import Hamburgum

GAME = Hamburgum
