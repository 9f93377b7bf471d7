"""The table's rulings on a move, carried out: `ruling accept` and `ruling void`.

A table that notices a mistake late may let the move stand or take it back. `void`
needs nothing of a game: a move the rules refuse leaves the state as it was
(`State.apply` promises so), and a legal move is undone from a copy taken before it.
`accept` tries the move again on a copy of the state with the rule it broke set
aside (`require` lets a waived rule pass; see games/base.py), then with the next rule
it breaks as well, and so on. The ruling is refused, with the reason, when the move
breaks a rule that is a fact of the pieces rather than a rule of play (rules.yaml
marks it `waivable: false`: a structure the supply no longer has, a space already
taken, a card not in the deck; or the game raises it directly, so no waiver reaches
it), when the rules cannot carry the move out at all, or when the result is a state
the pieces cannot show (`State.cannot_hold`): a figure below the floor the data gives
it, such as coins below zero, or a supply, stock, bag or deck below zero.
"""

from __future__ import annotations

from referee.copying import copy_state
from referee.errors import Violation
from referee.games.base import State, waiving
from referee.notation.parser import Move

# Errors that a move carried out with a rule set aside may run into in code written for
# moves that keep that rule (a list index that is not there, a piece that is missing).
CANNOT_CARRY_OUT = (LookupError, TypeError, ValueError, AttributeError, ArithmeticError)


class Refused(Exception):
    """A ruling the referee cannot honour, and why."""


def accept(state: State, move: Move, broken: Violation, holding: bool = True) -> tuple[State, list[str]]:
    """The state after `move` with every rule it breaks set aside, and those rules in the order
    they were met. `state` is the state before the move and is left unchanged. Raises Refused.
    `holding=False` lets a figure go below its floor: `referee box --infer` plays a record's
    moves with numbers it is still learning, under which a build may cost more than a purse."""
    _waivable(state, broken)
    waived = [broken.rule]
    while True:
        trial = copy_state(state)
        try:
            with waiving(waived):
                trial.apply(move)
        except Violation as v:
            if v.rule in waived:
                raise Refused(f"the move breaks {v.rule}, which no ruling sets aside: {v.message}") from None
            _waivable(state, v)
            waived.append(v.rule)
            continue
        except CANNOT_CARRY_OUT as exc:
            raise Refused(f"the rules cannot carry the move out without {_listed(waived)} ({type(exc).__name__})") from None
        problem = trial.cannot_hold() if holding else None
        if problem:
            raise Refused(f"with {_listed(waived)} set aside, {problem}")
        return trial, waived


def _waivable(state: State, broken: Violation) -> None:
    """Refused unless the rule broken is one a table may set aside (rules.yaml `waivable`)."""
    rule = state.game.spec.rules.get(broken.rule)
    if rule is not None and not rule.waivable:
        raise Refused(f"the move breaks {broken.rule}, which no ruling sets aside (a fact of the pieces): {broken.message}")


def _listed(rules: list[str]) -> str:
    return " and ".join(rules)
