"""The slots touching one square window of a grid (the probe's relaxation, ``xwsat.probe``),
decided alone by each named back-end in a killed-if-late child, one after the other.

    python results/hard/frontier_s38/corner.py GRID DICT TOP LEFT SIZE LIMIT sat,cpsat,mac

Prints per back-end: status, solve seconds, conflicts (failures for ``mac``), nodes and the
number of slots; KILLED when the child outlived LIMIT + 30 s (pysat's CaDiCaL has no interrupt).
"""

from __future__ import annotations

import argparse
import multiprocessing
import time

from xwsat.backends.registry import make_backend
from xwsat.errors import XwsatError, run_script
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
    if not (top >= 0 and left >= 0 and size > 0
            and top + size <= grid.height and left + size <= grid.width):
        raise XwsatError(f"a {size}x{size} window at ({top},{left}) is not inside the "
                         f"{grid.height}x{grid.width} grid")
    whole = propagate(build_problem(grid, load_words(dict_path)).problem)
    if whole.wiped is not None:
        raise XwsatError(f"arc consistency empties a slot of the whole grid: {whole.reason}")
    part = propagate(restricted(whole.problem, window_slots(whole.problem, grid.width, top,
                                                            left, size)))
    if part.wiped is not None:
        raise XwsatError(f"arc consistency empties a slot of the window: {part.reason}")
    return part.problem


def solve_one(problem: FillProblem, backend: str, limit: float, queue: object) -> None:
    started = time.perf_counter()
    out = make_backend(backend).solve(problem, Limits(time_limit=limit, seed=SEED))
    queue.put((out.status.name, round(time.perf_counter() - started, 2), out.stats.conflicts,
               out.stats.nodes, problem.n_slots))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grid")
    parser.add_argument("dictionary", help="a word-list file or an embedded list (en)")
    parser.add_argument("top", type=int, help="the window's first row, from 0")
    parser.add_argument("left", type=int, help="the window's first column, from 0")
    parser.add_argument("size", type=int, help="the window's side")
    parser.add_argument("limit", type=float, help="seconds per back-end")
    parser.add_argument("backends", help="comma-separated, e.g. sat,cpsat,mac")
    args = parser.parse_args()
    if args.limit <= 0:
        raise XwsatError("the limit must be a positive number of seconds")
    names = args.backends.split(",")
    for name in names:
        make_backend(name)  # an unknown back-end is refused before any work
    problem = window_problem(args.grid, args.dictionary, args.top, args.left, args.size)
    limit = args.limit
    context = multiprocessing.get_context("fork")
    for backend in names:
        queue = context.SimpleQueue()
        child = context.Process(target=solve_one,
                                args=(problem, backend, limit, queue))
        started = time.time()
        child.start()
        child.join(limit + 30)
        if child.is_alive():
            child.kill()
            child.join()
            print(backend, "KILLED", round(time.time() - started, 1), flush=True)
        else:
            found = queue.get() if not queue.empty() else "nothing"
            print(backend, found, round(time.time() - started, 1), flush=True)


if __name__ == "__main__":
    run_script(main, "corner.py")
