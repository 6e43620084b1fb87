"""The letter search with and without the planner's first weights, seed by seed.

    python results/hard/planned/measure.py LIMIT SEEDS SPECS GRID@DICT ...

SPECS, comma-separated back-ends (e.g. ``mac,mac:planned``), each run alone through
``make_backend`` as ``xwsat fill -b SPEC`` runs it after propagation; two runs at a time, each in
its own process. One JSON row per run on stdout, in the order the runs finish.
"""

from __future__ import annotations

import json
import sys
from multiprocessing import Pool
from pathlib import Path

from xwsat.backends.registry import make_backend
from xwsat.grid import parse_grid
from xwsat.outcome import Limits
from xwsat.problem import build_problem
from xwsat.propagate import propagate
from xwsat.words import load_words


def one(job: tuple[str, str, str, int, float]) -> dict:
    """Run one back-end on one instance with one seed."""
    grid_path, dict_path, spec, seed, limit = job
    grid = parse_grid(Path(grid_path).read_text(encoding="utf-8"), grid_path)
    problem = propagate(build_problem(grid, load_words(dict_path)).problem).problem
    outcome = make_backend(spec).solve(problem, Limits(time_limit=limit, seed=seed))
    return {"inst": f"{Path(grid_path).stem}@{Path(dict_path).name.split('.')[0]}",
            "spec": spec, "seed": seed, "status": outcome.status.value,
            "solve_s": round(outcome.stats.solve_s, 2), "fails": outcome.stats.conflicts}


def main() -> None:
    limit, seeds = float(sys.argv[1]), [int(x) for x in sys.argv[2].split(",")]
    specs = sys.argv[3].split(",")
    jobs = [(*inst.split("@"), spec, seed, limit)
            for inst in sys.argv[4:] for seed in seeds for spec in specs]
    with Pool(2, maxtasksperchild=1) as pool:
        for row in pool.imap_unordered(one, jobs):
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
