"""Civitas Hamburgum final scoring: what the game's end adds to the prestige on the track.

When the sixth church is finished, each player scores their unscored donation
tokens, sells their goods and building materials at the end-sale prices, and
buys prestige with their money; money left over breaks ties. Until then a
standing is just the prestige track. Nothing here changes the state: the
figures of a checkpoint after the end ask for the same sums.

The state is met only through its attributes (token values, the trace), so the
rules module can ask this one for standings without a cycle of imports.
"""

from __future__ import annotations

from referee.games.base import Standing, State
from referee.i18n import N_, Message

# the parts of a final score, keys of a standing's breakdown, and the tie-break: English as
# strings, shown in the language in use
PRESTIGE, TOKENS, BOUGHT = (Message(part) for part in (N_("prestige"), N_("unscored tokens"), N_("bought prestige")))
MONEY = Message(N_("money"))


def final(state: State, player) -> dict[str, int]:
    """Final scoring without touching the state: tokens, the end sale, bought prestige."""
    scoring = state.spec["scoring"]
    tokens = sum(state.token_value(player, t) for t in player.unscored())
    for token in player.unscored():
        state.use(state.game.token_rule(token.kind), *state.token_values(token))
    sale = sum(n * scoring["end_sale"]["goods"] for g, n in player.stock.items() if g in state.game.goods)
    sale += sum(n * scoring["end_sale"]["materials"] for m, n in player.stock.items() if m in state.game.materials)
    money = player.money + sale
    bought = money // scoring["prestige_price"]
    return {"prestige": player.prestige, "tokens": tokens, "bought": bought, "money": money - bought * scoring["prestige_price"]}


def standings_of(state: State, as_if_over: bool = False) -> list[Standing]:
    """Each player's standing: the prestige track, and once the game is over (or, with
    `as_if_over`, as if it ended now), final scoring."""
    out = []
    rule = state.game.rule
    for player in state.players.values():
        if state.over or as_if_over:
            f = final(state, player)
            parts = {PRESTIGE: f["prestige"], TOKENS: f["tokens"], BOUGHT: f["bought"]}
            money = f["money"]
            for r in ("final-scoring", "tie-break"):
                state.trace.use(rule(r))
        else:
            parts, money = {PRESTIGE: player.prestige}, player.money
        out.append(Standing(player.seat, sum(parts.values()), parts, [(MONEY, money, 1)]))
    return out
