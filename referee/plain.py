"""Plain data classes that cost little to define.

`dataclasses.dataclass` compiles the methods it writes from source, one `exec` for each method
of each class, when the class is defined. A check defines some thirty-five data classes (moves,
header fields, positions, spec records), and compiling their `__repr__`, `__eq__` and a frozen
class's `__hash__` took 8 to 11 ms, a twelfth of what a check of a long record takes beyond
starting Python. These methods read the same way for every class, so one function of each serves them
all: it reads the class's fields (those that `dataclasses.fields` says take part) and does
what the generated method would do, with the same result. Only `__init__`, and a frozen class's
guards against assignment, are still compiled per class.

`dataclass` here is used as the standard library's is, with the same keyword arguments (and
`field` is still the standard library's); `dataclasses.fields`, `replace` and `asdict` work on
these classes as on any data class.
"""

from __future__ import annotations

import _thread
import dataclasses
import operator
from typing import Any, Callable, TypeVar

T = TypeVar("T", bound=type)


def dataclass(cls: T | None = None, /, *, eq: bool = True, frozen: bool = False, **options: Any) -> T | Callable[[T], T]:
    """`dataclasses.dataclass`, with the shared `__repr__` and `__eq__` (and `__hash__` when
    frozen) in place of compiled ones."""

    def wrap(cls: T) -> T:
        own = dict(cls.__dict__)
        made = dataclasses.dataclass(cls, repr=False, eq=False, frozen=frozen, **options)
        fields = dataclasses.fields(made)
        made._shown_fields = tuple(f.name for f in fields if f.repr)
        made._compared_values = staticmethod(_values_of(tuple(f.name for f in fields if f.compare)))
        if "__repr__" not in own:
            made.__repr__ = _repr
        if eq:
            if "__eq__" not in own:
                made.__eq__ = _eq
            # as dataclass decides: a hash the class writes itself is kept; otherwise a frozen
            # class hashes by its compared fields and another cannot be hashed
            if "__hash__" not in own or (own["__hash__"] is None and "__eq__" in own):
                made.__hash__ = _hash if frozen else None
        return made

    return wrap if cls is None else wrap(cls)


def _values_of(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    """The tuple of an instance's values of these fields, read by `attrgetter` (in C): moves
    and board pieces are compared and hashed often, in the search for legal moves too."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        one = operator.attrgetter(names[0])
        return lambda instance: (one(instance),)
    return lambda instance: ()


_SHOWING: set[tuple[int, int]] = set()  # (instance, thread) whose repr is being written


def _repr(self: Any) -> str:
    key = (id(self), _thread.get_ident())
    if key in _SHOWING:  # an instance that holds itself, as the standard library shows it
        return "..."
    _SHOWING.add(key)
    try:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown_fields)
    finally:
        _SHOWING.discard(key)
    return f"{type(self).__qualname__}({shown})"


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    values = self._compared_values
    return values(self) == values(other)


def _hash(self: Any) -> int:
    return hash(self._compared_values(self))
