#!/usr/bin/env python3
"""What the Python package costs, measured: an in-process rules call against the same
question asked of an engine process, the engine's start-up, and the overhead of one
`analyse`. Run it in an environment where the package is installed:

    python adapters/python/bench.py [--engine PATH]

`--engine` (or LUDUS) times that binary beside the engine built into the package.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Callable, List, Optional

import ludus
from ludus._launch import packaged_engine
from ludus.rules import Position


def per_call(calls: int, work: Callable[[], object]) -> float:
    """The median over five runs of `calls` calls: seconds a call."""
    runs: List[float] = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(calls):
            work()
        runs.append((time.perf_counter() - started) / calls)
    return statistics.median(runs)


def start_up(path: Optional[str]) -> float:
    def start() -> None:
        with ludus.Engine.popen(path) as engine:
            engine.ping()

    return per_call(5, start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=os.environ.get("LUDUS"))
    binary = parser.parse_args().engine
    os.environ.pop("LUDUS", None)
    assert packaged_engine() is not None, "the package was installed without its engine"

    print("| what | game | per call |")
    print("|---|---|---:|")
    with ludus.Engine.popen(binary) as engine:
        for game, moves in (("senamukha", ["c4c5", "g8g7"]), ("mentula", []), ("mangala", ["C"])):
            rules = Position(game)
            for move in moves:
                rules.play(move)
            engine.game(game)
            engine.position(moves=moves)
            inside = per_call(2000, rules.legal_moves)
            through = per_call(500, engine.legal_moves)
            print(f"| legal moves, in-process | {game} | {inside * 1e6:.1f} µs |")
            print(f"| legal moves, engine process | {game} | {through * 1e6:.1f} µs ({through / inside:.0f}x) |")
        engine.game("senamukha")
        analyse = per_call(100, lambda: engine.analyse(ludus.Limit(depth=1)))
        print(f"| analyse(Limit(depth=1)) round trip | senamukha | {analyse * 1e3:.2f} ms |")
    print(f"| start-up (popen, ping, quit), packaged engine | - | {start_up(None) * 1e3:.0f} ms |")
    if binary:
        print(f"| start-up (popen, ping, quit), {binary} | - | {start_up(binary) * 1e3:.0f} ms |")


if __name__ == "__main__":
    main()
