"""Cube and conquer: the fragment planner's first slots split the CNF into cubes, each solved
by the CDCL solver under assumptions, its learned clauses kept from cube to cube.

A route for giving the planner a job inside an external learning solver.
A cube is a choice of words for slots taken in the planner's order, split breadth first; the
cubes that unit propagation refutes are dropped. Each split replaces a cube by its extensions
by every word of one slot, whose clause says some word fills it, so the kept cubes cover every
fill (and at most one word per slot makes it exactly once): all kept cubes unsatisfiable means
the grid is. The cubes are solved in rounds with a conflict budget that doubles each round, so
one hard cube cannot hide an easy satisfiable one; the least constrained cubes (fewest literals
implied) go first.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from xwsat.backends.base import fill_from_choice
from xwsat.encode.cnf import CNF, repeat_clauses
from xwsat.problem import FillProblem

TARGET_CUBES = 256  # deepen the split while fewer cubes than this survive
SPLIT_CALLS = 1024  # unit propagations the split may spend when the run has no time limit
SPLIT_SHARE = 0.2  # of the time limit: what the split may spend, by the estimate below
# One word's propagation, measured with CaDiCaL 1.9.5 through pysat, alone: about 8 ns per
# literal of the formula up to 1M literals (the 5x5s: 1.2-2.1 ms; 9-18 ns with two runs at a
# time), 20-25 ns beyond (step_two x en, 2.4M literals: 50 ms; 15x15-21x21: 180-500 ms). The
# split's budget is counted with this estimate, not timed, so a seed splits the same way
# whatever the load, unless the clock stop at twice the share cuts it (a far-off estimate).
SMALL_FORMULA = 1_000_000  # literals
SECONDS_PER_LITERAL = (8e-9, 25e-9)  # small formula, large formula
FIRST_BUDGET = 1000  # conflicts per cube in the first round, doubled every round
MAX_BUDGET = 1 << 30  # pysat casts the budget to a C int


@dataclass
class CubeReport:
    """What the split and the rounds did (for the run's statistics)."""

    depth: int = 0
    cubes: int = 0
    refuted_at_split: int = 0
    rounds: int = 0
    closed: int = 0
    whole: bool = False  # a cube's refutation did not use the cube: the formula itself failed
    split_s: float = 0.0


def make_cubes(solver: object, problem: FillProblem, cnf: CNF, order: list[int],
               rng: random.Random, report: CubeReport, deadline: float | None,
               time_limit: float | None = None) -> list[list[int]] | None:
    """Word choices for slots of ``order`` that unit propagation does not refute, least
    constrained first; ``None`` if the formula fails unit propagation on its own.

    Cubes are split breadth first, one at a time: a cube is replaced by its extensions by every
    word of the next slot in ``order`` (those that propagation refutes dropped), so the cubes
    always cover every fill, whatever depth each reached when the split stopped. The split's
    budget is a share of ``time_limit`` (seconds) at a cost estimated from the formula's size;
    ``deadline`` (``time.perf_counter()``) only stops it if the estimate is far off."""
    ok, _ = solver.propagate(assumptions=[])
    if not ok:
        return None
    now = time.perf_counter()
    stop = now + 2 * SPLIT_SHARE * (deadline - now) if deadline else None
    per_call = cnf.n_literals * SECONDS_PER_LITERAL[cnf.n_literals > SMALL_FORMULA]
    # whole seconds: the time left that the pipeline hands over differs by milliseconds
    calls = (SPLIT_SHARE * math.ceil(time_limit) / max(per_call, 1e-9)
             if time_limit else SPLIT_CALLS)
    queue: deque[tuple[int, list[int], int]] = deque([(0, [], 0)])
    kept: list[tuple[int, list[int]]] = []
    while queue and len(queue) + len(kept) < TARGET_CUBES:
        implied, cube, at = queue.popleft()
        while at < len(order) and len(problem.candidates[order[at]]) > calls:
            at += 1  # too wide for what the split has left: a later slot may be narrower
        if at == len(order) or (stop and time.perf_counter() > stop):
            kept.append((implied, cube))
            continue
        slot = order[at]
        first = int(cnf.x_base[slot]) + 1
        children: list[tuple[int, list[int], int]] = []
        refuted = 0
        for k in range(len(problem.candidates[slot])):
            if stop and time.perf_counter() > stop:
                break
            ok, implied_now = solver.propagate(assumptions=[*cube, first + k])
            if ok:
                children.append((len(implied_now), [*cube, first + k], at + 1))
            else:
                refuted += 1
        else:
            calls -= len(problem.candidates[slot])
            queue.extend(children)
            report.refuted_at_split += refuted
            report.depth = max(report.depth, len(cube) + 1)
            continue
        kept.append((implied, cube))  # out of time: the cube stays whole
    kept.extend((implied, cube) for implied, cube, _ in queue)
    keyed = [(implied, rng.random(), cube) for implied, cube in kept]
    keyed.sort()
    return [cube for _, _, cube in keyed]


def broken_repeats(problem: FillProblem, cnf: CNF) -> Callable[[list[int]], list[list[int]]]:
    """For ``conquer``: the no-repeat clauses a model breaks (none when no word repeats)."""
    def broken(model: list[int]) -> list[list[int]]:
        choice = cnf.decode(problem, np.array(model, dtype=np.int64))
        return repeat_clauses(problem, cnf, fill_from_choice(problem, choice))
    return broken


def conquer(solver: object, cubes: list[list[int]],
            model_ok: Callable[[list[int]], list[list[int]]],
            report: CubeReport, deadline: float | None, rounds: int | None = None,
            ) -> tuple[bool | None, list[int] | None]:
    """(True, model), (False, None), or (None, None) at the deadline or after ``rounds``.

    ``model_ok(model)`` returns the clauses a model breaks (the lazy no-repeat clauses); they
    are added and the cube is tried again."""
    budget = FIRST_BUDGET
    open_cubes = cubes
    while open_cubes:
        if rounds is not None and rounds <= 0:
            return None, None
        if rounds is not None:
            rounds -= 1
        report.rounds += 1
        still: list[list[int]] = []
        for cube in open_cubes:
            while True:  # again on the same cube while its models break the no-repeat rule
                if deadline and time.perf_counter() > deadline:
                    return None, None
                solver.conf_budget(budget)
                result = solver.solve_limited(assumptions=cube)
                if not result:
                    break
                model = solver.get_model()
                extra = model_ok(model)
                if not extra:
                    return True, model
                for clause in extra:
                    solver.add_clause(clause)
            if result is None:
                still.append(cube)
                continue
            report.closed += 1
            if not set(solver.get_core() or ()) & set(cube):
                report.whole = True
                return False, None  # refuted without the cube's words: the whole grid
        open_cubes = still
        budget = min(2 * budget, MAX_BUDGET)
    return False, None
