"""A position's picture as every command shows it (`draw`, the replay page, the rules pages)."""

from __future__ import annotations

from referee.drawing import svg
from referee.report.diagnostics import final_lines


def draw_position(state, caption: str) -> svg.Drawing:
    """The game's picture of the state and, once the game is over, the final standings, the
    winner and the tie-break beside it: how the game ended is part of its last position."""
    drawing = state.game.draw(state, caption)
    if state.is_over():
        svg.final_panel(drawing, final_lines(state))
    return drawing
