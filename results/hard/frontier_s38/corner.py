"""The slots touching one square window of a grid (the probe's relaxation, ``xwsat.probe``),
decided alone by each named back-end in a killed-if-late child, one after the other.

    python results/hard/frontier_s38/corner.py GRID DICT TOP LEFT SIZE LIMIT sat,cpsat,mac

Prints per back-end: status, solve seconds, conflicts (failures for ``mac``), nodes and the
number of slots; KILLED when the child outlived LIMIT + 30 s (pysat's CaDiCaL has no interrupt).
"""

from __future__ import annotations

import multiprocessing
import sys
import time

from xwsat.backends.registry import make_backend
from xwsat.evidence.slot_core import restricted
from xwsat.formats import read_grid
from xwsat.outcome import Limits
from xwsat.probe import window_slots
from xwsat.problem import FillProblem, build_problem
from xwsat.propagate import propagate
from xwsat.words import load_words

SEED = 1


def window_problem(grid_path: str, dict_path: str, top: int, left: int,
                   size: int) -> FillProblem:
    """The arc-consistent problem of the window's slots (slots leaving the window kept whole)."""
    grid = read_grid(grid_path)
    whole = propagate(build_problem(grid, load_words(dict_path)).problem).problem
    part = restricted(whole, window_slots(whole, grid.width, top, left, size))
    return propagate(part).problem


def solve_one(problem: FillProblem, backend: str, limit: float, queue: object) -> None:
    started = time.perf_counter()
    out = make_backend(backend).solve(problem, Limits(time_limit=limit, seed=SEED))
    queue.put((out.status.name, round(time.perf_counter() - started, 2), out.stats.conflicts,
               out.stats.nodes, problem.n_slots))


def main() -> None:
    grid_path, dict_path, top, left, size, limit, backends = sys.argv[1:8]
    problem = window_problem(grid_path, dict_path, int(top), int(left), int(size))
    context = multiprocessing.get_context("fork")
    for backend in backends.split(","):
        queue = context.SimpleQueue()
        child = context.Process(target=solve_one,
                                args=(problem, backend, float(limit), queue))
        started = time.time()
        child.start()
        child.join(float(limit) + 30)
        if child.is_alive():
            child.kill()
            child.join()
            print(backend, "KILLED", round(time.time() - started, 1), flush=True)
        else:
            found = queue.get() if not queue.empty() else "nothing"
            print(backend, found, round(time.time() - started, 1), flush=True)


if __name__ == "__main__":
    main()
