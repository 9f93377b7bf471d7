"""Canterbury's moves told in one plain sentence each, for the replay page.

A sentence is made from the move and the states before and after it, so it can say what
the rules made of the move: the Levy's or the tax's shillings, what the structures cost, the
prosperity gained, a district scoring, the end of the game.
"""

from __future__ import annotations

from referee.drawing.words import amount, article, signed
from referee.games.canterbury.moves import LEVY, TAX, NeutralStep
from referee.games.canterbury.rules import CanterburyState
from referee.games.canterbury.view import district_name
from referee.i18n import _, current, localized
from referee.notation.colours import colour_named
from referee.notation.parser import Move


def describe_move(before: CanterburyState, move: Move, after: CanterburyState) -> str:
    game = after.game

    def name(sid: str) -> str:  # a structure in the reader's language
        return localized(game.structure_named(sid))

    colour = localized(colour_named(move.player))
    if isinstance(move, NeutralStep):
        structure = name(move.structure)
        skipped = _(", putting the {structure} back in the box").format(structure=name(move.skipped)) if move.skipped else ""
        if move.district is None:
            return _("{colour} sets the neutral player's {structure} aside: it has no legal place").format(colour=colour, structure=structure) + skipped
        return _("{colour} places the {structure} in {district} for the neutral player").format(colour=colour, structure=structure, district=district_name(after, move.district)) + skipped
    old, new = before.players[move.player], after.players[move.player]
    if move.kind == LEVY:
        sentence = _("{colour} takes a Levy of {amount}").format(colour=colour, amount=amount(before.levy(), "shilling"))
    else:
        builds = []
        for build in move.builds:
            words = _("{structure} in {district}").format(structure=article(name(build.structure)), district=district_name(after, build.district))
            if build.demolish:
                torn = _(" and ").join(_("the {structure}").format(structure=name(t)) for t in build.demolish)
                words += _(", demolishing {structures}").format(structures=torn)
            builds.append(words)
        cost = amount(sum(game.structures[b.structure].cost for b in move.builds), "shilling")
        names = before.spec["setup"]["actions"][move.kind]["names"]
        action = names.get(current()) or names["en"]
        if move.kind == TAX:
            sentence = _("{colour} collects {tax} in tax and builds {builds} for {cost} ({action})").format(
                colour=colour, tax=amount(before.tax(), "shilling"), builds=_(" and ").join(builds), cost=cost, action=action
            )
        else:
            sentence = _("{colour} builds {builds} for {cost} ({action})").format(colour=colour, builds=_(" and ").join(builds), cost=cost, action=action)
    gained = new.prosperity - old.prosperity
    if gained:
        sentence += f", {signed(gained, 'prosperity')}"
    if after.scorings > before.scorings:
        sentence += _("; the city marker passes the start: the districts score")
    if after.over and not before.over:
        sentence += _("; the game ends")
    return sentence
