"""Plain data classes that cost little to define.

`dataclasses.dataclass` compiles the methods it writes from source, one `exec` for each method
of each class, when the class is defined. A check defines some thirty-five data classes (moves,
header fields, positions, spec records), and compiling their methods took 8 to 11 ms, a
twelfth of what a check of a long record takes beyond starting Python. So:

- `__repr__`, `__eq__` and a frozen class's `__hash__` read the same way for every class, and
  one function of each serves them all: it reads the class's fields (those that
  `dataclasses.fields` says take part) and does what the generated method would do.
- A frozen class's guards against assignment are two functions made for the class.
- `__init__` is written here, as the standard library would write it but shorter (no
  annotations, no function around it), and its compiled code is kept between runs in the
  user's cache folder (`cache.compiled`), as Python keeps a module's bytecode. Classes whose
  fields take the same arguments in the same way share it.

`dataclass` here is used as the standard library's is, with the same keyword arguments (and
`field` is still the standard library's; an `InitVar` field is refused), and
`dataclasses.fields`, `replace` and `asdict` work on these classes as on any data class.
"""

from __future__ import annotations

import _thread
import dataclasses
import operator
from typing import Any, Callable, TypeVar

from referee import _cache as cache

T = TypeVar("T", bound=type)


def dataclass(cls: T | None = None, /, *, init: bool = True, eq: bool = True, frozen: bool = False, **options: Any) -> T | Callable[[T], T]:
    """`dataclasses.dataclass`, with the shared `__repr__` and `__eq__` (and `__hash__` when
    frozen), and an `__init__` written here, in place of compiled ones."""

    def wrap(cls: T) -> T:
        own = dict(cls.__dict__)
        if frozen and ("__setattr__" in own or "__delattr__" in own):
            raise TypeError(f"{cls.__qualname__}: a frozen data class cannot write its own __setattr__ or __delattr__")
        bases = [b for b in cls.__mro__[1:] if "__dataclass_fields__" in b.__dict__]
        if bases and any(b.__dict__.get("_plain_frozen", b.__dataclass_params__.frozen) for b in bases) != frozen:
            raise TypeError(f"{cls.__qualname__}: a data class is frozen when the data classes it inherits from are, and only then")
        if not cls.__doc__:  # dataclasses would write it from the __init__ it has not got yet
            cls.__doc__ = "-"
        made = dataclasses.dataclass(cls, init=False, repr=False, eq=False, frozen=False, **options)
        fields = dataclasses.fields(made)
        if len(fields) < sum(1 for f in made.__dataclass_fields__.values() if "ClassVar" not in str(f.type)):
            raise TypeError(f"{made.__qualname__}: an InitVar field needs the standard library's dataclass")
        made._plain_frozen = frozen
        if init and "__init__" not in own:
            made.__init__ = _init(made, fields, frozen)
        if frozen:
            _guard(made, frozenset(f.name for f in fields))
        if not own.get("__doc__"):  # as dataclasses writes it: the class's name and signature
            import inspect

            made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
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


def _init(cls: type, fields: tuple[dataclasses.Field, ...], frozen: bool) -> Callable:
    """The `__init__` that `dataclasses.dataclass` would write: the arguments of the fields
    that take one (keyword-only ones after a `*`), each field set from its argument, its
    default or its factory, then `__post_init__` when the class has one. A frozen class sets
    its fields through `object.__setattr__`, past its own guard. The annotations are given
    to the function made, not written in the text, which then serves every class whose
    fields take the same arguments."""
    me = "__plain_self" if any(f.name == "self" for f in fields) else "self"  # as dataclasses names it then
    params, keywords, lines, names = [me], [], [], {"__plain_factory": _FACTORY, "__plain_setattr": object.__setattr__}
    defaulted = False
    for f in fields:
        has_default, has_factory = f.default is not dataclasses.MISSING, f.default_factory is not dataclasses.MISSING
        if has_factory:
            names[f"__plain_f_{f.name}"] = f.default_factory
            value = (f"__plain_f_{f.name}() if {f.name} is __plain_factory else {f.name}") if f.init else f"__plain_f_{f.name}()"
        elif f.init:
            value = f.name
        else:  # a field left out of __init__ with a plain default keeps the class's value
            continue
        if f.init:
            if has_default:
                names[f"__plain_d_{f.name}"] = f.default
            default = f"=__plain_d_{f.name}" if has_default else "=__plain_factory" if has_factory else ""
            if not f.kw_only:
                if defaulted and not default:
                    raise TypeError(f"non-default argument {f.name!r} follows default argument")
                defaulted = defaulted or bool(default)
            (keywords if f.kw_only else params).append(f"{f.name}{default}")
        lines.append(f"__plain_setattr({me}, {f.name!r}, {value})" if frozen else f"{me}.{f.name} = {value}")
    if hasattr(cls, "__post_init__"):
        lines.append(f"{me}.__post_init__()")
    signature = ", ".join(params + (["*", *keywords] if keywords else []))
    source = f"def __init__({signature}):\n" + "".join(f"    {line}\n" for line in lines or ["pass"])
    names["__name__"] = cls.__module__
    exec(cache.compiled(source, "<the __init__ of a data class>"), names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {**{f.name: f.type for f in fields if f.init}, "return": None}
    return init


def _guard(cls: type, names: frozenset[str]) -> None:
    """A frozen class's guards, which refuse to set or delete a field (any attribute of the
    class itself) as the ones dataclasses compiles do."""

    def __setattr__(self, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)


class _Factory:
    """The default of an argument whose field has a default factory, as dataclasses shows it."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


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
