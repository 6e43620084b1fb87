"""The climb: the highest score level at which a grid fills, and the proof that the next level
has no fill.

It starts from a verified fill (plain ``fill``'s) whose level is the lowest score among its
counted entries, and tries levels above it, each one a whole search of the problem cut down to
that level (``pipeline.solve_built``: the same propagation, counting and compiled search as
``prove``, so an UNFILLABLE there is the same evidence). Levels are monotone, so a bisection
over the distinct levels present among the grid's candidates needs few searches even for a list
with a hundred scores; a fill found at L stands at its own level m >= L. Each fill is verified
and kept at once: a limit or Ctrl-C leaves the best so far with what was proven.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from xwsat import guard
from xwsat.guard import Tick
from xwsat.outcome import Evidence, Status, Stop
from xwsat.pipeline import FillOptions, solve_built
from xwsat.problem import Built
from xwsat.quality.levels import at_level, exempt_slots, fill_level, levels

Say = Callable[[str], None]
ENDING = (Stop.INTERRUPTED, Stop.KILLED, Stop.MEMORY)  # the command is stopping: climb no more


@dataclass(frozen=True)
class Step:
    """One search of the climb: the level tried, what it ended with, the level a fill reached."""

    level: int
    status: str
    seconds: float
    reached: int | None = None


@dataclass(frozen=True)
class Climb:
    """Where the climb ended. ``ceiling``: the level proven to have no fill (None: not proven);
    it is ``next_level`` exactly when the level reached is proven the highest."""

    fill: tuple[int, ...]
    level: int
    start_level: int
    next_level: int | None  # the lowest level above ``level`` among the candidates (None: top)
    ceiling: int | None
    evidence: Evidence | None  # how the ceiling was proven
    undecided: int | None  # the lowest level a search left undecided
    steps: tuple[Step, ...] = field(default_factory=tuple)
    interrupted: bool = False
    seconds: float = 0.0

    @property
    def proven(self) -> bool:
        """The level reached is the highest: nothing above it, or the next level refuted."""
        return self.next_level is None or self.ceiling == self.next_level


def climb(built: Built, start: tuple[int, ...], options: FillOptions, time_limit: float,
          say: Say | None = None, on_tick: Tick | None = None,
          on_fill: Callable[[tuple[int, ...], int], None] | None = None) -> Climb:
    """Raise the level of the fill ``start`` of ``built`` as far as the grid allows within
    ``time_limit`` seconds, with ``options``' back-end and seed for every search;
    ``on_fill(fill, level)`` hears each verified fill at a higher level as it is found."""
    t0 = time.perf_counter()
    deadline = t0 + time_limit
    exempt = exempt_slots(built)
    ladder = levels(built.problem, exempt)  # (unpruned: a level no pruned slot has is no harm)
    top = ladder[-1] if ladder else 0
    best, lo = tuple(start), fill_level(built, start, exempt, top)
    start_level = lo
    ceiling: int | None = None
    evidence: Evidence | None = None
    undecided: int | None = None
    steps: list[Step] = []
    interrupted = False
    given: dict[int, float] = {}  # the budget each level's last search had
    while True:
        open_levels = [v for v in ladder if v > lo and (ceiling is None or v < ceiling)
                       and (undecided is None or v < undecided)]
        left = deadline - time.perf_counter()
        if left < 0.2:
            break
        if open_levels:
            level = open_levels[len(open_levels) // 2]
            searches = max(1, math.ceil(math.log2(len(open_levels) + 1)))
            budget = left if searches == 1 else left / searches
        elif undecided is not None and left > 1.5 * given.get(undecided, 0.0):
            level, budget, undecided = undecided, left, None  # again, with all the time left
        else:
            break
        given[level] = budget
        if say is not None:
            say(f"level {lo} reached; trying {level} ({len(open_levels)} levels open, "
                f"{budget:.1f} s)")
        began = time.perf_counter()
        try:
            result = solve_built(replace(built, problem=at_level(built.problem, level, exempt)),
                                 replace(options, time_limit=budget, upper_first=False), on_tick)
        except KeyboardInterrupt as exc:
            guard.interruption(exc)  # a Ctrl-C is the command's: it ends as stopped
            steps.append(Step(level, "interrupted", time.perf_counter() - began))
            interrupted = True
            break
        outcome = result.outcome
        spent = time.perf_counter() - began
        if outcome.status is Status.FILLED and result.verified and outcome.fill is not None:
            best, lo = outcome.fill, fill_level(built, outcome.fill, exempt, top)
            steps.append(Step(level, "filled", spent, lo))
            if on_fill is not None:
                on_fill(best, lo)
            if undecided is not None and undecided <= lo:  # filled after all, from below
                undecided = None
        elif outcome.status is Status.UNFILLABLE:
            ceiling, evidence = level, outcome.evidence or Evidence(outcome.method)
            steps.append(Step(level, "unfillable", spent))
        else:
            undecided = level
            steps.append(Step(level, outcome.label, spent))
            if outcome.stop in ENDING:
                interrupted = True
                break
    after = [v for v in ladder if v > lo]
    return Climb(best, lo, start_level, after[0] if after else None, ceiling, evidence,
                 undecided, tuple(steps), interrupted, time.perf_counter() - t0)
