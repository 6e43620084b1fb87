"""Failures of the compiled letter search with and without the grid's symmetry, in-process.

    python results/latency/symmetry_failures.py [--seeds 0-7] [GRID@DICT ...]

Counts are independent of the machine's load; the seconds are the search's own (model built,
search run), printed for orientation. With no instance given: the nine unfillable 5x5s of
``grids/latency/``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from xwsat.bench.suites import load_suite
from xwsat.grid import parse_grid
from xwsat.mac import aot
from xwsat.mac import state as mstate
from xwsat.mac.model import build_model
from xwsat.problem import FillProblem, build_problem
from xwsat.propagate import propagate
from xwsat.words import load_words

ROOT = Path(__file__).resolve().parents[2]


def refute(problem: FillProblem, seed: int, mirror: bool, limit: float) -> tuple[int, int, float]:
    """(code, failures, seconds) of one search to its end or ``limit`` seconds."""
    start = time.perf_counter()
    model, first = build_model(problem, mirror=mirror)
    st = mstate.new_state(model, first, seed)
    run, code = aot.runner(), mstate.BUDGET
    while code == mstate.BUDGET and time.perf_counter() - start < limit:
        code = run(model, st, 2000)
    return code, int(st.sc[mstate.FAILS]), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("instances", nargs="*", help="GRID@DICT (default: grids/latency)")
    parser.add_argument("--seeds", default="0-7", help="first-last")
    parser.add_argument("--limit", type=float, default=60.0)
    args = parser.parse_args()
    first, last = (int(x) for x in args.seeds.split("-"))
    pairs = [tuple(i.split("@", 1)) for i in args.instances] or [
        (str(inst.grid_path), inst.dictionary_path)
        for inst in load_suite(str(ROOT / "grids" / "latency")).instances
        if inst.known == "unfillable"]
    print("| instance | failures without | with | ratio | search s without | with |")
    print("|---|---|---|---|---|---|")
    for grid, words in pairs:
        built = build_problem(parse_grid(Path(grid).read_text(encoding="utf-8")),
                              load_words(words))
        problem = propagate(built.problem).problem
        totals = {False: [0, 0.0], True: [0, 0.0]}
        for seed in range(first, last + 1):
            for mirror in (False, True):
                _, fails, seconds = refute(problem, seed, mirror, args.limit)
                totals[mirror][0] += fails
                totals[mirror][1] += seconds
        off, on = totals[False], totals[True]
        print(f"| {Path(grid).stem}@{Path(words).name.split('.')[0]} | {off[0]:,} | {on[0]:,} | "
              f"{on[0] / max(off[0], 1):.2f} | {off[1]:.2f} | {on[1]:.2f} |", flush=True)


if __name__ == "__main__":
    main()
