"""Best-valued fill: maximise the sum of word values with CP-SAT, anytime, from a first fill.

Each model is the CP-SAT table encoding of ``xwsat.encode.cpsat_tables`` (reused unchanged) plus one
``(word id, value)`` table per slot and the objective "sum of values" (``Valuation``: the scores,
or ``xwsat.quality.best``'s count-then-total), hinted with the current fill. A small grid is
tried whole first (and often solved to proven optimality); then large neighbourhood search:
free a connected group of slots around a random slot, keep every other slot's word, propagate,
and let CP-SAT find the best refill of the group. Every accepted step is
a complete fill with a higher total, so the search can stop at any moment (time limit, Ctrl-C:
the main thread stops CP-SAT's thread, a fill that meets the bound) with the best fill so far.
The caller verifies it independently (``with_fill``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from xwsat import guard
from xwsat.backends.cpsat import PRESOLVE_TUPLE_LIMIT
from xwsat.cpsat_thread import solve_stoppable
from xwsat.encode.cpsat_tables import encode_cpsat
from xwsat.outcome import Status
from xwsat.pipeline import FillResult
from xwsat.problem import Built, FillProblem, fill_letters
from xwsat.propagate import propagate
from xwsat.verify import check_fill

Progress = Callable[[float, str], None]
FIRST_SHARE = 0.3  # of the budget for the whole-grid model before neighbourhood search
WHOLE_GRID_CANDIDATES = 50_000  # above this many candidates the whole model only wastes time
ROUND_S = 2.0  # per neighbourhood (15-01, ru, 20 s: 0.5 s rounds gave 2,460, 2.0 s gave 2,496)


@dataclass(frozen=True)
class Optimized:
    """The best fill found (word id per slot), its total score, an upper bound, optimality."""

    fill: tuple[int, ...]
    total: int
    bound: int
    optimal: bool
    improvements: int
    seconds: float
    start_total: int
    rounds: int = 0
    interrupted: bool = False
    decisions: int = 0  # a branch and bound's (``xwsat.quality.branch_bound``)


@dataclass(frozen=True)
class Valuation:
    """What a fill is worth: ``weights[word id]`` summed over the slots not in ``exempt``
    (by default the word scores over every slot: the total score)."""

    weights: np.ndarray
    exempt: frozenset[int] = frozenset()

    def of(self, slot: int, words: np.ndarray) -> np.ndarray:
        return (np.zeros(len(words), np.int64) if slot in self.exempt
                else self.weights[words].astype(np.int64))

    def total(self, fill: tuple[int, ...]) -> int:
        return int(sum(int(self.weights[w]) for s, w in enumerate(fill) if s not in self.exempt))

    def bound(self, problem: FillProblem) -> int:
        """The sum over the slots of their best candidate's worth."""
        return int(sum(int(self.of(s, c).max()) for s, c in enumerate(problem.candidates)))


def fill_score(built: Built, fill: tuple[int, ...]) -> int:
    return int(sum(int(built.words.scores[w]) for w in fill))


def weakest_entries(built: Built, fill: tuple[int, ...], count: int = 5,
                    skip: frozenset[int] = frozenset()) -> list[tuple[str, str, int]]:
    """The ``count`` lowest-scored entries as (slot name, word, score), weakest first (the
    slots in ``skip`` left out)."""
    rows = [(s.index, s.name, built.words.words[w], int(built.words.scores[w]))
            for i, (s, w) in enumerate(zip(built.slots, fill, strict=True)) if i not in skip]
    return [(name, word, score) for _, name, word, score in
            sorted(rows, key=lambda r: (r[3], r[0]))[:count]]


def _solve(problem: FillProblem, value: Valuation, fill: tuple[int, ...], seconds: float,
           seed: int, threads: int, deadline: float | None = None,
           ) -> tuple[tuple[int, ...] | None, int | None, bool, bool]:
    """Best refill of ``problem`` (hinted with ``fill``): (fill or None, upper bound or None,
    proven optimal, stopped early by Ctrl-C). A solve that ends with no solution has no bound
    to give: CP-SAT then reports 0, which once made a fill "optimal" that was not."""
    from ortools.sat.python import cp_model

    encoded = encode_cpsat(problem)
    model = encoded.model
    scores = []
    cell_hint: dict[int, int] = {}
    for s, word in enumerate(encoded.words):
        cands = problem.candidates[s].astype(np.int64)
        values = value.of(s, cands)
        score = model.new_int_var(int(values.min()), int(values.max()), f"score{s}")
        model.add_allowed_assignments([word, score], np.column_stack([cands, values]).tolist())
        scores.append(score)
        model.add_hint(word, int(fill[s]))
        model.add_hint(score, int(value.of(s, np.array([fill[s]]))[0]))
        at = int(np.flatnonzero(problem.candidates[s] == fill[s])[0])
        cell_hint.update(zip(problem.slot_cells[s].tolist(), problem.letters[s][at].tolist()))
    for cell, code in cell_hint.items():  # a complete hint: the search starts from this fill
        model.add_hint(encoded.letters[cell], int(code))
    model.maximize(sum(scores))
    solver = cp_model.CpSolver()
    params = solver.parameters
    if deadline is not None:  # building the model took some of it
        seconds = min(seconds, deadline - time.perf_counter())
    params.max_time_in_seconds = max(0.05, seconds)
    params.num_workers = max(1, threads)
    params.random_seed = seed
    params.catch_sigint_signal = False  # Ctrl-C reaches the main thread, which stops CP-SAT
    params.cp_model_presolve = encoded.n_tuples <= PRESOLVE_TUPLE_LIMIT  # as the cpsat back-end
    status, stopped = solve_stoppable(solver, model)
    status = cp_model.UNKNOWN if status is None else status
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return (tuple(int(solver.value(w)) for w in encoded.words),
                int(solver.best_objective_bound), status == cp_model.OPTIMAL, stopped)
    return None, None, False, stopped


def _neighbourhood(problem: FillProblem, neighbours: list[set[int]], size: int,
                   rng: random.Random, weakest: list[int]) -> set[int]:
    """A connected group of ``size`` slots grown from a weak slot (or a random one)."""
    seed_slot = rng.choice(weakest) if weakest and rng.random() < 0.7 else \
        rng.randrange(problem.n_slots)
    group, frontier = {seed_slot}, [seed_slot]
    while frontier and len(group) < size:
        slot = frontier.pop(rng.randrange(len(frontier)))
        for other in sorted(neighbours[slot]):
            if other not in group and len(group) < size:
                group.add(other)
                frontier.append(other)
    return group


def _restricted(problem: FillProblem, fill: tuple[int, ...], free: set[int]) -> FillProblem:
    """The problem with every slot outside ``free`` reduced to its current word."""
    keep = [np.arange(len(c)) if s in free else np.flatnonzero(c == fill[s])
            for s, c in enumerate(problem.candidates)]
    return problem.with_candidates(keep, problem.cell_masks)


def optimize_fill(built: Built, start: tuple[int, ...], time_limit: float, seed: int = 0,
                  threads: int = 2, progress: Progress | None = None,
                  value: Valuation | None = None, within: FillProblem | None = None,
                  bound: int | None = None) -> Optimized:
    """Maximise the worth of a fill of ``built`` (``value``, by default the total score) among
    the fills of ``within`` (default: ``built.problem``), starting from the fill ``start``;
    ``bound``, when given, is an upper bound known from elsewhere. Stops as soon as the fill
    meets the bound."""
    t0 = time.perf_counter()
    deadline = t0 + time_limit
    rng = random.Random(seed)
    value = value or Valuation(built.words.scores)
    propagated = propagate(within or built.problem)
    problem = propagated.problem if propagated.wiped is None else (within or built.problem)
    scores = built.words.scores
    bound = min(value.bound(problem), bound if bound is not None else value.bound(problem))
    best, total, start_total = tuple(start), value.total(start), value.total(start)
    improvements = rounds = 0

    def report() -> None:
        if progress is not None:
            progress(time.perf_counter() - t0, f"optimising: worth {total} "
                     f"(start {start_total}, bound {bound}, {rounds} rounds)")

    optimal = stopped = False
    if total < bound and int(problem.domain_sizes().sum()) <= WHOLE_GRID_CANDIDATES:
        # small: try to prove it
        whole, whole_bound, optimal, stopped = _solve(problem, value, best,
                                                      time_limit * FIRST_SHARE, seed, threads)
        if whole_bound is not None:
            bound = min(bound, max(whole_bound, total))
        if whole is not None and value.total(whole) > total:
            best, total, improvements = whole, value.total(whole), 1
    neighbours = problem.neighbours()
    size = max(2, min(problem.n_slots - 1, 8))
    while (not optimal and not stopped and total < bound
           and time.perf_counter() < deadline - 0.1 and problem.n_slots > 1):
        rounds += 1
        report()
        weakest = [s for s in range(problem.n_slots)
                   if int(scores[best[s]]) <= np.percentile(scores[list(best)], 25)]
        free = _neighbourhood(problem, neighbours, size, rng, weakest)
        sub = propagate(_restricted(problem, best, free))
        if sub.wiped is not None:
            continue
        left = deadline - time.perf_counter()
        try:
            refill, _, solved, stopped = _solve(sub.problem, value, best, min(left, ROUND_S),
                                                rng.randrange(1 << 30), threads, deadline)
        except KeyboardInterrupt as exc:  # between two CP-SAT calls
            guard.interruption(exc)
            stopped = True
            break
        if refill is not None and value.total(refill) > total:
            best, total = refill, value.total(refill)
            improvements += 1
        # grow the neighbourhood while CP-SAT proves its refills optimal, shrink when it cannot
        size = min(problem.n_slots, size + 1) if solved else max(2, size - 1)
    report()
    return Optimized(best, total, max(bound, total), optimal or total >= bound, improvements,
                     time.perf_counter() - t0, start_total, rounds, stopped)


def with_fill(result: FillResult, fill: tuple[int, ...], allow_repeats: bool, min_length: int,
              extra: dict[str, float | int | str], seconds: float) -> FillResult:
    """``result`` with a better ``fill`` of its grid, checked by ``check_fill`` (else an ERROR,
    the fill withheld); ``extra`` joins its statistics."""
    built = result.built
    filled = built.grid.with_letters(fill_letters(built, fill))
    placed = built.words.placed_only
    problems = check_fill(built.grid.rows, filled.rows, frozenset(built.words.words) - placed,
                          allow_repeats, min_length, placed)
    if problems:
        bad = replace(result.outcome, status=Status.ERROR, fill=None,
                      message="optimised fill failed verification: " + "; ".join(problems[:3]))
        return replace(result, outcome=bad, filled=None, verified=False)
    outcome = replace(result.outcome, fill=fill, method=result.outcome.method + "+optimize",
                      stats=replace(result.outcome.stats,
                                    extra={**result.outcome.stats.extra, **extra}))
    times = dict(result.times, optimize_s=seconds)
    return replace(result, outcome=outcome, filled=filled, verified=True, times=times)
