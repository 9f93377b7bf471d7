"""`referee lab`: agents that play, seeded runs that repeat, statistics that hold, the page.

Game counts are small so the file stays fast; the full strength figures are in
benchmarks/lab.py and its README."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.games import load_game
from referee.lab import experiment, stats
from referee.lab.agents import GreedyAgent, make_agent
from referee.lab.random_game import play_game, random_game_start
from referee.lab.runs import run_local, tasks_for
from referee.lab.table import DONE, Table

SEAT_AHEAD = """kind: variant
id: late-seats-ahead
game: hamburgum
title: Later seats start far ahead
description: A test overlay whose head start grows with the seat (seat k gets k times it).
changes:
  setup:
    per_seat:
      prestige: 25
"""

CHEAP_PRESTIGE = """kind: variant
id: cheap-prestige
game: hamburgum
title: Prestige for a coin
description: A test overlay whose final scoring buys a point of prestige with every coin.
changes:
  scoring:
    prestige_price: 1
"""


def _plan(**changes) -> experiment.Plan:
    options = dict(game="speicherstadt", players=3, games=6, agents=["greedy", "random"], seed=5, rotate=True)
    options.update(changes)
    return experiment.Plan(**options)


def _without_time(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "seconds"}


# --- statistics ------------------------------------------------------------------------------


def test_wilson_intervals_match_the_published_values():
    low, high = stats.wilson(0, 20)
    assert low == 0 and high == pytest.approx(0.1611, abs=1e-3)
    low, high = stats.wilson(10, 20)
    assert (low, high) == (pytest.approx(0.2993, abs=1e-3), pytest.approx(0.7007, abs=1e-3))
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_the_sequential_test_settles_both_ways_and_waits_when_it_must():
    assert stats.sprt(30, 5).verdict == "higher"
    assert stats.sprt(5, 30).verdict == "lower"
    assert stats.sprt(60, 60).verdict == "no change of delta or more"
    assert stats.sprt(3, 2).verdict == "undecided"


def test_correlation_is_none_without_spread_and_one_for_a_perfect_line():
    assert stats.correlation([1, 1, 1], [0, 1, 0]) is None
    assert stats.correlation([0, 1, 2, 3], [0, 0, 1, 1]) == pytest.approx(0.894, abs=1e-3)


# --- agents and the table ----------------------------------------------------------------------


def test_greedy_beats_random_at_canterbury():
    results = run_local([(t, "") for t in tasks_for("canterbury", 3, (), ["greedy", "random"], 24, seed=3, rotate=True)])
    summary = stats.summarise(results)
    greedy = summary["agents"]["greedy"]
    assert greedy["n"] == 24 and summary["finished"] == 24
    assert greedy["ci"][0] > 1 / 3, f"greedy won {greedy['wins']} of 24 against two random players"


def test_a_small_mcts_beats_random_at_canterbury():
    results = run_local([(t, "") for t in tasks_for("canterbury", 3, (), ["mcts:8", "random"], 6, seed=3, rotate=True)])
    mcts = stats.summarise(results)["agents"]["mcts:8"]
    assert mcts["n"] == 6 and mcts["ci"][0] > 1 / 3, f"mcts won {mcts['wins']} of 6 against two random players"


def test_every_player_may_be_done_when_everyone_may_act():
    _, game, state = random_game_start("speicherstadt", 3)
    table = Table(game, state, {s.colour for s in state.seats})
    rng = random.Random(2)
    agent = make_agent("random")
    seen_done = False
    for _ in range(400):
        if table.over():
            break
        decision = table.decision()
        if decision.colour is None:
            move = table.table_move(rng)
        else:
            move = agent.choose(decision, rng)
            if decision.free:
                assert DONE in decision.moves
                assert all(m is DONE or m.player == decision.colour for m in decision.moves)
                seen_done = True
        table.play(decision.colour, move)
    assert seen_done, "Loading lets each player choose their own moves or be done"


def test_a_trial_copy_leaves_the_table_alone():
    _, game, state = random_game_start("canterbury", 2)
    table = Table(game, state, {s.colour for s in state.seats})
    before = repr(state.describe())
    decision = table.decision()
    GreedyAgent(most=8).choose(decision, random.Random(1))
    assert repr(state.describe()) == before


@pytest.mark.parametrize("text", ["chess", "random:3", "mcts:0", "greedy:x"])
def test_an_unknown_agent_is_a_usage_error(text):
    from referee.errors import UsageError

    with pytest.raises(UsageError):
        make_agent(text)


# --- runs that repeat --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def speicherstadt_run() -> dict:
    return experiment.run(_plan())


def test_the_same_seed_gives_the_same_report(speicherstadt_run):
    again = experiment.run(_plan())
    assert _without_time(again) == _without_time(speicherstadt_run)
    other = experiment.run(_plan(seed=6))
    assert [g["scores"] for g in other["games"]] != [g["scores"] for g in speicherstadt_run["games"]]


def test_worker_processes_play_the_same_games(speicherstadt_run):
    spread = experiment.run(_plan(jobs=2))
    assert spread["games"] == speicherstadt_run["games"]


def test_ray_plays_the_same_games_as_the_local_run(speicherstadt_run):
    pytest.importorskip("ray")
    from referee.lab import ray_runner

    items = [(t, "variant") for t in tasks_for("speicherstadt", 3, (), ["greedy", "random"], 6, seed=5, rotate=True)]
    try:
        on_ray = ray_runner.run_ray(items, workers=2)
    finally:
        ray_runner.stop()
    assert [r.to_json() for r in on_ray] == speicherstadt_run["games"]


def test_every_figure_has_its_sample_size(speicherstadt_run):
    side = speicherstadt_run["sides"]["variant"]
    assert side["games"] == 6 and side["finished"] == 6
    for seat in side["seats"]:
        assert seat["n"] == 6 and seat["score"]["n"] == 6 and len(seat["ci"]) == 2
    assert all(row["n"] == 18 for row in side["usage"])
    assert side["length"]["moves"]["n"] == 6
    assert side["relied_on"], "the report lists the uncertain values the games relied on"


# --- a variant's effect found --------------------------------------------------------------------


@pytest.fixture(scope="module")
def seats_ahead_run(tmp_path_factory):
    """A comparison of the base game with later seats far ahead, up to 400 pairs of games in
    batches of 20, stopped once the sequential test settles: one run for the two tests below."""
    overlay = tmp_path_factory.mktemp("overlay") / "late-seats-ahead.yaml"
    overlay.write_text(SEAT_AHEAD, encoding="utf-8")
    return experiment.run(experiment.Plan(game="hamburgum", players=3, games=400, variants=[str(overlay)], against=[], seed=2, batch=20))


def test_a_seat_advantage_is_detected(seats_ahead_run):
    data = seats_ahead_run
    last = data["comparison"]["seats"][2]["win_rate"]
    assert last["n"] == data["comparison"]["pairs"] >= 20 and last["ci"][0] > 0, "the last seat's head start shows as a higher win rate"
    assert data["sides"]["variant"]["seats"][2]["ci"][0] > 1 / 3


def test_a_comparison_stops_once_the_sequential_test_settles(seats_ahead_run):
    data = seats_ahead_run
    assert data["stopped_early"] and data["comparison"]["pairs"] < 400
    assert data["comparison"]["sprt"]["verdict"] == "lower", "the first seat's chance falls"
    assert data["sides"]["variant"]["games"] == data["sides"]["base"]["games"] == data["comparison"]["pairs"]


def test_lab_replay_lists_the_records_whose_winner_changes(tmp_path):
    from referee.engine.replay import check_bytes

    overlay = tmp_path / "cheap-prestige.yaml"
    overlay.write_text(CHEAP_PRESTIGE, encoding="utf-8")
    paths = []
    for seed in range(6):
        text = play_game("hamburgum", 3, seed=seed)
        kept = [line for line in text.splitlines() if not line.startswith(("check ", "result "))]
        path = tmp_path / f"game-{seed}.log"
        path.write_text("\n".join(kept) + "\n", encoding="utf-8")
        paths.append(str(path))
    data = experiment.replay_records(paths, [str(overlay)])
    assert data["records"] == 6
    changed = [row for row in data["rows"] if row["winner_changes"]]
    assert changed, "buying prestige for a coin each changes some winner"
    for row in data["rows"]:
        source = Path(tmp_path / Path(row["record"]).name).read_bytes()
        before = [s.colour for s in check_bytes(source, "x", []).winners]
        after = [s.colour for s in check_bytes(source, "x", [str(overlay)]).winners]
        assert row["winner_changes"] == (before != after)
        assert not row["legality_changes"] and row["after"]["status"] == "legal"


# --- the command -------------------------------------------------------------------------------


def test_every_game_played_is_written_as_a_record_that_replays_as_it_went(tmp_path, capsys):
    """--records-out writes each game as `referee play` writes a random one (the agents'
    moves and the checkpoints): each replays legal to the scores the run counted; the JSON
    holds no record."""
    from referee.engine.replay import check_bytes

    folder = tmp_path / "games"
    code = main(["lab", "speicherstadt", "--players", "3", "--games", "3", "--agent", "greedy,random", "--rotate", "--records-out", str(folder), "--format", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["records"] == {"folder": str(folder), "written": 3}
    games = sorted(data["games"], key=lambda game: game["number"])
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == ["game-0001.log", "game-0002.log", "game-0003.log"]
    for path, game in zip(files, games):
        report = check_bytes(path.read_bytes(), str(path))
        assert report.status == "legal" and report.complete and report.checkpoints_confirmed > 0, [d.message for d in report.diagnostics]
        assert {s.seat.colour: s.total for s in report.standings} == dict(zip(game["colours"], game["scores"]))
        assert "record" not in game and f"--agent {','.join(game['agents'])} --seed 1, game {game['number'] + 1}" in path.read_text(encoding="utf-8")
    assert main(["lab", "speicherstadt", "--players", "2", "--games", "1", "--records-out", str(folder)]) == 0
    assert f"wrote 1 record into {folder}" in capsys.readouterr().out


def test_the_command_writes_a_page_that_needs_nothing_else(tmp_path, capsys):
    overlay = tmp_path / "<b>odd.yaml"
    overlay.write_text(SEAT_AHEAD.replace("game: hamburgum", "game: hamburgum"), encoding="utf-8")
    page, figures = tmp_path / "lab.html", tmp_path / "lab.json"
    code = main(["lab", "hamburgum", "--players", "3", "--games", "4", "--variant", str(overlay), "--agent", "greedy,random", "--rotate", "-o", str(page), "--json", str(figures), "--format", "json"])
    assert code == 0
    shown = json.loads(capsys.readouterr().out)
    assert json.loads(figures.read_text(encoding="utf-8"))["games"] == shown["games"]
    text = page.read_text(encoding="utf-8")
    assert "Chart.js v4" in text and "<script src" not in text and "http" not in text.split("<script>", 1)[0]
    assert "<b>odd" not in text and "&lt;b&gt;odd" in text


def test_the_summary_and_the_page_speak_the_language_asked(tmp_path, capsys):
    """`--lang de`: the summary's lines and the page's words are the catalogue's German, the
    JSON stays English (its keys and values are data)."""
    from referee.i18n.catalogue import translations

    tr = translations("de")
    page, figures = tmp_path / "lab.html", tmp_path / "lab.json"
    assert main(["--lang", "de", "lab", "speicherstadt", "--players", "3", "--games", "2", "--seed", "1", "-o", str(page), "--json", str(figures)]) == 0
    lines = capsys.readouterr().out.splitlines()
    data = json.loads(figures.read_text(encoding="utf-8"))
    side = data["sides"]["variant"]
    assert side["variants"] == [] and data["runner"] == "local", "the JSON keeps its ids"
    finished = tr.ngettext("{side}: {variants}: {finished} of {games} game finished", "{side}: {variants}: {finished} of {games} games finished", 2)
    assert finished != "{side}: {variants}: {finished} of {games} games finished"
    assert lines[1] == finished.format(side=tr.gettext("variant"), variants=tr.gettext("the plain rules"), finished=side["finished"], games=2)
    header = tr.ngettext("{game}, {players} player, agents {agents}{rotated}, seed {seed}, {run}, {seconds}s", "{game}, {players} players, agents {agents}{rotated}, seed {seed}, {run}, {seconds}s", 3)
    assert lines[0].startswith(header.split("{seconds}")[0].format(game="speicherstadt", players=3, agents="random", rotated="", seed=1, run=tr.gettext("local run")))
    agent = tr.ngettext("agent {agent}: wins {wins}/{n} seat-game = {rate} {interval}", "agent {agent}: wins {wins}/{n} seat-games = {rate} {interval}", 6)
    random_agent = side["agents"]["random"]
    assert (
        "  " + agent.format(agent="random", wins=random_agent["wins"], n=6, rate=f"{100 * random_agent['rate']:.1f}%", interval="[{:.1f}%, {:.1f}%]".format(*(100 * x for x in random_agent["ci"])))
        in lines
    )
    for msgid in ("seat {seat} ({colour}): wins {wins}/{games} = {rate} {interval}; score {mean} sd {sd} (n={scored})", "most chosen (per seat and game; correlation with winning): {choices} (n={n})"):
        said = tr.gettext(msgid)
        assert said != msgid and any(line.startswith("  " + said.split("{")[0]) for line in lines), msgid
    text = page.read_text(encoding="utf-8")
    assert "<html lang='de'>" in text
    for msgid in ("Choices", "Win rate by seat (%)", "correlation with winning"):
        assert tr.gettext(msgid) != msgid and tr.gettext(msgid) in text, msgid
    # a table's heading read as the lab means it, not as the word means elsewhere
    heading = tr.pgettext("lab table", "figure")
    assert heading not in ("figure", tr.gettext("figure")) and f"<th>{heading}</th>" in text
    # the choices by the game's German names (the spec's and the catalogue's), the JSON by its words
    queued = next(u["choice"] for u in side["usage"] if u["choice"].startswith("queue for "))
    card = load_game("speicherstadt").spec["cards"]["types"][queued.removeprefix("queue for ")]["names"]["de"]
    said = tr.gettext("queue for the {card}").format(card=card)
    assert said != f"queue for the {card}" and said in "\n".join(lines) and said in text
    assert "queue for" not in "\n".join(lines) and f"<td>{queued}</td>" not in text


@pytest.mark.parametrize(
    "args",
    [
        ["lab", "hamburgum", "--games", "2"],  # no --players
        ["lab", "hamburgum", "--players", "9", "--games", "2"],
        ["lab", "hamburgum", "--players", "3", "--agent", "wizard"],
        ["lab", "nogame", "--players", "3"],
        ["lab", "replay"],
        ["lab", "hamburgum", "--players", "3", "--games", "0"],
        ["lab", "hamburgum", "--players", "3", "--games", "1", "--records-out", "/dev/null/games"],  # no folder can be made there
    ],
)
def test_the_command_refuses_what_it_cannot_run(args, capsys):
    assert main(args) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_sensitivity_ranks_the_provisional_values_the_games_relied_on():
    plan = experiment.Plan(game="canterbury", players=3, games=3, seed=4, sensitivity=0.25, sensitivity_games=3)
    data = experiment.run(plan)
    rows = data["sensitivity"]["values"]
    relied = {r["address"] for r in data["sides"]["variant"]["relied_on"]}
    assert rows and all(r["address"] in relied for r in rows)
    measured = [r for r in rows if "refused" not in r]
    assert measured, "some provisional table can be varied"
    shifts = [(r["win_rate_shift"], r["score_shift"]) for r in measured]
    assert shifts == sorted(shifts, reverse=True)
    assert any(score > 0 for _, score in shifts), "a value a quarter off moves some score"
    assert all(r["games"] == 3 and r["finished"] == [3, 3] for r in measured)


@pytest.mark.parametrize("raised,code", [("spec", 4), ("internal", 5)])
def test_a_game_that_cannot_be_played_is_counted_and_sets_the_exit_code(monkeypatch, capsys, raised, code):
    from referee.errors import SpecError
    from referee.lab import runs

    def stuck(task, side=""):
        if raised == "spec":
            raise SpecError("hamburgum", "", "the data leaves the game no legal way on")
        raise KeyError("a bug")

    monkeypatch.setattr(runs, "play_task", stuck)
    assert main(["lab", "hamburgum", "--players", "3", "--games", "2"]) == code
    out = capsys.readouterr().out
    assert "0 of 2 games finished" in out and "game error" in out


@pytest.mark.parametrize("game_name", ["canterbury", "hamburgum", "speicherstadt"])
def test_every_choice_the_games_tally_has_a_name_in_each_language(game_name):
    """The summary and the page name each choice by the game's name for it (a structure,
    a card, an action): none is left in the notation's words in Hungarian or German."""
    from referee.i18n import speaking

    results = run_local([(t, "") for t in tasks_for(game_name, 3, (), ["random"], 2, seed=1, rotate=False)])
    choices = sorted({choice for r in results for seat in r.to_json()["usage"] for choice in seat})
    game = load_game(game_name)
    assert len(choices) > 10
    for lang in ("hu", "de"):
        with speaking(lang):
            named = {choice: game.choice_name(choice) for choice in choices}
        assert [c for c, name in named.items() if name == c and not _same_in(game, c, lang)] == [], lang


def _same_in(game, choice: str, lang: str) -> bool:
    """Whether the spec gives the choice's one word the same name in `lang` as its id (`bank`)."""
    names = game.spec_names.get(choice)
    return names is not None and names.get(lang) == choice
