"""Why the level reached is the highest: the slots that cannot be filled together at the level
above it.

A constructor who hears "no fill at 60" asks which part of the grid is to blame. The climb's
refutation covers the whole grid; the explanation of ``xwsat.evidence.cores``, run on the
problem cut at that level, narrows it to a set of slots that alone have no fill there (then
toward a minimal one while time remains). Reworking one of them is where a better fill can
start: without any one slot of a minimal set, the others do fill at that level.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from xwsat.evidence.explain import Explanation
from xwsat.problem import Built
from xwsat.quality.levels import at_level
from xwsat.quality.run import Quality


@dataclass(frozen=True)
class Why:
    """The core at ``level`` (None: none within the time, or nothing to explain), the problem
    it is a core of (the grid cut at ``level``), and what stopped the search for it early."""

    level: int | None
    core: Explanation | None
    built: Built
    stopped: str = ""


def unexplained(quality: Quality) -> str | None:
    """Why there is nothing to explain, or None when the level above is proven unfillable."""
    c = quality.climb
    if c.next_level is None:
        return "the level reached is the top score: nothing is above it"
    if c.ceiling != c.next_level:
        return (f"level {c.next_level} is not proven unfillable (undecided within the limit), "
                "so there is no refutation to explain")
    return None


def why_not_higher(built: Built, quality: Quality, time_limit: float, seed: int = 0,
                   on_core: Callable[[Explanation], None] | None = None) -> Why:
    """The slots that cannot be filled together at the level above the one reached, found
    within ``time_limit`` seconds (anytime: the best core so far at the limit or Ctrl-C)."""
    from xwsat.evidence.cores import explain_anytime

    c = quality.climb
    if unexplained(quality) is not None or c.next_level is None:
        return Why(None, None, built)
    cut = replace(built, problem=at_level(built.problem, c.next_level, quality.exempt))
    core, stop = explain_anytime(cut, time_limit, on_core, seed=seed)
    return Why(c.next_level, core, cut, "stopped" if stop is not None else "")
