"""The README's examples, run as they are written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
EXAMPLES: List[str] = re.findall(r"```python\n(.*?)```", README.read_text("utf-8"), re.S)


def test_the_readme_has_its_examples() -> None:
    assert len(EXAMPLES) >= 6


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{i + 1}" for i in range(len(EXAMPLES))])
def test_readme_example(example: str) -> None:
    exec(compile(example, str(README), "exec"), {"__name__": "readme"})


def test_the_notebook_example_shows_a_board() -> None:
    notebook = next(e for e in EXAMPLES if "_repr_svg_" in e or e.rstrip().endswith("\nboard"))
    namespace: Dict[str, Any] = {}
    exec(notebook, namespace)
    svg = namespace["board"]._repr_svg_()
    assert svg.startswith("<svg ") and 'class="reach' in svg


def test_the_examples_pass_mypy_strict(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    files = []
    for number, example in enumerate(EXAMPLES, start=1):
        path = tmp_path / f"example_{number}.py"
        path.write_text(example, "utf-8")
        files.append(str(path))
    # The notebook example ends on a bare expression, as a notebook cell does.
    out, err, status = api.run(["--strict", "--no-incremental", "--cache-dir=/dev/null", *files])
    assert status == 0, out + err
