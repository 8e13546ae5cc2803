"""The games' rules in this process, without an engine (as pyffish is beside
Fairy-Stockfish): the same Rust code as the engine's, built into this package.

    from ludus.rules import Position

    position = Position("senamukha")
    position.play("c4c5")
    print(position.legal_moves("san")[:5], position.status().to_move)

Moves go in in any notation the game reads and come back in its canonical one. A
refusal raises `ludus.EngineError`, with the message the engine would give and the
request it would have been (`play zz`).
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

from . import _native
from ._protocol import read_status
from ._types import Diagram, Status

__all__ = ["Position", "GAMES"]

GAMES: Tuple[str, ...] = ("senamukha", "mentula", "mangala")
"""The games, as the engine names them."""


class Position:
    """A position of one game (`senamukha`, `mentula`, `mangala`) and the moves
    played from it: `fen` sets the start (the game's position format; None: its start
    position)."""

    def __init__(self, game: str = "senamukha", fen: Optional[str] = None) -> None:
        self._position = _native.Position(game, fen)

    @property
    def game(self) -> str:
        return self._position.game

    @property
    def players(self) -> Tuple[str, ...]:
        """The players in turn order."""
        return tuple(self._position.players)

    def legal_moves(self, notation: Optional[str] = None) -> Tuple[str, ...]:
        """The legal moves (canonical notation unless `notation` is given); none once
        the game is over."""
        return self._position.legal_moves(notation)

    def legal_places(self) -> Dict[str, Tuple[str, ...]]:
        """Each legal move with the places a person points at to make it."""
        return {move: tuple(places) for move, places in self._position.legal_places()}

    def play(self, move: str) -> str:
        """Plays `move` (any notation); returns it in canonical notation."""
        return self._position.play(move)

    def push(self, move: str) -> str:
        """`play`, under python-chess's name."""
        return self._position.play(move)

    def undo(self, count: int = 1) -> None:
        """Takes back `count` moves played since the position was set."""
        self._position.undo(count)

    def pop(self) -> None:
        """Takes back the last move (python-chess's name)."""
        self._position.undo(1)

    def canonical(self, move: str) -> str:
        """A legal move in canonical notation."""
        return self._position.canonical(move)

    def move_text(self, move: str, notation: str) -> str:
        """A legal move written in `notation` (`san`, `long`, Mentula's `short`...)."""
        return self._position.move_text(move, notation)

    def fen(self, form: Optional[str] = None) -> str:
        """The position string (Mentula also has `form="list"`)."""
        return self._position.fen(form)

    def to_move(self) -> Optional[str]:
        """The player to move, or None when the game is over."""
        return self._position.to_move()

    def is_over(self) -> bool:
        return self._position.is_over()

    def status(self) -> Status:
        """The game going on, or its outcome: verdict, winners, reason, scores."""
        return read_status(self._position.status())

    def perft(self, depth: int) -> int:
        """The leaves of the legal move tree `depth` plies deep (other Python threads
        run meanwhile)."""
        return self._position.perft(depth)

    def record(self, notation: Optional[str] = None) -> str:
        """The game since the position was set, as a record (records.md), as the
        engine's `record` gives it (no line break at the end)."""
        return self._position.record(notation).rstrip("\n")

    def load_record(self, record: str) -> None:
        """Replays a record (lines and comments as written) from its position tag's
        position, or else the start position."""
        self._position.load_record(record)

    def set_rule(self, name: str, value: object) -> None:
        """Sets a rule option (Sena-Mukha `n-move-rule`, Mentula `scoring`, ...)."""
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        self._position.set_rule(name, text)

    def copy(self) -> "Position":
        """A position of its own with the same start and moves."""
        twin = Position.__new__(Position)
        twin._position = self._position.copy()
        return twin

    def svg(self, *layers: str) -> str:
        """The position drawn (SVG), with the layers asked for (Mentula's `reach`)."""
        return self._position.svg(*layers)

    def diagram(self, *layers: str) -> Diagram:
        """The position drawn, shown as the board in a notebook."""
        return Diagram(self._position.svg(*layers), self._position.text())

    def _repr_svg_(self) -> str:
        return self._position.svg()

    def __str__(self) -> str:
        return self._position.text()

    def __repr__(self) -> str:
        return f"Position({self.game!r}, {self.fen()!r})"
