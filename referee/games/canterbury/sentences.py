"""Canterbury's moves told in one plain sentence each, for the replay page.

A sentence is made from the move and the states before and after it, so it can say what
the rules made of the move: the Levy's or the tax's shillings, what the structures cost, the
prosperity gained, a district scoring, the end of the game.
"""

from __future__ import annotations

from referee.notation.parser import Move
from referee.report.situation import amount, article, signed
from referee.games.canterbury.moves import LEVY, TAX, NeutralStep
from referee.games.canterbury.rules import CanterburyState
from referee.games.canterbury.view import district_name


def describe_move(before: CanterburyState, move: Move, after: CanterburyState) -> str:
    game = after.game
    colour = move.player
    if isinstance(move, NeutralStep):
        name = game.structure_name(move.structure)
        skipped = f", putting the {game.structure_name(move.skipped)} back in the box" if move.skipped else ""
        if move.district is None:
            return f"{colour} sets the neutral player's {name} aside: it has no legal place{skipped}"
        return f"{colour} places the {name} in {district_name(after, move.district)} for the neutral player{skipped}"
    old, new = before.players[colour], after.players[colour]
    if move.kind == LEVY:
        sentence = f"{colour} takes a Levy of {amount(before.levy(), 'shilling')}"
    else:
        builds = []
        for build in move.builds:
            words = f"{article(game.structure_name(build.structure))} in {district_name(after, build.district)}"
            if build.demolish:
                words += ", demolishing the " + " and the ".join(game.structure_name(t) for t in build.demolish)
            builds.append(words)
        cost = sum(game.structures[b.structure].cost for b in move.builds)
        action = before.spec["setup"]["actions"][move.kind]["names"]["en"]
        taxed = f"collects {amount(before.tax(), 'shilling')} in tax and " if move.kind == TAX else ""
        sentence = f"{colour} {taxed}builds {' and '.join(builds)} for {amount(cost, 'shilling')} ({action})"
    gained = new.prosperity - old.prosperity
    if gained:
        sentence += f", {signed(gained, 'prosperity')}"
    if after.scorings > before.scorings:
        sentence += "; the city marker passes the start: the districts score"
    if after.over and not before.over:
        sentence += "; the game ends"
    return sentence
