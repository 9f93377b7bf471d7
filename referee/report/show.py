"""`referee show` in text: where the game stands, each player's figures, the board.

The heading comes from the state's `situation()` (round, phase, who acts, what the game waits
for); the table and the board from the game's view module. Everything printed passes through
`terminal.visible`, since player names and the file name come from the user.
"""

from __future__ import annotations

import re

from referee.drawing.words import table
from referee.engine.positions import Position
from referee.games.base import quietly, situation_line
from referee.i18n import N_, _, current
from referee.terminal import visible

MARKED = re.compile(r"\d\?")  # a figure marked as resting on a provisional value (view.mark)
VERDICTS = {"legal": N_("legal so far"), "illegal": N_("the record breaks a rule"), "malformed": N_("the record cannot be read whole")}


def render(position: Position) -> str:
    report, state = position.report, position.state
    game = state.game
    with quietly(state):
        situation = situation_line(state.situation())
        headers, rows = game.player_table(state)
        board = game.board_text(state)
    title = game.spec.name(game.spec.meta, current(), game.name)
    verdict = _(VERDICTS[report.status]) if report.status in VERDICTS else report.status
    if report.status == "legal" and state.is_over():
        verdict = _("legal")
    lines = [f"{report.name}: {title}, {position.where}: {verdict}", situation, ""]
    lines += table(headers, rows)
    if board:
        lines += ["", *board]
    if any(MARKED.search(str(cell)) for row in rows for cell in row) or any(MARKED.search(line) for line in board):
        lines += ["", _("? rests on a provisional spec value (`referee validate --provenance` lists them)")]
    return visible("\n".join(lines), keep_lines=True)
