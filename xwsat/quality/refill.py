"""``fill --region --optimize``: climbing a region refill without claiming what only its search
for a different refill made true.

The refill is found with words taken out of chosen slots (``xwsat.alternatives``), so that it
differs from what is there now. A climb on that narrowed problem once proved "no fill at 40"
because the current entry of a slot was taken out, while a refill at 50 existed. So the climb
runs on the region's whole problem: every refill is a fill of it, and a level it refutes has no
refill either. Its best fill may go back to the entries there now; then a refill that differs
is sought at the level reached and below, and the level it is found at is not claimed the
highest.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from xwsat import guard
from xwsat.alternatives import (
    Entries,
    differences,
    entries,
    find_alternatives,
    quality_of,
    words_of,
)
from xwsat.grid import EMPTY, Grid, extract_slots
from xwsat.lock import without_words
from xwsat.optimize import Progress, with_fill
from xwsat.pipeline import FillOptions, FillResult, solve_built, without
from xwsat.problem import Built, build_problem
from xwsat.quality.best import best_at_level
from xwsat.quality.levels import at_level, fill_level, levels, tier_counts
from xwsat.quality.run import Quality, improve
from xwsat.words import WordList

# of the time, at most, for the climb and the best fill on the whole problem: the rest is kept
# for the search of a refill that differs, when their fill goes back to the entries there now
CLIMB_SHARE = 0.7


def improve_refill(refill: FillResult, grid: Grid, words: WordList, options: FillOptions,
                   current: Entries, among: Sequence[int], differ: int, time_limit: float,
                   progress: Progress | None = None) -> tuple[FillResult, Quality | None]:
    """The refill climbed and improved, differing from ``current`` in ``differ`` of ``among``;
    (``refill``, None) when no better refill that differs is found in ``time_limit``."""
    t0 = time.perf_counter()
    whole = build_problem(grid, words, options.min_length, options.allow_repeats,
                          options.max_shared)
    base = replace(refill, built=whole)  # the same slots and word ids: the refill fills it too
    result, found = improve(base, options, time_limit * CLIMB_SHARE, progress)
    if found.interrupted or result.outcome.fill is None:
        return (result, found) if result.outcome.fill is not None and differs(
            result, current, among, differ) else (refill, None)
    if differs(result, current, among, differ):
        return result, found
    start = fill_level(whole, refill.outcome.fill, found.exempt)
    given = {"".join(grid.cell(c) for c in slot.cells)
             for slot in extract_slots(grid, options.min_length)
             if all(grid.cell(c) != EMPTY for c in slot.cells)}
    keep = given | words.placed_only
    for level in reversed([x for x in levels(whole.problem, found.exempt)
                           if start <= x <= found.climb.level]):
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0.2:
            break
        below = {w for w, s in zip(words.words, words.scores) if s < level and w not in keep}
        hunt = find_alternatives(grid, without_words(words, below),
                                 replace(options, time_limit=left), 1, differ,
                                 lambda: time_limit - (time.perf_counter() - t0), progress,
                                 [current], among, by_seed=True)
        if not hunt.found:
            continue
        fill = hunt.found[0].outcome.fill
        assert fill is not None
        optimum = (-level, found.best.at_level, -found.best.total) if found.best is not None and \
            found.best.optimal and level == found.climb.level else None
        fill = _best_changing(whole, fill, current, among, differ, level,
                              level == found.climb.level and found.climb.proven, found.exempt,
                              time_limit - (time.perf_counter() - t0), options, progress,
                              optimum)
        if level == start and quality_of(whole, fill).key() >= quality_of(
                whole, refill.outcome.fill).key():
            continue  # at the refill's own level and no better than it: the refill stands
        climb = found.climb
        if level < climb.level:  # the climb's proof is about its own level: none is claimed
            above = [x for x in levels(whole.problem, found.exempt) if x > level]
            climb = replace(climb, level=level, next_level=above[0] if above else None,
                            ceiling=None, evidence=None)
        quality = replace(found, climb=replace(climb, fill=fill), best=None,
                          tiers=tier_counts(whole, fill, found.exempt))
        return with_fill(base, fill, options.allow_repeats, options.min_length,
                         {"level": level, "level_proven": int(quality.climb.proven)},
                         time.perf_counter() - t0), quality
    return refill, None


def _best_changing(whole: Built, fill: tuple[int, ...], current: Entries, among: Sequence[int],
                   differ: int, level: int, proven: bool, exempt: frozenset[int], left: float,
                   options: FillOptions, progress: Progress | None,
                   optimum: tuple[int, int, int] | None = None) -> tuple[int, ...]:
    """``fill`` (a refill at ``level`` that changes ``differ`` entries) bettered by the branch
    and bound at that level: with the entries there now taken out of ``differ`` slots at a
    time (the weakest entries first), every fill it finds changes them, so the best of those
    searches is a refill that differs, and often as good as what is there now (the first
    refill that differs is any one). It stops at ``optimum``, the rank (``Quality.key``) of the best
    fill with no need to differ: none that differs beats it."""
    t0 = time.perf_counter()
    words = whole.words
    index = {w: i for i, w in enumerate(words.words)}
    exclusion: dict[int, int] = {s: index[current[s]] for s in among if current[s] in index}
    order = sorted(exclusion, key=lambda s: (int(words.scores[exclusion[s]]), s))
    windows = [order[i:i + differ] for i in range(0, len(order), differ)]
    best, key = fill, quality_of(whole, fill).key()
    changed = words_of(whole, fill)
    for n, window in enumerate(windows):
        remaining = left - (time.perf_counter() - t0)
        if remaining <= 0.2 or (optimum is not None and key <= optimum):
            break
        cap = max(WINDOW_MIN_S, remaining / min(WINDOWS_SHARED, len(windows) - n))
        narrowed = replace(whole, problem=without(whole.problem,
                                                  tuple((s, exclusion[s]) for s in window)))
        try:
            start = fill if all(changed[s] != current[s] for s in window) else \
                _start(narrowed, level, exempt, options, min(cap, remaining))
            if start is None:
                continue
            found = best_at_level(narrowed, start, level, exempt, proven,
                                  min(cap, left - (time.perf_counter() - t0)), options.seed,
                                  progress)
        except KeyboardInterrupt as exc:  # the best so far stands; a Ctrl-C still ends the
            guard.interruption(exc)  # command
            break
        if (better := quality_of(whole, found.fill).key()) < key:
            best, key = found.fill, better
    return best


# The windows of slots to change share the time left this many at a time (a window's branch
# and bound gets at least WINDOW_MIN_S): the weakest entries' windows come first.
WINDOWS_SHARED = 4
WINDOW_MIN_S = 1.0


def _start(narrowed: Built, level: int, exempt: frozenset[int], options: FillOptions,
           seconds: float) -> tuple[int, ...] | None:
    """A fill of ``narrowed`` at ``level``, found by the compiled search within ``seconds``,
    for the branch and bound to start from; None when there is none (in time)."""
    cut = replace(narrowed, problem=at_level(narrowed.problem, level, exempt))
    result = solve_built(cut, replace(options, time_limit=seconds, backend="mac"))
    return result.outcome.fill if result.verified else None


def differs(result: FillResult, current: Entries, among: Sequence[int], differ: int) -> bool:
    return differences(entries(result), current, among) >= differ
