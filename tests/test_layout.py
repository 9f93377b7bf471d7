"""The package's import graph: data -> rules -> reports, with no circles.

Every import statement of every module counts, including those inside functions and
under `if TYPE_CHECKING:`: an import hidden in a function still ties two modules
together, and a circle through it is still a circle a reader has to untangle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "referee"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "_data" not in p.parts}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The referee modules a module imports, wherever the import statement stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in known else target)
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_walker_sees_a_circle_through_a_function_level_import(tmp_path):
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from referee import cli\n")
    assert imports_of("referee.m", source, {"referee.cli", "referee.m"}) == {"referee.cli"}


def test_no_module_imports_another_that_imports_it_back():
    assert cycles(graph()) == []


def test_errors_are_at_the_bottom():
    assert graph()["referee.errors"] == set()


def test_only_the_entry_point_imports_the_command_line():
    importers = {name for name, deps in graph().items() if "referee.cli.main" in deps}
    assert importers == {"referee.__main__"}


GAMES = sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file())


def test_every_game_is_a_package():
    assert GAMES == ["canterbury", "hamburgum", "speicherstadt"]
    assert not [p.name for p in (PACKAGE / "games").glob("*.py") if p.stem not in ("__init__", "base")]


@pytest.mark.parametrize("game", GAMES)
def test_a_games_rules_never_reach_its_move_search_or_its_game_object(game):
    """The move search reads the rules; the rules never ask the search (the game object does)."""
    edges = graph()
    prefix = f"referee.games.{game}"
    seen, todo = set(), [f"{prefix}.rules"]
    while todo:
        for dep in edges[todo.pop()]:
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    assert f"{prefix}.play" not in seen and f"{prefix}.game" not in seen
