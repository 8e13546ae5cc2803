"""Starting and ending engine processes: what both front ends share."""

from __future__ import annotations

import collections
import ctypes
import importlib.util
import os
import shutil
import signal
import sys
import threading
from typing import Callable, Deque, Optional, Sequence, Tuple, Union

PathLike = Union[str, "os.PathLike[str]"]

STDERR_LINES_KEPT = 20
"""How many of the engine's last stderr lines an `EngineTerminated` carries."""

QUIT_TIMEOUT = 5.0
"""Seconds an engine gets to exit after `quit` before it is killed."""

# Asyncio's default line limit (64 KiB) is below the protocol's own: replies such as a
# long game's record may be one long line.
LINE_LIMIT = 1 << 24


def packaged_engine() -> Optional[Tuple[str, ...]]:
    """The engine built into this package (`python -m ludus._engine`), if the package
    was built with it (`pip install` of adapters/python), else None."""
    if importlib.util.find_spec("ludus._native") is None:
        return None
    return (sys.executable, "-m", "ludus._engine")


def engine_command(path: Optional[PathLike], args: Sequence[str] = ()) -> Tuple[str, ...]:
    """The command line of the engine: `path`, else the LUDUS environment variable,
    else the engine built into this package, else `ludus` on the PATH."""
    if path is None:
        path = os.environ.get("LUDUS")
        if path is None:
            packaged = packaged_engine()
            if packaged is not None:
                return (*packaged, *args)
            path = shutil.which("ludus")
        if path is None:
            raise FileNotFoundError(
                "no ludus engine: give its path, set LUDUS, or put ludus on the PATH"
            )
    return (os.fspath(path), *args)


# The engine gets a process group of its own, so that an engine started through a
# wrapper script is killed with everything the script started.
NEW_GROUP = sys.platform != "win32"


def _parent_death_signal() -> Optional[Callable[[], None]]:
    """Linux: a function, run in the engine's process before it starts, that has the
    kernel kill the engine when the thread that started it ends, so that a script
    killed by a signal (SIGTERM, SIGKILL) leaves no engine behind, even one busy
    with a long count. Elsewhere None (the engine still ends at the end of its
    input, when its work is done)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # pragma: no cover - no libc
        return None
    prctl.restype = ctypes.c_int
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong]
    set_death_signal = 1  # PR_SET_PDEATHSIG
    kill = int(signal.SIGKILL)

    def die_with_parent() -> None:
        # Only this call between fork and exec: the function was looked up before.
        prctl(set_death_signal, kill)

    return die_with_parent


DIE_WITH_PARENT = _parent_death_signal()


def kill_group(pid: int) -> None:
    """Kills the engine's process group (only call it while the engine has not been
    reaped: its pid, the group's id, cannot be anyone else's until then)."""
    try:
        if NEW_GROUP:
            os.killpg(pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            os.kill(pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        pass


class StderrTail:
    """The last lines the engine wrote on stderr; written by the reader of stderr,
    read by whoever reports the engine's end."""

    def __init__(self) -> None:
        self._lines: Deque[str] = collections.deque(maxlen=STDERR_LINES_KEPT)
        self._lock = threading.Lock()

    def add(self, line: str) -> None:
        with self._lock:
            self._lines.append(line.rstrip("\r\n"))

    def lines(self) -> Tuple[str, ...]:
        with self._lock:
            return tuple(self._lines)
