def test_no_token_is_unscored_once_the_final_scoring_has_scored_them_all():
    from referee.engine.replay import check_bytes
    from referee.lab.random_game import play_game

    text = play_game("hamburgum", 3, seed=4)
    state = check_bytes(text.encode(), "game.log").state
    assert state.is_over()
    assert any(p.unscored() for p in state.players.values())  # tokens the final scoring took
    assert all(state.figures(colour)["unscored"] == 0 for colour in state.players)
    unfinished = check_bytes("\n".join(text.split("\n")[:-12]).encode() + b"\n", "game.log", open_end=True).state
    assert not unfinished.is_over() and any(unfinished.figures(c)["unscored"] for c in unfinished.players)
