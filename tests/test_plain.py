"""The shared data-class methods (referee/plain.py) behave as the ones dataclasses compiles."""

from __future__ import annotations

import dataclasses

import pytest

from referee import plain


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
