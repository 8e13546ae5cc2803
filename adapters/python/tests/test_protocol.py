"""The shared protocol core on lines written by hand: framing, ids, info, status."""

from __future__ import annotations

import pytest

import ludus
from ludus import _protocol as p


def test_replies_are_framed_and_paired_by_id() -> None:
    conversation = p.Conversation()
    line_1, fen = conversation.send(p.fen(None))
    line_2, board = conversation.send(p.show())
    line_3, refused = conversation.send(p.play("zz"))
    assert (line_1, line_2, line_3) == ("1 fen\n", "2 show\n", "3 play zz\n")
    for line in ["=1 8/8 w 0 1", "", "=2", "8  . .", " 7 . .", "", "?3 unreadable move: zz", ""]:
        conversation.feed(line + "\n")
    assert fen.result() == "8/8 w 0 1"
    assert board.result() == "8  . .\n 7 . ."
    with pytest.raises(ludus.EngineError) as error:
        refused.result()
    assert error.value.message == "unreadable move: zz"
    assert error.value.request == "play zz"


def test_an_empty_reply_and_one_without_an_id() -> None:
    conversation = p.Conversation()
    _, game = conversation.send(p.game("mangala"))
    _, play = conversation.send(p.play("F"))
    for line in ["=1", "", "? line too long: 2000000 bytes (at most 1048576)", ""]:
        conversation.feed(line)
    assert game.result() is None
    with pytest.raises(ludus.EngineError, match="line too long"):
        play.result()


def test_a_search_collects_its_info_and_its_bestmove() -> None:
    conversation = p.Conversation()
    _, search = conversation.start_search(p.go(ludus.Limit(depth=2)), "white")
    for line in [
        "=1",
        "",
        "readyok",
        "info depth 1 seldepth 1 score cp 26 nodes 52 nps 52000 time 1 pv i3h5",
        "info string no mate in 2 moves: every line to 3 plies searched",
    ]:
        conversation.feed(line)
    assert not search.finished and conversation.readyok_count == 1
    conversation.feed("bestmove i3h5")
    assert search.finished
    result = search.result()
    assert result.best_move == "i3h5"
    assert result.info == ludus.Info(
        "info depth 1 seldepth 1 score cp 26 nodes 52 nps 52000 time 1 pv i3h5",
        depth=1, seldepth=1, scores=(ludus.Score(cp=26),), nodes=52, nps=52000,
        time_ms=1, pv=("i3h5",), turn="white",
    )
    assert result.strings == ("no mate in 2 moves: every line to 3 plies searched",)


def test_info_lines_of_every_kind() -> None:
    mate = p.read_info("info depth 9 seldepth 12 score mate -4 nodes 10 nps 10 time 1 pv a b")
    assert mate.score is not None and mate.score.relative == ludus.Score(mate=-4)
    assert str(mate.score) == "mate -4"
    four = p.read_info("info depth 3 seldepth 4 scores 506 mate3 -2 mate-1 nodes 300 pv x")
    assert four.score is None
    assert four.scores == (
        ludus.Score(cp=506), ludus.Score(mate=3), ludus.Score(cp=-2), ludus.Score(mate=-1),
    )
    assert four.nodes == 300 and four.pv == ("x",)
    empty = p.read_info("info depth 0 seldepth 0 scores 0 0 0 0 nodes 0 nps 0 time 1")
    assert empty.pv == () and empty.depth == 0
    with pytest.raises(ludus.ProtocolError):
        p.read_info("info depth deep")


def test_statuses_of_every_kind() -> None:
    shared = p.read_status(
        "white and red share first place (no capture possible; white 3.83, yellow 3.83, "
        "red 3.83, magenta 0; ranking white = red > yellow > magenta)"
    )
    assert shared.winners == ("white", "red") and shared.over
    assert shared.scores["white"] == 3.83 and shared.reason == "no capture possible"
    draw = p.read_status("draw (threefold repetition)")
    assert draw.winners == () and draw.verdict == "draw" and draw.scores == {}


def test_options_of_every_type() -> None:
    options = p.read_options(
        "option name Move Overhead type spin default 10 min 0 max 5000\n"
        "option name Algorithm type combo default mcts var brs var paranoid var mcts\n"
        "option name n-move-rule type string default off"
    )
    assert options == (
        ludus.EngineOption("Move Overhead", "spin", "10", 0, 5000),
        ludus.EngineOption("Algorithm", "combo", "mcts", choices=("brs", "paranoid", "mcts")),
        ludus.EngineOption("n-move-rule", "string", "off"),
    )
