"""CDCL SAT back-end: the CNF encoding solved by a pysat solver (``sat:NAME`` picks it)."""

from __future__ import annotations

import time
from typing import ClassVar

import numpy as np

from xwsat.backends.base import Evidence, Limits, Outcome, Stats, Status, fill_from_choice
from xwsat.encode.cnf import encode_cnf
from xwsat.planner import Plan
from xwsat.problem import FillProblem

DEFAULT_SOLVER = "cadical195"
SOLVERS = ("cadical195", "cadical153", "glucose4", "glucose42", "maplecm", "maplechrono",
           "lingeling", "minisat22", "mergesat3")


class SatBackend:
    """Encode to CNF, load into a pysat solver, solve; word variables start with phase true."""

    name: ClassVar[str] = "sat"

    def __init__(self, solver: str = DEFAULT_SOLVER) -> None:
        self.solver = solver

    @staticmethod
    def available() -> bool:
        try:
            import pysat.solvers  # noqa: F401
        except ImportError:
            return False
        return True

    def solve(self, problem: FillProblem, plan: Plan, limits: Limits) -> Outcome:
        from pysat.solvers import Solver

        label = f"sat:{self.solver}"
        start = time.perf_counter()
        cnf = encode_cnf(problem)
        clauses = cnf.clauses()
        built = time.perf_counter()
        with Solver(name=self.solver, bootstrap_with=clauses) as solver:
            del clauses
            phases = _word_phases(problem, cnf.x_base, plan)
            if hasattr(solver, "set_phases"):
                solver.set_phases(phases)
            loaded = time.perf_counter()
            sat = solver.solve()
            solved = time.perf_counter()
            stats = Stats(
                build_s=built - start,
                load_s=loaded - built,
                solve_s=solved - loaded,
                variables=cnf.n_vars,
                constraints=cnf.n_clauses,
                conflicts=int(solver.accum_stats().get("conflicts", 0)),
                nodes=int(solver.accum_stats().get("decisions", 0)),
                extra={"literals": cnf.n_literals, "solver": self.solver},
            )
            if sat:
                choice = cnf.decode(problem, np.array(solver.get_model(), dtype=np.int64))
                return Outcome(Status.FILLED, label, fill_from_choice(problem, choice), stats)
            return Outcome(
                Status.UNFILLABLE,
                label,
                stats=stats,
                evidence=Evidence(label, f"CDCL solver {self.solver} found the CNF unsatisfiable"),
            )


def _word_phases(problem: FillProblem, x_base: np.ndarray, plan: Plan) -> list[int]:
    """Positive phase for every word variable: a decision then places a word (a native-like DFS)."""
    del plan  # the order enters through variable numbering later (planner issue)
    total = int(problem.domain_sizes().sum())
    return list(range(1, total + 1))
