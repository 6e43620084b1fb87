"""Time the compiled letter search in-process, without the process around it: the 5x5
refutations of ``grids/latency`` to the end (seeds 0-2, best of 3 repetitions), then the quick
subset's large instances for a fixed number of decisions (seed 0, best of 2).

    python results/latency/kernel_rate.py [--budget 4000] [--words]

Run it with each install's own Python (``BASE/.venv/bin/python results/latency/kernel_rate.py``)
to compare two versions of the kernel on the same searches: the decision and failure counts it
prints must then be equal, and only the times differ.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from xwsat.backends.mac import ensure_compiled
from xwsat.grid import parse_grid
from xwsat.mac import aot
from xwsat.mac import state as mstate
from xwsat.mac.model import build_model
from xwsat.problem import build_problem
from xwsat.propagate import propagate
from xwsat.words import load_words

GRIDS = Path(__file__).resolve().parents[2] / "grids"
SMALL = ["small/words5_sub3.txt", "latency/words5_p195_s4.txt", "latency/words5_p210_s5.txt",
         "small/words5_sub4.txt", "latency/words5_p180_s3.txt"]


def problem_of(grid: Path, words):
    return propagate(build_problem(parse_grid(grid.read_text(encoding="utf-8")),
                                   words).problem).problem


def timed_run(problem, seed: int, budget: int, words: bool) -> tuple[float, mstate.State, int]:
    """One search from a fresh state (the symmetry used, as the back-end does)."""
    model, start = build_model(problem, mirror=True)
    state = mstate.new_state(model, start, seed, words=words)
    run = aot.runner()
    began = time.perf_counter()
    code = run(model, state, budget)
    return time.perf_counter() - began, state, code


def small(words_mode: bool) -> float:
    grid = GRIDS / "small" / "open5.txt"
    total = 0.0
    for name in SMALL:
        problem = problem_of(grid, load_words(GRIDS / name))
        cells = []
        for seed in range(3):
            best = min((timed_run(problem, seed, 1 << 40, words_mode) for _ in range(3)),
                       key=lambda r: r[0])
            total += best[0]
            cells.append(f"{best[1].sc[mstate.FAILS]} fails {1000 * best[0]:.0f} ms")
        print(f"{Path(name).stem}: " + "; ".join(cells))
    print(f"5x5 total {total:.3f} s")
    return total


def large(budget: int, words_mode: bool) -> float:
    suite = json.loads((GRIDS / "quick" / "suite.json").read_text(encoding="utf-8"))
    lists: dict[str, object] = {}
    total = 0.0
    for entry in suite["grids"]:
        grid = (GRIDS / "quick" / entry["file"]).resolve()
        name = entry["dictionaries"][0]
        path = GRIDS / "dictionaries" / f"{name}.txt"
        if name not in lists:
            lists[name] = load_words(path if path.exists() else path.with_suffix(".txt.gz"))
        problem = problem_of(grid, lists[name])
        best = min((timed_run(problem, 0, budget, words_mode) for _ in range(2)),
                   key=lambda r: r[0])
        total += best[0]
        print(f"{grid.stem}@{name}: code {best[2]}, {best[1].sc[mstate.NODES]} decisions, "
              f"{best[1].sc[mstate.FAILS]} fails, {1000 * best[0]:.0f} ms")
    print(f"large total {total:.3f} s")
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=4000, help="decisions per large instance")
    parser.add_argument("--words", action="store_true", help="word decisions instead of letters")
    args = parser.parse_args()
    ensure_compiled(lambda line: print(line, file=sys.stderr))
    small(args.words)
    large(args.budget, args.words)


if __name__ == "__main__":
    main()
