"""CDCL SAT back-end: the CNF encoding solved by a pysat solver (``sat:NAME`` picks it).

Defaults measured in solver tuning (at c764024): CaDiCaL 1.9.5, word variables phased true (a
decision places a word), repeats handled lazily (solve without the
no-repeat clauses, forbid the repeats a model shows, re-solve incrementally).
"""

from __future__ import annotations

import random
import time
from collections import deque
from contextlib import suppress
from typing import ClassVar

import numpy as np

from xwsat.backends.base import Traits, fill_from_choice, importable
from xwsat.backends.cube import CubeReport, broken_repeats, conquer, make_cubes
from xwsat.encode.cnf import CNF, encode_cnf, repeat_clauses
from xwsat.errors import XwsatError
from xwsat.outcome import Evidence, Limits, Outcome, Progress, Stats, Status, Stop, stopped
from xwsat.planner import make_plan
from xwsat.problem import FillProblem

DEFAULT_SOLVER = "cadical195"
SOLVERS = ("cadical195", "cadical153", "cadical300", "glucose4", "glucose42", "maplecm",
           "maplechrono", "lingeling", "minisat22", "mergesat3", "kissat404")
NOT_INCREMENTAL = ("kissat404",)  # cannot take clauses after solve: repeats go in eagerly
NO_ASSUMPTION_LIMITS = ("kissat404", "lingeling")  # no budgeted solve or propagate in pysat
PROOF_LOGGING = ("cadical195", "cadical153", "glucose4", "glucose42", "lingeling",
                 "maplechrono", "maplecm")  # pysat's proof-logging solvers, Maplesat excluded
LISTED = ("plan", "glucose4", "cube")  # variants the contract suite runs besides plain ``sat``


class SatBackend:
    """Encode to CNF, load into a pysat solver, solve; UNSAT of any subset of clauses is a proof."""

    name: ClassVar[str] = "sat"

    def __init__(
        self, solver: str = DEFAULT_SOLVER, lazy_repeats: bool = True, use_plan: bool = False,
        cube: bool = False,
    ) -> None:
        self.solver = solver
        self.lazy = lazy_repeats and solver not in NOT_INCREMENTAL
        self.use_plan = use_plan
        self.cube = cube
        proof = f"cdcl:{solver}" if solver in PROOF_LOGGING and not cube else None
        self.traits = Traits("cdcl", proof=proof, substrings=True)

    @staticmethod
    def available() -> bool:
        return importable("pysat.solvers")

    def solve(self, problem: FillProblem, limits: Limits,
              progress: Progress | None = None) -> Outcome:
        from pysat.solvers import Solver

        label = f"sat:{self.solver}" + (":cube" if self.cube else "")
        if self.cube:
            return solve_by_cubes(self.solver, problem, limits, label)
        start = time.perf_counter()
        order = make_plan(problem, limits.seed).order if self.use_plan else None
        cnf = encode_cnf(problem, repeats=not self.lazy, order=order)
        built = time.perf_counter()
        with Solver(name=self.solver) as solver:
            load_cnf(solver, cnf)
            _set_word_phases(solver, cnf)
            loaded = time.perf_counter()
            rounds, added, choice = 0, 0, None
            while True:
                rounds += 1
                if not solver.solve():
                    choice = None
                    break
                choice = cnf.decode(problem, np.array(solver.get_model(), dtype=np.int64))
                extra = repeat_clauses(problem, cnf, fill_from_choice(problem, choice))
                if not extra:
                    break
                added += len(extra)
                for clause in extra:
                    solver.add_clause(clause)
            solved = time.perf_counter()
            counts = _solver_stats(solver)
        stats = Stats(
            build_s=built - start,
            load_s=loaded - built,
            solve_s=solved - loaded,
            variables=cnf.n_vars,
            constraints=cnf.n_clauses + added,
            conflicts=counts.get("conflicts", 0),
            nodes=counts.get("decisions", 0),
            extra={"literals": cnf.n_literals, "solver": self.solver, "rounds": rounds,
                   "repeat_clauses": added, "repeats": "lazy" if self.lazy else "eager"},
        )
        if choice is not None:
            return Outcome(Status.FILLED, label, fill_from_choice(problem, choice), stats)
        detail = f"CDCL solver {self.solver} found the CNF unsatisfiable"
        if self.lazy and rounds > 1:
            detail += f" (with {added} of the no-repeat clauses, added over {rounds} rounds)"
        return Outcome(Status.UNFILLABLE, label, stats=stats, evidence=Evidence(label, detail))


def load_cnf(solver: object, cnf: CNF) -> None:
    """Feed the clauses block by block through the solver's own ``add_clause`` (fastest path)."""
    inner = getattr(solver, "solver", solver)
    add = inner.add_clause
    for chunk in cnf.chunks():
        deque(map(add, chunk), maxlen=0)


def _set_word_phases(solver: object, cnf: CNF) -> None:
    """Phase every word variable true, so a decision places a word; letters keep saved phases."""
    with suppress(NotImplementedError):  # e.g. Kissat in pysat has no phases
        solver.set_phases(list(range(1, cnf.n_word_vars + 1)))


def _solver_stats(solver: object) -> dict[str, int]:
    try:
        return {k: int(v) for k, v in (solver.accum_stats() or {}).items()}
    except NotImplementedError:
        return {}


def solve_by_cubes(name: str, problem: FillProblem, limits: Limits, label: str) -> Outcome:
    """Cube and conquer (``backends/cube.py``) on the CNF without the no-repeat clauses, which
    are added as models break them."""
    from pysat.solvers import Solver

    start = time.perf_counter()
    deadline = start + limits.time_limit if limits.time_limit else None
    cnf = encode_cnf(problem, repeats=False)
    built = time.perf_counter()
    report = CubeReport()
    added = 0

    repeats = broken_repeats(problem, cnf)

    def broken(model: list[int]) -> list[list[int]]:
        nonlocal added
        extra = repeats(model)
        added += len(extra)
        return extra

    with Solver(name=name) as solver:
        load_cnf(solver, cnf)
        _set_word_phases(solver, cnf)
        loaded = time.perf_counter()
        # the whole formula first, on the first round's budget: an easy grid needs no split
        verdict, model = conquer(solver, [[]], broken, report, deadline, rounds=1)
        cubes: list[list[int]] | None = []
        if verdict is None and not (deadline and time.perf_counter() > deadline):
            split = time.perf_counter()
            order = list(make_plan(problem, limits.seed).order)
            cubes = make_cubes(solver, problem, cnf, order, random.Random(limits.seed), report,
                               deadline, limits.time_limit)
            report.split_s = time.perf_counter() - split
            verdict, model = (False, None) if cubes is None else conquer(
                solver, cubes, broken, report, deadline)
        report.cubes = len(cubes or ())
        solved = time.perf_counter()
        counts = _solver_stats(solver)
    stats = Stats(
        build_s=built - start, load_s=loaded - built, solve_s=solved - loaded,
        variables=cnf.n_vars, constraints=cnf.n_clauses + added,
        conflicts=counts.get("conflicts", 0), nodes=counts.get("decisions", 0),
        extra={"literals": cnf.n_literals, "solver": name, "repeats": "lazy",
               "cubes": report.cubes, "depth": report.depth,
               "refuted_at_split": report.refuted_at_split, "rounds": report.rounds,
               "closed": report.closed, "split_s": round(report.split_s, 3),
               "repeat_clauses": added},
    )
    if verdict is None:
        return stopped(label, Stop.TIME, f"time limit reached after {report.rounds} rounds over "
                       f"{report.cubes} cubes, {report.closed} of them refuted", stats)
    if verdict:
        choice = cnf.decode(problem, np.array(model, dtype=np.int64))
        return Outcome(Status.FILLED, label, fill_from_choice(problem, choice), stats)
    if report.depth == 0:
        detail = f"CDCL solver {name} found the CNF unsatisfiable before any split"
    elif report.whole:
        detail = (f"CDCL solver {name} found the CNF unsatisfiable without any cube's words, "
                  f"after refuting {report.closed} of {report.cubes} cubes")
    else:
        detail = (f"CDCL solver {name} refuted every cube: {report.cubes} choices of words for "
                  f"up to {report.depth} slots in the planner's order that unit propagation "
                  f"left open, after {report.refuted_at_split} that it refuted")
    return Outcome(Status.UNFILLABLE, label, stats=stats, evidence=Evidence(label, detail))


def from_spec(sub: str | None) -> SatBackend:
    """``sat``, ``sat:SOLVER``, ``sat:plan`` or ``sat:SOLVER:plan`` (variables numbered in the
    fragment planner's order, the only ordering pysat exposes besides phases), ``sat:cube`` or
    ``sat:SOLVER:cube`` (cube and conquer on the planner's first slots)."""
    parts = (sub or "").split(":")
    use_plan = parts[-1] == "plan"
    cube = parts[-1] == "cube"
    if use_plan or cube:
        parts.pop()
    if parts and parts[-1] in ("plan", "cube"):
        raise XwsatError(f"sat:{sub}: plan and cube do not combine (use one of them)")
    if len(parts) > 1:
        raise XwsatError(f"unknown SAT variant {sub!r} (use sat, sat:SOLVER, sat:SOLVER:plan, "
                         "sat:SOLVER:cube)")
    solver = (parts[0] if parts else "") or DEFAULT_SOLVER
    if solver not in SOLVERS:
        raise XwsatError(f"unknown SAT solver {solver!r}; choose one of {', '.join(SOLVERS)}")
    if cube and solver in NO_ASSUMPTION_LIMITS:
        raise XwsatError(f"{solver} has no budgeted solve under assumptions in pysat: "
                         f"sat:{solver}:cube is not available")
    return SatBackend(solver, use_plan=use_plan, cube=cube)
