"""The Speicherstadt and Canterbury in Hungarian and German: `show`, `explain`, `draw` and the
spec checks speak the language asked, for every bundled example.

Expected texts come from the catalogues and the specs' names, never from sentences typed here;
the English words below are what the games' own code prints in English, and none of them may
be left in another language's output (player colours and the notation's words stay English).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.engine.replay import check_bytes
from referee.games import load_game
from referee.games.canterbury import view as canterbury_view
from referee.games.speicherstadt import view as speicherstadt_view
from referee.i18n import _, localized, speaking
from referee.i18n.catalogue import translations
from referee.lab.random_game import play_game
from referee.spec.loader import load_spec

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("hu", "de")
GAMES = ("speicherstadt", "canterbury")

# what the games' views, situations and pictures print in English
ENGLISH = {
    "speicherstadt": [
        "draw pile",
        "bag:",
        "goods stock",
        "cards held",
        "covered:",
        "(complete)",
        "bought by",
        "nobody bought it",
        "no workers",
        "display (",
        "slot ",
        "Purchase:",
        "to act",
        "start player",
        "places a worker",
        "offered to",
        "players move their goods",
        "reveal ",
        "the next card",
        "empty",
        "in the bag",
        "stock:",
        "no cards",
        "goods:",
    ],
    "canterbury": [
        "to act",
        "marker",
        "neutral's next tile",
        "stacks empty",
        "builds from the players' stacks",
        "city: prosperity",
        "district scorings",
        "service slots",
        " outer",
        " inner",
        " centre",
        "where one is possible",
        " or ",
        "next (after",
        "places the",
        "no cube",
        "'s cube",
        "building space",
        "Levy",
        "Tax",
        "discs",
    ],
}
# what the games' rules note in a ledger, in English
NOTES = {
    "speicherstadt": ["bought the", "income", "sold ", "fire of", "final scoring", "firemen", "round "],
    "canterbury": ["paid for", "built ", "upgraded with", "the Levy", "the tax", "district scoring", "King's favour", "shillings", "city points", "opened ", "rank "],
}
FIGURES = {"speicherstadt": ("coins", "points"), "canterbury": ("money", "prosperity")}


def examples(game: str) -> list[Path]:
    return sorted((ROOT / "specs" / game / "examples").glob("*.log"))


CASES = [(game, path) for game in GAMES for path in examples(game)]


def english_names(game: str, lang: str) -> list[str]:
    """The English names of the spec's values that the language names otherwise."""
    spec = load_spec(game)
    if game == "speicherstadt":
        tables = [spec["components"]["goods"], spec["cards"]["types"], {s["id"]: s for s in spec["cards"]["seasons"]}]
    else:
        tables = [spec["structures"]["structures"], {s["id"]: s for s in spec["services"]["services"]}, spec["setup"]["actions"]]
    words = []
    for table in tables:
        for entry in table.values():
            names = entry.get("names") or {}
            if names.get(lang) and names[lang].lower() != names["en"].lower():
                words.append(names["en"])
    return words


def left_in(text: str, words) -> list[str]:
    """The words (as words, not inside others) that the text still holds."""
    found = []
    for word in (w.strip() for w in words):
        before = r"(?<!\w)" if word[0].isalnum() else ""
        after = r"(?!\w)" if word[-1].isalnum() else ""
        if re.search(before + re.escape(word) + after, text):
            found.append(word)
    return found


def run(capsys, *argv: str) -> str:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code in (0, 1), out.err
    return out.out


def lines_of(path: Path) -> list[int]:
    """A few record lines to look at: early, in the middle, at the end."""
    n = len(path.read_text(encoding="utf-8").splitlines())
    return sorted({min(25, n), min(60, n), n // 2, n})


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game, path", CASES, ids=[p.name for _, p in CASES])
def test_show_speaks_the_language_asked(game, path, lang, capsys):
    names = english_names(game, lang)
    heads = {"speicherstadt": speicherstadt_view.HEADS, "canterbury": canterbury_view.HEADS}[game]
    for line in lines_of(path):
        out = run(capsys, "--lang", lang, "show", "--line", str(line), str(path))
        table = out.splitlines()[3]
        with speaking(lang):
            assert re.split(r"\s{2,}", table.strip())[: len(heads)] == [_(h) for h in heads]
        assert all(translations(lang).gettext(head) != head for head in heads)
        text = "\n".join(out.splitlines()[1:])  # the first line holds the file's name
        assert left_in(text, ENGLISH[game]) == [], (line, out)
        assert left_in(text, names) == [], (line, out)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game, path", CASES, ids=[p.name for _, p in CASES])
def test_explain_notes_in_the_language_asked(game, path, lang, capsys):
    seats = re.search(r'^\[Players "([^"]*)"\]', path.read_text(encoding="utf-8"), re.M).group(1)
    colours = [seat.split()[0] for seat in seats.split(",")]
    explained = 0
    for colour, figure in ((c, f) for c in colours for f in FIGURES[game]):
        out = run(capsys, "--lang", lang, "explain", str(path), colour, figure)
        changes = [line for line in out.splitlines() if re.match(r"^\s+\S.*\s[+-]\d+\s", line)]
        explained += len(changes)
        reasons = [re.sub(r"\[[^]]*\]", "", line[54:]) for line in changes]  # after the move and the amount, without rule ids
        assert left_in("\n".join(reasons), NOTES[game] + english_names(game, lang)) == [], out
    assert explained


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game, path", CASES, ids=[p.name for _, p in CASES])
def test_picture_labels_in_the_language_asked(game, path, lang, capsys, tmp_path):
    out = tmp_path / "position.svg"
    line = lines_of(path)[-2]  # before the end: the final standings under a picture are the report's
    run(capsys, "--lang", lang, "draw", "--line", str(line), "-o", str(out), str(path))
    picture = out.read_text(encoding="utf-8")
    words = [re.sub(r"&amp;", "&", w) for w in re.findall(r">([^<>]+)<", picture) + re.findall(r'title="([^"]*)"', picture)]
    words = [w for w in words if "provisional" not in w]  # the drawing's own mark of a stand-in
    assert left_in("\n".join(words), ENGLISH[game] + english_names(game, lang)) == []
    t = translations(lang).gettext
    heads = {"speicherstadt": ("coins", "points"), "canterbury": ("money", "prosperity", "cubes left")}[game]
    for head in heads:
        assert f">{t(head)}<" in picture and t(head) != head


@pytest.mark.parametrize("lang", LANGS)
def test_the_steps_after_the_last_round_have_names(lang):
    game = load_game("speicherstadt")
    with speaking(lang):
        for step in ("final fires", "over"):
            entry = game.phase_entry(step)
            assert entry["names"][lang] and game.phase_title(step) == entry["names"][lang] != step


def variant(tmp_path: Path, game: str, body: str) -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(f"kind: variant\nid: mine\ngame: {game}\ntitle: Mine\nchanges:\n{body}", encoding="utf-8")
    return path


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "game, body, template",
    [
        ("speicherstadt", "  cards:\n    deck: 55\n", "the deck has {deck} cards; the seasons add up to {total}"),
        ("speicherstadt", "  setup:\n    by_players:\n      9: {supply: 3, removed: []}\n", "a set-up for {key} players; the game is for {players}"),
        ("canterbury", "  board:\n    service_slots: 5\n", "{slots} slots per district, but services.yaml lists {n} services"),
        ("canterbury", "  treasury:\n    city:\n      start: 1000\n", "the city cannot start at {start}: the game ends when it reaches {n}"),
    ],
)
def test_a_broken_spec_is_told_in_the_language_asked(game, body, template, lang, tmp_path):
    record = play_game(game, 3, 1).encode("utf-8")
    path = variant(tmp_path, game, body)
    with speaking(lang):
        report = check_bytes(record, "game.log", [str(path)])
        assert report.status == "invalid-spec"
        (error,) = report.errors
        message = localized(error.message)
    said = translations(lang).gettext(template)
    assert said != template
    fixed = [part for part in re.split(r"\{\w+\}", said) if part.strip()]
    assert fixed and all(part in message for part in fixed), message
    assert max(re.split(r"\{\w+\}", template), key=len) not in message
