"""The Speicherstadt: every rule of the base game.

A round is Supply, Demand, Purchase, Loading and Income. Chance is part of
the record: each revealed card (with its face, for firemen, fires and
contracts) and the cubes drawn onto each ship are written down, and checked
against the deck and the bag that remain. Every number comes from
`specs/speicherstadt/`.

Where to find what:
  game.py      the Game: card roles and tables from the spec; what the engine asks
  moves.py     the move dataclasses, as a record writes them
  notation.py  a parse tree -> a move (card and goods names), a move -> text, move hints
  rules.py     the state and its transitions, in the rulebook's order
  scoring.py   final scoring's arithmetic
  play.py      legal and random moves (reads the rules, never the reverse)
  checks.py    cross-checks of the spec
"""

from referee.games.speicherstadt.game import Speicherstadt

GAME = Speicherstadt
