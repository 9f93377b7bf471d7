"""The ledger behind each figure, and `referee explain`."""

from __future__ import annotations

import json

import pytest

from referee.cli.main import main
from referee.engine.replay import check_bytes
from referee.lab.random_game import play_game
from referee.notation.parser import Checkpoint
from referee.spec.loader import available_games

from .speicherstadt.records import TO_ROUND_2, TO_SPRING

# the figures every change of which names the rule that made it
NAMED = {"speicherstadt": ("coins", "points"), "hamburgum": ("money", "prestige"), "canterbury": ("money", "prosperity", "structures", "upgrade", "opening", "districts", "favour", "shillings")}
GAMES = [(game, players, seed) for game in available_games() for players, seed in ((2, 11), (4, 12))]


@pytest.mark.parametrize("game, players, seed", GAMES)
def test_every_ledger_sums_to_the_figure_the_replay_gives(game, players, seed):
    text = play_game(game, players, seed)
    report = check_bytes(text.encode(), "generated.log", ledger=True)
    assert report.status == "legal" and report.complete
    book, state = report.ledger, report.state
    # at every checkpoint that `play` wrote (and the replay confirmed), up to that line ...
    checkpoints = [e for e in report.record.entries if isinstance(e, Checkpoint)]
    assert checkpoints
    for cp in checkpoints:
        for fig in cp.figures:
            assert book.value(cp.player, fig.key, cp.pos.line) == fig.value, (cp.pos.line, cp.player, fig.key)
    # ... and at the end, every figure of everyone a checkpoint may name
    for owner in state.figure_owners():
        for key, value in state.figures(owner).items():
            got = book.value(owner, key)
            assert (sorted(got) if isinstance(value, list) else got) == value, (owner, key)
            if key in NAMED[game]:
                _, changes = book.history(owner, key)
                assert all(part.rule for c in changes for part in c.parts), (owner, key, [c for c in changes if not all(p.rule for p in c.parts)][:2])


def test_a_plain_check_keeps_no_ledger():
    assert check_bytes(TO_SPRING.encode(), "plain.log").ledger is None


def test_a_contradicted_figure_shows_its_last_changes(capsys, tmp_path):
    record = tmp_path / "coins.log"
    record.write_text(TO_ROUND_2 + "round 2\ncheck beige: coins 4\n", encoding="utf-8")
    assert main(["check", str(record)]) == 1
    out = capsys.readouterr().out
    assert "the last changes of beige coins up to line 19" in out
    assert "line 17  beige: buy 3" in out and "bought the Contract in slot 3 [speicherstadt/purchase-funds]" in out
    assert "line 18  round 2" in out and "income, round 1 [speicherstadt/income]" in out
    assert main(["check", "--format", "json", str(record)]) == 1
    [diagnostic] = json.loads(capsys.readouterr().out)["diagnostics"]
    assert diagnostic["figure"] == {"owner": "beige", "key": "coins"}
    assert [(c["line"], c["amount"]) for c in diagnostic["ledger"]] == [(15, -1), (17, -2), (18, 1)]
    assert diagnostic["ledger"][-1]["parts"][0] == {"amount": 1, "rule": "speicherstadt/income", "reason": "income, round 1"}


def test_explain_lists_every_change_with_its_line_move_amount_and_rule(capsys, tmp_path):
    record = tmp_path / "spring.log"
    record.write_text(TO_SPRING, encoding="utf-8")
    assert main(["explain", str(record), "orange", "coins"]) == 0
    out = capsys.readouterr().out.split("\n")
    assert out[0] == f"{record}: orange coins at the end of the record: 2"
    assert out[1].split() == ["start", "5"]
    assert out[2].split()[:5] == ["line", "16", "orange:", "buy", "2"] and "-3" in out[2] and "[speicherstadt/purchase-funds]" in out[2]
    assert out[out.index("see:") - 1].split() == ["=", "2"]
    links = out[out.index("see:") + 1 :]
    assert sorted(line.split()[0] for line in links if line) == ["speicherstadt/income", "speicherstadt/purchase-funds"]


def test_explain_at_a_line_and_in_json(capsys, tmp_path):
    record = tmp_path / "spring.log"
    record.write_text(TO_SPRING, encoding="utf-8")
    assert main(["explain", str(record), "Ben", "coins", "--line", "33", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["owner"], data["figure"], data["line"], data["start"], data["value"]) == ("orange", "coins", 33, 5, 1)
    assert data["start"] + sum(c["amount"] for c in data["changes"]) == data["value"]
    assert all(c["line"] <= 33 for c in data["changes"])
    assert data["see"]["speicherstadt/purchase-funds"].endswith("rules.html#purchase-funds")


def test_explain_a_list_of_goods_and_a_city(capsys, tmp_path):
    record = tmp_path / "spring.log"
    record.write_text(TO_SPRING, encoding="utf-8")
    assert main(["explain", str(record), "beige", "unloaded"]) == 0
    out = capsys.readouterr().out
    assert "+coffee rubber tea" in out and "= " in out
    assert main(["explain", "specs/canterbury/examples/random-2p-seed7.log", "city", "prosperity", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["changes"] and all(p["rule"] == "canterbury/city-marker" for c in data["changes"] for p in c["parts"])


@pytest.mark.parametrize("who, figure, says", [("purple", "coins", "no player 'purple'"), ("beige", "gold", "beige has no figure 'gold'")])
def test_explain_names_what_it_does_not_know(capsys, tmp_path, who, figure, says):
    record = tmp_path / "spring.log"
    record.write_text(TO_SPRING, encoding="utf-8")
    assert main(["explain", str(record), who, figure]) == 2
    assert says in capsys.readouterr().err


def test_explain_follows_a_record_past_its_problems(capsys, tmp_path):
    record = tmp_path / "ruled.log"
    record.write_text(TO_SPRING + "beige: sell coffee\nruling accept: the roaster was lent\norange: place 1\n", encoding="utf-8")
    assert main(["explain", str(record), "beige", "coins"]) == 1
    out = capsys.readouterr().out
    assert "note: the record has 1 problem" in out
    assert "sold coffee to the Coffee Roaster [speicherstadt/trader-owned] (let stand by the ruling on line 84)" in out


def test_explain_says_why_a_record_it_cannot_replay_has_no_ledger(capsys, tmp_path):
    record = tmp_path / "broken.log"
    record.write_text('[Game "speicherstadt"]\n\nreveal warehouse\n', encoding="utf-8")
    assert main(["explain", str(record), "beige", "coins"]) == 3
    err = capsys.readouterr().err
    assert "missing [Players] tag" in err and "cannot be replayed" in err


@pytest.mark.parametrize("game", available_games())
def test_a_contradicted_result_shows_the_last_changes_of_the_score(game):
    text = play_game(game, 2, 11)
    lines = text.rstrip("\n").split("\n")
    colour, points = lines[-1].removeprefix("result ").split(", ")[0].split()
    lines[-1] = lines[-1].replace(f"{colour} {points}", f"{colour} {int(points) + 1}", 1)
    report = check_bytes(("\n".join(lines) + "\n").encode(), "result.log")
    [error] = report.errors
    assert error.rule == f"{game}/result" and error.figure[0] == colour
    assert 0 < len(error.ledger) <= 3
    book = check_bytes(text.encode(), "result.log", ledger=True).ledger
    assert error.ledger == book.history(colour, error.figure[1])[1][-3:]
    assert book.value(colour, error.figure[1]) == int(points)


def test_restore_takes_the_ledger_back_to_the_snapshot():
    from referee import Position, read_record

    record, game = read_record(TO_SPRING, name="spring.log")
    position = Position(game, record.header, record, ledger=True)
    position.resolve(record.entries)
    half = len(record.entries) // 2
    for entry in record.entries[:half]:
        assert position.apply(entry).legal
    mark, book = position.snapshot(), position.book
    kept = {key: list(changes) for key, changes in book.changes.items()}
    for entry in record.entries[half:]:
        assert position.apply(entry).legal
    position.end()
    assert book.changes != kept
    position.restore(mark)
    assert book.changes == kept and book.size == mark.ledger
    for entry in record.entries[half:]:  # played again from there, the ledger is the whole replay's
        assert position.apply(entry).legal
    position.end()
    whole = check_bytes(TO_SPRING.encode(), "spring.log", ledger=True).ledger
    assert book.changes == whole.changes and book.now == whole.now
    with pytest.raises(ValueError):  # a snapshot taken without a ledger cannot say how far it went
        position.restore(Position(game, record.header).snapshot())


def test_a_ruling_that_lets_a_change_stand_is_named_in_the_language_asked(capsys, tmp_path):
    from referee.i18n.catalogue import translations

    record = tmp_path / "ruled.log"
    record.write_text(TO_SPRING + "beige: sell coffee\nruling accept: the roaster was lent\norange: place 1\n", encoding="utf-8")
    assert main(["--lang", "de", "explain", str(record), "beige", "coins"]) == 1
    out = capsys.readouterr().out
    said = translations("de").gettext(" (let stand by the ruling on line {n})")
    assert said != " (let stand by the ruling on line {n})" and "[speicherstadt/trader-owned]" + said.format(n=84) in out
