"""What a person sees of a position, under the name `show`, `draw` and `replay` imported it by.

The state-bound helpers (`quietly`, `situation_line`, `rests_on`, `Illustration`) are in
`referee.games.base` and the words (`table`, `amount`, `listing`, ...) in
`referee.drawing.words`, below the games that use them.
"""

from referee.drawing.words import amount, article, listing, mark, ordinal, signed, table
from referee.games.base import Illustration, provisional_stems, quietly, rests_on, situation_line

__all__ = ["Illustration", "amount", "article", "listing", "mark", "ordinal", "provisional_stems", "quietly", "rests_on", "signed", "situation_line", "table"]
