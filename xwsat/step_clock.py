"""A race kept in step by decisions, so that the same seed gives the same winner.

Two searches racing on two cores finish in an order that depends on the machine's load: when
both can decide a grid, which fill is printed changes from run to run. With a step clock each
racer publishes how many decisions it has made (after each slice of its search, and when it
ends), and the race names as winner the racer that decided after the fewest decisions (the
first in the policy's order on a tie), not the first to finish on the clock. A racer that
decides is kept waiting for the others until each has passed its count without deciding, or
has ended. A search's decisions do not depend on the clock, so the winner, its fill and its
evidence are the same for a seed under any load; the price is that wait.

The clock is one shared int64 per racer, made by the parent before it forks them; each racer
writes only its own.
"""

from __future__ import annotations

import multiprocessing as mp


class StepClock:
    """The decision counts of a race's racers, in shared memory."""

    def __init__(self, racers: int) -> None:
        self.counts = mp.get_context("fork").RawArray("q", racers)

    def endpoint(self, me: int) -> StepEndpoint:
        return StepEndpoint(self.counts, me)

    def passed(self, racer: int, decisions: int) -> bool:
        """Whether ``racer`` has made at least ``decisions`` decisions."""
        return int(self.counts[racer]) >= decisions


class StepEndpoint:
    """Racer ``me``'s side of a StepClock (written in the racer's process only)."""

    def __init__(self, counts, me: int) -> None:
        self.counts, self.me = counts, me

    def tick(self, decisions: int) -> None:
        self.counts[self.me] = decisions


def in_step_winner(verdicts: dict[int, int], ended: set[int], racers: int,
                   clock: StepClock) -> int | None:
    """The racer that wins a race in step, once it is known; None while a racer that has not
    ended could still decide after fewer decisions. ``verdicts``: each decided racer's decision
    count; ``ended``: the racers that stopped with or without a verdict."""
    if not verdicts:
        return None
    best = min(verdicts, key=lambda r: (verdicts[r], r))
    for other in range(racers):
        if other in ended:
            continue
        # a racer still running decides after more decisions than it has made so far; on a tie
        # with ``best``, the first in the policy's order wins
        if not clock.passed(other, verdicts[best] + (1 if other < best else 0)):
            return None
    return best
