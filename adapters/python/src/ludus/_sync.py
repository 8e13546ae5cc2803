"""The blocking engine: one process, one request at a time (not for sharing between
threads; use `ludus.aio` to drive several engines at once)."""

from __future__ import annotations

import queue
import subprocess
import threading
import weakref
from types import TracebackType
from typing import IO, Dict, Iterator, Optional, Sequence, Tuple, Type, TypeVar

from . import _protocol as p
from ._launch import (
    NEW_GROUP,
    QUIT_TIMEOUT,
    PathLike,
    StderrTail,
    engine_command,
    kill_group,
)
from ._types import (
    Diagram,
    EngineOption,
    EngineTerminated,
    Info,
    Limit,
    ProtocolError,
    SearchResult,
    Status,
)

T = TypeVar("T")


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

    def _take_line(self) -> None:
        line = self._lines.get()
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

    def _request(self, command: "p.Command[T]", beside_search: bool = False) -> T:
        if not beside_search:
            self._end_search()
        line, pending = self._conversation.send(command)
        self._write(line)
        while not pending.done:
            self._take_line()
        return pending.result()

    def _end_search(self) -> None:
        search = self._conversation.search
        if search is None or search.finished:
            return
        line = self._conversation.stop_search()
        if line is not None:
            self._write(line)
        # `stop`'s reply comes after the search's answer.
        stopping = search.stopping
        while not search.finished or (stopping is not None and not stopping.done):
            self._take_line()

    def _search(self, command: "p.Command[T]") -> "p.Search":
        self._end_search()
        line, search = self._conversation.start_search(command)
        self._write(line)
        while not search.request.done:
            self._take_line()
        search.request.result()  # a refused limit raises here
        return search

    # The requests.

    def protocol_version(self) -> int:
        return self._request(p.protocol_version())

    def name(self) -> str:
        return self._request(p.name())

    def version(self) -> str:
        return self._request(p.version())

    def games(self) -> Tuple[str, ...]:
        """The games this engine plays (`senamukha mentula mangala`)."""
        return self._request(p.games())

    def list_commands(self) -> Tuple[str, ...]:
        return self._request(p.list_commands())

    def known_command(self, command: str) -> bool:
        return self._request(p.known_command(command))

    def game(self, name: str) -> None:
        """Switches to game `name`, at its start position with default rule options."""
        self._request(p.game(name))

    def new_game(self) -> None:
        """The start position again (rule options kept), the search's tables cleared."""
        self._request(p.new_game())

    def position(self, fen: Optional[str] = None, moves: Sequence[str] = ()) -> None:
        """Sets the position: `fen` (the game's position format; None: the start
        position), then `moves` in any notation the game reads. All or nothing."""
        self._request(p.position(fen, moves))

    def play(self, move: str) -> str:
        """Plays `move` (any notation); returns it in canonical notation."""
        return self._request(p.play(move))

    def undo(self, count: int = 1) -> None:
        """Takes back `count` moves played since the position was set."""
        self._request(p.undo(count))

    def legal_moves(self, notation: Optional[str] = None) -> Tuple[str, ...]:
        """The legal moves (canonical notation unless `notation` is given; none once
        the game is over)."""
        return self._request(p.legal_moves(notation))

    def fen(self, form: Optional[str] = None) -> str:
        """The position string (Mentula also has `form="list"`)."""
        return self._request(p.fen(form))

    def show(self) -> str:
        """The position as a text board."""
        return self._request(p.show())

    def diagram(self, *layers: str) -> Diagram:
        """The position drawn: SVG (with the layers asked for, e.g. Mentula's
        `reach`) and text; shown as the board in a Jupyter notebook."""
        svg = self._request(p.diagram("svg", layers))
        return Diagram(svg, self._request(p.diagram("text", ())))

    def to_move(self) -> Optional[str]:
        """The player to move, or None when the game is over."""
        return self._request(p.to_move())

    def status(self) -> Status:
        return self._request(p.status())

    def perft(self, depth: int) -> int:
        """The number of move sequences of `depth` plies from the position."""
        return self._request(p.perft(depth))

    def divide(self, depth: int) -> Dict[str, int]:
        """perft below each legal move, by move."""
        return self._request(p.divide(depth))

    def record(self, notation: Optional[str] = None) -> str:
        """The game since the position was set, as a record (records.md)."""
        return self._request(p.record(notation))

    def load_record(self, record: str) -> None:
        """Replays a record from the start position."""
        self._request(p.load_record(record))

    def options(self) -> Tuple[EngineOption, ...]:
        """The options of the engine and of the current game, rule options included."""
        return self._request(p.list_options())

    def set_option(self, name: str, value: object) -> None:
        self._request(p.set_option(name, value))

    def ping(self) -> str:
        """`pong`, answered at once, also beside a running analysis."""
        return self._request(p.ping(), beside_search=True)

    def is_ready(self) -> None:
        """Waits for `readyok` (which also takes the next search's memory)."""
        self._end_search()
        seen = self._conversation.readyok_count
        self._write("isready\n")
        while self._conversation.readyok_count == seen:
            self._take_line()

    # Searches.

    def analyse(self, limit: Optional[Limit] = None) -> SearchResult:
        """Searches the position (`go`) without playing; returns the best move and
        every `info` line (`.info` is the last one)."""
        return self.analysis(limit).wait()

    def best_move(self, limit: Optional[Limit] = None) -> Optional[str]:
        """The move a search chooses (None when the game is over); nothing is played."""
        return self.analyse(limit).best_move

    def genmove(self, limit: Optional[Limit] = None) -> SearchResult:
        """Searches and plays the move found; `.best_move` is the move played."""
        search = self._search(p.genmove(limit))
        while not search.finished:
            self._take_line()
        return search.result()

    def analysis(self, limit: Optional[Limit] = None) -> "Analysis":
        """Starts a search (`go`) and returns it at once: iterate over it to get each
        `info` as it comes, `stop()` it to end it early."""
        return Analysis(self, self._search(p.go(limit)))


class Analysis:
    """A running search. Iterating yields each `info` line as the engine writes it,
    until the search ends or `stop()` is called; `wait()` lets it run to its limit.
    Used as a context manager, leaving the `with` stops it."""

    def __init__(self, engine: Engine, search: "p.Search") -> None:
        self._engine = engine
        self._search = search
        self._yielded = 0

    def __iter__(self) -> Iterator[Info]:
        while True:
            infos = self._search.infos
            while self._yielded < len(infos):
                self._yielded += 1
                yield infos[self._yielded - 1]
            if self._search.finished:
                return
            self._engine._take_line()

    def stop(self) -> SearchResult:
        """Ends the search now; its best move is still read, so the engine stays in
        step. Iterating after this yields nothing more."""
        self._engine._end_search()
        self._yielded = len(self._search.infos)
        return self._search.result()

    def wait(self) -> SearchResult:
        """Lets the search run to its limit and returns what it gave."""
        while not self._search.finished:
            self._engine._take_line()
        return self._search.result()

    @property
    def finished(self) -> bool:
        return self._search.finished

    @property
    def result(self) -> SearchResult:
        """What the search has given so far (the best move once it has finished)."""
        return self._search.result()

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
