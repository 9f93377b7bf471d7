"""Every help text of every command, in Hungarian and German: none is left in English."""

from __future__ import annotations

import argparse

import pytest

from referee.cli.arguments import build_parser
from referee.i18n import speaking
from referee.i18n.catalogue import translations
from referee.server import BURST, RATE


def texts(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each help text of the parser and its commands, by where it is shown."""
    found = {"referee: description": parser.description, "referee: epilog": parser.epilog}
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        found[f"{name}: description"] = sub.description
        found[f"{name}: epilog"] = sub.epilog
        for action in sub._actions:
            if not isinstance(action, argparse._HelpAction):
                found[f"{name} {'/'.join(action.option_strings) or action.dest}"] = action.help
    for action in commands._choices_actions:
        found[f"referee --help: {action.dest}"] = action.help
    return {where: text for where, text in found.items() if text and text != argparse.SUPPRESS}


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_every_help_text_of_every_command_is_translated(lang):
    english = texts(build_parser())
    with speaking(lang):
        translated = texts(build_parser())
    assert set(translated) == set(english)
    assert {"serve --host", "box: description", "rule rule", "lab --agent", "repair: epilog"} <= set(english)
    left = [where for where, text in english.items() if translated[where] == text or translated[where] != told(lang, where, text)]
    assert left == []


# The help texts that list the games of the data folder, and the template each is made from.
GAME_LISTS = {
    "referee: description": "Referee for {games}: replays game records against the rules.",
    "record --game": "the game of a new record, in any case: {games}",
    "play game": "the game, in any case: {games}",
    "box game": "the game, in any case: {games}",
    "lab game": "the game ({games}), or 'replay' to check RECORDS again under --variant",
}


def test_the_help_lists_the_games_of_the_registry_in_each_language():
    """The games are not written in the help: a game folder of the data is listed by its id
    where a command takes one, and by its name in the language of the help in the description."""
    from referee.spec.loader import available_games, load_spec

    for lang in ("en", "hu", "de"):
        with speaking(lang):
            found = texts(build_parser())
        names = [load_spec(game).meta["names"][lang] for game in available_games()]
        assert all(name in found["referee: description"] for name in names), (lang, found["referee: description"])
        for where in set(GAME_LISTS) - {"referee: description"}:
            assert all(game in found[where] for game in available_games()), (lang, where)


# The help texts with a default filled in, the template each is made from and the figures.
FILLED = {
    "serve --rate": ("requests a second each address may make, in bursts of {burst} times as many (default: {rate:g}; raise it where many phones share one address)", {"burst": BURST, "rate": RATE})
}


def told(lang: str, where: str, text: str) -> str:
    """The help text shown at `where` in `lang`, from its English text or its template."""
    if where in FILLED:
        template, figures = FILLED[where]
        return translations(lang).gettext(template).format(**figures)
    return expected(lang, GAME_LISTS.get(where, text), where in GAME_LISTS)


def expected(lang: str, text: str, lists_games: bool = False) -> str:
    """A help text as the catalogue of `lang` gives it; a command's description that is its
    one-line help made a sentence is the translated one-liner made a sentence; a text that
    lists the games is its template's translation with the games listed in that language."""
    t = translations(lang).gettext
    if lists_games:
        from referee.cli.arguments import games, listed

        with speaking(lang):
            names = text.startswith("Referee")
            return t(text).format(games=listed(games(names=names), "standard" if names else "or"))
    if t(text) == text and text.endswith("."):
        line = t(text[:1].lower() + text[1:-1])
        return line[:1].upper() + line[1:] + "."
    return t(text)


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_commands_own_messages_in_the_language_asked(lang, capsys, tmp_path):
    """Usage errors and reports of the commands themselves (not of argparse) are the catalogue's."""
    from referee.cli.main import main

    t = translations(lang).gettext
    record = tmp_path / "game.log"
    record.write_text('[Game "speicherstadt"]\n[Players "beige, orange"]\n', encoding="utf-8")
    cases = [
        (["repair", str(record), "--in-place", "-o", "x.log"], 2, "err", "give either --in-place or -o OUT, not both", {}),
        (["show", str(record), "--at", "-1"], 2, "err", "--at takes a move number of 0 or more", {}),
        (["lab", "speicherstadt"], 2, "err", "lab needs --players N", {}),
        (["repair", str(record)], 0, "err", "{file}: nothing to repair", {"file": record}),
        (["rule", "purchase-funds"], 0, "out", "referee check says:", {}),
        (["lab", "speicherstadt", "--players", "3", "--games", "0"], 2, "err", "--games needs 1 or more", {}),
        (["serve", "--port", "99999"], 2, "err", "--port takes a port number from 1 to 65535, not {port}", {"port": 99999}),
        (["serve", "--rate", "0"], 2, "err", "--rate takes a number of requests a second above 0 and at most 100000, not {rate}", {"rate": 0.0}),
        (
            ["record", str(tmp_path / "new.log")],
            2,
            "err",
            '{path} does not exist yet: a new record needs --game and --players, for example --game speicherstadt --players "red Ann, blue Ben"',
            {"path": tmp_path / "new.log"},
        ),
    ]
    for args, code, stream, english, values in cases:
        assert main([*args, "--lang", lang]) == code, args
        shown = getattr(capsys.readouterr(), stream)
        assert t(english) != english and t(english).format(**values) in shown, args


def test_a_new_game_folder_shows_up_in_the_help(tmp_path, monkeypatch):
    import shutil

    from referee.spec.loader import specs_root

    data = tmp_path / "data"
    shutil.copytree(specs_root(), data / "specs")
    (data / "specs" / "zollhaus").mkdir()
    (data / "specs" / "zollhaus" / "game.yaml").write_text("kind: game\nid: zollhaus\nnames: {en: The Customs House, de: Das Zollhaus, hu: A vámház}\n", encoding="utf-8")
    monkeypatch.setenv("REFEREE_DATA", str(data))
    for lang, name in (("en", "The Customs House"), ("hu", "A vámház"), ("de", "Das Zollhaus")):
        with speaking(lang):
            found = texts(build_parser())
        assert name in found["referee: description"], lang
        assert "zollhaus" in found["play game"] and "zollhaus" in found["lab game"], lang
