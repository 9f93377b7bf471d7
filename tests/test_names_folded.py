"""Names typed as a keyboard allows: without accents, ß as ss, umlauts written out.

Every name a spec gives (in each language, and each alias), in every place a record writes
that kind of name (the places of `test_names`), is read to the same move as the English name
when it is typed without its accents (kávé: kave) and with its umlauts written out
(Kaffeeröster: Kaffeeroester). A folded name that two things share is refused with both.
"""

from __future__ import annotations

import pytest

from referee.engine.replay import check_bytes
from referee.errors import RecordError
from referee.notation.names import Names, folded, index, spelled_out, spelling
from tests.test_names import HEADERS, _cases, _line, _move


def _folded_cases():
    for case in _cases():
        game, template, name, english = case.values
        for form in sorted({folded(name), folded(spelled_out(name))} - {spelling(name)}):
            yield pytest.param(game, template, form, english, id=f"{case.id}:{form}")


FOLDED = list(_folded_cases())


def test_the_specs_have_names_with_accents_to_fold():
    """Without names to fold the test below would pass on nothing."""
    games = {c.values[0] for c in FOLDED}
    assert games == {"speicherstadt", "hamburgum", "canterbury"}
    assert len(FOLDED) > 100


@pytest.mark.parametrize("game, template, form, english", FOLDED)
def test_each_name_without_accents_parses_to_the_move_of_the_english_name(game, template, form, english):
    assert _move(game, _line(template, form)) == _move(game, _line(template, english))


@pytest.mark.parametrize("game, template, form, english", FOLDED[::11])
def test_folded_names_are_read_in_any_case(game, template, form, english):
    line = _line(template, form)
    upper = line.upper().replace("REVEAL", "Reveal")
    assert _move(game, upper) == _move(game, line)


@pytest.mark.parametrize(
    "line, card",
    [
        ("reveal kaveporkolo", "coffee-roaster"),
        ("reveal Kaffeeröster", "coffee-roaster"),
        ("reveal Kaffeeroester", "coffee-roaster"),
        ("reveal Kaffeerosterei", "coffee-roaster"),
        ("reveal Teppichhändler", "carpet-trader"),
        ("reveal teppichhaendler", "carpet-trader"),
        ("reveal szonyegkereskedo", "carpet-trader"),
        ("reveal FLUSSSCHIFFERKIRCHE", "boatsmen-church"),
        ("reveal Raktar", "warehouse"),
    ],
)
def test_the_cards_of_the_issue(line, card):
    assert _move("speicherstadt", line).card == card


def test_the_goods_and_keywords_of_the_issue():
    move = _move("speicherstadt", "beige: Raktar in kave")
    assert (move.action, move.goods) == ("warehouse_in", ("coffee",))
    assert _move("speicherstadt", "beige: sell safrany").goods == ("saffron",)


@pytest.mark.parametrize(
    "line",
    [
        "blue: dupla építkezés well b3",
        "blue: dupla-építkezés well b3",
        "blue: Dupla Epitkezes well b3",
        "blue: dupla-epitkezes well b3",
        "blue: Großer Bau Brunnen b3",
        "blue: grosser-bau brunnen b3",
    ],
)
def test_canterbury_actions_as_the_pages_write_them(line):
    move = _move("canterbury", line)
    assert (move.kind, move.builds[0].structure) == ("full-build", "well")


@pytest.mark.parametrize("line", ["blue: látogatás a kincstárban", "blue: latogatas-a-kincstarban", "blue: Abgabe"])
def test_canterbury_levy_as_the_pages_write_it(line):
    assert _move("canterbury", line).kind == "levy"


def test_a_folded_name_two_things_share_lists_both():
    names = index({"circle": {"names": {"hu": "kör"}}, "illness": {"names": {"hu": "kór"}}})
    assert "kör" in names and names["kór"] == "illness"
    assert "kor" not in names
    assert names.ambiguous("kor") == ["kór", "kör"]
    assert names.get("kor") is None


def test_an_exact_spelling_wins_over_a_folded_one():
    names = index({"a": {"names": {"en": "kor"}}, "b": {"names": {"hu": "kör"}}})
    assert names["kor"] == "a" and names["kör"] == "b" and names.ambiguous("kor") == []


def test_the_ambiguous_message_names_the_candidates(tmp_path):
    overlay = tmp_path / "clash.yaml"
    overlay.write_text(
        "kind: variant\nid: clash\ngame: speicherstadt\ntitle: clash\n"
        "changes:\n  cards:\n    types:\n      bank:\n        names: {en: Bank, de: Bank, hu: Kávéház}\n"
        "      port:\n        names: {en: Port, de: Hafen, hu: Kavehaz}\n",
        encoding="utf-8",
    )
    report = check_bytes((HEADERS["speicherstadt"] + "reveal kávehaz\n").encode(), "t.log", [str(overlay)])
    message = report.errors[0].message
    assert "kavehaz" in message and "kávéház" in message and "may name 2 cards" in message


def test_a_changed_index_folds_its_new_spellings():
    names = Names({"kávé": "coffee"})
    assert names["kave"] == "coffee"
    names["szőnyeg"] = "carpet"
    assert names["szonyeg"] == "carpet" and "szoenyeg" in names


HU = '[Game "canterbury"]\n[Players "kék Anna, piros Ben, zöld"]\n[Start "Piros"]\n\n'


@pytest.mark.parametrize("word", ["kék", "kek", "KÉK", "Blau", "blau", "blue", "Anna"])
def test_colours_in_three_languages(word):
    report = check_bytes((HU + f"red: full build well c4\nzold: full build well d3\n{word}: full build well b3\n").encode(), "t.log")
    assert report.status == "legal", [d.message for d in report.diagnostics]
    assert [s.colour for s in report.state.seats] == ["blue", "red", "green"]
    assert [e.player for e in report.record.entries] == ["red", "green", "blue"]


@pytest.mark.parametrize("word", ["Grün", "gruen", "grun", "zold", "ZÖLD"])
def test_a_german_or_hungarian_colour_in_the_players_tag(word):
    text = f'[Game "canterbury"]\n[Players "blue, red, {word}"]\n\ngreen: full build well b3\n'
    report = check_bytes(text.encode(), "t.log")
    assert [s.colour for s in report.state.seats] == ["blue", "red", "green"]


def test_an_unseated_colour_is_still_no_player():
    report = check_bytes((HU + "sárga: full build well b3\n").encode(), "t.log")
    assert report.errors and "sárga" in report.errors[0].message


def test_a_colour_seated_twice_in_two_languages_is_refused():
    from referee.games import load_game

    header = _move_header('[Game "canterbury"]\n[Players "blue, kék, red"]\n')
    with pytest.raises(RecordError, match="seated twice"):
        load_game("canterbury").seats_from_header(header)


def _move_header(text):
    from referee.games import load_game
    from referee.notation.parser import parse

    game = load_game("canterbury")
    return parse(text, "t.log", "canterbury", game.build_move, keywords=game.keywords()).header


# --- a whole game written in another language --------------------------------------------


def _translated(record: str, game, lang: str, fold: bool) -> str:
    """A record with every colour, card, good, structure and keyword in `lang`."""
    import re

    from referee.notation.colours import _table
    from referee.spec.loader import specs_root

    spec = game.spec
    colours = _table(str(specs_root()))

    def name(entry, fallback, spelt=spelling):
        text = spelt((entry.get("names") or {}).get(lang) or fallback)
        return " ".join(folded(w) if fold else w for w in text.split(" "))

    def said(text):  # a keyword of several words as the pages write it: Steuer & Bau
        return " ".join(w.lower() for w in text.split())

    words: dict[str, str] = {}
    if game.name == "speicherstadt":
        words.update({t: name(e, t) for t, e in spec["cards"]["types"].items()})
        words.update({g: name(e, g) for g, e in spec["components"]["goods"].items()})
        keywords = {"hall": name(spec["components"]["market_hall"], "hall"), "contract": words["contract"], "warehouse": words["warehouse"]}
    else:
        words.update({s: name(e, s) for s, e in spec["structures"]["structures"].items()})
        keywords = {k.replace("-", " "): name(e, k, said).replace(" ", "-" if lang == "hu" else " ") for k, e in spec["setup"]["actions"].items()}
    seat = {c: name(colours[c], c) for c in spec.meta["colours"]}

    def turn(rest: str, move: bool) -> str:
        if move:
            for english, other in keywords.items():
                rest = re.sub(rf"^{english}\b", other, rest)
        return re.sub(r"[a-z][a-z-]*", lambda m: words.get(m.group(), m.group()), rest)

    out = []
    for line in record.splitlines():
        if line.startswith("[Players"):
            line = re.sub(r"\b[a-z]+\b", lambda m: seat.get(m.group(), m.group()), line)
        elif line.startswith("[Start"):
            line = re.sub(r'"(\w+)"', lambda m: f'"{seat[m.group(1)]}"', line)
        elif line.startswith("check ") and line.split()[1].rstrip(":") in seat:
            who, rest = line[len("check ") :].split(": ", 1)
            line = f"check {seat[who]}: {turn(rest, False)}"
        elif ": " in line and not line.startswith(("check ", "[")):
            who, rest = line.split(": ", 1)
            line = f"{seat[who]}: {turn(rest, True)}"
        elif line.startswith("reveal "):
            line = "reveal " + turn(line[len("reveal ") :], False)
        out.append(line)
    return "\n".join(out) + "\n"


def _summary(report):
    return (report.status, report.moves, report.checkpoints_confirmed, [(s.seat.colour, s.total) for s in report.state.standings()], [d.message for d in report.diagnostics])


@pytest.mark.parametrize("game_name, seed", [("speicherstadt", 3), ("canterbury", 4)])
@pytest.mark.parametrize("lang, fold", [("hu", False), ("hu", True), ("de", True)])
def test_a_random_game_in_another_language_checks_the_same(game_name, seed, lang, fold):
    from referee.games import load_game
    from referee.lab.random_game import play_game

    english = play_game(game_name, 3, seed)
    other = _translated(english, load_game(game_name), lang, fold)
    assert other != english
    first, second = check_bytes(english.encode(), "en.log"), check_bytes(other.encode(), f"{lang}.log")
    assert first.status == "legal" and first.moves > 30
    assert _summary(second) == _summary(first), other[:2000]
