"""The protocol core shared by the blocking and the asyncio engines, without any I/O.

A front end asks a `Conversation` for the line of a request, writes it, and feeds it
every line the engine writes until the request (or search) it waits for is done. The
conversation frames replies (`=`/`?`, the id, one line or several up to an empty
line), pairs each with its request by id, and gives `info` and `bestmove` lines to
the search they belong to. The commands and how their replies are read are here too,
so the two front ends only differ in how they wait.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, Generic, List, Optional, Sequence, Tuple, TypeVar

from ._types import (
    EngineError,
    EngineOption,
    Info,
    Limit,
    LudusError,
    ProtocolError,
    Score,
    SearchResult,
    Status,
)

T = TypeVar("T")


def request_words(*words: str) -> Tuple[str, ...]:
    """Checks the words of a request: a line break in one would end the request
    early and make the rest a request of its own."""
    for word in words:
        if "\n" in word or "\r" in word:
            raise ValueError(f"a request cannot contain a line break: {word!r}")
    return tuple(w for w in words if w != "")


@dataclass(frozen=True)
class Command(Generic[T]):
    """A request and how to read its reply's text."""

    words: Tuple[str, ...]
    read: Callable[[str], T]

    @property
    def text(self) -> str:
        return " ".join(self.words)


def _nothing(text: str) -> None:
    return None


def _text(text: str) -> str:
    return text


def _words(text: str) -> Tuple[str, ...]:
    return tuple(text.split())


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ProtocolError(f"expected a number, not {text!r}") from None


def _boolean(text: str) -> bool:
    if text not in ("true", "false"):
        raise ProtocolError(f"expected true or false, not {text!r}")
    return text == "true"


def _player(text: str) -> Optional[str]:
    return None if text == "none" else text


def read_divide(text: str) -> Dict[str, int]:
    """`divide`'s `<move>: <count>` lines (the total line is left out: it is the sum)."""
    counts: Dict[str, int] = {}
    for line in text.splitlines():
        if line.startswith("Nodes searched:"):
            continue
        move, sep, count = line.rpartition(": ")
        if not sep:
            raise ProtocolError(f"unreadable divide line: {line!r}")
        counts[move] = _integer(count)
    return counts


_OPTION = re.compile(r"option name (?P<name>.+?) type (?P<type>\S+) default (?P<rest>.*)$")


def read_options(text: str) -> Tuple[EngineOption, ...]:
    options = []
    for line in text.splitlines():
        found = _OPTION.match(line)
        if not found:
            raise ProtocolError(f"unreadable option line: {line!r}")
        rest = found["rest"]
        low: Optional[int] = None
        high: Optional[int] = None
        choices: Tuple[str, ...] = ()
        bounds = re.match(r"(?P<default>.*?) min (?P<min>-?\d+) max (?P<max>-?\d+)$", rest)
        if bounds:
            default, low, high = bounds["default"], int(bounds["min"]), int(bounds["max"])
        elif " var " in rest:
            default, *choice_list = rest.split(" var ")
            choices = tuple(choice_list)
        else:
            default = rest
        options.append(EngineOption(found["name"], found["type"], default, low, high, choices))
    return tuple(options)


_ONGOING = re.compile(r"ongoing \((?P<player>\S+) to move\)$")
_OUTCOME = re.compile(r"(?P<verdict>[^(]+?) \((?P<details>.*)\)$")
_PLAYER_SCORE = re.compile(r"(?P<player>[a-z]+) (?P<score>-?\d+(?:\.\d+)?)$")


def read_status(text: str) -> Status:
    ongoing = _ONGOING.match(text)
    if ongoing:
        return Status(text, to_move=ongoing["player"])
    outcome = _OUTCOME.match(text)
    if not outcome:
        raise ProtocolError(f"unreadable status: {text!r}")
    verdict = outcome["verdict"]
    if verdict.endswith(" wins"):
        winners: Tuple[str, ...] = (verdict[: -len(" wins")],)
    elif verdict.endswith(" share first place"):
        winners = tuple(verdict[: -len(" share first place")].replace(",", " ").split(" and "))
        winners = tuple(w.strip() for part in winners for w in part.split() if w.strip())
    else:
        winners = ()
    reason, *parts = outcome["details"].split("; ")
    scores: Dict[str, float] = {}
    ranking = None
    for part in parts:
        if part.startswith("ranking "):
            ranking = part[len("ranking ") :]
            continue
        for entry in part.split(", "):
            score = _PLAYER_SCORE.match(entry)
            if not score:
                raise ProtocolError(f"unreadable score {entry!r} in status {text!r}")
            number = score["score"]
            scores[score["player"]] = float(number) if "." in number else int(number)
    return Status(text, None, verdict, winners, reason, scores, ranking)


def _score(word: str) -> Score:
    # Mentula writes a mate among its per-player scores glued: `mate3`, `mate-3`.
    if word.startswith("mate"):
        return Score(mate=int(word[len("mate") :]))
    return Score(cp=int(word))


_INFO_NUMBERS = ("depth", "seldepth", "nodes", "nps", "time")
_INFO_KEYS = frozenset(_INFO_NUMBERS + ("score", "scores", "pv", "string"))


def read_info(line: str) -> Info:
    """An `info` line: `info depth 5 seldepth 7 score cp 26 nodes ... pv i3h5 c9d7`."""
    words = line.split()
    numbers: Dict[str, int] = {}
    scores: List[Score] = []
    pv: Tuple[str, ...] = ()
    at = 1
    try:
        while at < len(words):
            key = words[at]
            if key == "string":
                return Info(line, string=line.split(None, 2)[2] if len(words) > 2 else "")
            if key == "pv":
                pv = tuple(words[at + 1 :])
                break
            if key == "score":
                kind, value = words[at + 1], int(words[at + 2])
                scores = [Score(mate=value) if kind == "mate" else Score(cp=value)]
                at += 3
            elif key == "scores":
                at += 1
                while at < len(words) and words[at] not in _INFO_KEYS:
                    scores.append(_score(words[at]))
                    at += 1
            elif key in _INFO_NUMBERS:
                numbers[key] = int(words[at + 1])
                at += 2
            else:
                # A field this package does not know yet: skip its name and value.
                at += 2
    except (IndexError, ValueError):
        raise ProtocolError(f"unreadable info line: {line!r}") from None
    return Info(
        line,
        depth=numbers.get("depth"),
        seldepth=numbers.get("seldepth"),
        scores=tuple(scores),
        nodes=numbers.get("nodes"),
        nps=numbers.get("nps"),
        time_ms=numbers.get("time"),
        pv=pv,
    )


# The requests, one function a command: the front ends' methods call these.


def protocol_version() -> Command[int]:
    return Command(("protocol_version",), _integer)


def name() -> Command[str]:
    return Command(("name",), _text)


def version() -> Command[str]:
    return Command(("version",), _text)


def games() -> Command[Tuple[str, ...]]:
    return Command(("games",), _words)


def list_commands() -> Command[Tuple[str, ...]]:
    return Command(("list_commands",), _words)


def known_command(command: str) -> Command[bool]:
    return Command(request_words("known_command", command), _boolean)


def game(game_name: str) -> Command[None]:
    return Command(request_words("game", game_name), _nothing)


def new_game() -> Command[None]:
    return Command(("newgame",), _nothing)


def position(fen: Optional[str], moves: Sequence[str]) -> Command[None]:
    if isinstance(moves, str):
        raise TypeError("moves is a sequence of moves, not one string")
    start = ("startpos",) if fen is None else ("fen", fen)
    tail = ("moves", *moves) if moves else ()
    return Command(request_words("position", *start, *tail), _nothing)


def play(move: str) -> Command[str]:
    return Command(request_words("play", move), _text)


def undo(count: int) -> Command[None]:
    return Command(("undo", str(int(count))), _nothing)


def legal_moves(notation: Optional[str]) -> Command[Tuple[str, ...]]:
    return Command(request_words("legal_moves", notation or ""), _words)


def fen(form: Optional[str]) -> Command[str]:
    return Command(request_words("fen", form or ""), _text)


def show() -> Command[str]:
    return Command(("show",), _text)


def diagram(form: str, layers: Sequence[str]) -> Command[str]:
    return Command(request_words("diagram", form, *layers), _text)


def to_move() -> Command[Optional[str]]:
    return Command(("to_move",), _player)


def status() -> Command[Status]:
    return Command(("status",), read_status)


def perft(depth: int) -> Command[int]:
    return Command(("perft", str(int(depth))), _integer)


def divide(depth: int) -> Command[Dict[str, int]]:
    return Command(("divide", str(int(depth))), read_divide)


def record(notation: Optional[str]) -> Command[str]:
    return Command(request_words("record", notation or ""), _text)


def load_record(text: str) -> Command[None]:
    # A record is sent on one line; the engine reads its moves whatever the spacing.
    return Command(request_words("load_record", " ".join(text.split())), _nothing)


def list_options() -> Command[Tuple[EngineOption, ...]]:
    return Command(("list_options",), read_options)


def set_option(option: str, value: object) -> Command[None]:
    if isinstance(value, bool):
        value = "true" if value else "false"
    return Command(request_words("setoption", "name", option, "value", str(value)), _nothing)


def ping() -> Command[str]:
    return Command(("ping",), _text)


def go(limit: Optional[Limit]) -> Command[None]:
    return Command(("go", *(limit or Limit()).words()), _nothing)


def genmove(limit: Optional[Limit]) -> Command[str]:
    return Command(("genmove", *(limit or Limit()).words()), _text)


def stop() -> Command[None]:
    return Command(("stop",), _nothing)


def quit() -> Command[None]:
    return Command(("quit",), _nothing)


class Pending(Generic[T]):
    """A request sent and its answer, once it has come."""

    def __init__(self, request_id: str, command: Command[T]) -> None:
        self.request_id = request_id
        self.command = command
        self.done = False
        self._value: Optional[T] = None
        self._error: Optional[LudusError] = None

    def resolve(self, ok: bool, text: str) -> None:
        self.done = True
        if not ok:
            self._error = EngineError(text, self.command.text)
            return
        try:
            self._value = self.command.read(text)
        except LudusError as error:
            self._error = error

    def result(self) -> T:
        """The reply read as the command's result; raises the engine's refusal."""
        assert self.done, "the reply has not come yet"
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]


class Search:
    """A running search: `go` (answered by `bestmove`) or `genmove` (answered by its
    reply, the move played). Its `info` lines are collected as they come."""

    def __init__(self, request: Pending[Any]) -> None:
        self.request = request
        self.infos: List[Info] = []
        self.best_move: Optional[str] = None
        self.bestmove_seen = False
        self.finished = False
        self.stopping: Optional[Pending[None]] = None

    def result(self) -> SearchResult:
        return SearchResult(self.best_move, tuple(self.infos))


class Conversation:
    """The state of one engine session: ids given out, replies awaited, the search."""

    def __init__(self) -> None:
        self._last_id = 0
        self._waiting: Dict[str, Pending[object]] = {}
        self._reply: Optional[Tuple[bool, str, List[str]]] = None
        self.search: Optional[Search] = None
        self.readyok_count = 0

    def send(self, command: Command[T]) -> Tuple[str, Pending[T]]:
        """The line to write for `command` (with a fresh id) and its pending answer."""
        self._last_id += 1
        request_id = str(self._last_id)
        pending = Pending(request_id, command)
        self._waiting[request_id] = pending  # type: ignore[assignment]
        return f"{request_id} {command.text}\n", pending

    def start_search(self, command: Command[T]) -> Tuple[str, Search]:
        line, pending = self.send(command)
        self.search = Search(pending)
        return line, self.search

    def stop_search(self) -> Optional[str]:
        """The `stop` line for the running search, or None if it has ended or is
        being stopped already."""
        search = self.search
        if search is None or search.finished or search.stopping is not None:
            return None
        line, search.stopping = self.send(stop())
        return line

    @property
    def waiting_for(self) -> Optional[str]:
        """The oldest request still unanswered, for error messages."""
        for pending in self._waiting.values():
            return pending.command.text
        return None

    def feed(self, line: str) -> None:
        """Takes one line the engine wrote (without its line break)."""
        line = line.rstrip("\r\n")
        if self._reply is not None:
            if line == "":
                ok, request_id, body = self._reply
                self._reply = None
                self._answer(ok, request_id, "\n".join(body))
            else:
                self._reply[2].append(line)
            return
        if line == "":
            return
        if line[0] in "=?":
            found = re.match(r"([=?])(\d*)(?: (.*))?$", line)
            if not found:
                raise ProtocolError(f"unreadable reply line: {line!r}")
            ok = found[1] == "="
            if found[3] is not None:
                self._answer(ok, found[2], found[3])
            else:
                self._reply = (ok, found[2], [])
            return
        if line == "readyok":
            self.readyok_count += 1
        elif line.startswith("info"):
            if self.search is not None and not self.search.finished:
                self.search.infos.append(read_info(line))
        elif line.startswith("bestmove"):
            search = self.search
            if search is None or search.finished:
                raise ProtocolError(f"a bestmove without a search: {line!r}")
            move = line.split()[1] if len(line.split()) > 1 else "none"
            search.best_move = None if move == "none" else move
            search.bestmove_seen = True
            # Finished once `go` was acknowledged too (it always is, before its info).
            search.finished = search.request.done
        else:
            raise ProtocolError(f"unexpected line from the engine: {line!r}")

    def _answer(self, ok: bool, request_id: str, text: str) -> None:
        # Replies come in the order of their requests, so one without an id (a line
        # the engine could not read as a request) answers the oldest waiting one.
        if request_id == "":
            if not self._waiting:
                raise ProtocolError(f"a reply to no request: {text!r}")
            request_id = next(iter(self._waiting))
        pending = self._waiting.pop(request_id, None)
        if pending is None:
            raise ProtocolError(f"a reply to an unknown request {request_id}: {text!r}")
        pending.resolve(ok, text)
        search = self.search
        if search is None or search.finished:
            return
        if pending is search.request:
            if not ok:
                search.finished = True
            elif search.request.command.words[0] == "genmove":
                search.best_move = text
                search.finished = True
            elif search.bestmove_seen:
                search.finished = True
