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
    Description,
    EngineError,
    EngineOption,
    Info,
    Limit,
    LudusError,
    ProtocolError,
    Score,
    SearchResult,
    Status,
    Wdl,
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


_INFO_NUMBERS = ("depth", "seldepth", "nodes", "nps", "time", "multipv", "hashfull", "currmovenumber")
_INFO_KEYS = frozenset(_INFO_NUMBERS + ("score", "scores", "wdl", "currmove", "pv", "string"))


def read_info(line: str, turn: Optional[str] = None) -> Info:
    """An `info` line: `info depth 5 seldepth 7 score cp 26 nodes ... pv i3h5 c9d7`;
    `turn`: the player to move when the search began (the scores' viewpoint)."""
    words = line.split()
    numbers: Dict[str, int] = {}
    scores: List[Score] = []
    chances: List[int] = []
    pv: Tuple[str, ...] = ()
    currmove: Optional[str] = None
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
            elif key in ("scores", "wdl"):
                at += 1
                while at < len(words) and words[at] not in _INFO_KEYS:
                    if key == "scores":
                        scores.append(_score(words[at]))
                    else:
                        chances.append(int(words[at]))
                    at += 1
            elif key == "currmove":
                currmove = words[at + 1]
                at += 2
            elif key in _INFO_NUMBERS:
                numbers[key] = int(words[at + 1])
                at += 2
            else:
                # A field this package does not know yet: skip its name and value.
                at += 2
    except (IndexError, ValueError):
        raise ProtocolError(f"unreadable info line: {line!r}") from None
    wdl = None
    if len(chances) == 3 and len(scores) == 1:
        wdl = Wdl(chances[0], chances[1], chances[2], turn)
    return Info(
        line,
        depth=numbers.get("depth"),
        seldepth=numbers.get("seldepth"),
        scores=tuple(scores),
        nodes=numbers.get("nodes"),
        nps=numbers.get("nps"),
        time_ms=numbers.get("time"),
        pv=pv,
        multipv=numbers.get("multipv"),
        hashfull=numbers.get("hashfull"),
        currmove=currmove,
        currmovenumber=numbers.get("currmovenumber"),
        wdl=wdl,
        wdl_players=tuple(chances) if len(scores) > 1 else (),
        turn=turn,
    )


def _pairs(facts: Dict[str, List[str]], key: str) -> Tuple[Tuple[str, str], ...]:
    return tuple((a, b) for a, _, b in (v.partition(" ") for v in facts.get(key, [])))


def read_description(text: str) -> Description:
    facts: Dict[str, List[str]] = {}
    for line in text.splitlines():
        key, _, rest = line.partition(" ")
        facts.setdefault(key, []).append(rest)
    try:
        files, ranks = facts["board"][0].split()
        return Description(
            name=facts["name"][0],
            title=facts["title"][0],
            board=(int(files), int(ranks)),
            players=_pairs(facts, "player"),
            notations=_pairs(facts, "notation"),
            reading=facts["reading"][0],
            layers=dict(_pairs(facts, "layer")),
            levels={int(a): int(b) for a, b in _pairs(facts, "level")},
            how_to_play=tuple(facts.get("howto", [])),
        )
    except (KeyError, IndexError, ValueError):
        raise ProtocolError(f"unreadable describe reply: {text!r}") from None


def read_places(text: str) -> Dict[str, Tuple[str, ...]]:
    places: Dict[str, Tuple[str, ...]] = {}
    for line in text.splitlines():
        move, *where = line.split()
        places[move] = tuple(where)
    return places


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


def describe(game_name: Optional[str]) -> Command[Description]:
    return Command(request_words("describe", game_name or ""), read_description)


def legal_places() -> Command[Dict[str, Tuple[str, ...]]]:
    return Command(("legal_places",), read_places)


def ponderhit() -> Command[None]:
    return Command(("ponderhit",), _nothing)


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


def one_line_record(text: str) -> str:
    """A record on one line, as `load_record` takes it. A `;` comment runs to the end
    of its line (records.md), so joining the lines would make it swallow every move
    after it: it becomes a `{...}` comment first. Braces and tag strings are left as
    they are."""
    out: List[str] = []
    for line in text.splitlines():
        in_brace = in_quote = False
        for at, char in enumerate(line):
            if in_brace:
                in_brace = char != "}"
            elif in_quote:
                in_quote = char != '"'
            elif char == "{":
                in_brace = True
            elif char == '"':
                in_quote = True
            elif char == ";":
                comment = line[at + 1 :].replace("{", "(").replace("}", ")").strip()
                line = line[:at] + ("{" + comment + "}" if comment else "")
                break
        out.append(line)
    return " ".join(" ".join(out).split())


def load_record(text: str) -> Command[None]:
    return Command(request_words("load_record", one_line_record(text)), _nothing)


def list_options() -> Command[Tuple[EngineOption, ...]]:
    return Command(("list_options",), read_options)


def set_option(option: str, value: object) -> Command[None]:
    if isinstance(value, bool):
        value = "true" if value else "false"
    return Command(request_words("setoption", "name", option, "value", str(value)), _nothing)


def ping() -> Command[str]:
    return Command(("ping",), _text)


def _search_words(limit: Optional[Limit], root_moves: Optional[Sequence[str]]) -> Tuple[str, ...]:
    if isinstance(root_moves, str):
        raise TypeError("root_moves is a sequence of moves, not one string")
    tail = ("searchmoves", *root_moves) if root_moves else ()
    if root_moves is not None and not root_moves:
        raise ValueError("root_moves is empty: no move to search")
    return request_words(*(limit or Limit()).words(), *tail)


def go(limit: Optional[Limit], root_moves: Optional[Sequence[str]] = None) -> Command[None]:
    return Command(("go", *_search_words(limit, root_moves)), _nothing)


def genmove(limit: Optional[Limit], root_moves: Optional[Sequence[str]] = None) -> Command[str]:
    return Command(("genmove", *_search_words(limit, root_moves)), _text)


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

    def __init__(self, request: Pending[Any], turn: Optional[str]) -> None:
        self.request = request
        # The player to move as the search began: its scores' viewpoint.
        self.turn = turn
        self.infos: List[Info] = []
        self.best_move: Optional[str] = None
        self.ponder: Optional[str] = None
        self.bestmove_seen = False
        self.finished = False
        self.stopping: Optional[Pending[None]] = None

    def result(self) -> SearchResult:
        return SearchResult(self.best_move, tuple(self.infos), self.ponder)


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

    def start_search(self, command: Command[T], turn: Optional[str]) -> Tuple[str, Search]:
        line, pending = self.send(command)
        self.search = Search(pending, turn)
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
        """The oldest request still unanswered (or the search still running), for
        error messages."""
        for pending in self._waiting.values():
            return pending.command.text
        if self.search is not None and not self.search.finished:
            return self.search.request.command.text
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
                self.search.infos.append(read_info(line, self.search.turn))
        elif line.startswith("bestmove"):
            search = self.search
            if search is None or search.finished:
                raise ProtocolError(f"a bestmove without a search: {line!r}")
            words = line.split()
            move = words[1] if len(words) > 1 else "none"
            search.best_move = None if move == "none" else move
            if len(words) > 3 and words[2] == "ponder":
                search.ponder = words[3]
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
