"""The asyncio engine: the same methods as `ludus.Engine`, as coroutines, so that one
event loop can drive several engines at once.

    async with await ludus.aio.Engine.popen() as engine:
        await engine.game("mangala")
        print(await engine.best_move(ludus.Limit(depth=4)))

Requests to one engine from several tasks are served one after the other: a
search started by one task (`analyse`, `analysis`) holds the engine until it
ends; cancelling a task's request stops its work in the engine.
"""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import (
    Any,
    AsyncIterator,
    Dict,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Type,
    TypeVar,
    Union,
    overload,
)

from . import _protocol as p
from ._launch import (
    DIE_WITH_PARENT,
    LINE_LIMIT,
    NEW_GROUP,
    QUIT_TIMEOUT,
    PathLike,
    StderrTail,
    engine_command,
    kill_group,
)
from ._types import (
    Description,
    Diagram,
    EngineOption,
    EngineTerminated,
    Info,
    Limit,
    OptionMap,
    ProtocolError,
    SearchResult,
    Status,
)

__all__ = ["Engine", "Analysis"]

T = TypeVar("T")


async def _read_stderr(stream: asyncio.StreamReader, tail: StderrTail) -> None:
    while True:
        line = await stream.readline()
        if not line:
            return
        tail.add(line.decode("utf-8", "replace"))


class Engine:
    """A ludus process driven from asyncio; see `ludus.Engine` for the methods.

    `async with await Engine.popen() as engine:` quits it on leaving, and kills it if it
    has not exited within `QUIT_TIMEOUT` seconds (also when an exception leaves).
    """

    def __init__(
        self, process: asyncio.subprocess.Process, quit_timeout: float = QUIT_TIMEOUT
    ) -> None:
        assert process.stdin and process.stdout and process.stderr
        self._process = process
        self._quit_timeout = quit_timeout
        self._stdin = process.stdin
        self._stdout = process.stdout
        self._conversation = p.Conversation()
        self._stderr = StderrTail()
        self._stderr_reader = asyncio.ensure_future(_read_stderr(process.stderr, self._stderr))
        # One reader at a time: a reply is read by the task that waits for it.
        self._lock = asyncio.Lock()
        # The task whose search runs: other tasks' requests wait for its end.
        self._search_owner: "Optional[asyncio.Task[Any]]" = None
        # MultiPV as the client last set it: `analyse(multipv=k)` sets it back.
        self._multipv: object = 1

    @classmethod
    async def popen(
        cls,
        path: Optional[PathLike] = None,
        args: Sequence[str] = (),
        quit_timeout: float = QUIT_TIMEOUT,
    ) -> "Engine":
        """Starts the engine at `path` (default: the LUDUS environment variable, else
        `ludus` on the PATH) and checks that it speaks the native protocol.
        `quit_timeout`: the seconds it gets to exit on `quit` before it is killed."""
        process = await asyncio.create_subprocess_exec(
            *engine_command(path, args),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT,
            start_new_session=NEW_GROUP,
            preexec_fn=DIE_WITH_PARENT,
        )
        engine = cls(process, quit_timeout)
        try:
            version = await engine.protocol_version()
            if version != 1:
                raise ProtocolError(f"protocol version {version}, this package speaks 1")
        except BaseException:
            await engine.quit()
            raise
        return engine

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def stderr(self) -> Tuple[str, ...]:
        """The engine's last lines on standard error."""
        return self._stderr.lines()

    async def __aenter__(self) -> "Engine":
        return self

    async def __aexit__(
        self,
        kind: Optional[Type[BaseException]],
        error: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        await self.quit()

    async def quit(self, timeout: Optional[float] = None) -> Optional[int]:
        """Stops any work, sends `quit`, waits `timeout` seconds (default:
        `quit_timeout`) for the process to exit, else kills it. Returns the exit
        status. Safe to call again."""
        process = self._process
        if process.returncode is None:
            try:
                # `stop` first: `quit` waits its turn behind a running count.
                self._stdin.write(b"stop\nquit\n")
                await self._stdin.drain()
            except (OSError, RuntimeError):
                pass
            try:
                limit = self._quit_timeout if timeout is None else timeout
                await asyncio.wait_for(process.wait(), limit)
            except asyncio.TimeoutError:
                kill_group(process.pid)
                await process.wait()
        self._stdin.close()
        # Read the pipes to their end, so that their transports close now.
        try:
            await asyncio.wait_for(self._stdout.read(), 1.0)
            await asyncio.wait_for(self._stderr_reader, 1.0)
        except asyncio.TimeoutError:
            self._stderr_reader.cancel()
        return process.returncode

    # Waiting for answers.

    async def _write(self, line: str) -> None:
        try:
            self._stdin.write(line.encode())
            await self._stdin.drain()
        except (OSError, RuntimeError):
            raise (await self._terminated()) from None

    async def _take_line(self) -> None:
        line = await self._stdout.readline()
        if not line:
            raise await self._terminated()
        self._conversation.feed(line.decode("utf-8", "replace"))

    async def _terminated(self) -> EngineTerminated:
        waiting = self._conversation.waiting_for
        try:
            status: Optional[int] = await asyncio.wait_for(self._process.wait(), 0.5)
            await asyncio.wait_for(asyncio.shield(self._stderr_reader), 0.5)
        except asyncio.TimeoutError:
            status = self._process.returncode
        return EngineTerminated(status, self._stderr.lines(), waiting)

    def _stop_abandoned(self) -> None:
        """A request's task was cancelled while the engine worked on it: `stop` (with
        an id, so that its reply is told apart) ends a count or a search; their
        answers are read, and dropped, by whoever reads next."""
        line, _ = self._conversation.send(p.stop())
        try:
            self._stdin.write(line.encode())
        except (OSError, RuntimeError):
            pass

    async def _my_turn(self) -> None:
        """Called holding the lock: waits until no other task's search runs (one
        engine, one order: requests from several tasks are served one after the
        other). The task's own search is stopped instead, as the blocking engine
        does; so is a search whose task has gone."""
        while True:
            search = self._conversation.search
            if search is None or search.finished:
                return
            owner = self._search_owner
            if owner is asyncio.current_task() or owner is None or owner.done():
                await self._end_search()
                return
            await self._take_line()

    async def _request(self, command: "p.Command[T]", beside_search: bool = False) -> T:
        async with self._lock:
            if not beside_search:
                await self._my_turn()
            line, pending = self._conversation.send(command)
            await self._write(line)
            try:
                while not pending.done:
                    await self._take_line()
            except asyncio.CancelledError:
                self._stop_abandoned()
                raise
            return pending.result()

    async def _end_search(self) -> None:
        search = self._conversation.search
        if search is None or search.finished:
            return
        line = self._conversation.stop_search()
        if line is not None:
            await self._write(line)
        stopping = search.stopping
        while not search.finished or (stopping is not None and not stopping.done):
            await self._take_line()

    async def _search(self, command: "p.Command[T]") -> "p.Search":
        async with self._lock:
            await self._my_turn()
            line, pending = self._conversation.send(p.to_move())
            await self._write(line)
            while not pending.done:
                await self._take_line()
            line, search = self._conversation.start_search(command, pending.result())
            self._search_owner = asyncio.current_task()
            await self._write(line)
            while not search.request.done:
                await self._take_line()
            search.request.result()  # a refused limit raises here
            return search

    # The requests (documented in `ludus.Engine`).

    async def protocol_version(self) -> int:
        return await self._request(p.protocol_version())

    async def name(self) -> str:
        return await self._request(p.name())

    async def version(self) -> str:
        return await self._request(p.version())

    async def games(self) -> Tuple[str, ...]:
        return await self._request(p.games())

    async def describe(self, game: Optional[str] = None) -> Description:
        return await self._request(p.describe(game))

    async def list_commands(self) -> Tuple[str, ...]:
        return await self._request(p.list_commands())

    async def known_command(self, command: str) -> bool:
        return await self._request(p.known_command(command))

    async def game(self, name: str) -> None:
        await self._request(p.game(name))

    async def new_game(self) -> None:
        await self._request(p.new_game())

    async def position(self, fen: Optional[str] = None, moves: Sequence[str] = ()) -> None:
        await self._request(p.position(fen, moves))

    async def play(self, move: str) -> str:
        return await self._request(p.play(move))

    async def undo(self, count: int = 1) -> None:
        await self._request(p.undo(count))

    async def legal_moves(self, notation: Optional[str] = None) -> Tuple[str, ...]:
        return await self._request(p.legal_moves(notation))

    async def legal_places(self) -> Dict[str, Tuple[str, ...]]:
        return await self._request(p.legal_places())

    async def fen(self, form: Optional[str] = None) -> str:
        return await self._request(p.fen(form))

    async def show(self) -> str:
        return await self._request(p.show())

    async def diagram(self, *layers: str) -> Diagram:
        svg = await self._request(p.diagram("svg", layers))
        return Diagram(svg, await self._request(p.diagram("text", ())))

    async def to_move(self) -> Optional[str]:
        return await self._request(p.to_move())

    async def status(self) -> Status:
        return await self._request(p.status())

    async def perft(self, depth: int) -> int:
        """As `ludus.Engine.perft`; cancelling the awaiting task stops the count."""
        return await self._request(p.perft(depth))

    async def divide(self, depth: int) -> Dict[str, int]:
        return await self._request(p.divide(depth))

    async def record(self, notation: Optional[str] = None) -> str:
        return await self._request(p.record(notation))

    async def load_record(self, record: str) -> None:
        await self._request(p.load_record(record))

    async def options(self) -> OptionMap:
        """The options by name (a coroutine here; a property of `ludus.Engine`)."""
        return OptionMap(await self.list_options())

    async def list_options(self) -> Tuple[EngineOption, ...]:
        return await self._request(p.list_options())

    async def set_option(self, name: str, value: object) -> None:
        await self._request(p.set_option(name, value))
        self._note_option(name, value)

    def _note_option(self, name: str, value: object) -> None:
        if "".join(name.split()).lower() == "multipv":
            self._multipv = value

    async def configure(self, options: Mapping[str, object]) -> None:
        for name, value in options.items():
            await self.set_option(name, value)

    async def ping(self) -> str:
        return await self._request(p.ping(), beside_search=True)

    async def stop(self) -> None:
        """Stops the engine's work: this task's analysis, or a count or search that
        a cancelled task left running."""
        async with self._lock:
            search = self._conversation.search
            if search is not None and not search.finished:
                await self._end_search()
        await self._request(p.stop(), beside_search=True)

    async def ponderhit(self) -> None:
        await self._request(p.ponderhit(), beside_search=True)

    async def is_ready(self) -> None:
        async with self._lock:
            await self._my_turn()
            seen = self._conversation.readyok_count
            await self._write("isready\n")
            while self._conversation.readyok_count == seen:
                await self._take_line()

    # Searches.

    @overload
    async def analyse(
        self,
        limit: Optional[Limit] = None,
        *,
        multipv: None = None,
        root_moves: Optional[Sequence[str]] = None,
    ) -> SearchResult: ...

    @overload
    async def analyse(
        self,
        limit: Optional[Limit] = None,
        *,
        multipv: int,
        root_moves: Optional[Sequence[str]] = None,
    ) -> List[Info]: ...

    async def analyse(
        self,
        limit: Optional[Limit] = None,
        *,
        multipv: Optional[int] = None,
        root_moves: Optional[Sequence[str]] = None,
    ) -> Union[SearchResult, List[Info]]:
        if multipv is None:
            return await (await self.analysis(limit, root_moves=root_moves)).wait()
        # The setting, the search and the setting back as one turn of this task.
        await self._request(p.set_option("MultiPV", multipv))
        try:
            analysis = await self.analysis(limit, root_moves=root_moves)
            result = await analysis.wait()
        finally:
            await self._request(p.set_option("MultiPV", self._multipv))
        return list(result.multipv)

    @overload
    async def best_move(
        self,
        limit: Optional[Limit] = None,
        *,
        ponder: Literal[False] = False,
        root_moves: Optional[Sequence[str]] = None,
    ) -> Optional[str]: ...

    @overload
    async def best_move(
        self,
        limit: Optional[Limit] = None,
        *,
        ponder: Literal[True],
        root_moves: Optional[Sequence[str]] = None,
    ) -> SearchResult: ...

    async def best_move(
        self,
        limit: Optional[Limit] = None,
        *,
        ponder: bool = False,
        root_moves: Optional[Sequence[str]] = None,
    ) -> Union[Optional[str], SearchResult]:
        if ponder:
            await self._request(p.set_option("Ponder", True))
        result = await self.analyse(limit, root_moves=root_moves)
        return result if ponder else result.best_move

    async def genmove(
        self, limit: Optional[Limit] = None, *, root_moves: Optional[Sequence[str]] = None
    ) -> SearchResult:
        search = await self._search(p.genmove(limit, root_moves))
        return await Analysis(self, search).wait()

    async def analysis(
        self, limit: Optional[Limit] = None, *, root_moves: Optional[Sequence[str]] = None
    ) -> "Analysis":
        """Starts a search (`go`): `async for info in analysis` yields each `info`,
        `await analysis.stop()` ends it early. Other tasks' requests wait until it
        ends (an infinite one holds the engine until stopped)."""
        return Analysis(self, await self._search(p.go(limit, root_moves)))


class Analysis:
    """A running search, as `ludus.Analysis`, with `async for` and awaited `stop()`
    and `wait()`; `async with` stops it on leaving."""

    def __init__(self, engine: Engine, search: "p.Search") -> None:
        self._engine = engine
        self._search = search
        self._yielded = 0

    async def _step(self) -> None:
        async with self._engine._lock:
            if not self._search.finished:
                try:
                    await self._engine._take_line()
                except asyncio.CancelledError:
                    self._engine._stop_abandoned()
                    raise

    def __aiter__(self) -> AsyncIterator[Info]:
        return self._infos()

    async def _infos(self) -> AsyncIterator[Info]:
        while True:
            infos = self._search.infos
            while self._yielded < len(infos):
                self._yielded += 1
                yield infos[self._yielded - 1]
            if self._search.finished:
                return
            await self._step()

    async def stop(self) -> SearchResult:
        async with self._engine._lock:
            if self._engine._conversation.search is self._search:
                await self._engine._end_search()
        self._yielded = len(self._search.infos)
        return self._search.result()

    async def wait(self) -> SearchResult:
        while not self._search.finished:
            await self._step()
        return self._search.result()

    async def ponderhit(self) -> None:
        await self._engine.ponderhit()

    @property
    def finished(self) -> bool:
        return self._search.finished

    @property
    def result(self) -> SearchResult:
        return self._search.result()

    @property
    def info(self) -> Optional[Info]:
        return self._search.result().info

    @property
    def multipv(self) -> Tuple[Info, ...]:
        return self._search.result().multipv

    async def __aenter__(self) -> "Analysis":
        return self

    async def __aexit__(
        self,
        kind: Optional[Type[BaseException]],
        error: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        if not isinstance(error, EngineTerminated):
            await self.stop()
