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


def test_the_source_greedy_is_kept_and_the_additions_place_at_least_as_many_words():
    # the source's greedy left out words that fit the other way or later (11-13 of 20 where
    # trying again places 19-20); its own figures stay as the free-form study published them
    from pathlib import Path

    from xwsat.freeform.greedy import greedy_layout
    from xwsat.freeform.layout import load_entries

    root = Path(__file__).resolve().parents[2]
    entries, _ = load_entries(root / "grids" / "freeform" / "p-words-es.txt")
    source = [len(greedy_layout(entries, 13, 13, 100, seed, more=False)[0].placed)
              for seed in range(3)]
    more = [len(greedy_layout(entries, 13, 13, 100, seed)[0].placed) for seed in range(3)]
    assert source == [12, 14, 13]
    assert all(m >= s for m, s in zip(more, source, strict=True)) and sum(more) > sum(source)
