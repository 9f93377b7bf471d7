"""`draw` and the replay page at the end of a game show the final standings, the winner and,
where points tie, the tie-break; before the end they do not."""

from __future__ import annotations

import json
import xml.dom.minidom

import pytest

from referee.cli.main import main
from referee.games.base import Seat, Standing
from referee.lab.random_game import play_game
from referee.report.diagnostics import final_lines


@pytest.fixture(scope="module")
def ended(tmp_path_factory):
    path = tmp_path_factory.mktemp("ended") / "game.log"
    path.write_text(play_game("hamburgum", 3, seed=2))
    return path


def test_the_picture_of_an_ended_game_shows_standings_and_winner(ended, tmp_path, capsys):
    out = tmp_path / "end.svg"
    assert main(["draw", str(ended), "-o", str(out)]) == 0
    picture = out.read_text()
    xml.dom.minidom.parseString(picture.encode())
    panel = picture.split('class="final-standings"', 1)[1]
    assert ">final standings<" in panel and ">1. red: 63 points (prestige 62, bought prestige 1)<" in panel and ">winner: red<" in panel
    assert main(["draw", str(ended), "--at", "5", "-o", str(out)]) == 0
    assert "final-standings" not in out.read_text()


def test_the_replay_pages_last_position_shows_the_standings(ended, tmp_path, capsys):
    out = tmp_path / "replay.html"
    assert main(["replay", str(ended), "-o", str(out)]) == 0
    block = out.read_text().split('id="replay-data">', 1)[1].split("</script>", 1)[0]
    data = json.loads(block)
    last, first = data["positions"][-1], data["positions"][0]
    assert any("final-standings" in data["parts"][i] and "winner: red" in data["parts"][i] for i in last["parts"])
    assert not any("final-standings" in data["parts"][i] for i in first["parts"])


def test_a_tie_on_points_names_the_tie_break():
    class Tied:
        def standings(self):
            return [Standing(Seat("red", "Ann"), 40, {"prestige": 40}, [("money", 30, 1)]),
                    Standing(Seat("blue"), 40, {"prestige": 40}, [("money", 50, 1)])]

    lines = final_lines(Tied())
    assert lines[:3] == ["final standings", "1. blue: 40 points (prestige 40)", "2. red (Ann): 40 points (prestige 40)"]
    assert lines[3] == "winner: blue"
    assert lines[4].startswith("tie-break: blue, red tied on 40 points; decided by money")
