"""Does the planner's order matter to cube and conquer? The split and rounds of ``sat:cube``
(without its first attempt on the whole formula), with the cube slots taken in another order.

    python results/hard/cube/order.py LIMIT SEEDS ORDERS GRID@DICT ...

ORDERS, comma-separated: ``plan`` (the fragment planner's order, what ``sat:cube`` uses),
``fewest`` (fewest candidates first), ``index`` (slot number), ``none`` (no split: one empty
cube, plain CDCL with the same budgets). Two runs at a time, each in its own process; one JSON
row per run on stdout.
"""

from __future__ import annotations

import json
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from pysat.solvers import Solver

from xwsat.backends.base import fill_from_choice
from xwsat.backends.cube import CubeReport, broken_repeats, conquer, make_cubes
from xwsat.backends.sat import _set_word_phases, load_cnf
from xwsat.encode.cnf import encode_cnf
from xwsat.grid import parse_grid
from xwsat.planner import make_plan
from xwsat.problem import build_problem
from xwsat.propagate import propagate
from xwsat.verify import check_fill
from xwsat.words import load_words


def slot_order(problem, how: str, seed: int) -> list[int]:
    if how == "plan":
        return list(make_plan(problem, seed).order)
    if how == "fewest":
        return sorted(range(problem.n_slots), key=lambda s: len(problem.candidates[s]))
    if how == "index":
        return list(range(problem.n_slots))
    return []


def one(job: tuple[str, str, str, int, float]) -> dict:
    grid_path, dict_path, how, seed, limit = job
    grid = parse_grid(Path(grid_path).read_text(encoding="utf-8"), grid_path)
    built = build_problem(grid, load_words(dict_path))
    problem = propagate(built.problem).problem
    start = time.perf_counter()
    deadline = start + limit
    cnf = encode_cnf(problem, repeats=False)
    report = CubeReport()

    broken = broken_repeats(problem, cnf)
    with Solver(name="cadical195") as solver:
        load_cnf(solver, cnf)
        _set_word_phases(solver, cnf)
        split = time.perf_counter()
        cubes = make_cubes(solver, problem, cnf, slot_order(problem, how, seed),
                           random.Random(seed), report, deadline, limit)
        report.split_s = time.perf_counter() - split
        verdict, model = (False, None) if cubes is None else conquer(
            solver, cubes, broken, report, deadline)
        conflicts = int((solver.accum_stats() or {}).get("conflicts", 0))
    status = {None: "unknown", True: "filled", False: "unfillable"}[verdict]
    if verdict:
        choice = cnf.decode(problem, np.array(model, dtype=np.int64))
        letters = dict.fromkeys(range(grid.width * grid.height), "#")
        for slot, word in zip(built.slots, fill_from_choice(problem, choice)):
            letters.update(zip(slot.cells, built.words.words[word]))
        rows = ["".join(letters[r * grid.width + c] for c in range(grid.width))
                for r in range(grid.height)]
        if check_fill(grid.rows, rows, frozenset(built.words.words)):
            status = "WRONG FILL"
    return {"inst": f"{Path(grid_path).stem}@{Path(dict_path).name.split('.')[0]}",
            "order": how, "seed": seed, "status": status,
            "s": round(time.perf_counter() - start, 2), "conflicts": conflicts,
            "cubes": len(cubes or ()), "depth": report.depth,
            "split_s": round(report.split_s, 2),
            "rounds": report.rounds}


def main() -> None:
    limit, seeds = float(sys.argv[1]), [int(x) for x in sys.argv[2].split(",")]
    orders = sys.argv[3].split(",")
    jobs = [(*inst.split("@"), how, seed, limit)
            for inst in sys.argv[4:] for seed in seeds for how in orders]
    with Pool(2, maxtasksperchild=1) as pool:
        for row in pool.imap_unordered(one, jobs):
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
