"""A cheap, independent copy of a game in progress.

A search tries a move on a copy of the position and throws the copy away: the greedy agent
does it for every candidate move, a tree search for every playout. `copy.deepcopy` serves,
but it asks every object how it wants to be copied, keeps a note of each one, and copies
strings, numbers and frozen pieces it could share; a copy cost 0.2 to 1.1 ms.

Each game's `State` is plain data: numbers and strings, lists, dicts, sets and Counters of
them, and data classes (players, slots, boards) that hold the same. So the copy here walks
that data itself:

- values that cannot change (numbers, strings, None, frozensets) are shared, and so are
  texts and numbers of a class of their own (a spec's `Named`, a rule's `Message`, an enum):
  what they carry besides is set when they are made and never changed;
- a tuple or a frozen data class is shared when everything in it is shared, and copied
  only when it holds something that can change (a frozen offer that names a mutable slot);
- lists, dicts, sets and Counters are copied container by container; any other object with
  a `__dict__` is copied field by field, without calling its `__init__`;
- an object met twice is copied once, so two places that share a piece (a seat held by
  the state and by its player) share its copy too, as they do in the original;
- the game and its spec are shared: nothing in play changes them.

Anything else (an object with slots or a copy hook of its own) goes to `copy.deepcopy`,
with the same notes of what was copied, so the copy is always as independent as deepcopy's.
"""

from __future__ import annotations

import copy
from collections import Counter, OrderedDict, defaultdict
from typing import Any, TypeVar

T = TypeVar("T")

# values that never change in place: shared between the original and its copy
_SHARED = frozenset({int, float, bool, str, bytes, complex, type(None), frozenset, range, type, type(len), type(lambda: 0)})
_DICTS = frozenset({dict, Counter, OrderedDict, defaultdict})


def copy_state(state: T, share: tuple = ()) -> T:
    """An independent copy of a game state (its trace included); the game and its spec are
    shared, and so is each object in `share` (a trace that keeps nothing, say). Changing the
    copy never changes the original, and the other way round."""
    game = getattr(state, "game", None)
    memo: dict[int, Any] = {id(kept): kept for kept in share}
    if game is not None:
        memo[id(game)] = game
        spec = getattr(game, "spec", None)
        if spec is not None:
            memo[id(spec)] = spec
    memo[id(memo)] = [state]  # as deepcopy does: keeps what it copied alive while it works
    return structural_copy(state, memo)


def structural_copy(value: Any, memo: dict[int, Any]) -> Any:
    """`value` copied as described in the module's docstring; `memo` maps the id of each
    object copied so far to its copy (the same mapping `copy.deepcopy` keeps)."""
    kind = type(value)
    if kind in _SHARED:
        return value
    done = memo.get(id(value))
    if done is not None:
        return done
    copier = _COPIERS.get(kind)
    if copier is None:
        copier = _COPIERS[kind] = _copier_for(kind)
    return copier(value, memo)


def _copy_list(value: list, memo: dict[int, Any]) -> list:
    new: list = []
    memo[id(value)] = new
    shared, deep = _SHARED, structural_copy
    new.extend([item if type(item) in shared else deep(item, memo) for item in value])
    return new


def _copy_dict(value: dict, memo: dict[int, Any]) -> dict:
    new = value.copy()  # a Counter stays a Counter, a defaultdict keeps its factory
    memo[id(value)] = new
    shared = _SHARED
    for k, v in value.items():
        if type(v) not in shared:
            new[k] = structural_copy(v, memo)
    return new


def _copy_set(value: set, memo: dict[int, Any]) -> set:
    new = set(value)  # members are hashable, so they hold nothing that changes in place
    memo[id(value)] = new
    return new


def _copy_tuple(value: tuple, memo: dict[int, Any]) -> tuple:
    shared = _SHARED
    items = [item if type(item) in shared else structural_copy(item, memo) for item in value]
    if all(a is b for a, b in zip(items, value)):
        return value
    new = tuple(items)
    memo[id(value)] = new
    return new


def _copy_fields(value: Any, memo: dict[int, Any]) -> Any:
    """A plain object (a state, a player, a slot) copied field by field, without `__init__`."""
    kind = type(value)
    new = object.__new__(kind)
    memo[id(value)] = new
    own, shared = new.__dict__, _SHARED
    for k, v in value.__dict__.items():
        own[k] = v if type(v) in shared else structural_copy(v, memo)
    return new


def _copy_frozen(value: Any, memo: dict[int, Any]) -> Any:
    """A frozen data class: the original itself when nothing in it can change."""
    fields, shared = value.__dict__, _SHARED
    copied = {k: v if type(v) in shared else structural_copy(v, memo) for k, v in fields.items()}
    if all(copied[k] is v for k, v in fields.items()):
        memo[id(value)] = value
        return value
    new = object.__new__(type(value))
    new.__dict__.update(copied)
    memo[id(value)] = new
    return new


def _share(value: Any, memo: dict[int, Any]) -> Any:
    return value


def _copy_deep(value: Any, memo: dict[int, Any]) -> Any:
    return copy.deepcopy(value, memo)


def _copier_for(kind: type):
    """How instances of a class are copied, decided once per class."""
    if kind is list:
        return _copy_list
    if kind in _DICTS:
        return _copy_dict
    if kind is set:
        return _copy_set
    if kind is tuple:
        return _copy_tuple
    if issubclass(kind, (str, int, frozenset)):  # a text or number with words of its own (a name, a message): as unchangeable
        return _share
    plain = kind.__new__ is object.__new__ and kind.__dictoffset__ and "__slots__" not in kind.__dict__
    if not plain or hasattr(kind, "__deepcopy__") or kind.__reduce_ex__ is not object.__reduce_ex__ or kind.__reduce__ is not object.__reduce__:
        return _copy_deep  # a copy hook, slots, or a class made some other way: deepcopy knows
    return _copy_frozen if _frozen(kind) else _copy_fields


_COPIERS: dict[type, Any] = {}


def _frozen(kind: type) -> bool:
    """Whether instances of the class are frozen data classes, whose fields never change."""
    params = getattr(kind, "__dataclass_params__", None)
    return params is not None and bool(kind.__dict__.get("_plain_frozen", getattr(kind, "_plain_frozen", params.frozen)))
