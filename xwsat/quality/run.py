"""``fill --optimize`` as one call: climb to the highest level (``ladder``), then the best fill
there (``best``), the result checked by ``check_fill``; never less than the fill it started from.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from xwsat import guard
from xwsat.optimize import Progress, with_fill
from xwsat.pipeline import FillOptions, FillResult
from xwsat.quality.best import Best, best_at_level
from xwsat.quality.ladder import Climb, climb
from xwsat.quality.levels import exempt_slots, levels, tier_counts

LADDER_SHARE = 0.7  # of the time left, at most, for the climb; the best fill takes the rest


@dataclass(frozen=True)
class Quality:
    """The climb, the best fill at its level (None when it did not run: a stop), the slots
    left out of the level, and the final fill's counted entries per score."""

    climb: Climb
    best: Best | None
    exempt: frozenset[int]
    tiers: dict[int, int]
    top: int  # the highest score among the grid's candidates

    @property
    def fill(self) -> tuple[int, ...]:
        return self.best.fill if self.best is not None else self.climb.fill

    @property
    def interrupted(self) -> bool:
        """Ctrl-C or the command's limit stopped the climb or the best fill's search."""
        return self.climb.interrupted or (self.best is not None and self.best.search.interrupted)


def improve(result: FillResult, options: FillOptions, time_limit: float,
            progress: Progress | None = None,
            on_fill: Callable[[tuple[int, ...], int], None] | None = None
            ) -> tuple[FillResult, Quality]:
    """Climb from ``result``'s verified fill, then improve it at its level, within
    ``time_limit`` seconds; returns the verified result and what was found and proven.
    ``on_fill(fill, level)`` hears each fill the climb raises (``ladder.climb``)."""
    assert result.outcome.fill is not None
    t0 = time.perf_counter()
    built = result.built
    exempt = exempt_slots(built)
    say = (lambda text: progress(time.perf_counter() - t0, text)) if progress else None
    climbed = climb(built, result.outcome.fill, options, time_limit * LADDER_SHARE, say, progress,
                    on_fill)
    best = None
    left = time_limit - (time.perf_counter() - t0)
    if not climbed.interrupted and left > 0.2:
        try:
            best = best_at_level(built, climbed.fill, climbed.level, exempt, climbed.proven,
                                 left, options.seed, progress)
        except KeyboardInterrupt as exc:  # the command's limit or Ctrl-C: the climb's fill
            guard.interruption(exc)  # stands, and a Ctrl-C ends the command as stopped
            climbed = replace(climbed, interrupted=True)
    found = Quality(climbed, best, exempt, {}, max(levels(built.problem, exempt), default=0))
    found = replace(found, tiers=tier_counts(built, found.fill, exempt))
    extra: dict[str, float | int | str] = {"level": climbed.level,
                                           "level_proven": int(climbed.proven)}
    if best is not None:
        extra.update({"total_score": best.total, "optimal": int(best.optimal)})
    return with_fill(result, found.fill, options.allow_repeats, options.min_length, extra,
                     time.perf_counter() - t0), found
