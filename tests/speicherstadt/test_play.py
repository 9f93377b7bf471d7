"""Random games from `referee play` replay legal, end scored, and reach every kind of move."""

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from referee.engine.replay import check_bytes
from referee.lab.random_game import play_game

GAMES_PER_COUNT = 50


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_generated_games_replay_legal(players):
    kinds = Counter()
    for seed in range(GAMES_PER_COUNT):
        text = play_game("speicherstadt", players, seed)
        report = check_bytes(text.encode(), f"seed-{seed}.log")
        assert report.status == "legal", (seed, [d.message for d in report.diagnostics])
        assert report.complete, seed
        assert text.rstrip().splitlines()[-1].startswith("result ")
        assert len(report.standings) == players
        assert report.checkpoints_confirmed >= players
        kinds.update(_kinds(text))
    expected = {
        "reveal ship",
        "reveal fire",
        "reveal fireman",
        "reveal contract",
        "place",
        "buy",
        "pass",
        "contract",
        "sell",
        "spoil",
        "warehouse in",
        "warehouse out",
        "hall keep",
        "hall take",
        "hall sell",
        "hall exchange",
        "round",
        "check",
    }
    assert expected <= set(kinds), f"never generated: {sorted(expected - set(kinds))}"


def _kinds(text):
    for line in text.splitlines():
        m = re.match(r"^(reveal (?:ship|fireman|fire|contract)\b|round|check|result)", line)
        if m:
            yield m.group(1)
            continue
        m = re.match(r"^\w+: (warehouse \w+|hall \w+|\w+)", line)
        if m:
            yield m.group(1)


def test_same_seed_same_game():
    assert play_game("speicherstadt", 3, 42) == play_game("speicherstadt", 3, 42)
    assert play_game("speicherstadt", 3, 42) != play_game("speicherstadt", 3, 43)


def test_generated_game_uses_the_whole_deck_and_bag():
    report = check_bytes(play_game("speicherstadt", 4, 9).encode(), "x")
    state = report.state
    assert not any(state.deck.values())
    assert sum(state.bag.values()) == 0  # fifteen ships took all 45 cubes


KNOWN_CONTRACTS = str(Path(__file__).with_name("known-contracts.yaml"))


@pytest.mark.parametrize("players", [2, 5])
def test_generated_games_with_every_contract_known_replay_legal(players):
    """With a box file's contract faces (goods listed in any order) random games reveal those
    cards, and only those, and replay legal under the same file."""
    faces = yaml.safe_load(Path(KNOWN_CONTRACTS).read_text())["changes"]["cards"]["types"]["contract"]["faces"]
    listed = Counter(" ".join(sorted(face["goods"])) for face in faces)
    for seed in range(5):
        text = play_game("speicherstadt", players, seed, [KNOWN_CONTRACTS])
        report = check_bytes(text.encode(), f"seed-{seed}.log", [KNOWN_CONTRACTS])
        assert report.status == "legal" and report.complete, (seed, [d.message for d in report.diagnostics])
        revealed = Counter(line.removeprefix("reveal contract ") for line in text.splitlines() if line.startswith("reveal contract "))
        assert revealed and not revealed - listed, (seed, revealed)
