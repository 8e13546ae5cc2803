"""The ludus engine in this Python process: `python -m ludus._engine [ARGS]` (and
the `ludus` command that `pip install` makes) runs the same command line as the
`ludus` binary, from the extension built with this package."""

from __future__ import annotations

import signal
import sys
from typing import Optional, Sequence


def main(argv: Optional[Sequence[str]] = None) -> None:
    from ._native import engine_main

    # The engine's signals as the binary has them: Ctrl-C ends it (Python would only
    # note it for code that never runs while the engine does).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    args = list(sys.argv if argv is None else argv)
    sys.stdout.flush()
    sys.exit(engine_main(["ludus", *args[1:]]))


if __name__ == "__main__":
    main()
