"""The tests are grouped by kind (pyproject's testpaths): a test file left in tests/ itself
would never run, so none may be there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_file_sits_in_a_group_that_runs() -> None:
    settings = (TESTS.parent / "pyproject.toml").read_text(encoding="utf-8")
    groups = ast.literal_eval(re.search(r"^testpaths = (\[.*\])$", settings, re.M).group(1))
    assert sorted(groups) == sorted(f"tests/{d.name}" for d in TESTS.iterdir()
                                    if d.is_dir() and any(d.glob("test_*.py")))
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []
