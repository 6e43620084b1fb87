"""The winit lead re-checked: the planner's first weights with three orders of the tied slots.

    python results/hard/planned/tiebreak.py GRID DICT SEED LIMIT

Runs ``mac:planned`` with the slots of equal placement difficulty ranked by the state's seeded
tie-break (as shipped), by slot index, and by numpy's argsort order (as
``results/hard/winit/measure.py`` ranked them), symmetry off as in that script; prints the
status and failures of each.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

import xwsat.planner as planner
from xwsat.backends.mac import MacBackend
from xwsat.grid import parse_grid
from xwsat.outcome import Limits
from xwsat.problem import FillProblem, build_problem
from xwsat.propagate import propagate
from xwsat.words import load_words

SHIPPED = planner.difficulty_ranks


def by_index(problem: FillProblem, tie: Sequence[float] | None = None) -> list[float]:
    """Ties by slot index: the seeded tie-break that ``mac:planned`` passes is dropped."""
    return SHIPPED(problem)


def by_argsort(problem: FillProblem, tie: Sequence[float] | None = None) -> list[float]:
    """Ties in numpy's argsort order, as ``results/hard/winit/measure.py`` ranked them."""
    place = np.array(planner.placement_difficulty(problem))
    return list(place.argsort().argsort() / max(1, len(place) - 1))


ORDERS: dict[str, Callable[..., list[float]]] = {
    "seeded": SHIPPED, "index": by_index, "argsort": by_argsort}


def main() -> None:
    grid_path, dict_path = sys.argv[1], sys.argv[2]
    seed, limit = int(sys.argv[3]), float(sys.argv[4])
    os.environ["XWSAT_SYMMETRY"] = "0"
    grid = parse_grid(Path(grid_path).read_text(encoding="utf-8"), grid_path)
    problem = propagate(build_problem(grid, load_words(dict_path)).problem).problem
    for name, ranks in ORDERS.items():
        # mac:planned imports difficulty_ranks when it starts a search, so this swaps it
        planner.difficulty_ranks = ranks
        outcome = MacBackend(planned=True).solve(problem, Limits(time_limit=limit, seed=seed))
        print(f"ties {name}: {outcome.status.value} after {outcome.stats.conflicts} failures, "
              f"{outcome.stats.solve_s:.1f} s", flush=True)


if __name__ == "__main__":
    main()
