"""The upper look of plain ``fill``: before the usual search, a short try of the compiled
search on the list's upper score levels only.

Constructors keep the fill a filler returns first. Where a list has tiers (Spread the
Wordlist: 40 and 50 at ``--min-score 40``) a fill from its upper tier alone usually exists and
the compiled search finds it in a fraction of a second; that fill is a fill of the whole list,
with no weak entry. A try that fails proves nothing and costs ``UPPER_LOOK_NODES`` decisions;
the level below is tried next (``UPPER_TRIES``)
(counted in decisions, not seconds, so that a seed gives the same fill under any load): the
usual search follows, on the whole list. A list with one score (wamerican, lex) skips it, and
so does every run with ``XWSAT_UPPER_LOOK=0`` in its environment (for measuring its cost).
"""

from __future__ import annotations

import os
from dataclasses import replace

from xwsat.guard import interruption
from xwsat.outcome import Limits, Outcome, Status, stopped
from xwsat.problem import Built, FillProblem
from xwsat.propagate import propagate
from xwsat.quality.levels import at_level, exempt_slots, levels, open_scores

UPPER_SHARE = 1 / 3  # the upper levels keep at least this share of the open slots' candidates
# the try's budget: the upper tier of Spread the Wordlist fills the NYT-style 15x15s and amer15
# within 97-1,304 decisions (3 seeds each); the embedded list's level 50 needs more. Plain fills
# of those six patterns with it, seeds 0-2, share of entries in Spread the Wordlist's top tier
# (mean, worst) and entries it lacks per fill: 1,500 decisions 78% (49%), 4.9; 5,000: 87% (71%),
# 2.2; 10,000: 89% (71%), 1.8; 30,000: 89% (82%), 1.5. A try that fails spends it all: 5,000
# cost nothing measurable on the hard grids paired with the list (the quick subset, 3 seeds),
# 30,000 cost up to 3.5 s (robust15 g15-s11-001: 0.7 -> 4.2 s)
UPPER_LOOK_NODES = 5_000
UPPER_LOOK_MIN_S = 1.0  # a shorter time limit goes to the usual search alone
# levels tried in turn, the upper one first: on the embedded list's NYT-style patterns the level
# keeping a third of the candidates (60) seldom fills within the budget, the one below it does
# (the five patterns and amer15, seeds 0-1: 81% of entries in Spread the Wordlist's top tier
# against 75% with one try, 4.2 entries it lacks per fill against 5.2)
UPPER_TRIES = 2
UPPER_LOOK = "mac (upper look)"  # the method its fills are named by: the letter search, cut


def upper_level(problem: FillProblem, exempt: frozenset[int]) -> int | None:
    """The highest level that keeps at least ``UPPER_SHARE`` of the counted candidates; None
    when that is the lowest level (nothing would be left out)."""
    scores = open_scores(problem, exempt)
    steps = levels(problem, exempt)
    chosen = next((level for level in reversed(steps)
                   if (scores >= level).sum() >= UPPER_SHARE * len(scores)), None)
    return None if chosen is None or chosen == steps[0] else chosen


def upper_look(built: Built, problem: FillProblem, staged: list[tuple[str, float]],
               limits: Limits, in_step: bool = False) -> Outcome | None:
    """A verified-later fill from the upper levels of ``problem`` (propagated already), or None
    (no tiers, no compiled search among the racers, too short a limit, or no fill in time).
    ``in_step`` (``fill --deterministic``): the tries are bounded by their decisions alone,
    never by a share of the time limit, so the limit and the load choose no other fill."""
    from xwsat.backends.registry import runs_compiled_search

    if os.environ.get("XWSAT_UPPER_LOOK", "1") == "0" or not runs_compiled_search(staged):
        return None
    if limits.time_limit and limits.time_limit < 4 * UPPER_LOOK_MIN_S and not in_step:
        return None
    from xwsat.backends.mac import compiled

    if not compiled():
        return None
    exempt = exempt_slots(built)
    quarter = limits.time_limit / 4 if limits.time_limit and not in_step else limits.time_limit
    each = replace(limits, time_limit=quarter)
    for level in upper_tries(problem, exempt):
        outcome = look_at(problem, exempt, level, each)
        if outcome is not None:
            return outcome
    return None


def upper_tries(problem: FillProblem, exempt: frozenset[int]) -> list[int]:
    """The levels the upper look tries, in turn: the upper level and those just below it, never
    the lowest (the usual search's job)."""
    upper = upper_level(problem, exempt)
    below = [v for v in levels(problem, exempt) if upper is not None and v <= upper]
    return [v for v in below[::-1][:UPPER_TRIES] if v != below[0]]


def look_at(problem: FillProblem, exempt: frozenset[int], level: int,
            limits: Limits) -> Outcome | None:
    """A fill of ``problem`` cut at ``level`` within ``UPPER_LOOK_NODES`` decisions and
    ``limits``, or None; an interruption of the whole command is returned as its stop."""
    from xwsat.backends.mac import MacBackend

    try:  # the cut's propagation too: a stop there is the command's as well
        sub = propagate(at_level(problem, level, exempt))
        if sub.wiped is not None or sub.hall is not None:
            return None
        look = MacBackend()
        look.max_nodes = UPPER_LOOK_NODES
        outcome = look.solve(sub.problem, limits)
    except KeyboardInterrupt as exc:  # the whole command stops: undecided, as the race would be
        return stopped("mac", *interruption(exc))
    if outcome.status is not Status.FILLED:
        return None
    extra = dict(outcome.stats.extra, upper_level=level)
    # named as the look it is, not as the back-end asked for (-b mac:words read "by mac")
    return replace(outcome, method=UPPER_LOOK, stats=replace(outcome.stats, extra=extra))
