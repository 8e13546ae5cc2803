"""What the engine's answers become: small immutable values, and the errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional, Tuple


class LudusError(Exception):
    """The base of every error this package raises about the engine."""


class EngineError(LudusError):
    """The engine refused a request: its reply started with `?`.

    `message` is the engine's text as it wrote it; `request` is the request that
    caused it, as sent (without the id this package added).
    """

    def __init__(self, message: str, request: str) -> None:
        super().__init__(f"{message} (request: {request})")
        self.message = message
        self.request = request


class EngineTerminated(LudusError):
    """The engine process ended, or closed its output, before it had answered.

    `status` is its exit status (negative: killed by that signal; None: still running
    with its output closed); `stderr` holds its last lines on standard error;
    `request` is the request that was waiting for an answer, if any.
    """

    def __init__(
        self, status: Optional[int], stderr: Tuple[str, ...], request: Optional[str]
    ) -> None:
        waiting = f" while answering {request!r}" if request else ""
        tail = "; its last lines on stderr:\n" + "\n".join(stderr) if stderr else ""
        super().__init__(f"the engine ended (exit status {status}){waiting}{tail}")
        self.status = status
        self.stderr = stderr
        self.request = request


class ProtocolError(LudusError):
    """The engine wrote something this package cannot read as the protocol says."""


@dataclass(frozen=True)
class Limit:
    """When a search ends: the protocol's search limits (protocol.md, "Search limits").

    Times are in milliseconds, as the protocol has them. `time` and `inc` give the
    players' clocks by player name (`{"white": 60000, "black": 55000}`); the engine
    uses the clock of the player to move. No limit at all searches to depth 64;
    `infinite` searches until stopped.
    """

    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[int] = None
    mate: Optional[int] = None
    movestogo: Optional[int] = None
    time: Optional[Mapping[str, int]] = None
    inc: Optional[Mapping[str, int]] = None
    infinite: bool = False

    def words(self) -> Tuple[str, ...]:
        """The limits as the words of a `go` or `genmove` request."""
        words = []
        for name in ("depth", "nodes", "movetime", "mate", "movestogo"):
            value = getattr(self, name)
            if value is not None:
                words += [name, str(int(value))]
        for name, clocks in (("time", self.time), ("inc", self.inc)):
            for player, ms in (clocks or {}).items():
                words += [name, player, str(int(ms))]
        if self.infinite:
            words.append("infinite")
        return tuple(words)


@dataclass(frozen=True)
class Score:
    """One score from the side's own view: `cp` (centipawns, or Mangala II's
    centi-counters, where a proven result is 20000 plus the margin) or `mate`
    (a forced end in that many plies; negative when the side loses)."""

    cp: Optional[int] = None
    mate: Optional[int] = None

    def __str__(self) -> str:
        return f"mate {self.mate}" if self.mate is not None else f"cp {self.cp}"


@dataclass(frozen=True)
class Info:
    """One `info` line of a search.

    `scores` has one score in two-player games and one per player, in turn order, for
    Mentula; `pv` is the principal variation in the game's canonical notation;
    `string` is the text of an `info string` line (which has no other field).
    """

    line: str
    depth: Optional[int] = None
    seldepth: Optional[int] = None
    scores: Tuple[Score, ...] = ()
    nodes: Optional[int] = None
    nps: Optional[int] = None
    time_ms: Optional[int] = None
    pv: Tuple[str, ...] = ()
    string: Optional[str] = None

    @property
    def score(self) -> Optional[Score]:
        """The score of a two-player game (None for Mentula's several)."""
        return self.scores[0] if len(self.scores) == 1 else None


@dataclass(frozen=True)
class SearchResult:
    """What a search gave: its best move (None when the game was over) and every
    `info` line on the way (the `info string` lines among them)."""

    best_move: Optional[str]
    infos: Tuple[Info, ...] = ()

    @property
    def info(self) -> Optional[Info]:
        """The last progress report (not an `info string`), or None if there was none."""
        reports = [i for i in self.infos if i.string is None]
        return reports[-1] if reports else None

    @property
    def strings(self) -> Tuple[str, ...]:
        """The texts of the `info string` lines (e.g. a `mate` search's verdict)."""
        return tuple(i.string for i in self.infos if i.string is not None)


@dataclass(frozen=True)
class Status:
    """The answer to `status`: the game going on, or its outcome.

    `text` is the engine's line. For an outcome: `verdict` (`white wins`, `draw`,
    `white and red share first place`), `winners` (empty for a draw), `reason`
    (`checkmate`, `all pits empty`, ...), the players' `scores` when the game has them
    (Mangala II, Mentula) and Mentula's `ranking` (`white > yellow = red = magenta`).
    """

    text: str
    to_move: Optional[str] = None
    verdict: Optional[str] = None
    winners: Tuple[str, ...] = ()
    reason: Optional[str] = None
    scores: Mapping[str, float] = field(default_factory=dict)
    ranking: Optional[str] = None

    @property
    def over(self) -> bool:
        return self.to_move is None


@dataclass(frozen=True)
class EngineOption:
    """One line of `list_options`."""

    name: str
    type: str
    default: str
    min: Optional[int] = None
    max: Optional[int] = None
    choices: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Diagram:
    """A position drawn by the engine: `svg` (from `diagram svg`) and `text` (from
    `diagram text`). Jupyter shows the SVG; `str()` gives the text board."""

    svg: str
    text: str

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.text
