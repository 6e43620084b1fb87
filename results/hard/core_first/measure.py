"""Is a part of a grid easier to refute than the whole? The compiled letter search refutes the
grid, keeps the slots where it failed (``xwsat.evidence.slot_core``), and refutes those alone,
until nothing drops out; each step's failures and time are printed. If the parts that hold the
refutation were much faster to refute alone, refuting regions first (the planner's fragments,
say) would cut the heavy tail on unfillable grids (results/hard/README.md, "Refuting a part
first").

    python results/hard/core_first/measure.py [--limit 60] [--seed 1] GRID@DICT...
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from xwsat.evidence.slot_core import _refuted, restricted
from xwsat.grid import parse_grid
from xwsat.problem import build_problem
from xwsat.words import load_words


def chain(spec: str, limit: float, seed: int) -> list[tuple[int, str, float]]:
    """(slots, failures or 'undecided', seconds) for the whole grid, then each narrower set."""
    grid, dictionary = spec.rsplit("@", 1)
    problem = build_problem(parse_grid(Path(grid).read_text(encoding="utf-8"), grid),
                            load_words(dictionary)).problem
    kept, steps = list(range(problem.n_slots)), []
    while True:
        began = time.monotonic()
        found = _refuted(restricted(problem, kept), began + limit, seed)
        seconds = time.monotonic() - began
        if found is None:
            steps.append((len(kept), "undecided", seconds))
            return steps
        failed, fails = found
        steps.append((len(kept), str(fails), seconds))
        if not failed or len(failed) == len(kept):
            return steps
        kept = [kept[i] for i in failed]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("instances", nargs="+", help="GRID@DICT")
    args = parser.parse_args()
    print("| instance | slots: failures, seconds (whole grid first, then each narrower set) |")
    print("|---|---|")
    for spec in args.instances:
        steps = chain(spec, args.limit, args.seed)
        text = " → ".join(f"{n}: {f}, {s:.1f} s" for n, f, s in steps)
        print(f"| {Path(spec.rsplit('@', 1)[0]).stem}@{Path(spec.rsplit('@', 1)[1]).stem} "
              f"| {text} |", flush=True)


if __name__ == "__main__":
    main()
