"""The shared data-class methods (referee/plain.py) behave as the ones dataclasses compiles."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from referee import _plain as plain
from referee.errors import Pos


def _pair(frozen: bool = False, eq: bool = True):
    """The same class made by the standard library and by plain."""

    def body():
        class Piece:
            """A piece for the test."""

            kind: str
            count: int = 1
            note: str = dataclasses.field(default="", compare=False)
            secret: str = dataclasses.field(default="", repr=False)

        return Piece

    return dataclasses.dataclass(body(), frozen=frozen, eq=eq), plain.dataclass(body(), frozen=frozen, eq=eq)


@pytest.mark.parametrize("frozen", [False, True])
def test_repr_reads_as_the_standard_librarys(frozen):
    std, ours = _pair(frozen)
    for args in [("cube",), ("wall", 3, "a note", "hidden"), ("it's", -2, "x\ny")]:
        assert repr(ours(*args)) == repr(std(*args))
    assert "hidden" not in repr(ours("wall", 3, "a note", "hidden"))


@pytest.mark.parametrize("frozen", [False, True])
def test_equality_compares_the_compared_fields_of_the_same_class(frozen):
    std, ours = _pair(frozen)
    cases = [(("a", 1, "x"), ("a", 1, "y")), (("a", 1), ("a", 2)), (("a", 1), ("b", 1)), (("a", 1, "", "s"), ("a", 1, "", "t"))]
    for left, right in cases:
        assert (ours(*left) == ours(*right)) == (std(*left) == std(*right))
        assert (ours(*left) != ours(*right)) == (std(*left) != std(*right))
    assert ours("a") != std("a")  # another class is never equal, as with dataclass
    assert ours("a").__eq__(("a", 1)) is NotImplemented


def test_a_frozen_class_hashes_as_the_standard_librarys_and_refuses_assignment():
    std, ours = _pair(frozen=True)
    assert hash(ours("a", 2, "note")) == hash(std("a", 2, "other")) == hash(("a", 2, ""))
    assert {ours("a", 2, "x"), ours("a", 2, "y")} == {ours("a", 2)}
    with pytest.raises(dataclasses.FrozenInstanceError):
        ours("a").count = 3


def test_a_class_that_is_not_frozen_cannot_be_hashed():
    _, ours = _pair()
    with pytest.raises(TypeError):
        hash(ours("a"))


def test_without_eq_instances_compare_and_hash_by_identity():
    _, ours = _pair(eq=False)
    one = ours("a")
    assert one != ours("a") and one == one
    assert hash(one) == object.__hash__(one)


def test_a_subclass_compares_and_shows_its_own_fields():
    @plain.dataclass
    class Turn:
        """A turn."""

        player: str = ""

    @plain.dataclass
    class Trade(Turn):
        """A trade."""

        goods: tuple = ()

    assert repr(Trade("red", ("salt",))) == "test_a_subclass_compares_and_shows_its_own_fields.<locals>.Trade(player='red', goods=('salt',))"
    assert Trade("red", ("salt",)) == Trade("red", ("salt",))
    assert Trade("red", ("salt",)) != Trade("red", ("fish",))
    assert Trade("red") != Turn("red")
    assert Turn("red") == Turn("red")


def test_a_method_the_class_writes_itself_is_kept():
    @plain.dataclass(frozen=True)
    class Named:
        """Equal by name only."""

        name: str
        extra: int = 0

        def __eq__(self, other):
            return isinstance(other, Named) and other.name == self.name

        def __hash__(self):
            return hash(self.name)

        def __repr__(self):
            return f"<{self.name}>"

    assert Named("a", 1) == Named("a", 2)
    assert hash(Named("a", 1)) == hash("a")
    assert repr(Named("a")) == "<a>"


def test_an_instance_that_holds_itself_is_shown_as_the_standard_library_shows_it():
    std, ours = _pair()
    a, b = std("cube"), ours("cube")
    a.kind, b.kind = a, b
    assert repr(b) == repr(a)
    assert "..." in repr(b)


def test_init_takes_the_arguments_the_standard_library_gives_it():
    def body():
        class Move:
            """A move with every kind of field."""

            player: str
            count: int = 2
            items: list = dataclasses.field(default_factory=list)
            seen: set = dataclasses.field(default_factory=set, init=False)
            shown: str = dataclasses.field(default="", init=False)
            pos: object = dataclasses.field(default=None, kw_only=True)
            tags: dict = dataclasses.field(default_factory=dict, kw_only=True)

        return Move

    for frozen in (False, True):
        std, ours = dataclasses.dataclass(body(), frozen=frozen), plain.dataclass(body(), frozen=frozen)
        assert str(inspect.signature(ours)) == str(inspect.signature(std))  # names, kinds, defaults, annotations
        assert [(p.name, p.kind) for p in inspect.signature(ours).parameters.values()] == [(p.name, p.kind) for p in inspect.signature(std).parameters.values()]
        for args, kwargs in [(("red",), {}), (("red", 3, [1]), {"pos": 7, "tags": {"a": 1}})]:
            a, b = std(*args, **kwargs), ours(*args, **kwargs)
            assert {f.name: getattr(b, f.name) for f in dataclasses.fields(b)} == {f.name: getattr(a, f.name) for f in dataclasses.fields(a)}
        assert ours("red").items is not ours("red").items  # a fresh list from the factory each time
        with pytest.raises(TypeError):
            ours("red", 3, [], set())  # a field left out of __init__ takes no argument
        with pytest.raises(TypeError):
            ours()


def test_post_init_runs_after_every_field_is_set():
    @plain.dataclass
    class Board:
        """Rows counted from the tiles when not given."""

        tiles: list
        rows: int | None = None

        def __post_init__(self):
            if self.rows is None:
                self.rows = len(self.tiles)

    assert Board([1, 2]).rows == 2 and Board([1], 5).rows == 5


def test_a_frozen_class_refuses_to_set_or_delete_any_attribute_as_the_standard_librarys_does():
    std, ours = _pair(frozen=True)
    for made in (std, ours):
        piece = made("a")
        for action in (lambda: setattr(piece, "count", 3), lambda: setattr(piece, "other", 1), lambda: delattr(piece, "kind")):
            with pytest.raises(dataclasses.FrozenInstanceError) as refused:
                action()
            assert str(refused.value).startswith(("cannot assign to field", "cannot delete field"))
    assert copy.deepcopy(ours("a", 2)) == ours("a", 2)
    assert pickle.loads(pickle.dumps(Pos(3, 4, 9))) == Pos(3, 4, 9)  # as the spec cache stores its frozen records


def test_a_frozen_class_and_its_subclasses_are_frozen_together():
    @plain.dataclass(frozen=True)
    class Fixed:
        """Frozen."""

        name: str

    @plain.dataclass(frozen=True)
    class FixedToo(Fixed):
        """Frozen, as its base."""

        size: int = 1

    with pytest.raises(dataclasses.FrozenInstanceError):
        FixedToo("a").size = 2
    with pytest.raises(TypeError):
        @plain.dataclass
        class Loose(Fixed):
            """Not frozen, on a frozen base."""

    with pytest.raises(TypeError):
        @plain.dataclass(frozen=True)
        class Stiff(_pair()[1]):  # a frozen class on a base that is not
            """Frozen, on a base that is not."""


def test_an_init_the_class_writes_is_kept_and_an_initvar_is_refused():
    @plain.dataclass
    class Own:
        """Writes its own __init__."""

        name: str = ""

        def __init__(self, text):
            self.name = text.upper()

    assert Own("a").name == "A"
    with pytest.raises(TypeError):
        @plain.dataclass
        class Passed:
            """An InitVar would be passed to __post_init__."""

            seed: dataclasses.InitVar[int]


def test_a_class_without_a_docstring_gets_the_one_dataclasses_writes():
    def body():
        class Bare:
            name: str
            size: int = 1
            items: list = dataclasses.field(default_factory=list)

        return Bare

    assert plain.dataclass(body()).__doc__ == dataclasses.dataclass(body()).__doc__ == "Bare(name: 'str', size: 'int' = 1, items: 'list' = <factory>)"


def test_a_field_named_self_and_a_field_without_default_after_one_with_are_met_as_dataclasses_meets_them():
    def body():
        class Odd:
            """A field named self."""

            self: str
            other: int = 0

        return Odd

    std, ours = dataclasses.dataclass(body()), plain.dataclass(body())
    assert str(inspect.signature(ours)) == str(inspect.signature(std))
    assert ours("me", 2).self == "me" and ours(self="me").other == 0

    def misordered():
        class Misordered:
            """A field without a default after one with."""

            first: int = 0
            second: int

        return Misordered

    for make in (dataclasses.dataclass, plain.dataclass):
        with pytest.raises(TypeError, match="non-default argument 'second' follows default argument"):
            make(misordered())
