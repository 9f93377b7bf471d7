"""Every command and option says what it does, in `--help` and on the command-line page,
and the page writes each argument the way the command accepts it."""

from __future__ import annotations

import argparse

import pytest

from referee.cli.arguments import build_parser
from referee.cli.main import main
from referee.site import commandline


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_option_of_every_command_has_help():
    missing = []
    parsers = {"referee": build_parser(), **{f"referee {name}": p for name, p in commands().items()}}
    for name, parser in parsers.items():
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if not (action.help or "").strip():
                missing.append(f"{name} {'/'.join(action.option_strings) or action.metavar or action.dest}")
    assert not missing, f"without help: {', '.join(missing)}"


@pytest.mark.parametrize("name", sorted(commands()))
def test_each_commands_help_describes_the_command(name, capsys):
    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    description = out.split("\n\n")[1]
    assert not description.startswith(("options:", "positional")), out
    assert description.strip().endswith(".")


def test_docs_out_is_described_as_a_folder_with_its_default(capsys):
    with pytest.raises(SystemExit):
        main(["docs", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Render the rulebook pages from the specs" in out
    assert "--out DIR the folder to write the pages into" in out and "default: docs/generated" in out
    page = commandline.render(build_parser())
    row = next(line for line in page.splitlines() if line.startswith("| `--out DIR` |") and "pages" in line)
    assert "folder" in row and row.count("docs/generated") == 1 and "FILE" not in row


def test_players_is_described():
    row = next(line for line in commandline.render(build_parser()).splitlines() if line.startswith("| `--players N` |"))
    assert "players" in row.split("|")[2].lower()


def test_game_is_written_on_the_page_as_the_command_accepts_it(tmp_path, capsys):
    row = next(line for line in commandline.render(build_parser()).splitlines() if line.startswith("| `GAME` |"))
    assert "canterbury, hamburgum, or speicherstadt" in row  # the registry's games, as `play` takes them
    for spelling in ("Speicherstadt", "CANTERBURY", "hamburgum"):
        out = tmp_path / f"{spelling}.log"
        assert main(["play", spelling, "--players", "3", "--seed", "1", "--out", str(out)]) == 0
        assert f'[Game "{spelling.lower()}"]' in out.read_text(encoding="utf-8")
