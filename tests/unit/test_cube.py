"""Cube and conquer (``sat:cube``): the split covers every fill exactly once, the rounds reach
the verdicts brute force gives even with tiny budgets, and the deadline is kept."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from oracle import brute_fills

from xwsat.backends import cube as cube_module
from xwsat.backends.base import fill_from_choice
from xwsat.backends.cube import CubeReport, broken_repeats, conquer, make_cubes
from xwsat.backends.registry import make_backend
from xwsat.backends.sat import load_cnf
from xwsat.encode.cnf import encode_cnf
from xwsat.errors import XwsatError
from xwsat.grid import parse_grid
from xwsat.outcome import Limits, Status
from xwsat.problem import build_problem, fill_letters
from xwsat.propagate import propagate
from xwsat.words import build_wordlist

pytest.importorskip("pysat.solvers")
from pysat.solvers import Solver  # noqa: E402

OPEN_3X3 = ("...\n...\n...", ["ABC", "BCA", "CAB", "ACB", "BAC", "CBA", "AAA", "BBB", "CCC"])
LATIN_ROWS = ("...\n...\n...", ["ABC", "BCA", "CAB", "AAB", "BBC", "CCA", "ABB"])


def problem_of(text: str, words: list[str], allow_repeats: bool = False):
    built = build_problem(parse_grid(text), build_wordlist({w: (50, None) for w in words}),
                          allow_repeats=allow_repeats)
    return built, propagate(built.problem).problem


@pytest.mark.parametrize("target", [10, 256])  # 10: the split stops at mixed depths
@pytest.mark.parametrize(("text", "words"), [OPEN_3X3, LATIN_ROWS])
def test_every_fill_lies_in_exactly_one_cube(monkeypatch, text: str, words: list[str],
                                             target: int) -> None:
    monkeypatch.setattr(cube_module, "TARGET_CUBES", target)
    built, problem = problem_of(text, words, allow_repeats=True)
    cnf = encode_cnf(problem, repeats=False)
    with Solver(name="cadical195") as solver:
        load_cnf(solver, cnf)
        report = CubeReport()
        cubes = make_cubes(solver, problem, cnf, list(range(problem.n_slots)),
                           random.Random(0), report, None)
        fills = brute_fills(text, words, allow_repeats=True)
        assert cubes and report.depth >= 1 and len(fills) > 1
        if target == 10:
            assert len({len(c) for c in cubes}) > 1
        for rows in fills:
            choice = [int(np.flatnonzero(problem.candidates[s] == word_id(built, rows, s))[0])
                      for s in range(problem.n_slots)]
            lits = {int(cnf.x_base[s]) + k + 1 for s, k in enumerate(choice)}
            assert sum(set(cube) <= lits for cube in cubes) == 1


def word_id(built, rows: tuple[str, ...], slot: int) -> int:
    """The global id of the word a brute-force fill puts in ``slot``."""
    width = built.grid.width
    letters = "".join(rows[c // width][c % width] for c in built.slots[slot].cells)
    return built.words.words.index(letters)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tiny_budgets_still_reach_the_brute_force_verdicts(monkeypatch, seed: int) -> None:
    monkeypatch.setattr(cube_module, "FIRST_BUDGET", 1)
    rng = random.Random(seed)
    alphabet = "ABC"
    seen, split = set(), 0
    for _ in range(12):
        words = sorted({"".join(rng.choice(alphabet) for _ in range(3)) for _ in range(9)})
        text = "...\n...\n..."
        built, problem = problem_of(text, words)
        if any(len(c) == 0 for c in problem.candidates):
            continue
        outcome = make_backend("sat:cube").solve(problem, Limits(time_limit=20, seed=seed))
        fills = brute_fills(text, words, False)
        assert (outcome.status is Status.FILLED) == bool(fills)
        if outcome.status is Status.FILLED:
            assert rows_of(built, outcome.fill) in fills
        assert outcome.status in (Status.FILLED, Status.UNFILLABLE)
        seen.add(outcome.status)
        split += outcome.stats.extra["cubes"] > 1
    assert seen == {Status.FILLED, Status.UNFILLABLE}
    assert split  # some instance got past the first attempt on the whole formula


def test_a_past_deadline_gives_no_verdict() -> None:
    _, problem = problem_of(*OPEN_3X3)
    cnf = encode_cnf(problem, repeats=False)
    with Solver(name="cadical195") as solver:
        load_cnf(solver, cnf)
        verdict, model = conquer(solver, [[]], lambda m: [], CubeReport(), deadline=0.0001)
    assert verdict is None and model is None


@pytest.mark.parametrize(("spec", "says"), [("sat:kissat404:cube", "kissat404"),
                                             ("sat:lingeling:cube", "lingeling"),
                                             ("sat:cube:plan", "do not combine"),
                                             ("sat:plan:cube", "do not combine")])
def test_variants_that_cannot_run_are_refused(spec: str, says: str) -> None:
    with pytest.raises(XwsatError, match=says):
        make_backend(spec)


def test_a_fill_found_inside_a_cube_is_a_brute_force_fill() -> None:
    built, problem = problem_of(*OPEN_3X3)
    cnf = encode_cnf(problem, repeats=False)
    report = CubeReport()

    broken = broken_repeats(problem, cnf)
    with Solver(name="cadical195") as solver:
        load_cnf(solver, cnf)
        cubes = make_cubes(solver, problem, cnf, list(range(problem.n_slots)),
                           random.Random(0), report, None)
        verdict, model = conquer(solver, cubes, broken, report, None)
    assert verdict and report.depth >= 1 and len(cubes) > 1
    fill = fill_from_choice(problem, cnf.decode(problem, np.array(model, dtype=np.int64)))
    assert rows_of(built, fill) in brute_fills(OPEN_3X3[0], OPEN_3X3[1], False)


def rows_of(built, fill: tuple[int, ...]) -> tuple[str, ...]:
    """The grid's rows with a fill's letters written in."""
    letters = fill_letters(built, fill)
    width = built.grid.width
    return tuple("".join(letters.get(r * width + c, "#") for c in range(width))
                 for r in range(built.grid.height))


class SlowSolver:
    """A solver whose propagation takes 2 ms more, as on a loaded machine."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver

    def propagate(self, assumptions: list[int]) -> tuple[bool, list[int]]:
        time.sleep(0.002)
        return self.solver.propagate(assumptions=assumptions)


def test_the_split_does_not_depend_on_the_machine_s_speed() -> None:
    """The split's budget is an estimate from the formula's size, not a clock reading: a
    slower propagation (as under load) gives the same cubes."""
    _, problem = problem_of(*OPEN_3X3)
    cnf = encode_cnf(problem, repeats=False)
    splits = []
    for slow in (False, True):
        with Solver(name="cadical195") as solver:
            load_cnf(solver, cnf)
            deadline = time.perf_counter() + 60
            splits.append(make_cubes(SlowSolver(solver) if slow else solver, problem, cnf,
                                     list(range(problem.n_slots)), random.Random(4),
                                     CubeReport(), deadline, time_limit=0.05))
    assert splits[0] and len(splits[0]) > 1 and splits[0] == splits[1]
