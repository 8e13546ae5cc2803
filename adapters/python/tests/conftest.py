"""The engine under test: $LUDUS, or the one built into the installed package."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Iterator

import pytest

import ludus
import ludus._launch



def engine_path() -> str:
    """$LUDUS when set; else the engine built into the installed package."""
    path = os.environ.get("LUDUS")
    if path is None:
        if ludus._launch.packaged_engine() is None:
            pytest.exit("no engine: install the package (adapters/python) or set LUDUS", returncode=2)
        return ""
    if not os.access(path, os.X_OK):
        pytest.exit(f"no engine at {path}: build it or set LUDUS", returncode=2)
    return str(Path(path).resolve())


# Engine.popen() without a path finds the engine as a user's would: through LUDUS if
# it is set, else in the package.
if engine_path():
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
