"""CP-SAT's solve in a thread, so that Ctrl-C (and a caller's own stop or deadline) stop it at
once and keep what it found: OR-Tools releases the GIL while it solves, and only the main thread
sees signals. One helper for every place that runs CP-SAT in the main process (generate,
freeform, optimise)."""

from __future__ import annotations

import threading
import time
from contextlib import suppress
from typing import Any

from xwsat import guard
from xwsat.outcome import Stop


def solve_stoppable(solver: Any, model: Any, stop: threading.Event | None = None,
                    callback: Any = None, deadline: float | None = None,
                    why: list[Stop] | None = None) -> tuple[int | None, bool]:
    """CP-SAT's status (None when it gave no response), and whether Ctrl-C or a termination
    signal (a ``KeyboardInterrupt`` in the waiting main thread) stopped it. ``stop`` set, or
    ``deadline`` (monotonic) passed, stops it too; neither counts as an interruption. ``why``
    receives the kind of an interruption (the command's time or memory limit, or Ctrl-C).

    The main thread waits on an Event, not ``join()``: an interrupted join can report the
    thread finished while it still runs. The stop is repeated until the solve returns, since a
    stop sent before the search has started is lost."""
    result: list[int] = []
    done = threading.Event()

    def run() -> None:
        try:
            with suppress(RuntimeError):  # a stop that lands while the solve is being set up
                result.append(solver.solve(model, callback) if callback is not None
                              else solver.solve(model))
        finally:
            done.set()

    threading.Thread(target=run, daemon=True).start()
    interrupted = False
    while not done.is_set():
        try:
            done.wait(0.05)
        except KeyboardInterrupt as exc:  # (a Ctrl-C is then the command's: see guard)
            kind, _ = guard.interruption(exc)
            if why is not None:
                why.append(kind)
            interrupted = True
        if interrupted or (stop is not None and stop.is_set()) or (
                deadline is not None and time.monotonic() > deadline):
            solver.stop_search()
    return (result[0] if result else None), interrupted
