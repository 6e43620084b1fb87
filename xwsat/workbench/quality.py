"""The one door from the workbench to fill quality: the ladder of ``xwsat.quality``.

Autofill shows the best fill so far while quality improves: ``fill --optimize``'s climb to the
highest score level at which the grid fills (with the proof that the next level has none), then
the fewest entries at that level; each fill the climb raises is handed on as it comes. Then,
where the level above is proven to have no fill, the slots that cannot be filled together there
(``fill --optimize --explain``). Only this module knows the ladder's signature: when it
changes, this is the one place to follow.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from xwsat.optimize import fill_score, weakest_entries
from xwsat.pipeline import FillOptions, FillResult
from xwsat.problem import Built
from xwsat.quality.levels import exempt_slots
from xwsat.quality.run import improve as climb_and_improve
from xwsat.quality.why import unexplained, why_not_higher

# Of the time autofill gives quality, the share of the climb and the best fill; the rest goes
# to saying why the level above has no fill (``xwsat.quality.why``).
CLIMB_SHARE = 0.75


@dataclass(frozen=True)
class Reached:
    """A fill and where it stands: its score level, whether no higher level fills (proven),
    whether its count of entries at that level is proven the fewest, and why not higher: the
    slots that cannot be filled together at the level above (``why_not``: level, slot names,
    cells, minimal), when that was found."""

    fill: tuple[int, ...]
    level: int
    proven: bool = False
    optimal: bool = False
    why_not: dict[str, object] | None = None


def improve(result: FillResult, options: FillOptions, time_limit: float,
            on_better: Callable[[Reached], None]) -> Reached:
    """Raise ``result``'s verified fill for up to ``time_limit`` seconds; ``on_better`` sees
    each better fill of the climb, and the final fill before the explanation of the level
    above starts. Returns the final fill, verified by ``check_fill``."""
    def raised(fill: tuple[int, ...], level: int) -> None:
        on_better(Reached(fill, level))

    began = time.monotonic()
    share = time_limit * CLIMB_SHARE
    final, found = climb_and_improve(result, replace(options, time_limit=share), share,
                                     on_fill=raised)
    fill = final.outcome.fill if final.verified and final.outcome.fill else found.climb.fill
    reached = Reached(fill, found.climb.level, found.climb.proven,
                      bool(found.best is not None and found.best.optimal))
    left = time_limit - (time.monotonic() - began)
    if unexplained(found) is not None or found.interrupted or left < 0.5:
        return reached
    on_better(reached)
    why = why_not_higher(result.built, found, left, options.seed)
    if why.core is None or why.level is None:
        return reached
    slots = [result.built.slots[s] for s in why.core.slots]
    return replace(reached, why_not={
        "level": why.level, "slots": [s.name for s in slots], "minimal": why.core.minimal,
        "cells": sorted({int(c) for s in slots for c in s.cells})})


def weakest(built: Built, fill: tuple[int, ...], count: int = 5) -> list[tuple[str, str, int]]:
    """The lowest-scored entries of a fill as (slot, word, score), among those the search
    filled: an entry the grid gives whole (outside a selection, or typed by the constructor)
    is not the fill's to improve, and "Another fill" would leave out a word it cannot change."""
    exempt = exempt_slots(built)
    return weakest_entries(built, fill, count, skip=exempt)


def total(built: Built, fill: tuple[int, ...]) -> int:
    return fill_score(built, fill)
