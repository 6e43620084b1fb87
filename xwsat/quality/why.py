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

import numpy as np

from xwsat.evidence.explain import Explanation
from xwsat.problem import Built, FillProblem
from xwsat.quality.levels import at_level
from xwsat.quality.run import Quality


@dataclass(frozen=True)
class Why:
    """The level above the one reached (None: the top was reached), the core there and the
    problem it is a core of (the grid cut at that level); with no core, ``reason`` says why
    there is none. ``stopped``: what ended the search for a smaller core early (Ctrl-C)."""

    level: int | None
    core: Explanation | None
    built: Built
    reason: str = ""
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
    within ``time_limit`` seconds (anytime: the best core so far at the limit or Ctrl-C). No
    search starts after Ctrl-C or the limit stopped the climb or the best fill."""
    from xwsat.evidence.cores import explain_anytime
    from xwsat.evidence.explain import blank_problem

    above = quality.climb.next_level
    reason = unexplained(quality)
    if reason is not None or above is None:
        return Why(above, None, built, reason or "")
    if quality.interrupted:
        return Why(above, None, built, "stopped before the explanation")
    cut = replace(built, problem=at_level(built.problem, above, quality.exempt))
    # without its given letters (a lock, a theme) the grid is cut at the level too
    blank = _blank_at_level(built, blank_problem(built), above, quality.exempt)
    try:
        core, stop = explain_anytime(cut, time_limit, on_core, seed=seed, blank=blank)
    except ValueError as exc:  # the level above filled after all: the fill found still stands
        return Why(above, None, built, f"the explanation's search contradicts the climb ({exc}):"
                   " a fault of xwsat's, to report with this grid")
    return Why(above, core, cut, "" if core is not None else "the time limit came first",
               "stopped" if stop is not None else "")


def _blank_at_level(built: Built, blank: FillProblem, level: int,
                    exempt: frozenset[int]) -> FillProblem:
    """The grid without its letters, cut at ``level``: an entry the constructor gives whole
    (``exempt``) keeps its own word at any score, but a slot whose letters an explanation
    leaves out is an open slot, held to the level as ``prove --min-score`` holds it (else the
    two commands would explain the same level differently)."""
    keep = []
    for s, ids in enumerate(blank.candidates):
        ok = blank.scores[s] >= level
        if s in exempt:
            spelled = "".join(built.grid.cell(c) for c in built.slots[s].cells)
            ok |= np.array([built.words.words[i] == spelled for i in ids.tolist()],
                           dtype=bool).reshape(-1)
        keep.append(np.flatnonzero(ok))
    return blank.with_candidates(keep, blank.cell_masks)
