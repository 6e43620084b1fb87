"""Where a grid is hard (``xwsat plan --probe``): the slots touching a square window of the grid,
decided alone by the compiled letter search for a few seconds.

Dropping every other slot relaxes the grid, so a window whose slots have no fill proves the
grid has none. A window left undecided while the others fill at once is the region the search
is stuck in, and the one a constructor should rework. On the hard 21x21 benchmark grids that
region is one corner of stacked long entries; on 15x15 grids it is usually the whole grid
(docs/hard-grids.md).

The scan: windows of about 60 % of the grid's shorter side, a third of a window apart. Each hard
window is then narrowed: the four windows two cells smaller in its corners are probed, and the
hard ones narrowed again. The smallest hard windows found are the answer. With a deadline, the
time left after the scan goes to those windows, shared equally, each going on with the search
the scan began: on classic 21-10 (unfillable) one 11x11 corner is refuted alone in 20-23 s at
every seed tried, where the whole grid takes the same search 17 s, 43 s or more than 120 s
depending on the seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from xwsat import guard
from xwsat.evidence.slot_core import restricted
from xwsat.outcome import Stop
from xwsat.problem import FillProblem

if TYPE_CHECKING:
    from xwsat.compiled_search.model import Model
    from xwsat.compiled_search.state import State

FIRST_SHARE = 0.6  # the first windows' side, as a share of the grid's shorter side
SMALLEST = 4  # windows are not narrowed below this side


@dataclass(frozen=True)
class Window:
    """One probed window: its top-left cell, side, the slots touching it, and what the search
    made of them within its seconds (``filled``, ``unfillable`` or ``undecided``)."""

    top: int
    left: int
    size: int
    slots: tuple[int, ...]
    verdict: str
    failures: int
    seconds: float

    @property
    def hard(self) -> bool:
        return self.verdict != "filled"

    def contains(self, other: Window) -> bool:
        return (self.top <= other.top and self.left <= other.left
                and other.top + other.size <= self.top + self.size
                and other.left + other.size <= self.left + self.size)


@dataclass(frozen=True)
class Probe:
    """Every window probed, in order, and whether the scan ran out of time before it ended."""

    windows: tuple[Window, ...]
    per_window: float
    seed: int
    cut_short: bool = False
    interrupted: bool = False  # stopped by Ctrl-C (else, when cut short: a time or memory limit)

    @property
    def unfillable(self) -> Window | None:
        """A window with no fill (which proves the grid has none), if one was found."""
        return next((w for w in self.windows if w.verdict == "unfillable"), None)

    def hardest(self) -> list[Window]:
        """The hard windows with no smaller hard window inside them (by each window's last
        verdict: a window probed again for longer may have been decided then)."""
        last = {(w.top, w.left, w.size): w for w in self.windows}
        hard = [w for w in last.values() if w.hard]
        return [w for w in hard if not any(o is not w and w.contains(o) for o in hard)]

    def as_dict(self, names: tuple[str, ...]) -> dict[str, Any]:
        return {
            "seconds_per_window": self.per_window,
            "seed": self.seed,
            "cut_short": self.cut_short,
            "windows": [{**_span(w), "slots": [names[s] for s in w.slots], "verdict": w.verdict,
                         "failures": w.failures, "seconds": round(w.seconds, 3)}
                        for w in self.windows],
            "hardest": [_span(w) for w in self.hardest()],
            "unfillable": self.unfillable is not None,
        }

    def as_text(self, names: tuple[str, ...]) -> str:
        lines = [f"Probe: the slots touching each window, decided alone by the compiled letter "
                 f"search ({self.per_window:g} s each, seed {self.seed})",
                 f"  {'window':<26} {'slots':>5}  {'verdict':<10} {'failures':>10} {'seconds':>8}"]
        lines += [f"  {_where(w):<26} {len(w.slots):>5}  {w.verdict:<10} {w.failures:>10,} "
                  f"{w.seconds:>8.2f}" for w in self.windows]
        dead, hardest = self.unfillable, self.hardest()
        if dead is not None:
            lines.append(f"No fill: the {len(dead.slots)} slots touching {_where(dead)} have none "
                         f"on their own (the search was exhaustive), so the grid has none: "
                         f"{' '.join(names[s] for s in dead.slots)}")
        elif hardest:
            for w in hardest:
                lines.append(f"Hard: {_where(w)}, {len(w.slots)} slots not decided alone in "
                             f"{w.seconds:.1f} s: {' '.join(names[s] for s in w.slots)}")
        elif self.windows:
            slowest = max(w.seconds for w in self.windows if w.verdict == "filled")
            lines.append(f"No window is hard on its own: each filled alone, the slowest in "
                         f"{slowest:.1f} s (any difficulty spans the grid)")
        if self.interrupted:
            lines.append(f"(interrupted after {len(self.windows)} windows)")
        elif self.cut_short:
            lines.append(f"(cut short by the time limit after {len(self.windows)} windows)")
        return "\n".join(lines)


def _span(w: Window) -> dict[str, list[int]]:
    """The window's rows and columns, counted from 1, first and last."""
    return {"rows": [w.top + 1, w.top + w.size], "columns": [w.left + 1, w.left + w.size]}


def _where(w: Window) -> str:
    return f"rows {w.top + 1}-{w.top + w.size}, columns {w.left + 1}-{w.left + w.size}"


def starts(extent: int, size: int, stride: int) -> list[int]:
    """Where windows start along one side: every ``stride`` cells, the last flush with the edge."""
    last = extent - size
    found = list(range(0, last + 1, stride))
    if found[-1] != last:
        found.append(last)
    return found


def window_slots(problem: FillProblem, width: int, top: int, left: int, size: int
                 ) -> tuple[int, ...]:
    """The slots with a cell in the ``size`` x ``size`` window whose top-left cell is given."""
    rows = range(top, top + size)
    cols = range(left, left + size)
    found = []
    for s, cells in enumerate(problem.slot_cells):
        ids = problem.cell_ids[cells]
        if any(int(c) // width in rows and int(c) % width in cols for c in ids):
            found.append(s)
    return tuple(found)


@dataclass(frozen=True)
class Attempt:
    """What a search of one window's slots came to; ``more(seconds)`` goes on with the same
    search (its learned weights and nogoods kept), or is None when there is nothing to go on."""

    verdict: str
    failures: int
    more: Callable[[float], Attempt] | None = None


def decide(problem: FillProblem, seconds: float, seed: int) -> Attempt:
    """The compiled letter search on ``problem`` for at most ``seconds``."""
    from xwsat.compiled_search import inprocess

    model, st = inprocess.start(problem, seed)
    return _go_on(model, st, seconds)


def _go_on(model: Model, st: State, seconds: float) -> Attempt:
    from xwsat.compiled_search import inprocess
    from xwsat.compiled_search import state as mstate

    code = inprocess.advance(model, st, time.monotonic() + seconds)
    verdict = {mstate.SAT: "filled", mstate.UNSAT: "unfillable"}.get(code, "undecided")
    more = (lambda extra: _go_on(model, st, extra)) if verdict == "undecided" else None
    return Attempt(verdict, int(st.sc[mstate.FAILS]), more)


def probe(problem: FillProblem, height: int, width: int, per_window: float, seed: int = 0,
          deadline: float | None = None) -> Probe:
    """Scan the grid's windows, then narrow each hard one (module docstring). Stops early, with
    what it has, at ``deadline`` (``time.monotonic``), at Ctrl-C or at the first window with
    no fill."""
    done: list[Window] = []
    try:
        return _scan(problem, height, width, per_window, seed, deadline, done)
    except KeyboardInterrupt as exc:  # Ctrl-C, or the command's limit: report the windows
        stop, _ = guard.interruption(exc)
        return Probe(tuple(done), per_window, seed, cut_short=True,
                     interrupted=stop is Stop.INTERRUPTED)


def _scan(problem: FillProblem, height: int, width: int, per_window: float, seed: int,
          deadline: float | None, done: list[Window]) -> Probe:
    """``probe``'s loop; appends each window to ``done`` as it is decided."""
    side = min(height, width)
    size = max(min(SMALLEST, side), round(FIRST_SHARE * side))
    stride = max(1, size // 3)
    queue = [(t, c, size) for t in starts(height, size, stride)
             for c in starts(width, size, stride)]
    seen: set[tuple[int, int, int]] = set()
    pending: dict[tuple[int, int, int], Attempt] = {}  # undecided windows' searches, to resume
    while queue:
        top, left, n = queue.pop(0)
        if (top, left, n) in seen:
            continue
        seen.add((top, left, n))
        left_s = None if deadline is None else deadline - time.monotonic()
        if left_s is not None and left_s <= 0:
            return Probe(tuple(done), per_window, seed, cut_short=True)
        slots = window_slots(problem, width, top, left, n)
        if not slots:
            continue
        began = time.monotonic()
        budget = per_window if left_s is None else min(per_window, left_s)
        attempt = decide(restricted(problem, slots), budget, seed)
        if attempt.verdict == "undecided" and budget < per_window:  # the deadline's doing
            return Probe(tuple(done), per_window, seed, cut_short=True)
        window = Window(top, left, n, slots, attempt.verdict, attempt.failures,
                        time.monotonic() - began)
        done.append(window)
        if attempt.more is not None:
            pending[(top, left, n)] = attempt
        if attempt.verdict == "unfillable":
            break
        if window.hard and n - 2 >= SMALLEST:
            queue += [(top + dt, left + dl, n - 2) for dt in (0, 2) for dl in (0, 2)]
    if deadline is not None and not any(w.verdict == "unfillable" for w in done):
        _deepen(problem, seed, per_window, deadline, done, pending)
    return Probe(tuple(done), per_window, seed)


def _deepen(problem: FillProblem, seed: int, per_window: float, deadline: float,
            done: list[Window], pending: dict[tuple[int, int, int], Attempt]) -> None:
    """Go on with the smallest hard windows' searches, one after another, each for an equal
    share of the time left: a refuted one proves the grid unfillable; when one fills, the
    window around it may become one of the smallest hard ones, and gets its turn. A window's
    time and failures are counted from its first search."""
    deepened: set[tuple[int, int, int]] = set()
    while True:
        targets = [w for w in Probe(tuple(done), per_window, seed).hardest()
                   if (w.top, w.left, w.size) not in deepened]
        if not targets:
            return
        share = (deadline - time.monotonic()) / len(targets)
        if share <= per_window:  # no more than the scan gave it: nothing new to learn
            return
        window = targets[0]
        key = (window.top, window.left, window.size)
        deepened.add(key)
        began = time.monotonic()
        earlier = pending.pop(key, None)
        if earlier is not None and earlier.more is not None:
            attempt, spent = earlier.more(share), window.seconds
        else:
            attempt, spent = decide(restricted(problem, window.slots), share, seed), 0.0
        done.append(replace(window, verdict=attempt.verdict, failures=attempt.failures,
                            seconds=spent + time.monotonic() - began))
        if attempt.verdict == "unfillable":
            return
