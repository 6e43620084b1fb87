"""Lay out a free-form puzzle with the chosen method, within the limits, and verify it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from xwsat.errors import XwsatError
from xwsat.freeform.cpsat_layout import cpsat_layout
from xwsat.freeform.greedy import greedy_layout
from xwsat.freeform.layout import Entry, Layout
from xwsat.freeform.layout_check import check_layout
from xwsat.guard import LimitReached
from xwsat.outcome import Answered, Outcome, Stats, Status, Stop, stopped

METHODS = ("cpsat", "greedy", "source")  # source: the source article's greedy, as it is
MIN_CPSAT_S = 0.2  # below this many seconds left, CP-SAT cannot improve the greedy board
Progress = Callable[[str], None]


@dataclass
class FreeformResult(Answered):
    """The outcome (FILLED: a verified layout; ERROR: the layout failed its check), the layout,
    notes for the user, and the input words that cannot fit the board."""

    outcome: Outcome
    layout: Layout
    notes: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    skipped: list[str] = field(default_factory=list)

    @property
    def stats(self) -> dict[str, float | int | str]:
        return self.outcome.stats.extra

    @property
    def total(self) -> int:
        return len(self.layout.entries) + len(self.skipped)


def default_size(entries: list[Entry]) -> tuple[int, int]:
    """A square board a little larger than the longest word and than the letters need."""
    longest = max(len(e.word) for e in entries)
    letters = sum(len(e.word) for e in entries)
    side = max(longest + 2, int((letters * 2.2) ** 0.5) + 1)
    return side, side


@dataclass
class UnderWay:
    """A placement under way: what it was asked and the best board so far, so a command stopped
    midway (Ctrl-C, its time limit arriving during a later step) still prints, verifies and
    writes that board instead of losing it."""

    entries: list[Entry]
    fitting: list[Entry]
    width: int
    height: int
    method: str
    crop: bool
    started: float
    notes: list[str] = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    layout: Layout | None = None

    def finish(self, interrupted: bool = False) -> FreeformResult:
        """The best board, cropped if asked, verified by the independent check."""
        layout, width, height = self.layout, self.width, self.height
        if layout is None:
            layout = Layout(width, height, tuple(self.fitting), ())
        if self.crop and layout.placed:
            layout = layout.cropped()
            width, height = layout.width, layout.height
        problems = check_layout(width, height, [e.word for e in self.fitting],
                                [(p.entry, p.row, p.col, p.direction) for p in layout.placed])
        notes, stats = list(self.notes), self.stats
        if problems:
            notes.append("layout failed verification: " + "; ".join(problems[:3]))
            outcome = stopped(self.method, Stop.FAILED, notes[-1], Stats(extra=stats))
        elif not layout.placed:  # an empty board is valid, but it is no answer
            outcome = stopped(self.method, Stop.INTERRUPTED if interrupted else Stop.TIME,
                              "interrupted before any board was complete" if interrupted else
                              "no board was complete within the time limit", Stats(extra=stats))
        else:
            if interrupted:
                notes.append("interrupted (Ctrl-C): the best board found until then")
            outcome = Outcome(Status.FILLED, self.method, stats=Stats(extra=stats))
        return FreeformResult(outcome, layout, notes, time.monotonic() - self.started,
                              [e.word for e in self.entries if e not in self.fitting])


def freeform(entries: list[Entry], width: int, height: int, method: str = "cpsat",
             time_limit: float = 30.0, seed: int = 0, boards: int = 100,
             progress: Progress = lambda _: None,
             stop: threading.Event | None = None, crop: bool = False,
             under_way: list[UnderWay] | None = None) -> FreeformResult:
    """Place the entries on a ``width`` x ``height`` board; ``crop`` trims the rows and columns
    no word reaches (a board whose size the user did not choose). Verified either way.
    ``under_way`` receives the placement under way, for a caller stopped midway."""
    if method not in METHODS:
        raise XwsatError(f"--method must be one of {', '.join(METHODS)}")
    started = time.monotonic()
    fitting = [e for e in entries if len(e.word) <= max(width, height)]
    at = UnderWay(entries, fitting, width, height, method, crop, started)
    if under_way is not None:
        under_way.append(at)
    for e in entries:
        if e not in fitting:
            at.notes.append(f"{e.word} is longer than the board; skipped")
    if not fitting:
        raise XwsatError(f"no word fits a {width}x{height} board")
    deadline = started + time_limit
    greedy_deadline = deadline if method != "cpsat" else started + time_limit * 0.2
    at.layout, at.stats = greedy_layout(fitting, width, height, boards, seed, greedy_deadline,
                                        stop, progress, more=method != "source")
    left = deadline - time.monotonic()
    if method == "cpsat" and left < MIN_CPSAT_S:
        at.notes.append("no time left to improve the greedy board with CP-SAT")
    elif method == "cpsat" and not (stop and stop.is_set()):
        try:
            better, cp_stats = cpsat_layout(fitting, width, height, left, seed,
                                            at.layout, stop, progress)
        except KeyboardInterrupt as exc:  # while the model was being built: the greedy board
            better, cp_stats = None, {"status": "interrupted"}
            if stop is not None and not isinstance(exc, LimitReached):
                stop.set()  # Ctrl-C, said as such; the command's limit ends CP-SAT's turn
        at.stats = {"greedy_" + k: v for k, v in at.stats.items()} | cp_stats
        if better is not None and _key(better) >= _key(at.layout):
            at.layout = better
        elif cp_stats.get("status") == "no time to build the model":
            at.notes.append("the CP-SAT model of this board could not be built in the time "
                            "left; the greedy board stands (give more --time-limit)")
        elif not (stop and stop.is_set()):
            at.notes.append("CP-SAT found nothing better than the greedy start in time")
    return at.finish(stop is not None and stop.is_set())


def _key(layout: Layout) -> tuple[int, int, int]:
    w, h = layout.bounding_box()
    return len(layout.placed), layout.crossings(), -(w + h)
