"""The asyncio engine: the same methods, several engines at once."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import List, Tuple

import pytest

import ludus
from conftest import process_is_gone


async def one_game(game: str, depth: int) -> Tuple[str, List[str], ludus.Status]:
    async with await ludus.aio.Engine.popen() as engine:
        await engine.game(game)
        played = []
        for _ in range(4):
            result = await engine.genmove(ludus.Limit(depth=depth))
            assert result.best_move is not None
            played.append(result.best_move)
        return await engine.fen(), played, await engine.status()


def test_two_engines_at_once(engine: ludus.Engine) -> None:
    async def both() -> List[Tuple[str, List[str], ludus.Status]]:
        return list(await asyncio.gather(one_game("mangala", 3), one_game("senamukha", 2)))

    games = asyncio.run(both())
    # Each engine played its own game: the moves replayed elsewhere give its position.
    for name, (fen, played, status) in zip(["mangala", "senamukha"], games):
        engine.game(name)
        engine.position(moves=played)
        assert engine.fen() == fen and engine.status() == status
        assert len(played) == 4


def test_every_kind_of_request() -> None:
    async def session() -> None:
        async with await ludus.aio.Engine.popen() as engine:
            assert await engine.protocol_version() == 1
            assert await engine.name() == "ludus"
            assert (await engine.version()).count(".") == 2
            assert await engine.games() == ("senamukha", "mentula", "mangala")
            assert "go" in await engine.list_commands()
            assert await engine.known_command("go")
            await engine.game("mentula")
            await engine.position(moves=["c3", "b6"])
            assert await engine.to_move() == "red"
            assert await engine.play("f6") == "h8-g7-f6"
            await engine.undo()
            assert len(await engine.legal_moves("short")) == len(await engine.legal_moves())
            assert await engine.perft(2) == sum((await engine.divide(2)).values())
            fen = await engine.fen()
            assert (await engine.fen("list")).startswith("White: ")
            assert str(await engine.diagram("reach")) == await engine.show()
            record = await engine.record()
            await engine.new_game()
            await engine.load_record(record)
            assert await engine.fen() == fen
            assert (await engine.status()).to_move == "red"
            assert "Algorithm" in set(await engine.options())
            await engine.set_option("Algorithm", "brs")
            result = await engine.analyse(ludus.Limit(depth=2))
            assert result.info is not None and len(result.info.scores) == 4
            assert await engine.best_move(ludus.Limit(depth=1)) in await engine.legal_moves()
            await engine.is_ready()
            with pytest.raises(ludus.EngineError) as refused:
                await engine.play("a1-a1-a1")
            assert refused.value.request == "play a1-a1-a1"
            assert await engine.ping() == "pong"

    asyncio.run(session())


def test_analysis_stopped_early() -> None:
    async def session() -> Tuple[List[int], ludus.SearchResult, str]:
        async with await ludus.aio.Engine.popen() as engine:
            analysis = await engine.analysis(ludus.Limit(infinite=True))
            depths: List[int] = []
            async for info in analysis:
                assert info.depth is not None
                depths.append(info.depth)
                if info.depth == 3:
                    assert await engine.ping() == "pong"
                    result = await analysis.stop()
            return depths, result, await engine.to_move() or ""

    depths, result, to_move = asyncio.run(session())
    assert depths == [1, 2, 3]
    assert result.best_move is not None and to_move == "white"


def test_a_killed_engine_and_an_exception_leave_nothing() -> None:
    async def session() -> Tuple[int, int]:
        engine = await ludus.aio.Engine.popen()
        os.kill(engine.pid, signal.SIGKILL)
        with pytest.raises(ludus.EngineTerminated) as ended:
            await engine.perft(4)
        assert ended.value.status == -signal.SIGKILL
        await engine.quit()
        with pytest.raises(KeyError):
            async with await ludus.aio.Engine.popen() as other:
                await other.analysis(ludus.Limit(infinite=True))
                raise KeyError
        return engine.pid, other.pid

    started = time.monotonic()
    for pid in asyncio.run(session()):
        assert process_is_gone(pid)
    assert time.monotonic() - started < 5
