"""Canterbury: the base game for three and four players and the advanced two-player variant.

Where to find what:
- moves.py: the moves a record writes (Levy, Full Build, Tax & Build, the neutral's tile);
- notation.py: moves read from a record's parse tree and written back;
- rules.py: the state of a game and the rules that change it, set-up to final scoring;
- scoring.py: the scoring arithmetic (district bonuses, the King's favour, rounding);
- play.py: the search for legal moves and random ones, built on the rules;
- checks.py: cross-checks of the spec that a schema cannot express;
- game.py: the game object that builds the tables from the spec and joins the parts.

The numbers come from `specs/canterbury/`, never from this package.
"""

from referee.games.canterbury.game import Canterbury

GAME = Canterbury
