"""CP-SAT back-end: the table model solved by OR-Tools CP-SAT."""

from __future__ import annotations

import time
from typing import ClassVar

from xwsat.backends.base import Traits, importable
from xwsat.encode.cpsat_tables import encode_cpsat
from xwsat.errors import XwsatError
from xwsat.outcome import Evidence, Limits, Outcome, Progress, Stats, Status, Stop, stopped
from xwsat.planner import make_plan
from xwsat.problem import FillProblem

# Presolve never paid off (solver tuning, at c764024): at 9k table rows it turned a 23 s proof into
# a 30 s timeout, at 150k+ rows it used the whole 30 s budget. Kept only for tiny models.
PRESOLVE_TUPLE_LIMIT = 5_000
LISTED = ("plan",)


class CpsatBackend:
    """Build the table model, then let CP-SAT search; INFEASIBLE is its (uncertified) proof."""

    name: ClassVar[str] = "cpsat"
    # its INFEASIBLE is not independently checkable: no proof
    traits = Traits("cpsat", substrings=True)

    def __init__(self, use_plan: bool = False, strategy: str = "letters") -> None:
        self.use_plan = use_plan
        self.strategy = strategy  # "letters" or "words": what the plan's decision strategy fixes

    @staticmethod
    def available() -> bool:
        return importable("ortools.sat.python.cp_model")

    def solve(self, problem: FillProblem, limits: Limits,
              progress: Progress | None = None) -> Outcome:
        from ortools.sat.python import cp_model

        start = time.perf_counter()
        order = make_plan(problem, limits.seed).order if self.use_plan else None
        built_model = encode_cpsat(problem, order, strategy=self.strategy)
        built = time.perf_counter()
        solver = cp_model.CpSolver()
        params = solver.parameters
        if limits.time_limit:
            params.max_time_in_seconds = float(limits.time_limit)
        params.num_workers = max(1, limits.threads)
        params.random_seed = limits.seed
        params.cp_model_presolve = built_model.n_tuples <= PRESOLVE_TUPLE_LIMIT
        if self.use_plan and params.num_workers == 1:
            params.search_branching = cp_model.FIXED_SEARCH  # else one worker of the portfolio
        status = solver.solve(built_model.model)
        solved = time.perf_counter()
        proto = built_model.model.proto
        stats = Stats(
            build_s=built - start,
            solve_s=solved - built,
            variables=len(proto.variables),
            constraints=len(proto.constraints),
            conflicts=int(solver.num_conflicts),
            nodes=int(solver.num_branches),
            extra={"tuples": built_model.n_tuples, "presolve": int(params.cp_model_presolve),
                   "plan": "fragments" if self.use_plan else "none"},
        )
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            fill = tuple(int(solver.value(w)) for w in built_model.words)
            return Outcome(Status.FILLED, self.name, fill, stats)
        if status == cp_model.INFEASIBLE:
            return Outcome(
                Status.UNFILLABLE,
                self.name,
                stats=stats,
                evidence=Evidence(
                    "cpsat",
                    "CP-SAT proved the table model infeasible (its search is not an independent"
                    " certificate)",
                ),
            )
        if status == cp_model.MODEL_INVALID:
            return stopped(self.name, Stop.FAILED, built_model.model.validate(), stats)
        spent = solved - start
        if limits.time_limit and spent < EARLY_SHARE * limits.time_limit:
            # CP-SAT answers UNKNOWN before its limit on large tables (amer15 x wamerican:
            # 6.8 s of 10 s, no conflict): not a timeout, and a row must not say it was
            return stopped(self.name, Stop.GAVE_UP, f"CP-SAT stopped undecided (UNKNOWN) "
                           f"after {spent:.1f} s of its {limits.time_limit:.1f} s", stats)
        return stopped(self.name, Stop.TIME, "time limit reached", stats)


EARLY_SHARE = 0.9  # an UNKNOWN before this share of the limit is CP-SAT's own stop


def from_spec(sub: str | None) -> CpsatBackend:
    """``cpsat`` or ``cpsat:plan`` (a fixed decision strategy over the planner's cells)."""
    if sub not in (None, "plan"):
        raise XwsatError(f"unknown cpsat variant {sub!r} (use cpsat or cpsat:plan)")
    return CpsatBackend(use_plan=sub == "plan")
