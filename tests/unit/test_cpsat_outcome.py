"""How the CP-SAT back-end names an UNKNOWN: a timeout only when its limit was spent."""

from __future__ import annotations

import pytest

from xwsat.backends.cpsat import CpsatBackend
from xwsat.grid import parse_grid
from xwsat.outcome import Limits, Status, Stop
from xwsat.problem import build_problem
from xwsat.words import build_wordlist

cp_model = pytest.importorskip("ortools.sat.python.cp_model")


@pytest.fixture
def problem():
    words = build_wordlist({w: (50, None) for w in ("AB", "CD", "AC", "BD")}, None, "t")
    return build_problem(parse_grid("..\n..\n"), words).problem


@pytest.mark.parametrize("limit,stop", [(60.0, Stop.GAVE_UP), (1e-6, Stop.TIME)])
def test_an_unknown_before_the_limit_is_not_called_a_timeout(monkeypatch, problem, limit, stop):
    # CP-SAT answered UNKNOWN after 6.8 s of 10 on amer15 x wamerican, and the row said
    # "timeout: time limit reached"
    solve = cp_model.CpSolver.solve

    def stops_early(self, model, *args, **kwargs):  # CP-SAT's own UNKNOWN, before any search
        self.parameters.stop_after_presolve = True
        self.parameters.cp_model_presolve = False
        return solve(self, model, *args, **kwargs)

    monkeypatch.setattr(cp_model.CpSolver, "solve", stops_early)
    outcome = CpsatBackend().solve(problem, Limits(time_limit=limit))
    assert outcome.status is Status.UNKNOWN and outcome.stop is stop
    assert ("UNKNOWN" in outcome.message) == (stop is Stop.GAVE_UP)  # not "exhausted": that
    # would read as a search space exhausted, a proof, to a researcher


def test_a_solve_stopped_by_the_time_limit_says_so_not_interrupted():
    # generate reported "interrupted" when its time limit stopped CP-SAT
    from ortools.sat.python import cp_model

    from xwsat import guard
    from xwsat.cpsat_thread import solve_stoppable
    from xwsat.outcome import Stop

    model = cp_model.CpModel()  # pigeonhole 14 into 13: long for CP-SAT without presolve
    x = [[model.NewBoolVar("") for _ in range(13)] for _ in range(14)]
    for row in x:
        model.AddBoolOr(row)
    for hole in range(13):
        model.AddAtMostOne(row[hole] for row in x)
    solver = cp_model.CpSolver()
    solver.parameters.cp_model_presolve = False
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False
    why: list[Stop] = []
    with guard.watch(0.3):
        _, interrupted = solve_stoppable(solver, model, why=why)
    assert interrupted and why == [Stop.TIME]
