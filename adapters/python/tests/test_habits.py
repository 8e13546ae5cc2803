"""python-chess habits, and the defects of issue 59 each shown fixed."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import ludus
from ludus import _protocol as p

from conftest import process_is_gone


def test_the_result_is_never_a_currmove_or_string_line() -> None:
    conversation = p.Conversation()
    _, search = conversation.start_search(p.go(ludus.Limit(depth=15)), "white")
    for line in [
        "=1",
        "",
        "info depth 14 seldepth 20 score cp 31 nodes 900 nps 9 time 100 pv c4c5 g8g7",
        "info depth 15 currmove e4e5 currmovenumber 7",
        "info string endgame tables: none",
        "bestmove c4c5",
    ]:
        conversation.feed(line)
    result = search.result()
    assert result.info is not None and result.info.depth == 14
    assert result.info.pv == ("c4c5", "g8g7")
    current = result.infos[1]
    assert (current.currmove, current.currmovenumber, current.is_result) == ("e4e5", 7, False)


def test_multipv_lines_are_labelled_and_the_best_is_the_info() -> None:
    conversation = p.Conversation()
    _, search = conversation.start_search(p.go(ludus.Limit(depth=2)), "black")
    conversation.feed("=1")
    conversation.feed("")
    for depth in (1, 2):
        for k, cp in ((1, 40), (2, 10), (3, -5)):
            conversation.feed(
                f"info depth {depth} seldepth {depth} multipv {k} score cp {cp} "
                f"wdl 300 600 100 nodes 5 nps 5 hashfull 3 time 1 pv m{k}"
            )
    # The next iteration has begun with its best line only.
    conversation.feed("info depth 3 seldepth 3 multipv 1 score cp 45 nodes 9 nps 9 time 2 pv m1")
    conversation.feed("bestmove m1")
    result = search.result()
    assert [(i.multipv, i.depth) for i in result.multipv] == [(1, 2), (2, 2), (3, 2)]
    assert result.info is not None and result.info.multipv == 1 and result.info.depth == 2
    wdl = result.multipv[0].wdl
    assert wdl == ludus.Wdl(300, 600, 100, "black")
    assert wdl.pov("white") == ludus.Wdl(100, 600, 300, "white")
    assert wdl.expectation() == pytest.approx(0.6)
    assert result.multipv[0].hashfull == 3


def test_scores_order_as_python_chess_orders_them() -> None:
    s = ludus.Score
    ordered = [s(mate=-1), s(mate=-5), s(cp=-300), s(cp=0), s(cp=20), s(mate=7), s(mate=2)]
    assert sorted(reversed(ordered)) == ordered
    assert max(s(cp=20000), s(mate=30)) == s(mate=30)
    pov = ludus.PovScore(s(cp=35), "white")
    assert (pov.pov("white"), pov.pov("black")) == (s(cp=35), s(cp=-35))


def test_analyse_with_multipv_gives_k_lines_best_first(engine: ludus.Engine) -> None:
    lines = engine.analyse(ludus.Limit(depth=5), multipv=3)
    assert [line.multipv for line in lines] == [1, 2, 3]
    scores = [line.score.relative for line in lines if line.score is not None]
    assert scores == sorted(scores, reverse=True) and len(scores) == 3
    assert len({line.pv[0] for line in lines}) == 3
    # MultiPV is back to one line: a plain search's lines are unlabelled.
    assert engine.analyse(ludus.Limit(depth=3)).multipv[0].multipv is None


def test_a_search_with_multipv_on_gives_its_best_line_as_info(engine: ludus.Engine) -> None:
    engine.configure({"MultiPV": 3})
    result = engine.analyse(ludus.Limit(depth=4))
    assert result.info is not None and result.info.multipv == 1
    assert result.info.pv[0] == result.best_move
    assert [i.multipv for i in result.multipv] == [1, 2, 3]


def test_root_moves_ponder_and_ponderhit(engine: ludus.Engine) -> None:
    assert engine.best_move(ludus.Limit(depth=3), root_moves=["e4e5"]) == "e4e5"
    result = engine.best_move(ludus.Limit(depth=5), ponder=True)
    assert result.move in engine.legal_moves()
    assert result.move is not None and result.ponder is not None
    engine.play(result.move)
    assert result.ponder in engine.legal_moves()
    engine.play(result.ponder)
    started = time.monotonic()
    pondering = engine.analysis(ludus.Limit(ponder=True, depth=4))
    time.sleep(0.3)
    # A pondering search that has reached its depth waits for the hit.
    assert not pondering.finished
    pondering.ponderhit()
    assert pondering.wait().best_move in engine.legal_moves()
    assert time.monotonic() - started >= 0.3


def test_describe_and_legal_places(engine: ludus.Engine) -> None:
    mentula = engine.describe("mentula")
    assert mentula.title == "Mentula" and mentula.board == (8, 8)
    assert [name for name, _ in mentula.players] == ["white", "yellow", "red", "magenta"]
    assert "reach" in mentula.layers and sorted(mentula.levels) == list(range(21))
    assert any("jumps over another man" in s for s in mentula.how_to_play)
    places = engine.legal_places()
    assert set(places) == set(engine.legal_moves())
    assert places["i3h5"] == ("i3", "h5")


def test_a_record_with_a_semicolon_comment_loads_whole(engine: ludus.Engine) -> None:
    engine.load_record("1. c4c5 g8g7 ; a quiet start\n2. i3h5 i8i7\n3. e4e5 e8e7")
    assert engine.record().split() == "1. c4c5 g8g7 2. i3h5 i8i7 3. e4e5 e8e7".split()
    assert p.one_line_record('[Event "a;b"]\n1. x {c;d} y ; e}f\n2. z') == (
        '[Event "a;b"] 1. x {c;d} y {e)f} 2. z'
    )


def test_the_limit_time_is_seconds(engine: ludus.Engine) -> None:
    started = time.monotonic()
    engine.analyse(ludus.Limit(time=0.5))
    assert 0.4 <= time.monotonic() - started < 3.0


def test_a_timeout_raises_and_leaves_the_engine_in_step(engine: ludus.Engine) -> None:
    with pytest.raises(ludus.EngineTimeout) as late:
        engine.perft(9, timeout=0.2)
    assert isinstance(late.value, TimeoutError) and isinstance(late.value, ludus.EngineError)
    assert late.value.request == "perft 9"
    assert engine.ping(timeout=10) == "pong"
    assert engine.perft(2, timeout=10) == 2304


def test_ping_on_a_stopped_engine_times_out(engine: ludus.Engine) -> None:
    os.kill(engine.pid, signal.SIGSTOP)
    try:
        with pytest.raises(TimeoutError):
            engine.ping(timeout=0.3)
    finally:
        os.kill(engine.pid, signal.SIGCONT)
    assert engine.ping(timeout=10) == "pong"


def test_a_diagram_repr_is_short(engine: ludus.Engine) -> None:
    diagram = engine.diagram()
    assert len(diagram.svg) > 5000
    assert len(repr(diagram)) < 2000 and "characters" in repr(diagram)


def test_a_kill_names_the_search_it_interrupted(engine: ludus.Engine) -> None:
    analysis = engine.analysis(ludus.Limit(infinite=True))
    os.kill(engine.pid, signal.SIGKILL)
    with pytest.raises(ludus.EngineError) as ended:
        analysis.wait()
    assert isinstance(ended.value, ludus.EngineTerminated)
    assert ended.value.request == "go infinite"
    assert ended.value.status == -signal.SIGKILL


def test_concurrent_analyses_on_one_aio_engine_each_reach_their_depth() -> None:
    async def main() -> None:
        async with await ludus.aio.Engine.popen() as engine:
            results = await asyncio.gather(
                *(engine.analyse(ludus.Limit(depth=7)) for _ in range(3))
            )
            for result in results:
                assert result.info is not None and result.info.depth == 7
                assert result.best_move is not None

    asyncio.run(main())


def test_a_cancelled_aio_count_stops_in_the_engine() -> None:
    async def main() -> None:
        async with await ludus.aio.Engine.popen() as engine:
            count = asyncio.ensure_future(engine.perft(9))
            await asyncio.sleep(0.3)
            count.cancel()
            with pytest.raises(asyncio.CancelledError):
                await count
            started = time.monotonic()
            assert await asyncio.wait_for(engine.perft(2), 10) == 2304
            assert time.monotonic() - started < 5
            await engine.stop()
            assert await engine.ping() == "pong"

    asyncio.run(main())


SCRIPT = """
import sys, ludus
engine = ludus.Engine.popen()
print(engine.pid, flush=True)
engine.perft(11)
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_script_killed_by_a_signal_leaves_no_engine(sig: signal.Signals) -> None:
    script = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(SCRIPT)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert script.stdout is not None
    engine_pid = int(script.stdout.readline())
    time.sleep(0.3)  # counting
    script.send_signal(sig)
    script.wait(10)
    assert process_is_gone(engine_pid), "the engine outlived its script"
