"""`ludus match` from Python: the command run, its JSON summary read into objects."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

from ._launch import PathLike, engine_command
from ._types import LudusError


def _quoted(text: str) -> str:
    # The runner's settings quote a key or value with spaces in double quotes, and
    # have no way to write a double quote inside one.
    if '"' in text:
        raise ValueError(f"a match setting cannot contain a double quote: {text!r}")
    return f'"{text}"' if any(c.isspace() for c in text) or text == "" else text


@dataclass(frozen=True)
class MatchEngine:
    """One `--engine` of a match: its command line (default: the ludus that referees)
    and settings (command-line.md, "ludus match")."""

    cmd: Optional[str] = None
    name: Optional[str] = None
    proto: Optional[str] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    options: Mapping[str, object] = field(default_factory=dict)

    def setting(self, default_cmd: str) -> str:
        """The `--engine` argument."""
        parts = [f"cmd={_quoted(self.cmd or default_cmd)}"]
        for key in ("name", "proto", "depth", "nodes"):
            value = getattr(self, key)
            if value is not None:
                parts.append(f"{key}={_quoted(str(value))}")
        for option, value in self.options.items():
            parts.append(f"{_quoted('option.' + option)}={_quoted(str(value))}")
        return " ".join(parts)


@dataclass(frozen=True)
class MatchGame:
    """One game of the summary. `seats[s]` is the engine (index into the summary's
    `engines`) in seat s; `places` and `scores` are per seat (place 1 is best)."""

    index: int
    opening: int
    seats: Tuple[int, ...]
    moves: Tuple[str, ...]
    ending: str
    reason: str
    forfeit: Optional[int]
    scores: Optional[Tuple[float, ...]]
    places: Tuple[float, ...]


@dataclass(frozen=True)
class Tally:
    """Two engines: wins, draws and losses of the first, its score per game and the
    Elo difference with its 95 % margin (None where unbounded)."""

    wins: int
    draws: int
    losses: int
    score: float
    draw_ratio: float
    elo: Optional[float]
    elo_margin: Optional[float]


@dataclass(frozen=True)
class MatchSummary:
    """The JSON summary of `ludus match --summary`; `json` holds all of it (the
    four-player standings and ratings, the SPRT, the clocks)."""

    game: str
    engines: Tuple[str, ...]
    games: Tuple[MatchGame, ...]
    forfeits: Tuple[int, ...]
    tally: Optional[Tally]
    json: Mapping[str, Any]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "MatchSummary":
        games = tuple(
            MatchGame(
                index=g["index"],
                opening=g["opening"],
                seats=tuple(g["seats"]),
                moves=tuple(g["moves"]),
                ending=g["ending"],
                reason=g["reason"],
                forfeit=g["forfeit"],
                scores=None if g["scores"] is None else tuple(g["scores"]),
                places=tuple(g["places"]),
            )
            for g in data["games"]
        )
        tally = Tally(**data["tally"]) if "tally" in data else None
        return cls(
            data["game"], tuple(data["engines"]), games, tuple(data["forfeits"]), tally, data
        )


def match(
    engines: Sequence[Union[str, MatchEngine]],
    *,
    game: Optional[str] = None,
    tc: Optional[str] = None,
    movetime: Optional[int] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    games: Optional[int] = None,
    openings: Optional[PathLike] = None,
    concurrency: Optional[int] = None,
    rules: Optional[Mapping[str, object]] = None,
    args: Sequence[str] = (),
    ludus: Optional[PathLike] = None,
) -> MatchSummary:
    """Runs `ludus match` and returns its summary. The referee is `ludus` (default:
    found as `Engine.popen` finds it). An engine is an `--engine` argument as the
    command line takes it, or a `MatchEngine` (whose default command is the
    referee); one of `tc`, `movetime`, `depth`, `nodes` is the time control; `args`
    are further arguments (`["--sprt", "elo0=0 elo1=5 alpha=0.05 beta=0.05"]`).
    A match that fails raises `LudusError` with the runner's message."""
    with tempfile.TemporaryDirectory(prefix="ludus-match-") as folder:
        summary_path = os.path.join(folder, "summary.json")
        referee_command = engine_command(ludus)
        command = [*referee_command, "match"]
        # The engines' default command is the referee's (a command line: the engine
        # built into the package runs as `python -m ludus._engine`).
        referee = " ".join(shlex.quote(word) for word in referee_command)
        for engine in engines:
            setting = engine.setting(referee) if isinstance(engine, MatchEngine) else engine
            command += ["--engine", setting]
        flags = [
            ("--game", game),
            ("--tc", tc),
            ("--movetime", movetime),
            ("--depth", depth),
            ("--nodes", nodes),
            ("--games", games),
            ("--openings", None if openings is None else os.fspath(openings)),
            ("--concurrency", concurrency),
        ]
        for flag, value in flags:
            if value is not None:
                command += [flag, str(value)]
        for rule, rule_value in (rules or {}).items():
            command += ["--rule", f"{rule}={rule_value}"]
        command += [*args, "--summary", summary_path]
        finished = subprocess.run(command, capture_output=True, encoding="utf-8", errors="replace")
        if finished.returncode != 0:
            raise LudusError(
                f"ludus match ended with exit status {finished.returncode}: "
                + finished.stderr.strip()[-2000:]
            )
        with open(summary_path, encoding="utf-8") as file:
            return MatchSummary.from_json(json.load(file))
