"""The one door from the workbench to fill quality: the ladder of ``xwsat.quality``.

Autofill shows the best fill so far while quality improves: ``fill --optimize``'s climb to the
highest score level at which the grid fills (with the proof that the next level has none), then
the fewest entries at that level; each fill the climb raises is handed on as it comes. Only this
module knows the ladder's signature: when it changes, this is the one place to follow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from xwsat.optimize import fill_score, weakest_entries
from xwsat.pipeline import FillOptions, FillResult
from xwsat.problem import Built
from xwsat.quality.run import improve as climb_and_improve


@dataclass(frozen=True)
class Reached:
    """A fill and where it stands: its score level, whether no higher level fills (proven),
    and whether its count of entries at that level is proven the fewest."""

    fill: tuple[int, ...]
    level: int
    proven: bool = False
    optimal: bool = False


def improve(result: FillResult, options: FillOptions, time_limit: float,
            on_better: Callable[[Reached], None]) -> Reached:
    """Raise ``result``'s verified fill for up to ``time_limit`` seconds; ``on_better`` sees
    each better fill of the climb. Returns the final fill, verified by ``check_fill``."""
    def raised(fill: tuple[int, ...], level: int) -> None:
        on_better(Reached(fill, level))

    options = replace(options, time_limit=time_limit)
    final, found = climb_and_improve(result, options, time_limit, on_fill=raised)
    fill = final.outcome.fill if final.verified and final.outcome.fill else found.climb.fill
    return Reached(fill, found.climb.level, found.climb.proven,
                   bool(found.best is not None and found.best.optimal))


def weakest(built: Built, fill: tuple[int, ...], count: int = 5) -> list[tuple[str, str, int]]:
    """The lowest-scored entries of a fill as (slot, word, score)."""
    return weakest_entries(built, fill, count)


def total(built: Built, fill: tuple[int, ...]) -> int:
    return fill_score(built, fill)
