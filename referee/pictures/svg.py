"""The SVG pieces, under the name the pages imported them by: they are `referee.drawing.svg`,
below the games that draw with them."""

from referee.drawing.svg import *  # noqa: F403
