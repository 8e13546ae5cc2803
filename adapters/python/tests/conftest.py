"""The engine under test: $LUDUS, or the repository's release build."""

from __future__ import annotations

import os
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


def process_is_gone(pid: int) -> bool:
    """True once the process is neither running nor a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1].startswith("Z")
    except FileNotFoundError:
        return True
