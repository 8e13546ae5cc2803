"""Drive the ludus engine (Sena-Mukha, Mentula, Mangala II) from Python.

    import ludus

    with ludus.Engine.popen() as engine:
        engine.game("mangala")
        print(engine.perft(4), engine.best_move(ludus.Limit(depth=6)))

`ludus.Engine` blocks; `ludus.aio.Engine` has the same methods as coroutines. Both
speak the native protocol (protocol-spec/protocol.md in the ludus repository).
"""

from typing import TYPE_CHECKING, Any

from ._match import MatchEngine, MatchGame, MatchSummary, Tally, match
from ._review import MoveReview, PlayerReview, Review, review
from ._sync import Analysis, Engine
from ._types import (
    Description,
    Diagram,
    EngineError,
    EngineOption,
    EngineTerminated,
    EngineTimeout,
    Info,
    Limit,
    LudusError,
    OptionMap,
    PovScore,
    ProtocolError,
    Score,
    SearchResult,
    Status,
    Wdl,
)

__all__ = [
    "aio",
    "Analysis",
    "Description",
    "Diagram",
    "Engine",
    "EngineError",
    "EngineOption",
    "EngineTerminated",
    "EngineTimeout",
    "Info",
    "Limit",
    "LudusError",
    "MatchEngine",
    "MatchGame",
    "MatchSummary",
    "MoveReview",
    "OptionMap",
    "PlayerReview",
    "PovScore",
    "ProtocolError",
    "Review",
    "Score",
    "SearchResult",
    "Status",
    "Tally",
    "Wdl",
    "match",
    "review",
]


if TYPE_CHECKING:
    from . import aio, rules
else:

    def __getattr__(name: str) -> Any:
        # `ludus.aio` (asyncio, about 0.1 s to import) and `ludus.rules` load when first
        # used: the engine built into the package starts without them.
        if name in ("aio", "rules"):
            import importlib

            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
