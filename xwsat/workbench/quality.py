"""The one door from the workbench to fill quality (``xwsat.optimize``).

Autofill shows the best fill so far while quality improves, so the optimiser is run in short
steps, each starting from the last best fill, and every improvement is handed on. Only this
module knows the optimiser's signature: when it changes, this is the one place to follow.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from xwsat.optimize import fill_score, optimize_fill, weakest_entries
from xwsat.problem import Built

STEP_S = 2.0  # each optimiser step; the page sees a better fill at least this often


def improve(built: Built, fill: tuple[int, ...], time_limit: float, seed: int,
            on_better: Callable[[tuple[int, ...], int, bool], None]) -> tuple[tuple[int, ...],
                                                                             bool]:
    """Raise the fill's total score for up to ``time_limit`` seconds; ``on_better(fill, total,
    optimal)`` sees each better fill. Returns the best fill and whether it is proven optimal."""
    deadline = time.monotonic() + time_limit
    best, step = fill, 0
    while True:
        left = deadline - time.monotonic()
        if left < 0.3:
            return best, False
        found = optimize_fill(built, best, min(STEP_S, left), seed + step, threads=1)
        step += 1
        if found.total > fill_score(built, best) or found.optimal:
            best = found.fill
            on_better(best, found.total, found.optimal)
        if found.optimal:
            return best, True


def weakest(built: Built, fill: tuple[int, ...], count: int = 5) -> list[tuple[str, str, int]]:
    """The lowest-scored entries of a fill as (slot, word, score)."""
    return weakest_entries(built, fill, count)


def total(built: Built, fill: tuple[int, ...]) -> int:
    return fill_score(built, fill)
