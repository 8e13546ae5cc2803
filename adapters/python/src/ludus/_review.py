"""`ludus review` from Python: a game record reviewed move by move, its JSON read into
objects (protocol-spec/analysis.md, "Review")."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Tuple

from ._launch import PathLike, engine_command
from ._types import EngineTimeout, LudusError


@dataclass(frozen=True)
class MoveReview:
    """One move judged. `chance_before`/`chance_after` are its player's chance (per
    cent: the expected score for two players, the chance of first place in Mentula)
    before and after it; `loss` the drop in points (0 for the engine's own choice);
    `mark` one of "inaccuracy", "mistake", "blunder" or None. `score_before` is the
    analysis's score there as in its JSON: {"scoreCp": n}, {"mate": n} or
    {"scores": [...]}."""

    ply: int
    player: str
    move: str
    best: Optional[str]
    best_line: Tuple[str, ...]
    score_before: Optional[Mapping[str, Any]]
    chance_before: Optional[float]
    chance_after: Optional[float]
    loss: float
    mark: Optional[str]
    accuracy: float


@dataclass(frozen=True)
class PlayerReview:
    """One player's summary: accuracy 0 to 100, average loss in points, the marks."""

    player: str
    moves: int
    accuracy: float
    average_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True)
class Review:
    """A game reviewed: every move (`moves`, in order) and every player (`players`,
    in turn order); `json` holds the command's output as it was."""

    game: str
    moves: Tuple[MoveReview, ...]
    players: Tuple[PlayerReview, ...]
    json: Mapping[str, Any]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Review":
        moves = tuple(
            MoveReview(
                ply=m["ply"],
                player=m["player"],
                move=m["move"],
                best=m["best"],
                best_line=tuple(m["bestLine"]),
                score_before=m["scoreBefore"],
                chance_before=m["chanceBefore"],
                chance_after=m["chanceAfter"],
                loss=m["loss"],
                mark=m["mark"],
                accuracy=m["accuracy"],
            )
            for m in data["moves"]
        )
        players = tuple(
            PlayerReview(
                player=p["player"],
                moves=p["moves"],
                accuracy=p["accuracy"],
                average_loss=p["averageLoss"],
                inaccuracies=p["inaccuracies"],
                mistakes=p["mistakes"],
                blunders=p["blunders"],
            )
            for p in data["players"]
        )
        return cls(data["game"], moves, players, data)

    def marked(self, mark: str) -> Tuple[MoveReview, ...]:
        """The moves with `mark` ("inaccuracy", "mistake" or "blunder")."""
        return tuple(m for m in self.moves if m.mark == mark)


def review(
    record: str,
    *,
    game: Optional[str] = None,
    fen: Optional[str] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    movetime: Optional[int] = None,
    threads: Optional[int] = None,
    timeout: Optional[float] = None,
    ludus: Optional[PathLike] = None,
) -> Review:
    """Reviews `record` (a game record's text, as `ludus` writes and reads them, or
    just its moves) with `ludus review --json`. `game` defaults to the engine's
    first; `fen` is the starting position unless the record names one; one of
    `depth`, `nodes` (default 100,000) or `movetime` (milliseconds) limits each
    position's search; `threads` searches run side by side (default: one per core).
    A record the engine refuses raises `LudusError` with its message; past `timeout`
    seconds the review is stopped and `EngineTimeout` raised."""
    command = [*engine_command(ludus), "review", "--json"]
    flags = [
        ("--game", game),
        ("--fen", fen),
        ("--depth", depth),
        ("--nodes", nodes),
        ("--movetime", movetime),
        ("--threads", threads),
    ]
    for flag, value in flags:
        if value is not None:
            command += [flag, str(value)]
    command.append("-")
    try:
        finished = subprocess.run(
            command,
            input=record,
            capture_output=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        assert timeout is not None
        raise EngineTimeout(timeout, "review") from None
    if finished.returncode != 0:
        raise LudusError(
            f"ludus review ended with exit status {finished.returncode}: "
            + finished.stderr.strip()[-2000:]
        )
    return Review.from_json(json.loads(finished.stdout))
