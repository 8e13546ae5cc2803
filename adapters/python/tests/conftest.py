"""The engine under test: $LUDUS, or the repository's release build."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Iterator

import pytest

import ludus

REPOSITORY = Path(__file__).resolve().parents[3]


def engine_path() -> str:
    path = os.environ.get("LUDUS") or str(REPOSITORY / "target" / "release" / "ludus")
    if not os.access(path, os.X_OK):
        pytest.exit(f"no engine at {path}: build it or set LUDUS", returncode=2)
    return str(Path(path).resolve())


# Engine.popen() without a path finds the engine through LUDUS, as a user's would.
os.environ["LUDUS"] = engine_path()


@pytest.fixture
def engine() -> Iterator[ludus.Engine]:
    with ludus.Engine.popen() as engine:
        yield engine


def process_is_gone(pid: int, within: float = 5.0) -> bool:
    """True once the process is neither running nor a zombie, within `within` seconds.

    A process killed by a signal dies when the kernel next schedules it, not when the
    signal is sent: on a loaded machine a grandchild killed with its group may still
    be running for a moment after the call that killed it returns.
    """
    deadline = time.monotonic() + within
    while True:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().split(") ")[1].startswith("Z"):
                    return True
        except FileNotFoundError:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
