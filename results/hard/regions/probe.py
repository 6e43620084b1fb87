"""Where does a grid's difficulty sit? Take the slots that touch a K x K window of the grid
and decide them alone (a relaxation: every other slot dropped, the slots that stick out of the
window kept whole). A window whose slots cannot be filled proves the grid unfillable; a window
left undecided while the others fill at once is where the search spends its time
(results/hard/regions/README.md). ``xwsat plan GRID --dict D --probe SECONDS`` runs the same
scan and narrows it; this script probes one chosen window for longer, or with another back-end.

    python results/hard/regions/probe.py GRID@DICT --size 13 --stride 4 --limit 5
    python results/hard/regions/probe.py GRID@DICT --size 11 --at 0,0 --limit 150 --seeds 1,2
    python results/hard/regions/probe.py GRID@DICT --size 11 --at 0,0 --limit 200 -b ace:wdegdom
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from xwsat.evidence.slot_core import restricted
from xwsat.grid import parse_grid
from xwsat.probe import decide, starts, window_slots
from xwsat.problem import FillProblem, build_problem
from xwsat.words import load_words


def other_backend(spec: str, problem: FillProblem, limit: float, seed: int) -> tuple[str, int]:
    """Any xwsat back-end (e.g. ``ace:wdegdom``) on ``problem``: (verdict, failures or 0)."""
    from xwsat.backends.registry import make_backend
    from xwsat.outcome import Limits

    outcome = make_backend(spec).solve(problem, Limits(time_limit=limit, seed=seed))
    verdict = {"filled": "filled", "unfillable": "unfillable"}.get(outcome.status.value,
                                                                   "undecided")
    return verdict, int(outcome.stats.conflicts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("instance", help="GRID@DICT")
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--stride", type=int, default=4)
    parser.add_argument("--at", help="one window's top,left instead of a scan")
    parser.add_argument("--limit", type=float, default=5.0)
    parser.add_argument("--seeds", default="1")
    parser.add_argument("-b", "--backend", default="mac")
    args = parser.parse_args()
    grid_path, dictionary = args.instance.rsplit("@", 1)
    grid = parse_grid(Path(grid_path).read_text(encoding="utf-8"), grid_path)
    problem = build_problem(grid, load_words(dictionary)).problem
    rows, width = len(grid.rows), grid.width
    if args.at:
        corners = [tuple(int(v) for v in args.at.split(","))]
    else:
        corners = [(t, c) for t in starts(rows, args.size, args.stride)
                   for c in starts(width, args.size, args.stride)]
    name = f"{Path(grid_path).stem}@{Path(dictionary).name.split('.')[0]}"
    for top, left in corners:
        slots = window_slots(problem, width, top, left, args.size)
        part = restricted(problem, slots)
        for seed in (int(s) for s in args.seeds.split(",")):
            began = time.monotonic()
            if args.backend == "mac":
                verdict, fails = decide(part, args.limit, seed)
            else:
                verdict, fails = other_backend(args.backend, part, args.limit, seed)
            print(f"| {name} | {args.size}x{args.size} at ({top},{left}) | {len(slots)} of "
                  f"{problem.n_slots} | {args.backend} seed {seed} | {verdict} | {fails:,} | "
                  f"{time.monotonic() - began:.1f} s |", flush=True)


if __name__ == "__main__":
    main()
