"""The lift of plain ``fill``: after the search's fill, its weakest entries are refilled in
place, one neighbourhood at a time, so that the first fill is one a constructor could keep.

A constructor who dislikes an entry reworks the corner around it and leaves the rest. The lift
does that for each entry at the fill's lowest score level L: the slots within ``DEPTH``
crossings of it are opened again (one crossing more when that leaves no way) and every other
slot keeps its word; the entry's slot must take a word above L, an opened slot above L must
stay above L, one at L may stay there. Any fill of that smaller problem has fewer entries at L
(with none left, the fill's level rises and the lift goes on at the new lowest level). When no
entry at L gives way, the entries at the next level up get the same treatment, an opened slot
below that level being held to its own score or better: no entry below the lifted one loses,
and it leaves its level, so the fill is better in the order constructors rank fills by (entry
counts from the lowest level up). After any gain the lift starts again from the lowest level,
skipping the entries whose surroundings have not changed since they gave no way. The compiled
search looks for each refill within ``LIFT_NODES`` decisions, at most ``LIFT_REGIONS``
neighbourhoods in all (``LIFT_REGIONS_LARGE`` on a 21x21): counted in decisions, so a seed gives
the same fill under any load.

Only lists with score levels are lifted, and only what the search returned: a grid's verdict
does not change, its fill comes out later by the lift's time (0.1-4 s measured on 15x15 and
21x21 grids: results/quality/, results/dictionaries/). The embedded list's flagged entries sit
below every level, so they are the first to go; a fill that keeps one after the lift is searched
for again without the list's lowest level, briefly (``lifted``).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from xwsat import guard
from xwsat.compiled_search.model import Model, Start
from xwsat.errors import XwsatError
from xwsat.guard import Tick
from xwsat.outcome import Outcome
from xwsat.problem import Built, FillProblem
from xwsat.quality.levels import exempt_slots, levels, rank

if TYPE_CHECKING:
    from xwsat.pipeline import FillOptions

DEPTH = 2  # crossings from the weak entry to the edge of its neighbourhood
LIFT_NODES = 500  # decisions per neighbourhood
LIFT_REGIONS = 40  # neighbourhoods per fill
# ... and on a grid of LARGE_SLOTS slots or more (a 21x21), which has twice the weak entries: on
# 21-01 with en and g21-s21-006 with Spread the Wordlist@40, 80 left 10, 10 and 16 entries at
# the lowest level where 40 left 19, 18 and 24 (0.1-1.9 s more); on 15x15s 80 gained 1 entry
# in 14 fills (seeds 0-1, 2026-11-28)
LIFT_REGIONS_LARGE = 80


@dataclass(frozen=True)
class Lifted:
    """The fill after the lift and what it took."""

    fill: tuple[int, ...]
    regions: int  # neighbourhoods searched
    refilled: int  # of them, refilled with a better fill (fewer entries at some level,
    # none more below it)
    seconds: float
    fresh: bool = False  # the fill is a fresh one without the lowest level's words, lifted


def lifted(built: Built, problem: FillProblem, outcome: Outcome, options: FillOptions,
           t0: float, on_tick: Tick | None = None) -> Outcome:
    """``outcome``'s fill of ``problem`` lifted, within the command's time limit (counted from
    ``t0``, a ``time.perf_counter`` value); as it is when the list has one score, the compiled
    search is not built here, or ``XWSAT_LIFT=0`` is in the environment (for measuring).
    ``on_tick`` hears the seconds since ``t0`` and how far the lift is, after each
    neighbourhood."""
    from xwsat.backends.mac import compiled

    if outcome.fill is None or os.environ.get("XWSAT_LIFT", "1") == "0" or not compiled():
        return outcome
    deadline = None
    if options.time_limit:
        deadline = time.monotonic() + options.time_limit - (time.perf_counter() - t0)

    def progress(tried: int, most: int, refilled: int, of: str = "") -> None:
        if on_tick is not None:
            on_tick(time.perf_counter() - t0, f"lifting the weakest entries{of} ({tried} of "
                    f"at most {most} neighbourhoods, {refilled} refilled)")

    def progress_fresh(tried: int, most: int, refilled: int) -> None:
        progress(tried, most, refilled, " of a fresh fill")  # a second pass, counted anew

    scores, exempt = built.words.scores, exempt_slots(built)
    began = time.perf_counter()
    done = Lifted(outcome.fill, 0, 0, 0.0)
    try:
        done = lift(problem, outcome.fill, scores, exempt, options.seed, deadline,
                    on_progress=progress)
        fresh = _above_lowest(problem, done.fill, scores, exempt, options, deadline)
        if fresh is not None:  # lifted in turn; kept if better
            again = lift(problem, fresh, scores, exempt, options.seed, deadline,
                         on_progress=progress_fresh)
            if rank(problem, again.fill, scores, exempt) > rank(problem, done.fill, scores,
                                                                 exempt):
                done = Lifted(again.fill, done.regions + again.regions,
                              done.refilled + again.refilled,
                              time.perf_counter() - began, True)
    except XwsatError:  # an alphabet the compiled search does not take
        return outcome
    except KeyboardInterrupt as exc:  # between the lift's stages: the best fill so far stands,
        guard.interruption(exc)  # and the stop is the command's
    if done.regions == 0 and not done.fresh:
        return outcome
    extra = dict(outcome.stats.extra, lift={"regions": done.regions, "refilled": done.refilled,
                                            "seconds": round(time.perf_counter() - began, 4),
                                            "fresh": int(done.fresh)})
    return replace(outcome, fill=done.fill, stats=replace(outcome.stats, extra=extra))


def _above_lowest(problem: FillProblem, fill: tuple[int, ...], scores: np.ndarray,
                  exempt: frozenset[int], options: FillOptions,
                  deadline: float | None) -> tuple[int, ...] | None:
    """A fill from every level of the list but its lowest (the embedded list's flagged words),
    found by a short search like the upper look's, when ``fill`` still holds an entry at that
    lowest level after the lift and the upper look has not tried that cut; else None."""
    from xwsat.outcome import Limits, Status
    from xwsat.quality.upper import look_at, upper_tries

    counted = [s for s in range(problem.n_slots) if s not in exempt]
    lowest = min((int(problem.scores[s].min(initial=100)) for s in counted), default=None)
    if lowest is None or min(int(scores[fill[s]]) for s in counted) != lowest:
        return None  # (the usual case, seen before the list's levels are counted)
    steps = levels(problem, exempt)
    if len(steps) < 3 or steps[1] in upper_tries(problem, exempt):
        return None
    left = None if deadline is None else deadline - time.monotonic()
    if left is not None and left < 1.0:
        return None
    found = look_at(problem, exempt, steps[1], Limits(left, options.memory_mb, options.seed,
                                                      threads=1))
    if found is None or found.status is not Status.FILLED or found.fill is None:
        return None  # (a stop of the whole command included: the lifted fill stands)
    return tuple(found.fill)


def neighbourhood(near: list[set[int]], slot: int, depth: int) -> set[int]:
    """The slots within ``depth`` crossings of ``slot``, itself included."""
    seen, front = {slot}, {slot}
    for _ in range(depth):
        front = {u for s in front for u in near[s]} - seen
        seen |= front
    return seen


def lift(problem: FillProblem, fill: tuple[int, ...], scores: np.ndarray,
         exempt: frozenset[int], seed: int = 0, deadline: float | None = None,
         regions: int | None = None,
         on_progress: Callable[[int, int, int], None] | None = None) -> Lifted:
    """Refill the neighbourhoods of ``fill``'s entries (word ids) at its lowest level
    (``scores``: the word list's score of each word id) while some give way, the weakest first.
    Stops at ``deadline`` (a ``time.monotonic`` value) or Ctrl-C with the best fill so far;
    ``on_progress(searched, most, refilled)`` hears each neighbourhood searched."""
    from xwsat.backends.registry import LARGE_SLOTS
    from xwsat.compiled_search import aot
    from xwsat.compiled_search import state as mstate
    from xwsat.compiled_search.model import build_model, read_fill

    started = time.perf_counter()
    if regions is None:
        regions = LIFT_REGIONS_LARGE if problem.n_slots >= LARGE_SLOTS else LIFT_REGIONS
    if len(levels(problem, exempt)) < 2 or _at_top(problem, fill, scores, exempt):
        return Lifted(fill, 0, 0, 0.0)  # one score, or every entry at the top: nothing to lift
    current, tried, refilled = list(fill), 0, 0
    stuck: set[tuple[int, tuple[int, ...]]] = set()  # an entry and its surroundings, no way
    try:  # from the model's build on: a stop at any point leaves the fill so far
        model, start = build_model(problem)  # once: each neighbourhood is a start of its own
        run = aot.runner()
        rows = _Rows(model)
        counted = [s for s in range(problem.n_slots) if s not in exempt]
        top = max((int(problem.scores[s].max(initial=0)) for s in counted), default=0)
        near = problem.neighbours()
        rng = random.Random(seed)
        while counted and tried < regions:
            gained = False
            for level in sorted({int(scores[current[s]]) for s in counted}):
                if level >= top or tried >= regions:
                    break
                weak = [s for s in counted if scores[current[s]] == level]
                rng.shuffle(weak)
                for slot in weak:
                    if tried >= regions or (deadline is not None and time.monotonic() > deadline):
                        break
                    if scores[current[slot]] != level:  # refilled with a neighbour already
                        continue
                    around = (slot, tuple(current[u] for u in sorted(
                        neighbourhood(near, slot, DEPTH + 2))))
                    if around in stuck:  # nothing it depends on has changed since
                        continue
                    for depth in (DEPTH, DEPTH + 1):
                        if tried >= regions:  # (the wider try of the last one allowed)
                            break
                        tried += 1
                        region = neighbourhood(near, slot, depth)
                        opened = rows.opened(start, current, scores, exempt, level, slot, region)
                        state = mstate.new_state(model, opened, seed)
                        solved = run(model, state, LIFT_NODES) == mstate.SAT
                        found = read_fill(model, state.ct) if solved else None
                        if found is not None:
                            current, gained = list(found), True
                            refilled += 1
                        if on_progress is not None:
                            on_progress(tried, regions, refilled)
                        if found is not None:
                            break
                    else:
                        stuck.add(around)
                if gained:  # from the lowest level again
                    break
            if not gained:
                break
    except KeyboardInterrupt as exc:  # the fill so far is a whole fill: the caller reports it,
        guard.interruption(exc)  # and a Ctrl-C is the command's (no later stage runs)
    return Lifted(tuple(current), tried, refilled, time.perf_counter() - started)


def _at_top(problem: FillProblem, fill: tuple[int, ...], scores: np.ndarray,
            exempt: frozenset[int]) -> bool:
    """Whether every counted entry of ``fill`` has its slot's top score (seen before the model
    is built, which costs a tenth of a second on a 15x15 with a large list)."""
    return all(scores[word] >= problem.scores[s].max()
               for s, word in enumerate(fill) if s not in exempt)


class _Rows:
    """The model's table rows: where a slot's word sits, and the bitsets of a table's rows
    scored above (or at least at) a level."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.masks: dict[tuple[int, int, bool], np.ndarray] = {}

    def _table(self, slot: int) -> tuple[int, int, int]:
        m = self.model
        t = int(m.slot_table[slot])
        return t, int(m.row_off[t]), int(m.row_off[t + 1])

    def row_of(self, slot: int, word: int) -> int:
        _, lo, hi = self._table(slot)
        return int(np.searchsorted(self.model.row_word[lo:hi], word))

    def above(self, slot: int, level: int, strictly: bool) -> np.ndarray:
        """The bitset of the slot's table rows scored above ``level`` (or at it, if not
        ``strictly``)."""
        t, lo, hi = self._table(slot)
        key = (t, level, strictly)
        if key not in self.masks:
            scores = np.rint(100 * self.model.row_score[lo:hi])
            keep = scores > level if strictly else scores >= level
            words = int(self.model.tab_words[t])
            padded = np.zeros(words * 64, dtype=bool)
            padded[:len(keep)] = keep
            self.masks[key] = np.packbits(padded, bitorder="little").view("<u8").astype(
                np.uint64)
        return self.masks[key]

    def opened(self, start: Start, current: list[int], scores: np.ndarray,
               exempt: frozenset[int], level: int, slot: int, region: set[int]) -> Start:
        """The start with ``region`` open under the lift's rule and every other slot held to
        its word (the kernel's first propagation takes the letters out of the cells: the cells'
        masks stay as they are, since a slot's rows must agree with them)."""
        m = self.model
        ct = start.ct.copy()
        for s in range(len(m.slot_table)):
            lo, hi = int(m.ct_off[s]), int(m.ct_off[s + 1])
            if s in exempt:
                continue
            if s in region:
                own = int(scores[current[s]])
                if s == slot or own > level:
                    ct[lo:hi] &= self.above(s, level, True)
                else:  # below the entry being lifted: no lower than it is now
                    ct[lo:hi] &= self.above(s, own, False)
                continue
            row = self.row_of(s, current[s])
            ct[lo:hi] = 0
            ct[lo + (row >> 6)] = np.uint64(1) << np.uint64(row & 63)
        return Start(start.dom, ct)
