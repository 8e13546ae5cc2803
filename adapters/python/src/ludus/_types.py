"""What the engine's answers become: small immutable values, and the errors."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Mapping, Optional, Sequence, Tuple


class LudusError(Exception):
    """The base of every error this package raises about the engine."""


class EngineError(LudusError):
    """Something went wrong with the engine: the base of the errors below, as
    python-chess's `chess.engine.EngineError` is of its own.

    Raised as itself, it is a refusal: the engine's reply started with `?`.
    `message` is the engine's text as it wrote it; `request` is the request that
    caused it, as sent (without the id this package added).
    """

    def __init__(self, message: str, request: Optional[str]) -> None:
        super().__init__(f"{message} (request: {request})" if request else message)
        self.message = message
        self.request = request


class EngineTerminated(EngineError):
    """The engine process ended, or closed its output, before it had answered.

    `status` is its exit status (negative: killed by that signal; None: still running
    with its output closed); `stderr` holds its last lines on standard error;
    `request` is the request that was waiting for an answer (a search's `go` while it
    ran), if any.
    """

    def __init__(
        self, status: Optional[int], stderr: Tuple[str, ...], request: Optional[str]
    ) -> None:
        waiting = f" while answering {request!r}" if request else ""
        tail = "; its last lines on stderr:\n" + "\n".join(stderr) if stderr else ""
        super().__init__(f"the engine ended (exit status {status}){waiting}{tail}", None)
        self.request = request
        self.status = status
        self.stderr = stderr


class EngineTimeout(EngineError, TimeoutError):
    """A call's `timeout` passed before the engine answered. The engine is stopped
    (`stop` sent) and kept in step: its late answer is read and dropped by the next
    call. Also a `TimeoutError`, so that `except TimeoutError` catches it."""

    def __init__(self, timeout: float, request: Optional[str]) -> None:
        super().__init__(f"no answer within {timeout:g} s", request)
        self.timeout = timeout


class ProtocolError(LudusError):
    """The engine wrote something this package cannot read as the protocol says."""


def _milliseconds(seconds: float, what: str) -> int:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"Limit.{what} is in seconds (a number), not {seconds!r}")
    if seconds < 0:
        raise ValueError(f"Limit.{what} cannot be negative: {seconds!r}")
    return int(round(seconds * 1000))


@dataclass(frozen=True)
class Limit:
    """When a search ends, as python-chess's `chess.engine.Limit` says it: `time`
    (seconds to think), `depth` (plies), `nodes`, `mate` (moves), and clocks in
    seconds: `white_clock`, `black_clock`, `white_inc`, `black_inc` for the players
    named white and black (Sena-Mukha), or `clocks` and `incs` by player name for any
    game (Mangala II's `south` and `north`, Mentula's four); `remaining_moves` to the
    next time control. The engine uses the clock of the player to move.

    Beside those: `movetime` (milliseconds, the protocol's own `movetime`),
    `infinite` (until stopped) and `ponder` (think on the opponent's time until
    `ponderhit()` or a stop; protocol.md, "Search limits"). No limit at all searches
    to depth 64.
    """

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    white_clock: Optional[float] = None
    black_clock: Optional[float] = None
    white_inc: Optional[float] = None
    black_inc: Optional[float] = None
    remaining_moves: Optional[int] = None
    clocks: Optional[Mapping[str, float]] = None
    incs: Optional[Mapping[str, float]] = None
    movetime: Optional[int] = None
    infinite: bool = False
    ponder: bool = False

    def __post_init__(self) -> None:
        # python-chess's Limit(time=2.0) is seconds; an old ludus Limit(time={...})
        # meant clocks: say so rather than fail somewhere inside.
        if isinstance(self.time, Mapping):
            raise TypeError(
                "Limit.time is the seconds to think (as in python-chess); give clocks "
                "as white_clock=/black_clock= or clocks={player: seconds}"
            )
        self.words()  # every value checked now, not when the search starts

    def words(self) -> Tuple[str, ...]:
        """The limits as the words of a `go` or `genmove` request."""
        words: List[str] = []
        for name in ("depth", "nodes", "mate"):
            value = getattr(self, name)
            if value is not None:
                words += [name, str(int(value))]
        if self.time is not None:
            words += ["movetime", str(max(1, _milliseconds(self.time, "time")))]
        if self.movetime is not None:
            words += ["movetime", str(int(self.movetime))]
        if self.remaining_moves is not None:
            words += ["movestogo", str(int(self.remaining_moves))]
        clocks: Dict[str, float] = dict(self.clocks or {})
        incs: Dict[str, float] = dict(self.incs or {})
        for player, clock, inc in (
            ("white", self.white_clock, self.white_inc),
            ("black", self.black_clock, self.black_inc),
        ):
            if clock is not None:
                clocks[player] = clock
            if inc is not None:
                incs[player] = inc
        for name, table in (("time", clocks), ("inc", incs)):
            for player, seconds in table.items():
                words += [name, str(player), str(_milliseconds(seconds, f"{name} of {player}"))]
        if self.infinite:
            words.append("infinite")
        if self.ponder:
            words.append("ponder")
        return tuple(words)


@functools.total_ordering
@dataclass(frozen=True, eq=True)
class Score:
    """One score from one player's view: `cp` (centipawns, or Mangala II's
    centi-counters, where a proven result is 20000 plus the margin) or `mate` (a
    forced end in that many plies; negative when that player loses).

    Scores compare as python-chess's do: any mate for the player above any `cp`, the
    shorter the better; being mated below any `cp`, the later the better.
    """

    cp: Optional[int] = None
    mate: Optional[int] = None

    def is_mate(self) -> bool:
        return self.mate is not None

    def __neg__(self) -> "Score":
        if self.mate is not None:
            return Score(mate=-self.mate)
        return Score(cp=-(self.cp or 0))

    def _key(self) -> Tuple[int, int]:
        if self.mate is None:
            return (1, self.cp or 0)
        if self.mate > 0:
            return (2, -self.mate)
        return (0, -self.mate)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() < other._key()

    def __str__(self) -> str:
        return f"mate {self.mate}" if self.mate is not None else f"cp {self.cp}"


@dataclass(frozen=True)
class PovScore:
    """A two-player score with its viewpoint stated: `relative` is from the view of
    `turn`, the player to move when the search began (as the engine reports it);
    `pov(player)` gives it from any player's view."""

    relative: Score
    turn: Optional[str]

    def pov(self, player: str) -> Score:
        """The score from `player`'s view (the other player's is its negation)."""
        if self.turn is None:
            raise ValueError("the score's viewpoint is not known (an info line read alone)")
        return self.relative if player == self.turn else -self.relative

    def is_mate(self) -> bool:
        return self.relative.is_mate()

    @property
    def cp(self) -> Optional[int]:
        """The relative score's `cp` (the player to move's view)."""
        return self.relative.cp

    @property
    def mate(self) -> Optional[int]:
        """The relative score's `mate` (the player to move's view)."""
        return self.relative.mate

    def __str__(self) -> str:
        return f"{self.relative} ({self.turn}'s view)" if self.turn else str(self.relative)


@dataclass(frozen=True)
class Wdl:
    """The chances a two-player score means (`UCI_ShowWDL`), per mille, from the view
    of `turn`, the player to move: `wins + draws + losses == 1000`."""

    wins: int
    draws: int
    losses: int
    turn: Optional[str]

    def pov(self, player: str) -> "Wdl":
        if self.turn is None:
            raise ValueError("the chances' viewpoint is not known (an info line read alone)")
        if player == self.turn:
            return self
        return Wdl(self.losses, self.draws, self.wins, player)

    def expectation(self) -> float:
        """The expected score of `turn`, 0 to 1 (a draw counting half)."""
        return (self.wins + 0.5 * self.draws) / 1000


@dataclass(frozen=True)
class Info:
    """One `info` line of a search.

    `score` is a two-player game's score with its viewpoint (`score.relative` is the
    player to move's; `score.pov(player)` any player's); `scores` has that score
    (from the mover's view) or, for Mentula, one per player in turn order. `multipv`
    numbers the line when MultiPV is above 1; `wdl` is the chances when
    `UCI_ShowWDL` is on (`wdl_players` Mentula's four, per mille). `currmove` and
    `currmovenumber` make a line of their own that only says which root move the
    search is on (no score, no pv); `string` is an `info string` line's text.
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
    multipv: Optional[int] = None
    hashfull: Optional[int] = None
    currmove: Optional[str] = None
    currmovenumber: Optional[int] = None
    wdl: Optional[Wdl] = None
    wdl_players: Tuple[int, ...] = ()
    turn: Optional[str] = None

    @property
    def score(self) -> Optional[PovScore]:
        """A two-player game's score with its viewpoint (None for Mentula's several,
        and for lines without a score)."""
        if len(self.scores) != 1:
            return None
        return PovScore(self.scores[0], self.turn)

    @property
    def is_result(self) -> bool:
        """Whether this line reports a result (a score and a line), as opposed to an
        `info string` or a `currmove` line."""
        return bool(self.scores) and bool(self.pv)


def last_lines(infos: Sequence[Info]) -> Tuple[Info, ...]:
    """The lines of the last iteration that reported all its lines (or the newest
    one's, once it has as many), best first: what MultiPV gave."""
    complete: List[Info] = []
    coming: List[Info] = []
    for info in infos:
        if not info.is_result:
            continue
        if (info.multipv or 1) == 1 and coming:
            complete, coming = coming, []
        coming.append(info)
    return tuple(coming if len(coming) >= len(complete) else complete)


@dataclass(frozen=True)
class SearchResult:
    """What a search gave: its best move (None when the game was over), the reply it
    expects (`ponder`, when the `Ponder` option is on) and every `info` line on the
    way (`info string` and `currmove` lines among them)."""

    best_move: Optional[str]
    infos: Tuple[Info, ...] = ()
    ponder: Optional[str] = None

    @property
    def move(self) -> Optional[str]:
        """The best move (python-chess's `PlayResult.move`)."""
        return self.best_move

    @property
    def info(self) -> Optional[Info]:
        """The best line's last report: a line with a score and a pv (`multipv 1`
        when there are several), never an `info string` or `currmove` line; None if
        the search gave none."""
        lines = last_lines(self.infos)
        return lines[0] if lines else None

    @property
    def multipv(self) -> Tuple[Info, ...]:
        """The last complete iteration's lines, best first (`multipv` 1, 2, ...)."""
        return last_lines(self.infos)

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
class Description:
    """The answer to `describe`: what a front end needs to present a game.

    `board` is (files, ranks) (Mangala II: pits per row, rows); `players` the players
    in turn order with their colours; `notations` the notations (name, title), the
    canonical one first; `reading` the notation people read; `layers` the diagram
    layers by name; `levels` each strength level's Elo on the game's scale;
    `how_to_play` the rules' essentials for a newcomer, a sentence each.
    """

    name: str
    title: str
    board: Tuple[int, int]
    players: Tuple[Tuple[str, str], ...]
    notations: Tuple[Tuple[str, str], ...]
    reading: str
    layers: Mapping[str, str] = field(default_factory=dict)
    levels: Mapping[int, int] = field(default_factory=dict)
    how_to_play: Tuple[str, ...] = ()


@dataclass(frozen=True)
class EngineOption:
    """One line of `list_options`."""

    name: str
    type: str
    default: str
    min: Optional[int] = None
    max: Optional[int] = None
    choices: Tuple[str, ...] = ()


class OptionMap(Mapping[str, EngineOption]):
    """The engine's options by name, as python-chess's `engine.options`: looked up
    without regard to case or spaces (`options["hash"]`, `options["UCI_Elo"]`)."""

    def __init__(self, options: Sequence[EngineOption]) -> None:
        self._options = {_option_key(o.name): o for o in options}

    def __getitem__(self, name: str) -> EngineOption:
        return self._options[_option_key(name)]

    def __iter__(self) -> Iterator[str]:
        return (o.name for o in self._options.values())

    def __len__(self) -> int:
        return len(self._options)

    def __repr__(self) -> str:
        return f"OptionMap({', '.join(self)})"


def _option_key(name: str) -> str:
    return "".join(name.split()).lower()


@dataclass(frozen=True)
class Diagram:
    """A position drawn by the engine: `svg` (from `diagram svg`) and `text` (from
    `diagram text`). Jupyter shows the SVG; `str()` gives the text board."""

    svg: str
    text: str

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        # A plain REPL shows this; a notebook shows the SVG itself.
        return f"Diagram(svg=<{len(self.svg)} characters>, text=\n{self.text})"

    def __str__(self) -> str:
        return self.text
