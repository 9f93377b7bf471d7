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
            return [Standing(Seat("red", "Ann"), 40, {"prestige": 40}, [("money", 30, 1)]), Standing(Seat("blue"), 40, {"prestige": 40}, [("money", 50, 1)])]

    lines = final_lines(Tied())
    assert lines[:3] == ["final standings", "1. blue: 40 points (prestige 40)", "2. red (Ann): 40 points (prestige 40)"]
    assert lines[3] == "winner: blue"
    assert lines[4].startswith("tie-break: blue, red tied on 40 points; decided by money")


def test_a_held_hand_is_never_cut_off_and_a_card_held_more_than_once_is_counted(tmp_path, capsys):
    from referee.engine.replay import check_bytes
    from referee.games.speicherstadt.picture import held_cards

    text = play_game("speicherstadt", 2, seed=3)
    state = check_bytes(text.encode(), "game.log").state
    path, out = tmp_path / "game.log", tmp_path / "end.svg"
    path.write_text(text)
    assert main(["draw", str(path), "-o", str(out)]) == 0
    picture = xml.dom.minidom.parseString(out.read_bytes())
    for colour, player in state.players.items():
        group = next(g for g in picture.getElementsByTagName("g") if g.getAttribute("class") == f"player {colour}")
        lines = [t.firstChild.data for t in group.getElementsByTagName("text") if t.firstChild is not None and t.firstChild.nodeType == t.TEXT_NODE]
        start = next(i for i, words in enumerate(lines) if words.startswith("cards: "))
        hand = f"cards: {held_cards(state, player.cards)}"
        shown = []
        for words in lines[start:]:
            shown.append(words)
            if " ".join(shown) == hand:
                break
        assert " ".join(shown) == hand and not any("…" in words for words in shown)
    assert "3 x Ship" in held_cards(state, state.players["beige"].cards) or "x Ship" in out.read_text()


@pytest.mark.parametrize(
    "game, heading, names",
    [
        ("speicherstadt", "goods:", ["coffee", "tea", "saffron", "rubber", "carpet"]),
        ("canterbury", "service slots:", ["water", "food", "religion", "defense", "commerce", "culture"]),
    ],
)
def test_the_picture_has_a_key_to_its_colours_and_letters(tmp_path, capsys, game, heading, names):
    path, out = tmp_path / "game.log", tmp_path / "start.svg"
    path.write_text(play_game(game, 3, seed=1))
    assert main(["draw", str(path), "--at", "0", "-o", str(out)]) == 0
    picture = xml.dom.minidom.parseString(out.read_bytes())
    [key] = [g for g in picture.getElementsByTagName("g") if g.getAttribute("class") == "key"]
    words = [t.firstChild.data for t in key.getElementsByTagName("text") if t.firstChild is not None]
    assert words[0] == heading and all(name in words for name in names)
    if game == "speicherstadt":  # each good's cube in the colour its cubes are drawn in
        fills = {r.getElementsByTagName("title")[0].firstChild.data: r.getAttribute("fill") for r in key.getElementsByTagName("rect")}
        assert len(set(fills.values())) == len(names)


def test_players_markers_on_one_space_never_cover_the_tracks_title(tmp_path, capsys):
    path, out = tmp_path / "game.log", tmp_path / "start.svg"
    path.write_text(play_game("canterbury", 4, seed=1))
    assert main(["draw", str(path), "--at", "0", "-o", str(out)]) == 0  # four markers on the start space
    picture = xml.dom.minidom.parseString(out.read_bytes())
    [track] = [g for g in picture.getElementsByTagName("g") if g.getAttribute("class") == "track"]
    title = track.getElementsByTagName("text")[0]
    assert title.firstChild.data.startswith("prosperity track")
    markers = track.getElementsByTagName("circle")
    assert len(markers) == 4
    for marker in markers:
        assert float(marker.getAttribute("cy")) - float(marker.getAttribute("r")) >= float(title.getAttribute("y"))
    assert len({marker.getAttribute("cx") for marker in markers}) == 4  # side by side, none hidden under another
