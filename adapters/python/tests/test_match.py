"""ludus.match: the runner's JSON summary as objects."""

from __future__ import annotations

import pytest

import ludus


def test_a_two_engine_match() -> None:
    summary = ludus.match(
        [ludus.MatchEngine(name="deep", depth=2), ludus.MatchEngine(name="shallow", depth=1)],
        game="mangala",
        depth=1,
        games=2,
    )
    assert summary.game == "mangala" and summary.engines == ("deep", "shallow")
    assert len(summary.games) == summary.json["games_played"] == 2
    assert [g.seats for g in summary.games] == [(0, 1), (1, 0)]
    tally = summary.tally
    assert tally is not None and tally.wins + tally.draws + tally.losses == 2
    assert summary.forfeits == (0, 0)
    for game in summary.games:
        assert game.ending == "rules" and game.forfeit is None and game.moves
        assert game.scores is not None and sorted(game.places) in ([1.0, 2.0], [1.5, 1.5])


def test_a_four_engine_match() -> None:
    engines = [ludus.MatchEngine(name=f"mcts-{i}", nodes=50) for i in range(4)]
    summary = ludus.match(engines, game="mentula", nodes=50, games=1)
    assert summary.tally is None
    assert set(summary.json["ratings"]) == {e.name for e in engines}
    (game,) = summary.games
    assert len(game.places) == 4 and len(game.seats) == 4


def test_engine_settings_are_quoted() -> None:
    engine = ludus.MatchEngine(
        "./ludus --flag", name="my engine", options={"Move Overhead": 20, "Hash": 16}
    )
    assert engine.setting("ludus") == (
        'cmd="./ludus --flag" name="my engine" "option.Move Overhead"=20 option.Hash=16'
    )
    with pytest.raises(ValueError):
        ludus.MatchEngine('say "hi"').setting("ludus")


def test_a_match_that_cannot_start() -> None:
    with pytest.raises(ludus.LudusError, match="cannot start /nonexistent/engine"):
        ludus.match(["/nonexistent/engine", "/nonexistent/engine"], depth=1, games=1)
