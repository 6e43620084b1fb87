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

from xwsat.alternatives import Entries, differences, entries, find_alternatives
from xwsat.grid import EMPTY, Grid, extract_slots
from xwsat.lock import without_words
from xwsat.optimize import Progress, with_fill
from xwsat.pipeline import FillOptions, FillResult
from xwsat.problem import build_problem
from xwsat.quality.levels import fill_level, levels, tier_counts
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
                           if start < x <= found.climb.level]):
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


def differs(result: FillResult, current: Entries, among: Sequence[int], differ: int) -> bool:
    return differences(entries(result), current, among) >= differ
