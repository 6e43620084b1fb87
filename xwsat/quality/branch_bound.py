"""The best fill by branch and bound in the compiled search: the same MAC search as ``prove``
(``xwsat.compiled_search``), told the worth of every word and the worth of the best fill found,
prunes every node whose slots' best live words together cannot beat it.

It is the other way to do ``quality.best``'s job, beside CP-SAT's neighbourhood search
(``xwsat.optimize``): one search over the whole grid, so when it ends the fill it holds is proven
the best (no neighbourhood can say that on a grid too large to solve whole), and it is anytime,
each fill it meets worth more than the one before. What it learns at a restart ("no better fill
below these decisions") stays true as the best fill only improves.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from xwsat import guard
from xwsat.compiled_search import aot
from xwsat.compiled_search import state as mstate
from xwsat.compiled_search.model import build_model, read_fill
from xwsat.optimize import Optimized, Progress, Valuation
from xwsat.problem import FillProblem

SLICE_S = 0.1  # seconds of decisions between two looks at the clock
Found = Callable[[tuple[int, ...], int], None]


def branch_and_bound(problem: FillProblem, value: Valuation, start: tuple[int, ...],
                     time_limit: float, seed: int = 0, bound: int | None = None,
                     words: bool = True, on_better: Found | None = None,
                     progress: Progress | None = None) -> Optimized:
    """Maximise ``value`` over the fills of ``problem``, from the fill ``start`` (one of them),
    for at most ``time_limit`` seconds; ``bound``: an upper bound known from elsewhere (met:
    stop, optimal). With ``words`` the search decides whole words, the best-worth first.
    Ctrl-C or the command's limit between two slices returns the best so far."""
    t0 = time.perf_counter()
    deadline = t0 + time_limit
    best, total = tuple(start), value.total(start)
    upper = value.bound(problem) if bound is None else min(bound, value.bound(problem))
    model, first = build_model(problem, worth=(value.weights, value.exempt))
    state = mstate.new_state(model, first, seed, words=words, incumbent=total)
    run = aot.runner()
    code, improvements, stopped, said = mstate.BUDGET, 0, False, t0
    start_total, budget = total, 100
    while code != mstate.UNSAT and total < upper and time.perf_counter() < deadline:
        before, nodes = time.perf_counter(), int(state.sc[mstate.NODES])
        try:
            code = run(model, state, budget)
        except KeyboardInterrupt as exc:
            guard.interruption(exc)  # a Ctrl-C is the command's: it ends as stopped
            stopped = True
            break
        spent, done = time.perf_counter() - before, int(state.sc[mstate.NODES]) - nodes
        if done and spent > 0:  # about SLICE_S of decisions, less near the deadline
            span = min(SLICE_S, (deadline - time.perf_counter()) / 2)
            budget = max(1, min(1 << 20, int(done / spent * span)))
        if code == mstate.SAT:
            fill = read_fill(model, state.ct)
            worth = value.total(fill) if fill is not None else total
            if fill is None or worth <= total:  # the kernel's bound and ours disagree: a bug
                raise RuntimeError("branch and bound returned a fill no better than its bound")
            best, total, improvements = fill, worth, improvements + 1
            state.sc[mstate.BOUND] = total
            if on_better is not None:
                on_better(best, total)
        now = time.perf_counter()
        if progress is not None and (code == mstate.SAT or now - said >= 1.0):
            said = now
            progress(now - t0, f"branch and bound: worth {total} (start {start_total}, "
                     f"bound {upper}, {int(state.sc[mstate.NODES]):,} decisions)")
    optimal = code == mstate.UNSAT or total >= upper
    return Optimized(best, total, total if optimal else upper, optimal, improvements,
                     time.perf_counter() - t0, start_total, interrupted=stopped,
                     decisions=int(state.sc[mstate.NODES]))
