"""The blocking engine: one process, one request at a time (not for sharing between
threads; use `ludus.aio` to drive several engines at once)."""

from __future__ import annotations

import queue
import subprocess
import threading
import time
import weakref
from types import TracebackType
from typing import (
    IO,
    Dict,
    Iterator,
    List,
    Literal,
    Mapping,
    NamedTuple,
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
    EngineTimeout,
    Info,
    Limit,
    OptionMap,
    ProtocolError,
    SearchResult,
    Status,
)

T = TypeVar("T")


class _Deadline(NamedTuple):
    """When a call's `timeout` runs out (a monotonic time), with the timeout itself
    for the error's message."""

    timeout: float
    at: float


def _read_lines(stream: IO[str], lines: "queue.Queue[Optional[str]]") -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _read_stderr(stream: IO[str], tail: StderrTail) -> None:
    for line in stream:
        tail.add(line)


def _kill_if_running(process: "subprocess.Popen[str]") -> None:
    # The last resort for an engine never quit (no `with`, no `quit()`), also run at
    # interpreter exit.
    if process.poll() is None:
        kill_group(process.pid)
        process.wait()


class Engine:
    """A ludus process spoken to in the native protocol.

    Start it with `Engine.popen()` and use it as a context manager: leaving the
    `with` (also by an exception) sends `quit` and kills the process if it has not
    exited within `QUIT_TIMEOUT` seconds. Every method sends one request and waits
    for its answer; a refusal raises `EngineError`, an engine that ended raises
    `EngineTerminated`. A request made while an `analysis` runs stops it first.
    """

    def __init__(
        self, process: "subprocess.Popen[str]", quit_timeout: float = QUIT_TIMEOUT
    ) -> None:
        assert process.stdin and process.stdout and process.stderr
        self._process = process
        self._quit_timeout = quit_timeout
        self._stdin = process.stdin
        self._conversation = p.Conversation()
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._stderr = StderrTail()
        self._readers = [
            threading.Thread(target=_read_lines, args=(process.stdout, self._lines), daemon=True),
            threading.Thread(target=_read_stderr, args=(process.stderr, self._stderr), daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        self._finalizer = weakref.finalize(self, _kill_if_running, process)
        # MultiPV as the client last set it: `analyse(multipv=k)` sets it back.
        self._multipv: object = 1

    @classmethod
    def popen(
        cls,
        path: Optional[PathLike] = None,
        args: Sequence[str] = (),
        quit_timeout: float = QUIT_TIMEOUT,
    ) -> "Engine":
        """Starts the engine at `path` (default: the LUDUS environment variable, else
        `ludus` on the PATH) and checks that it speaks the native protocol.
        `quit_timeout`: the seconds it gets to exit on `quit` before it is killed."""
        process = subprocess.Popen(
            engine_command(path, args),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            encoding="utf-8",
            errors="replace",
            start_new_session=NEW_GROUP,
            preexec_fn=DIE_WITH_PARENT,
        )
        engine = cls(process, quit_timeout)
        try:
            version = engine.protocol_version()
            if version != 1:
                raise ProtocolError(f"protocol version {version}, this package speaks 1")
        except BaseException:
            engine.quit()
            raise
        return engine

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def stderr(self) -> Tuple[str, ...]:
        """The engine's last lines on standard error."""
        return self._stderr.lines()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(
        self,
        kind: Optional[Type[BaseException]],
        error: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.quit()

    def quit(self, timeout: Optional[float] = None) -> Optional[int]:
        """Ends the session: stops any work, sends `quit`, waits `timeout` seconds
        (default: `quit_timeout`) for the process to exit, else kills it. Returns
        the exit status. Safe to call again."""
        process = self._process
        if process.poll() is None:
            try:
                # `stop` first: `quit` waits its turn behind a running count.
                self._stdin.write("stop\nquit\n")
                self._stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                process.wait(self._quit_timeout if timeout is None else timeout)
            except subprocess.TimeoutExpired:
                kill_group(process.pid)
                process.wait()
        try:
            self._stdin.close()
        except OSError:
            pass
        for reader in self._readers:
            reader.join(1.0)
        self._finalizer.detach()
        return process.returncode

    # Waiting for answers.

    def _write(self, line: str) -> None:
        try:
            self._stdin.write(line)
            self._stdin.flush()
        except (OSError, ValueError):
            raise self._terminated() from None

    def _take_line(self, deadline: Optional[_Deadline] = None) -> None:
        """Reads one line into the conversation; past `deadline` stops the engine's
        work and raises `EngineTimeout`."""
        try:
            if deadline is None:
                line = self._lines.get()
            else:
                line = self._lines.get(timeout=max(0.0, deadline.at - time.monotonic()))
        except queue.Empty:
            waiting = self._conversation.waiting_for
            # Whatever it was doing is stopped; its late answer is read, and dropped,
            # by the next call.
            try:
                # With an id, so that its reply is told from the late answer's.
                self._write(self._conversation.send(p.stop())[0])
            except EngineTerminated:
                pass
            assert deadline is not None  # only a wait with a deadline times out
            raise EngineTimeout(deadline.timeout, waiting) from None
        if line is None:
            self._lines.put(None)  # the end stays seen by every later wait
            raise self._terminated()
        self._conversation.feed(line)

    def _terminated(self) -> EngineTerminated:
        waiting = self._conversation.waiting_for
        try:
            status: Optional[int] = self._process.wait(0.5)
        except subprocess.TimeoutExpired:
            status = None
        self._readers[1].join(0.5)
        return EngineTerminated(status, self._stderr.lines(), waiting)

    def _request(
        self,
        command: "p.Command[T]",
        beside_search: bool = False,
        timeout: Optional[float] = None,
    ) -> T:
        deadline = self._start_clock(timeout)
        if not beside_search:
            self._end_search(deadline)
        line, pending = self._conversation.send(command)
        self._write(line)
        while not pending.done:
            self._take_line(deadline)
        return pending.result()

    def _start_clock(self, timeout: Optional[float]) -> Optional[_Deadline]:
        return None if timeout is None else _Deadline(timeout, time.monotonic() + timeout)

    def _end_search(self, deadline: Optional[_Deadline] = None) -> None:
        search = self._conversation.search
        if search is None or search.finished:
            return
        line = self._conversation.stop_search()
        if line is not None:
            self._write(line)
        # `stop`'s reply comes after the search's answer.
        stopping = search.stopping
        while not search.finished or (stopping is not None and not stopping.done):
            self._take_line(deadline)

    def _search(
        self, command: "p.Command[T]", deadline: Optional[_Deadline] = None
    ) -> "p.Search":
        self._end_search(deadline)
        turn = self._request_on(p.to_move(), deadline)
        line, search = self._conversation.start_search(command, turn)
        self._write(line)
        while not search.request.done:
            self._take_line(deadline)
        search.request.result()  # a refused limit raises here
        return search

    def _request_on(self, command: "p.Command[T]", deadline: Optional[_Deadline]) -> T:
        line, pending = self._conversation.send(command)
        self._write(line)
        while not pending.done:
            self._take_line(deadline)
        return pending.result()

    # The requests. Each takes `timeout` (seconds): past it, the engine's work is
    # stopped and `EngineTimeout` (a `TimeoutError`) raised.

    def protocol_version(self, *, timeout: Optional[float] = None) -> int:
        return self._request(p.protocol_version(), timeout=timeout)

    def name(self, *, timeout: Optional[float] = None) -> str:
        return self._request(p.name(), timeout=timeout)

    def version(self, *, timeout: Optional[float] = None) -> str:
        return self._request(p.version(), timeout=timeout)

    def games(self, *, timeout: Optional[float] = None) -> Tuple[str, ...]:
        """The games this engine plays (`senamukha mentula mangala`)."""
        return self._request(p.games(), timeout=timeout)

    def describe(
        self, game: Optional[str] = None, *, timeout: Optional[float] = None
    ) -> Description:
        """What a front end needs to present `game` (default: the current one):
        players and colours, board, notations, layers, levels with their Elo."""
        return self._request(p.describe(game), timeout=timeout)

    def list_commands(self, *, timeout: Optional[float] = None) -> Tuple[str, ...]:
        return self._request(p.list_commands(), timeout=timeout)

    def known_command(self, command: str, *, timeout: Optional[float] = None) -> bool:
        return self._request(p.known_command(command), timeout=timeout)

    def game(self, name: str, *, timeout: Optional[float] = None) -> None:
        """Switches to game `name`, at its start position with default rule options."""
        self._request(p.game(name), timeout=timeout)

    def new_game(self, *, timeout: Optional[float] = None) -> None:
        """The start position again (rule options kept), the search's tables cleared."""
        self._request(p.new_game(), timeout=timeout)

    def position(
        self,
        fen: Optional[str] = None,
        moves: Sequence[str] = (),
        *,
        timeout: Optional[float] = None,
    ) -> None:
        """Sets the position: `fen` (the game's position format; None: the start
        position), then `moves` in any notation the game reads. All or nothing."""
        self._request(p.position(fen, moves), timeout=timeout)

    def play(self, move: str, *, timeout: Optional[float] = None) -> str:
        """Plays `move` (any notation); returns it in canonical notation."""
        return self._request(p.play(move), timeout=timeout)

    def undo(self, count: int = 1, *, timeout: Optional[float] = None) -> None:
        """Takes back `count` moves played since the position was set."""
        self._request(p.undo(count), timeout=timeout)

    def legal_moves(
        self, notation: Optional[str] = None, *, timeout: Optional[float] = None
    ) -> Tuple[str, ...]:
        """The legal moves (canonical notation unless `notation` is given; none once
        the game is over)."""
        return self._request(p.legal_moves(notation), timeout=timeout)

    def legal_places(
        self, *, timeout: Optional[float] = None
    ) -> Dict[str, Tuple[str, ...]]:
        """Each legal move (canonical) with the places a person points at to make
        it, as the SVG diagram's ids name them."""
        return self._request(p.legal_places(), timeout=timeout)

    def fen(self, form: Optional[str] = None, *, timeout: Optional[float] = None) -> str:
        """The position string (Mentula also has `form="list"`)."""
        return self._request(p.fen(form), timeout=timeout)

    def show(self, *, timeout: Optional[float] = None) -> str:
        """The position as a text board."""
        return self._request(p.show(), timeout=timeout)

    def diagram(self, *layers: str, timeout: Optional[float] = None) -> Diagram:
        """The position drawn: SVG (with the layers asked for, e.g. Mentula's
        `reach`) and text; shown as the board in a Jupyter notebook."""
        deadline = self._start_clock(timeout)
        svg = self._request_on(p.diagram("svg", layers), deadline)
        return Diagram(svg, self._request_on(p.diagram("text", ()), deadline))

    def to_move(self, *, timeout: Optional[float] = None) -> Optional[str]:
        """The player to move, or None when the game is over."""
        return self._request(p.to_move(), timeout=timeout)

    def status(self, *, timeout: Optional[float] = None) -> Status:
        return self._request(p.status(), timeout=timeout)

    def perft(self, depth: int, *, timeout: Optional[float] = None) -> int:
        """The number of move sequences of `depth` plies from the position."""
        return self._request(p.perft(depth), timeout=timeout)

    def divide(self, depth: int, *, timeout: Optional[float] = None) -> Dict[str, int]:
        """perft below each legal move, by move."""
        return self._request(p.divide(depth), timeout=timeout)

    def record(
        self, notation: Optional[str] = None, *, timeout: Optional[float] = None
    ) -> str:
        """The game since the position was set, as a record (records.md)."""
        return self._request(p.record(notation), timeout=timeout)

    def load_record(self, record: str, *, timeout: Optional[float] = None) -> None:
        """Replays a record (several lines and comments as written) from its
        position tag's position, or else the start position."""
        self._request(p.load_record(record), timeout=timeout)

    @property
    def options(self) -> OptionMap:
        """The options of the engine and of the current game (rule options
        included), by name, as python-chess's `engine.options`."""
        return OptionMap(self.list_options())

    def list_options(self, *, timeout: Optional[float] = None) -> Tuple[EngineOption, ...]:
        """The options in the engine's order (`list_options`)."""
        return self._request(p.list_options(), timeout=timeout)

    def set_option(self, name: str, value: object, *, timeout: Optional[float] = None) -> None:
        self._request(p.set_option(name, value), timeout=timeout)
        self._note_option(name, value)

    def _note_option(self, name: str, value: object) -> None:
        if "".join(name.split()).lower() == "multipv":
            self._multipv = value

    def configure(
        self, options: Mapping[str, object], *, timeout: Optional[float] = None
    ) -> None:
        """Sets several options, in order, as python-chess's `configure`; the first
        the engine refuses raises (those before it stay set)."""
        deadline = self._start_clock(timeout)
        self._end_search(deadline)
        for name, value in options.items():
            self._request_on(p.set_option(name, value), deadline)
            self._note_option(name, value)

    def ping(self, *, timeout: Optional[float] = None) -> str:
        """`pong`, answered at once, also beside a running analysis."""
        return self._request(p.ping(), beside_search=True, timeout=timeout)

    def is_ready(self, *, timeout: Optional[float] = None) -> None:
        """Waits for `readyok` (which also takes the next search's memory)."""
        deadline = self._start_clock(timeout)
        self._end_search(deadline)
        seen = self._conversation.readyok_count
        self._write("isready\n")
        while self._conversation.readyok_count == seen:
            self._take_line(deadline)

    def stop(self, *, timeout: Optional[float] = None) -> None:
        """Stops the running analysis (its best move is still read). A count in
        another thread, or one left by a timeout, is stopped by the engine's own
        `stop`, which this sends in any case."""
        self._request(p.stop(), timeout=timeout)

    def ponderhit(self, *, timeout: Optional[float] = None) -> None:
        """The reply an `analysis(Limit(ponder=True, ...))` pondered on was played:
        its search goes on under its limits, the clock counted from now."""
        self._request(p.ponderhit(), beside_search=True, timeout=timeout)

    # Searches.

    @overload
    def analyse(
        self,
        limit: Optional[Limit] = None,
        *,
        multipv: None = None,
        root_moves: Optional[Sequence[str]] = None,
        timeout: Optional[float] = None,
    ) -> SearchResult: ...

    @overload
    def analyse(
        self,
        limit: Optional[Limit] = None,
        *,
        multipv: int,
        root_moves: Optional[Sequence[str]] = None,
        timeout: Optional[float] = None,
    ) -> List[Info]: ...

    def analyse(
        self,
        limit: Optional[Limit] = None,
        *,
        multipv: Optional[int] = None,
        root_moves: Optional[Sequence[str]] = None,
        timeout: Optional[float] = None,
    ) -> Union[SearchResult, List[Info]]:
        """Searches the position (`go`) without playing; returns the best move and
        every `info` line (`.info` is the best line's last report). With
        `multipv=k`, as python-chess: the k best lines of the last iteration, best
        first, each labelled `multipv` 1..k (MultiPV is set back afterwards).
        `root_moves`: search only these moves (`searchmoves`)."""
        deadline = self._start_clock(timeout)
        if multipv is None:
            return self._analysis(limit, root_moves, deadline).wait()
        self._end_search(deadline)
        self._request_on(p.set_option("MultiPV", multipv), deadline)
        try:
            result = self._analysis(limit, root_moves, deadline).wait()
        finally:
            self._end_search(deadline)
            self._request_on(p.set_option("MultiPV", self._multipv), deadline)
        return list(result.multipv)

    @overload
    def best_move(
        self,
        limit: Optional[Limit] = None,
        *,
        ponder: Literal[False] = False,
        root_moves: Optional[Sequence[str]] = None,
        timeout: Optional[float] = None,
    ) -> Optional[str]: ...

    @overload
    def best_move(
        self,
        limit: Optional[Limit] = None,
        *,
        ponder: Literal[True],
        root_moves: Optional[Sequence[str]] = None,
        timeout: Optional[float] = None,
    ) -> SearchResult: ...

    def best_move(
        self,
        limit: Optional[Limit] = None,
        *,
        ponder: bool = False,
        root_moves: Optional[Sequence[str]] = None,
        timeout: Optional[float] = None,
    ) -> Union[Optional[str], SearchResult]:
        """The move a search chooses (None when the game is over); nothing is played.
        With `ponder=True` (the `Ponder` option is switched on) the whole result,
        whose `.move` is the move and `.ponder` the reply it expects."""
        deadline = self._start_clock(timeout)
        if ponder:
            self._end_search(deadline)
            self._request_on(p.set_option("Ponder", True), deadline)
        result = self._analysis(limit, root_moves, deadline).wait()
        return result if ponder else result.best_move

    def genmove(
        self,
        limit: Optional[Limit] = None,
        *,
        root_moves: Optional[Sequence[str]] = None,
        timeout: Optional[float] = None,
    ) -> SearchResult:
        """Searches and plays the move found; `.best_move` is the move played."""
        deadline = self._start_clock(timeout)
        search = self._search(p.genmove(limit, root_moves), deadline)
        while not search.finished:
            self._take_line(deadline)
        return search.result()

    def analysis(
        self,
        limit: Optional[Limit] = None,
        *,
        root_moves: Optional[Sequence[str]] = None,
        timeout: Optional[float] = None,
    ) -> "Analysis":
        """Starts a search (`go`) and returns it at once: iterate over it to get each
        `info` as it comes, `stop()` it to end it early. `timeout` bounds the start
        (the search itself runs to its limit)."""
        return self._analysis(limit, root_moves, self._start_clock(timeout), timeout)

    def _analysis(
        self,
        limit: Optional[Limit],
        root_moves: Optional[Sequence[str]],
        deadline: Optional[_Deadline],
        timeout: Optional[float] = None,
    ) -> "Analysis":
        search = self._search(p.go(limit, root_moves), deadline)
        return Analysis(self, search, deadline if timeout is None else None)


class Analysis:
    """A running search. Iterating yields each `info` line as the engine writes it,
    until the search ends or `stop()` is called; `wait()` lets it run to its limit.
    Used as a context manager, leaving the `with` stops it. `.info` is the best
    line's last report so far, `.multipv` the last iteration's lines."""

    def __init__(
        self, engine: Engine, search: "p.Search", deadline: Optional[_Deadline] = None
    ) -> None:
        self._engine = engine
        self._search = search
        self._yielded = 0
        self._deadline = deadline

    def __iter__(self) -> Iterator[Info]:
        while True:
            infos = self._search.infos
            while self._yielded < len(infos):
                self._yielded += 1
                yield infos[self._yielded - 1]
            if self._search.finished:
                return
            self._engine._take_line(self._deadline)

    def stop(self) -> SearchResult:
        """Ends the search now; its best move is still read, so the engine stays in
        step. Iterating after this yields nothing more."""
        self._engine._end_search()
        self._yielded = len(self._search.infos)
        return self._search.result()

    def wait(self) -> SearchResult:
        """Lets the search run to its limit and returns what it gave."""
        while not self._search.finished:
            self._engine._take_line(self._deadline)
        return self._search.result()

    def ponderhit(self) -> None:
        """The pondered reply came (see `Engine.ponderhit`)."""
        self._engine.ponderhit()

    @property
    def finished(self) -> bool:
        return self._search.finished

    @property
    def result(self) -> SearchResult:
        """What the search has given so far (the best move once it has finished)."""
        return self._search.result()

    @property
    def info(self) -> Optional[Info]:
        """The best line's last report so far."""
        return self._search.result().info

    @property
    def multipv(self) -> Tuple[Info, ...]:
        """The last complete iteration's lines so far, best first."""
        return self._search.result().multipv

    def __enter__(self) -> "Analysis":
        return self

    def __exit__(
        self,
        kind: Optional[Type[BaseException]],
        error: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        if not isinstance(error, EngineTerminated):
            self.stop()
