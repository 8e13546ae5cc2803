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
    "OptionMap",
    "PovScore",
    "ProtocolError",
    "Score",
    "SearchResult",
    "Status",
    "Tally",
    "Wdl",
    "match",
]
