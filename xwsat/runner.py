"""Run back-ends in child processes with hard wall-clock and memory limits, alone or racing.

pysat's CaDiCaL ignores interrupts, so a limit is enforced by killing the child; the parent never
hangs and always returns an Outcome. The memory limit is on the child's resident memory, read from
/proc while it runs (an address-space rlimit would also count the threads' reserved stacks).
Ctrl-C in the parent stops every child and returns UNKNOWN.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from multiprocessing.connection import Connection

from xwsat.backends.base import Limits, Outcome, Status
from xwsat.backends.registry import make_backend
from xwsat.planner import Plan
from xwsat.problem import FillProblem

_PAGE = os.sysconf("SC_PAGE_SIZE")
GRACE_S = 2.0  # time past the limit a back-end gets to report before it is killed
Tick = Callable[[float, str], None]
PROGRESS = "progress"  # tag of a progress message from a child (the outcome is untagged)


def _child(spec: str, problem: FillProblem, plan: Plan, limits: Limits, conn: Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        backend = make_backend(spec)
        if hasattr(backend, "progress"):  # native: a line of progress about once a second
            backend.progress = lambda text: conn.send((PROGRESS, text))
        outcome = backend.solve(problem, plan, limits)
    except MemoryError:
        outcome = Outcome(Status.UNKNOWN, spec, message="memory limit reached")
    except Exception as exc:  # a back-end bug must reach the parent as a status, not a hang
        detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        outcome = Outcome(Status.ERROR, spec, message=f"back-end failed: {detail}")
    conn.send(outcome)
    conn.close()


class _Run:
    def __init__(self, spec: str, problem: FillProblem, plan: Plan, limits: Limits) -> None:
        ctx = mp.get_context("fork")
        self.spec = spec
        self.receiver, sender = ctx.Pipe(duplex=False)
        self.process = ctx.Process(
            target=_child, args=(spec, problem, plan, limits, sender), daemon=True
        )
        self.process.start()
        sender.close()
        self.memory_bytes = limits.memory_mb * 1024 * 1024 if limits.memory_mb else None
        self.outcome: Outcome | None = None
        self.note = ""  # the child's latest progress line

    def resident_bytes(self) -> int:
        """The child's resident set size, 0 if it cannot be read (not Linux, or gone)."""
        try:
            with open(f"/proc/{self.process.pid}/statm", encoding="ascii") as statm:
                return int(statm.read().split()[1]) * _PAGE
        except (OSError, ValueError, IndexError):
            return 0

    def poll(self) -> Outcome | None:
        over = self.memory_bytes and self.resident_bytes() > self.memory_bytes
        if self.outcome is None and over and self.process.is_alive():
            self.process.kill()
            self.outcome = Outcome(Status.UNKNOWN, self.spec,
                                   message=f"memory limit of {self.memory_bytes >> 20} MiB reached")
        if self.outcome is None:
            if self.receiver.poll():
                try:
                    message = self.receiver.recv()
                    while isinstance(message, tuple) and message[0] == PROGRESS:
                        self.note = message[1]
                        if not self.receiver.poll():
                            return None
                        message = self.receiver.recv()
                    self.outcome = message
                except EOFError:
                    self.outcome = self._crashed()
            elif not self.process.is_alive() and not self.receiver.poll():
                self.outcome = self._crashed()
        return self.outcome

    def _crashed(self) -> Outcome:
        code = self.process.exitcode
        reason = "killed (likely out of memory)" if code == -signal.SIGKILL else f"exit {code}"
        return Outcome(Status.ERROR, self.spec, message=f"solver process died: {reason}")

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.receiver.close()


def run_portfolio(
    specs: list[str],
    problem: FillProblem,
    plan: Plan,
    limits: Limits,
    on_tick: Tick | None = None,
    starts: list[float] | None = None,
) -> Outcome:
    """Run the back-ends side by side; the first definitive answer wins and the rest are stopped.

    ``starts`` delays back-ends (seconds after the first start; default all at once): a staged
    portfolio lets a fast back-end answer easy grids alone and escalates to the others only when
    it has not. A delayed back-end gets the time that is left. Returns UNKNOWN at the time limit,
    on Ctrl-C, or when no back-end decided.
    """
    started = time.monotonic()
    deadline = started + limits.time_limit + GRACE_S if limits.time_limit else None
    delays = list(starts) if starts is not None else [0.0] * len(specs)
    if len(delays) != len(specs):
        raise ValueError("one start delay per back-end")
    runs: list[_Run | None] = [None] * len(specs)
    finished: list[Outcome] = []
    reported: set[int] = set()
    try:
        while True:
            now = time.monotonic()
            for number, spec in enumerate(specs):
                if runs[number] is None and now - started >= delays[number]:
                    left = limits.time_limit - delays[number] if limits.time_limit else None
                    if left is not None and left <= 0:
                        continue  # no time left for it: the deadline ends the race
                    runs[number] = _Run(spec, problem, plan, replace(limits, time_limit=left))
            for number, run in enumerate(runs):
                outcome = run.poll() if run is not None else None
                if outcome is not None and number not in reported:
                    reported.add(number)
                    finished.append(outcome)
                    if outcome.status.definitive:
                        return outcome
            if len(finished) == len(runs):
                return _undecided(finished, "no back-end decided")
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return _undecided(finished, f"time limit of {limits.time_limit:g} s reached")
            if on_tick:
                busy = [f"{r.spec} ({r.note})" if r.note else r.spec
                        for r in runs if r is not None and r.outcome is None]
                on_tick(now - started, ", ".join(busy))
            time.sleep(0.05)
    except KeyboardInterrupt:
        return _undecided(finished, "interrupted")
    finally:
        for run in runs:
            if run is not None:
                run.stop()


def _undecided(finished: list[Outcome], why: str) -> Outcome:
    """UNKNOWN (or the first ERROR, if every back-end failed) with what each one said."""
    notes = "; ".join(f"{o.backend}: {o.status.value} {o.message}".strip() for o in finished)
    errors = [o for o in finished if o.status is Status.ERROR]
    if errors and len(errors) == len(finished) and why == "no back-end decided":
        return replace(errors[0], message=notes)
    base = finished[0] if finished else Outcome(Status.UNKNOWN, "portfolio")
    return replace(base, status=Status.UNKNOWN, fill=None,
                   message=why + (f" ({notes})" if notes else ""))
