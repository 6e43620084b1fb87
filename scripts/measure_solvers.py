"""Measure the SAT and CP-SAT back-ends (results/solver_tuning.md); one JSON line per run.

  python scripts/measure_solvers.py load amer15
  python scripts/measure_solvers.py sat amer15 cadical195 lazy words none [stabilizeonly=1 ...]
  python scripts/measure_solvers.py cpsat open5-sub5 PRESOLVE WORKERS STRATEGY SECONDS
Run each under ``timeout`` (pysat's CaDiCaL ignores interrupts).
"""

from __future__ import annotations

import json
import sys
import time
from collections import deque
from pathlib import Path

import numpy as np

from xwsat.encode.cnf import encode_cnf, repeat_clauses
from xwsat.grid import parse_grid
from xwsat.planner import default_plan
from xwsat.problem import build_problem
from xwsat.propagate import propagate
from xwsat.words import load_words

BENCH = Path("/work/shared/benchmarks")
INSTANCES = {
    "amer15": ("small/amer15.txt", "dictionaries/wamerican.txt"),
    "15-02": ("classic/15-02.txt", "dictionaries/lex.txt"),
    **{f"open5-sub{k}": ("small/open5.txt", f"small/words5_sub{k}.txt") for k in (2, 3, 4, 5, 10)},
}


def instance(name: str):
    grid, words = INSTANCES[name]
    built = build_problem(parse_grid((BENCH / grid).read_text()), load_words(str(BENCH / words)))
    problem = propagate(built.problem).problem
    return problem, default_plan(problem)


def clock(fn):
    start = time.perf_counter()
    result = fn()
    return result, round(time.perf_counter() - start, 2)


def measure_load(name: str) -> dict:
    """Each way of moving the clause arrays into CaDiCaL 1.9.5, timed."""
    from pysat.solvers import Solver

    problem, _ = instance(name)
    cnf, encode_s = clock(lambda: encode_cnf(problem))
    clauses, tolist_s = clock(cnf.clauses)
    row = {"inst": name, "vars": cnf.n_vars, "clauses": cnf.n_clauses, "encode": encode_s,
           "tolist": tolist_s}

    def append():
        Solver(name="cadical195").append_formula(clauses)

    def bootstrap():
        Solver(name="cadical195", bootstrap_with=clauses)

    def per_clause():
        solver = Solver(name="cadical195")
        for clause in clauses:
            solver.add_clause(clause)

    def inner_map():
        add = Solver(name="cadical195").solver.add_clause
        deque(map(add, clauses), maxlen=0)

    def chunks_end_to_end():
        add = Solver(name="cadical195").solver.add_clause
        for chunk in cnf.chunks():
            deque(map(add, chunk), maxlen=0)

    def pysat_cnf():
        from pysat.formula import CNF

        CNF(from_clauses=clauses)

    for label, fn in [("append_formula", append), ("bootstrap_with", bootstrap),
                      ("add_clause_loop", per_clause), ("inner_add_clause_map", inner_map),
                      ("chunks_tolist_plus_map", chunks_end_to_end),
                      ("pysat_CNF_object", pysat_cnf)]:
        row[label] = clock(fn)[1]
    return row


def measure_sat(name: str, solver_name: str, repeats: str, phases: str, order: str,
                options: dict[str, int]) -> dict:
    from pysat.solvers import Solver

    problem, plan = instance(name)
    orders = {"plan": plan.order, "planrev": plan.order[::-1], "none": None}
    cnf, encode_s = clock(lambda: encode_cnf(problem, repeats=repeats == "eager",
                                             order=orders[order]))
    start = time.perf_counter()
    solver = Solver(name=solver_name)
    add = solver.solver.add_clause
    for chunk in cnf.chunks():
        deque(map(add, chunk), maxlen=0)
    words = list(range(1, cnf.n_word_vars + 1))
    letters = np.unique(cnf.y_var[cnf.y_var > 0]).tolist()
    chosen = {"words": words, "letters": letters, "none": [],
              "words_lettersF": words + [-v for v in letters]}[phases]
    if chosen:
        solver.set_phases(chosen)
    if options:
        solver.solver.configure(options)
    load_s = round(time.perf_counter() - start, 2)
    start, rounds = time.perf_counter(), 0
    while True:
        rounds += 1
        sat = solver.solve()
        if not sat or repeats != "lazy":
            break
        choice = cnf.decode(problem, np.array(solver.get_model()))
        extra = repeat_clauses(problem, cnf, [int(problem.candidates[s][k])
                                              for s, k in enumerate(choice)])
        if not extra:
            break
        for clause in extra:
            solver.add_clause(clause)
    solve_s = round(time.perf_counter() - start, 2)
    try:
        counts = solver.accum_stats() or {}
    except NotImplementedError:
        counts = {}
    return {"inst": name, "solver": solver_name, "repeats": repeats, "phases": phases,
            "order": order, "opts": options, "sat": sat, "rounds": rounds, "vars": cnf.n_vars,
            "clauses": cnf.n_clauses, "encode": encode_s, "load": load_s, "solve": solve_s,
            "conflicts": counts.get("conflicts"), "decisions": counts.get("decisions")}


def measure_cpsat(name: str, presolve: str, workers: str, strategy: str, seconds: str) -> dict:
    from ortools.sat.python import cp_model

    from xwsat.encode.cpsat_tables import encode_cpsat

    problem, plan = instance(name)
    order = None if strategy == "none" else plan.order
    built, build_s = clock(lambda: encode_cpsat(problem, order, strategy=strategy))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(seconds)
    solver.parameters.num_workers = int(workers)
    solver.parameters.cp_model_presolve = presolve == "1"
    if order is not None and int(workers) == 1:
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
    status, solve_s = clock(lambda: solver.solve(built.model))
    return {"inst": name, "presolve": presolve, "workers": workers, "strategy": strategy,
            "tuples": built.n_tuples, "status": solver.status_name(status), "build": build_s,
            "solve": solve_s, "conflicts": solver.num_conflicts, "branches": solver.num_branches}


def main(argv: list[str]) -> None:
    kind, *rest = argv
    if kind == "load":
        row = measure_load(rest[0])
    elif kind == "sat":
        options = {k: int(v) for k, v in (a.split("=") for a in rest[5:])}
        row = measure_sat(*rest[:5], options)
    else:
        row = measure_cpsat(*rest)
    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
