"""The branch and bound's speed on fixed starts: plain ``mac`` (seed 0) fills the NYT-style
pattern at level 50 of the embedded list, then the branch and bound runs from that fill; the
decisions and seconds printed compare two versions of the kernel on the same search
(``PYTHONPATH=OTHER_CHECKOUT python scripts/branch_bound_speed.py`` for the other).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from xwsat.formats import read_grid
from xwsat.pipeline import FillOptions, solve_built
from xwsat.problem import build_problem
from xwsat.quality.best import best_at_level
from xwsat.quality.levels import at_level, exempt_slots
from xwsat.words import load_words

AMERICAN = Path("/work/shared/benchmarks/american")
RUNS = (("20201124_empty", 50, 30.0), ("20201005_empty", 50, 8.0))  # grid, level, seconds

words = load_words("en")
for name, level, seconds in RUNS:
    built = build_problem(read_grid(AMERICAN / f"{name}.txt"), words, 2, False, 0)
    exempt = exempt_slots(built)
    first = solve_built(replace(built, problem=at_level(built.problem, level, exempt)),
                        FillOptions("mac", 60, seed=0, upper_first=False))
    began = time.perf_counter()
    best = best_at_level(built, first.outcome.fill, level, exempt, True, seconds, 0, engine="bnb")
    print(f"{name}: {best.at_level} at {level}, total {best.total}, optimal {best.optimal}, "
          f"{best.search.decisions} decisions in {time.perf_counter() - began:.2f} s")
