"""Every name a spec gives is accepted where a record writes that kind of name.

The test walks every spec file of every game and finds every `names` (English, German,
Hungarian) and every `aliases`. Each place it finds is either a kind of name a record writes,
with the record lines that write it, or a name a record never writes (with the reason). Every
name of the first kind must parse, in its place, to the same move as the English name; a new
kind of name in a spec fails here until it is given its place.
"""

from __future__ import annotations

import fnmatch
import unicodedata

import pytest

from referee.engine.replay import check_bytes
from referee.games import load_game
from referee.notation.names import names_of, spelling, words
from referee.notation.parser import parse

HEADERS = {
    "speicherstadt": '[Game "speicherstadt"]\n[Players "beige, orange"]\n\n',
    "hamburgum": '[Game "hamburgum"]\n[Players "red, blue"]\n\n',
    "canterbury": '[Game "canterbury"]\n[Players "blue, red, green"]\n\n',
}

# A word written as one token (`{w}`: hyphens for spaces) or as the keyword's words (`{k}`).
# Speicherstadt card faces, by card type, so that each reveal is complete.
FACES = {"ship": " coffee tea rubber", "fireman": " 3", "fire": " 2", "contract": " coffee tea"}

# place of a name in the specs (file and key path, `*` for any key) -> record lines that write it
PLACES = {
    "speicherstadt": {
        "cards/types/*": lambda eid: ["reveal {w}" + FACES.get(eid, "")] + {"contract": ["beige: {k} 1 coffee"], "warehouse": ["beige: {k} in coffee", "beige: {k} out tea"]}.get(eid, []),
        "components/goods/*": lambda eid: ["beige: sell {w}", "reveal contract tea {w}", "beige: hall exchange tea tea tea for {w}"],
        "components/market_hall": lambda eid: ["beige: {k} keep coffee", "beige: {k} exchange tea tea tea for coffee"],
    },
    "hamburgum": {
        "board/parishes/*": lambda eid: ["red: guildhall brewery at {w} 1"],
        "churches/tokens/*": lambda eid: ["red: church nikolai donate {w}", "red: church score nikolai {w}"],
        "churches/churches/*": lambda eid: ["red: church {w} donate five", "red: guildhall brewery at {w} 2", "red: guildhall canon at petri 1 donate {w} ship"],
        "components/goods/*": lambda eid: ["red: upper trade sell 1 {w}", "red: lower trade bank 2 {w}", "red: {w} 1"],
        "components/materials/*": lambda eid: ["red: upper trade buy 1 {w}"],
        "houses/types/*": lambda eid: ["red: guildhall {w} at nikolai 1"],
        "offices/offices/*": lambda eid: ["reveal {w}", "red: guildhall {w} at nikolai 1"],
        "market/bank_sale": lambda eid: ["red: upper trade sell 1 beer, {k} 1 sugar"],
        "rondel/sides/*": lambda eid: ["red: {w} trade sell 1 beer"],
        "rondel/actions/*": lambda eid: {
            "trade": ["red: upper {k} sell 1 beer", "red: {k} buy 2 wood"],
            "dockyard": ["red: {k} 2"],
            "church": ["red: {k} nikolai donate five"],
            "guildhall": ["red: {k} brewery at nikolai 1"],
        }.get(eid, ["red: {w}", "red: {w} 2"]),
    },
    "canterbury": {
        "board": lambda eid: ["blue: full build well {w}", "red: neutral well {w}"],
        "setup/actions/*": lambda eid: {"levy": ["blue: {k}"]}.get(eid, ["blue: {k} well b3, garden b3"]),
        "structures/structures/*": lambda eid: ["blue: full build {w} b3", "blue: full build farm b3 demolish {w}", "red: neutral skip {w}, farm c2"],
    },
}

# names a record never writes, and why
NOT_WRITTEN = {
    "*/game": "the game's name: a [Game] tag, tested below",
    "*/game/phases/*": "phases are never written: the moves show where a round is",
    "*/game/after_last_round/*": "nor are the steps after the last round: the moves show them",
    "*/game/boards/*": "a board side is chosen with a variant, by the variant's name",
    "speicherstadt/cards/seasons/*": "seasons are never written: the draw pile's order is the spec's",
    "speicherstadt/components/start_player_token": "the start player is the [Start] tag",
    "hamburgum/board": "the board's own name; a board side is chosen with a variant",
    "hamburgum/churches": "the names of board parts (church table, donation table)",
    "hamburgum/components/money": "money is a checkpoint figure, `money`",
    "hamburgum/components/per_player/*": "pieces a player owns are counted by checkpoint figures",
    "hamburgum/components/flying_dutchmen": "the captain's Flying Dutchman enters by itself",
    "hamburgum/components/prestige": "prestige is a checkpoint figure, `prestige`",
    "hamburgum/harbour": "the harbour is never named in a record",
    "hamburgum/harbour/berths/*": "ships are never placed by hand: they enter and shift by the rules",
    "hamburgum/market/goods_price": "a price table is never named in a record",
    "hamburgum/market/materials_price": "a price table is never named in a record",
    "hamburgum/rondel": "the rondel is never named: its spaces are the actions",
    "canterbury/board/rings/*": "rings are never named: districts are",
    "canterbury/services/services/*": "services are never named in moves; the checkpoint figures name them by id",
    "canterbury/setup/ranks/*": "rank markers follow the seats",
    "canterbury/structures/sizes/*": "sizes are never named: structures are",
}


def _walk(node, path):
    """Every mapping that gives names or aliases, with its path."""
    if isinstance(node, dict):
        if isinstance(node.get("names"), dict) or isinstance(node.get("aliases"), (list, dict)):
            yield path, node
        for key, value in node.items():
            yield from _walk(value, path + (str(key),))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, path + (str(i),))


def _sites(game):
    spec = load_game(game).spec
    for stem, data in spec.files.items():
        yield from _walk(data, (stem,))


def _matches(game, path, pattern):
    return fnmatch.fnmatchcase(f"{game}/{'/'.join(path)}", pattern if pattern.startswith(("*/", game + "/")) else f"{game}/{pattern}")


def _spellings(node, eid):
    """The names of a place, each with the English name it must mean: the names in each
    language and the aliases of an entry, or the entries of an alias table."""
    aliases = node.get("aliases")
    if isinstance(aliases, dict):
        return list(aliases.items())
    english = (node.get("names") or {}).get("en") or eid
    return [(name, english) for name in names_of(node)]


def _cases():
    for game in PLACES:
        for path, node in _sites(game):
            places = [p for p in PLACES[game] if _matches(game, path, p)]
            if not places:
                continue
            eid = path[-1]
            for template in PLACES[game][places[0]](eid):
                for name, english in _spellings(node, eid):
                    yield pytest.param(game, template, name, english, id=f"{game}:{'/'.join(path)}:{name}:{template}")


def _line(template, name):
    return template.format(w=spelling(name), k=" ".join(words(name)))


def _move(game, line):
    g = load_game(game)
    record = parse(HEADERS[game] + line + "\n", "names", game, g.build_move, keywords=g.keywords())
    return record.entries[0]


@pytest.mark.parametrize("game", sorted(PLACES))
def test_every_name_in_the_specs_has_a_place_or_a_reason(game):
    unplaced = []
    for path, _ in _sites(game):
        placed = [p for p in PLACES[game] if _matches(game, path, p)]
        excused = [p for p in NOT_WRITTEN if _matches(game, path, p)]
        if len(placed) + len(excused) != 1:
            unplaced.append(("/".join(path), placed, excused))
    assert not unplaced


@pytest.mark.parametrize("game, template, name, english", list(_cases()))
def test_each_name_parses_in_its_place_to_the_move_of_the_english_name(game, template, name, english):
    assert _move(game, _line(template, name)) == _move(game, _line(template, english))


@pytest.mark.parametrize("game, template, name, english", [c for c in _cases() if c.values[2] != c.values[3]][::7])
def test_names_are_read_in_any_case(game, template, name, english):
    line = _line(template, name)
    upper = line.upper().replace("REVEAL", "Reveal")
    assert _move(game, upper) == _move(game, line)


def test_keywords_are_case_insensitive():
    record = HEADERS["speicherstadt"] + "Round 1\nREVEAL Warehouse\nReveal contract coffee tea\nCheck beige: Coins 5\n"
    report = check_bytes(record.encode(), "t.log")
    assert report.status == "legal", [d.message for d in report.diagnostics]
    assert report.checkpoints_confirmed == 1
    report = check_bytes((HEADERS["hamburgum"] + "RED: Beer\nBlue: UPPER Trade SELL 1 beer, BANK 1 sugar\nRESULT red 0\n").encode(), "t.log")
    assert report.moves == 2


def test_a_combining_accent_is_the_same_letter():
    """NFC: `kávé` typed with combining acute accents is the word `kávé`."""
    composed = HEADERS["speicherstadt"] + "reveal Raktár\nreveal contract kávé szőnyeg\n"
    decomposed = unicodedata.normalize("NFD", composed)
    assert decomposed != composed
    for text in (composed, decomposed):
        report = check_bytes(text.encode("utf-8"), "t.log")
        assert report.status == "legal", [d.message for d in report.diagnostics]
        assert [m.card for m in report.record.entries] == ["warehouse", "contract"]
        assert report.record.entries[1].goods == ("carpet", "coffee")


@pytest.mark.parametrize("line", ["reveal contract kávé szőnyeg", "reveal tűzoltó 3", "reveal raktár", "beige: sell sáfrány"])
def test_the_words_of_the_issue_are_read(line):
    move = _move("speicherstadt", line)
    assert move is not None


@pytest.mark.parametrize(
    "game, tag",
    [
        ("speicherstadt", "Die Speicherstadt"),
        ("speicherstadt", "The Speicherstadt"),
        ("speicherstadt", "SPEICHERSTADT"),
        ("hamburgum", "Civitas Hamburgum"),
        ("hamburgum", "Hamburgum"),
        ("canterbury", "Canterbury"),
    ],
)
def test_the_game_tag_takes_the_games_names(game, tag):
    text = HEADERS[game].replace(f'[Game "{game}"]', f'[Game "{tag}"]')
    report = check_bytes(text.encode(), "t.log")
    assert (report.status, report.game) == ("legal", game), [d.message for d in report.diagnostics]


def test_german_action_words_of_the_issue():
    for word, action in (("Kontor", "trade"), ("Werft", "dockyard"), ("Kirche", "church"), ("Rathaus", "guildhall")):
        suffix = {"trade": " sell 1 beer", "dockyard": " 1", "church": "", "guildhall": " brewery at nikolai 1"}[action]
        assert _move("hamburgum", f"red: {word}{suffix}").action == action


def test_an_unknown_keyword_lists_only_the_english_ones():
    report = check_bytes((HEADERS["hamburgum"] + "red: upper trade swap 1 beer\n").encode(), "t.log")
    message = report.errors[0].message
    assert "sell" in message and "buy" in message and "kontor" not in message.lower()


def test_a_spec_name_that_the_grammar_already_has_is_left_out():
    """A spec cannot make two keywords alike: a spelling the grammar has (here `sell`, `hall`,
    or the rule's own `warehouse`) is not added, nor one that is not plain words."""
    from referee.notation.keywords import keyword_rules

    grammar = 'STRING: /"(\\\\.|[^"\\\\\\n])*"/\nx: "sell"i\n_hall: "hall"i\n_warehouse: "warehouse"i\n'
    extension, added = keyword_rules(grammar, (("_warehouse", ("Sell", "WAREHOUSE", "hall", "Lager", "a;b", 'x"y')), ("_nothing", ("z",))))
    assert extension.strip() == '%extend _warehouse: "lager"i'
    assert added == {"lager"}


def test_spec_names_that_clash_do_not_break_the_parser(tmp_path):
    """A variant that gives the market hall the warehouse's German name: the first keyword
    keeps it, and records still read."""
    overlay = tmp_path / "clash.yaml"
    overlay.write_text(
        "kind: variant\nid: clash\ngame: speicherstadt\ntitle: clash\nchanges:\n  components:\n    market_hall:\n      names: {en: market hall, de: Lager}\n",
        encoding="utf-8",
    )
    text = HEADERS["speicherstadt"] + "round 1\nreveal warehouse\n"
    report = check_bytes(text.encode(), "t.log", [str(overlay)])
    assert report.status == "legal", [d.message for d in report.diagnostics]


def test_an_unexpected_word_lists_only_the_grammars_own_keywords():
    report = check_bytes((HEADERS["hamburgum"] + "red: 5\n").encode(), "t.log")
    assert report.errors[0].message == "unexpected '5'; expected a word, church, dockyard, guildhall, trade"
    report = check_bytes((HEADERS["canterbury"] + "blue: build\n").encode(), "t.log")
    assert report.errors[0].message == "unexpected 'build'; expected full, levy, neutral, tax"
