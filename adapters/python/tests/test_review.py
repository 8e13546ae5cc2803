"""ludus.review: `ludus review --json` as objects; a planted blunder is found."""

from __future__ import annotations

import pytest

import ludus


def test_a_planted_mangala_blunder_is_marked() -> None:
    # South's F after C d gives North a large capture (tests/review.rs plants it too).
    reviewed = ludus.review("C d F a", game="mangala", nodes=20000, threads=2)
    assert reviewed.game == "mangala"
    assert [m.move for m in reviewed.moves] == ["C", "d", "F", "a"]
    planted = reviewed.moves[2]
    assert (planted.ply, planted.player, planted.mark) == (3, "south", "blunder")
    assert planted.best is not None and planted.best != "F"
    assert planted.best_line[0] == planted.best
    assert planted.chance_before is not None and planted.chance_after is not None
    assert planted.loss == pytest.approx(planted.chance_before - planted.chance_after, abs=0.11)
    assert planted in reviewed.marked("blunder")
    south = reviewed.players[0]
    assert (south.player, south.moves, south.blunders) == ("south", 2, 1)
    assert 0 <= south.accuracy < reviewed.players[1].accuracy <= 100
    assert reviewed.json["moves"][2]["mark"] == "blunder"


def test_a_record_the_engine_refuses_raises_with_its_message() -> None:
    with pytest.raises(ludus.LudusError, match="review ended with exit status") as caught:
        ludus.review("C d Q", game="mangala", nodes=1000)
    assert "Q" in str(caught.value)


def test_a_review_past_its_timeout_is_stopped() -> None:
    with pytest.raises(ludus.EngineTimeout):
        ludus.review("e4e5 e8e7", game="senamukha", movetime=5000, timeout=0.5)
