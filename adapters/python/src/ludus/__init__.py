"""Drive the ludus engine (Sena-Mukha, Mentula, Mangala II) from Python.

    import ludus

    with ludus.Engine.popen() as engine:
        engine.game("mangala")
        print(engine.perft(4), engine.best_move(ludus.Limit(depth=6)))

`ludus.Engine` blocks; `ludus.aio.Engine` has the same methods as coroutines. Both
speak the native protocol (protocol-spec/protocol.md in the ludus repository).
"""

from . import aio
from ._match import MatchEngine, MatchGame, MatchSummary, Tally, match
from ._sync import Analysis, Engine
from ._types import (
    Diagram,
    EngineError,
    EngineOption,
    EngineTerminated,
    Info,
    Limit,
    LudusError,
    ProtocolError,
    Score,
    SearchResult,
    Status,
)

__all__ = [
    "aio",
    "Analysis",
    "Diagram",
    "Engine",
    "EngineError",
    "EngineOption",
    "EngineTerminated",
    "Info",
    "Limit",
    "LudusError",
    "MatchEngine",
    "MatchGame",
    "MatchSummary",
    "ProtocolError",
    "Score",
    "SearchResult",
    "Status",
    "Tally",
    "match",
]
