"""What stops native:fragments on amer15 x wamerican: its propagation or its static order?

    python results/planner/fragments_amer15.py VARIANT SECONDS

VARIANT is fragments, static, fragments+mac or static+mac; ``+mac`` keeps the variant's static
order but maintains arc consistency after each placement instead of forward checking.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

from xwsat.grid import parse_grid
from xwsat.native import VARIANTS, Search
from xwsat.planner import default_plan, make_plan
from xwsat.problem import build_problem
from xwsat.words import load_words

ROOT = Path(__file__).resolve().parents[2]


def main(variant: str, seconds: float) -> None:
    grid_file = ROOT / "grids" / "small" / "amer15.txt"
    grid = parse_grid(grid_file.read_text(encoding="utf-8"), str(grid_file))
    words = load_words(str(ROOT / "grids" / "dictionaries" / "wamerican.txt"))
    problem = build_problem(grid, words).problem
    base, _, extra = variant.partition("+")
    config = VARIANTS[base]
    if extra == "mac":
        config = dataclasses.replace(config, mac=True)
    plan = make_plan(problem, 0) if config.planner else default_plan(problem)
    started = time.perf_counter()
    result = Search(problem, plan, config, 0, None).run(started + seconds)
    print(f"{variant}: {result.status.name} after {time.perf_counter() - started:.1f} s, "
          f"{result.nodes} nodes, {result.extra}")


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
