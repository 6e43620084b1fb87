"""Measure the native back-end's search on the tuning cases (results/native_tuning.md).

Usage: python scripts/measure_native.py [--variants csp,letters] [--time-limit S] [--cases a,b]
       [--seed N]
Each case: load the dictionary, build, propagate, then ``NativeBackend.solve`` in-process (no
isolation, so the time is the search alone); prints one row per (case, variant) as a Markdown
table with the status, the search time (wall and CPU, the CPU one with the search state's set-up),
nodes and conflicts, and build + propagate + search (the dictionary load apart).
"""

from __future__ import annotations

import argparse
import time
from functools import cache
from pathlib import Path

from xwsat.backends.native import from_spec
from xwsat.grid import parse_grid
from xwsat.outcome import Limits
from xwsat.problem import build_problem
from xwsat.propagate import propagate
from xwsat.words import WordList, load_words, read_text_file

G = Path(__file__).resolve().parent.parent / "grids"
WAM = "dictionaries/wamerican.txt"
CASES = {
    "amer15": ("small/amer15.txt", WAM),
    "amer15-en": ("small/amer15.txt", "en"),
    **{f"{n}": (f"american/{n}_empty.txt", WAM)
       for n in ("20201005", "20201012", "20201107", "20201124", "20201128")},
    **{f"{n}-en": (f"american/{n}_empty.txt", "en")
       for n in ("20201005", "20201012", "20201107", "20201124", "20201128")},
    "15-02": ("classic/15-02.txt", "dictionaries/lex.txt"),
    **{f"sub{k}": ("small/open5.txt", f"small/words5_sub{k}.txt") for k in (3, 4, 5, 10)},
}


@cache
def words_of(spec: str) -> WordList:
    return load_words(spec if spec == "en" else str(G / spec))


def measure(case: str, variant: str, time_limit: float, seed: int) -> str:
    grid_name, dict_name = CASES[case]
    words = words_of(dict_name)  # loaded once per dictionary, not timed
    t1 = time.perf_counter()
    built = build_problem(parse_grid(read_text_file(G / grid_name)), words)
    prop = propagate(built.problem)
    if prop.wiped is not None:
        return f"| {case} | {variant} | unfillable (propagation) | - | - | - | - | - |"
    problem = prop.problem
    cpu = time.process_time()
    outcome = from_spec(variant).solve(problem, Limits(time_limit=time_limit, seed=seed))
    cpu = time.process_time() - cpu
    end = time.perf_counter() - t1  # build + propagate + search (dictionary load apart)
    s = outcome.stats
    return (f"| {case} | {variant} | {outcome.status.value} | {s.solve_s:.2f} | {cpu:.2f} | "
            f"{s.nodes} | {s.conflicts} | {end:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variants", default="csp")
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print("| case | variant | status | search s | search cpu s | nodes | conflicts | "
          "build+search s |")
    print("|---|---|---|---|---|---|---|---|")
    for case in args.cases.split(","):
        for variant in args.variants.split(","):
            print(measure(case, variant, args.time_limit, args.seed), flush=True)


if __name__ == "__main__":
    main()
