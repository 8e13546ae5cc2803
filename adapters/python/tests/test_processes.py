"""Analyses stopped early, engines that die, and no process left behind."""

from __future__ import annotations

import gc
import os
import signal
import stat
import sys
import time
from pathlib import Path

import pytest

import ludus
from conftest import process_is_gone


def test_analysis_yields_each_info_and_stops_early(engine: ludus.Engine) -> None:
    analysis = engine.analysis(ludus.Limit(infinite=True))
    depths = []
    for info in analysis:
        depths.append(info.depth)
        assert info.pv, info
        if info.depth == 3:
            result = analysis.stop()
    assert depths == [1, 2, 3]
    assert analysis.finished
    assert result.best_move is not None and result.best_move in engine.legal_moves()
    assert result.info is not None and result.info.depth is not None
    assert result.info.depth >= 3
    # In step: the next answers are the next requests'.
    assert engine.ping() == "pong"
    assert engine.to_move() == "white"


def test_ping_beside_an_analysis_and_a_request_that_stops_it(engine: ludus.Engine) -> None:
    engine.game("mangala")
    with engine.analysis(ludus.Limit(infinite=True)) as analysis:
        assert engine.ping() == "pong"
        assert not analysis.finished
    assert analysis.finished and analysis.result.best_move is not None
    analysis = engine.analysis(ludus.Limit(infinite=True))
    for info in analysis:
        break  # left running: the next request stops it
    assert engine.legal_moves() == ("A", "B", "C", "D", "E", "F")
    assert analysis.finished and analysis.result.best_move in engine.legal_moves()
    assert list(analysis) == [] or analysis.finished


def test_analysis_runs_to_its_limit(engine: ludus.Engine) -> None:
    engine.game("mangala")
    analysis = engine.analysis(ludus.Limit(depth=4))
    everything = list(analysis)
    # A Mangala II search first says which endgame tables it uses (`info string`).
    assert everything[0].string is not None and everything[0].string.startswith("endgame tables: ")
    infos = [i for i in everything if i.string is None]
    assert [i.depth for i in infos] == [1, 2, 3, 4]
    assert analysis.wait().best_move == infos[-1].pv[0]


def test_a_killed_engine_raises_engine_terminated(engine: ludus.Engine) -> None:
    os.kill(engine.pid, signal.SIGKILL)
    with pytest.raises(ludus.EngineTerminated) as ended:
        engine.perft(3)
    assert ended.value.status == -signal.SIGKILL
    # Quitting a dead engine is harmless.
    assert engine.quit() == -signal.SIGKILL


def fake_engine(tmp_path: Path, body: str) -> str:
    """A script that answers the version check as ludus would, then does `body`."""
    script = tmp_path / "fake-ludus"
    script.write_text(
        "#!/bin/sh\nread request\nprintf '=1 1\\n\\n'\n" + body + "\n", encoding="utf-8"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def test_an_engine_that_dies_reports_its_status_and_stderr(tmp_path: Path) -> None:
    path = fake_engine(tmp_path, "read request\necho 'thread panicked: oops' >&2\nexit 3")
    with ludus.Engine.popen(path) as engine:
        with pytest.raises(ludus.EngineTerminated) as ended:
            engine.status()
    assert ended.value.status == 3
    assert ended.value.stderr == ("thread panicked: oops",)
    assert ended.value.request == "status"
    assert "thread panicked: oops" in str(ended.value)


def test_no_process_left_behind_after_an_exception() -> None:
    with pytest.raises(KeyError):
        with ludus.Engine.popen() as engine:
            pid = engine.pid
            engine.analysis(ludus.Limit(infinite=True))
            raise KeyError("in the with")
    assert process_is_gone(pid)
    with pytest.raises(ZeroDivisionError):
        with ludus.Engine.popen() as engine:
            pid = engine.pid
            engine._write("1 perft 20\n")  # a count that would run for hours
            raise ZeroDivisionError
    assert process_is_gone(pid)


@pytest.mark.skipif(sys.platform == "win32", reason="process groups")
def test_an_engine_deaf_to_quit_is_killed_with_its_children(tmp_path: Path) -> None:
    path = fake_engine(tmp_path, "trap '' TERM INT\nsleep 600 &\necho $! >&2\nwait")
    engine = ludus.Engine.popen(path, quit_timeout=0.5)
    with pytest.raises(RuntimeError):
        with engine:
            while not engine.stderr:
                time.sleep(0.01)
            child = int(engine.stderr[0])
            raise RuntimeError
    assert engine.quit() == -signal.SIGKILL
    assert process_is_gone(engine.pid)
    assert process_is_gone(child)


def test_an_engine_that_is_not_ludus_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "not-ludus"
    script.write_text("#!/bin/sh\nread request\nprintf '=1 7\\n\\n'\nsleep 600\n")
    script.chmod(0o755)
    with pytest.raises(ludus.ProtocolError, match="protocol version 7"):
        ludus.Engine.popen(script, quit_timeout=0.5)


def test_an_engine_never_quit_is_killed_when_collected() -> None:
    engine = ludus.Engine.popen()
    pid = engine.pid
    del engine
    gc.collect()
    assert process_is_gone(pid)


def test_every_request_after_the_end_raises(tmp_path: Path) -> None:
    path = fake_engine(tmp_path, "exec 1>&-\nsleep 600")
    with ludus.Engine.popen(path, quit_timeout=0.2) as engine:
        for _ in range(2):
            with pytest.raises(ludus.EngineTerminated) as ended:
                engine.name()
            assert ended.value.status is None  # its output closed, the process alive
