"""The subpackages stand in layers, and no import runs back up: data -> notation -> the games
-> the engine -> what people see -> the public API -> the front ends -> the command line.

Every import statement counts, wherever it stands (test_layout.py's walker): one inside a
function or under `if TYPE_CHECKING:` still makes the lower layer need the upper one.
"""

from __future__ import annotations

import ast

from tests.test_layout import PACKAGE, graph

# From the bottom up; the top-level modules and subpackages of `referee` in each layer. A
# module may import from its own layer and the layers below it.
LAYERS: list[set[str]] = [
    {"errors", "terminal", "i18n", "_cache", "copying"},  # what every stage uses
    {"spec"},  # the data: specs, overlays, box files
    {"notation"},  # reading a record
    {"drawing"},  # the pieces pictures and sentences are made of
    {"games"},  # each game: rules, its notation, search, pictures, sentences
    {"engine"},  # positions, replay with visitors, ledger, rulings
    {"report"},  # text and JSON of a check, explain, show
    {"pictures"},  # SVG positions, the replay page
    {"(api)"},  # referee/__init__.py: the public API, which the front ends drive the engine by
    {"recording", "lab", "box"},  # callers of the engine
    {"server", "site"},  # the web app (on the recorder's files), the rulebook site
    {"cli", "__main__"},  # the command line
]

# Upward imports that other parts of the code still make, each with where it should import
# from instead. The list only shrinks.
KNOWN: dict[tuple[str, str], str] = {}


def layer_of(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "(api)"
    for index, names in enumerate(LAYERS):
        if top in names:
            return index
    raise AssertionError(f"{module}: {top} is in no layer of tests/test_layers.py; give it one")


def upward(edges: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The imports of a module from a layer above its own."""
    return {(m, d) for m, deps in edges.items() for d in deps if layer_of(d) > layer_of(m)}


def test_the_walker_sees_an_upward_import():
    edges = {"referee.games.x.rules": {"referee.report.show", "referee.spec.loader"}, "referee.report.show": {"referee.games.x.rules"}}
    assert upward(edges) == {("referee.games.x.rules", "referee.report.show")}


def test_every_subpackage_has_a_layer():
    tops = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file() or p.suffix == ".py"}
    tops = {name.removesuffix(".py") for name in tops} - {"__init__"}
    assert tops <= set().union(*LAYERS)


def test_no_import_runs_back_up_a_layer():
    found = upward(graph())
    assert found - KNOWN.keys() == set()
    assert KNOWN.keys() - found == set(), "an exception that no longer happens: strike it from KNOWN"


def test_a_rule_is_stated_one_way():
    """Every rule of a game is `require(condition, rule_id, message, ...)`: no game module
    raises Violation itself, so a ruling of the table sets every rule aside the same way."""
    stated_otherwise = []
    for path in sorted((PACKAGE / "games").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and getattr(node.exc.func, "id", None) == "Violation":
                stated_otherwise.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert stated_otherwise == ["games/base.py:" + str(_require_raise_line())]


def _require_raise_line() -> int:
    source = (PACKAGE / "games" / "base.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    (require,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "require"]
    (raised,) = [n for n in ast.walk(require) if isinstance(n, ast.Raise)]
    return raised.lineno
