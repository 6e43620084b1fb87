"""Race back-ends, each in its own child process (``xwsat.guard``): the first definitive
answer wins and the others are killed.

A back-end gets the time left when it starts, less the moment it needs to report; the race ends
at the time limit, when the memory of the run's processes passes the limit, on Ctrl-C, or when
no back-end decided. It always returns an Outcome, never hangs.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from xwsat import guard
from xwsat.backends.registry import make_backend
from xwsat.outcome import Limits, Outcome, Status, Stop, stopped
from xwsat.problem import FillProblem
from xwsat.step_clock import StepClock, in_step_winner

if TYPE_CHECKING:
    from xwsat.compiled_search.share import Exchange

MEMORY_EVERY = 10  # polls between readings of the run's memory


def _solve(spec: str, problem: FillProblem, limits: Limits,
           exchange: Exchange | None = None, me: int = 0,
           clock: StepClock | None = None) -> Outcome:
    """In the child: the back-end's answer, its progress lines sent to the parent; a back-end
    that shares nogoods gets its end of the race's exchange, and in a race kept in step its end
    of the step clock."""
    backend = make_backend(spec)
    if exchange is not None and backend.traits.shares_nogoods:
        backend.exchange = exchange.endpoint(me)
    if clock is not None:
        backend.step_clock = clock.endpoint(me)
    return backend.solve(problem, limits, guard.report)


def steps_counted(specs: list[tuple[str, float]]) -> bool:
    """Whether a race of ``specs`` can be kept in step: every racer publishes its decisions
    and starts at once."""
    return all(delay == 0 and make_backend(spec).traits.counts_steps for spec, delay in specs)


def _outcome(spec: str, finished: guard.Finished) -> Outcome:
    if finished.ok:
        return finished.value
    stop = finished.stop or Stop.FAILED
    if stop is Stop.FAILED:
        return stopped(spec, stop, f"back-end failed: {finished.message}")
    return stopped(spec, stop, f"solver process: {finished.message}")


FIRST_LOOK_S = 0.25  # the letter search's first look, in this process, before any racer


def first_look(specs: list[tuple[str, float]], problem: FillProblem, limits: Limits,
               label: str | None = None) -> Outcome | None:
    """The compiled letter search (``mac``), when it or ``mac:renew`` (whose first epoch it is)
    is one of the racers, run here for at most ``FIRST_LOOK_S``: a small grid is then decided
    before any process is forked, which with its racers' start costs about as much as the whole
    search on a 5x5 (results/latency/). None when it did not decide, or when the time limit is
    too short to spare it; that racer then goes on with this search where it stopped
    (``mac.hand_over``), so the race loses nothing but the other racers' late start. An
    interrupted look returns UNKNOWN, as the race would."""
    if all(spec not in ("mac", "mac:renew") for spec, _ in specs):
        return None
    if limits.time_limit and limits.time_limit < 4 * FIRST_LOOK_S:
        return None
    from xwsat.backends.mac import MacBackend, compiled, hand_over

    if not compiled():  # the jitted fallback's first call costs seconds: leave it to a racer
        return None
    look = MacBackend()
    try:
        outcome = look.solve(problem, replace(limits, time_limit=FIRST_LOOK_S))
    except KeyboardInterrupt as exc:
        stop, message = guard.interruption(exc)
        return _undecided([], stop, message, label)
    if outcome.status.definitive:
        return outcome
    hand_over(problem, limits.seed, look.label, look.kept)
    return None


def run_portfolio(specs: list[tuple[str, float]], problem: FillProblem, limits: Limits,
                  on_tick: guard.Tick | None = None, share: bool = False,
                  label: str | None = None, in_step: bool = False) -> Outcome:
    """Race ``(back-end, start delay)`` pairs; a delayed back-end gets the time that is left.

    A staged portfolio lets a fast back-end answer easy grids alone and escalates to the others
    only when it has not. With ``share`` the racers that can trade nogoods do so
    (``xwsat.compiled_search.share``). With ``in_step`` (racers that ``steps_counted``) the
    winner is the racer that decided after the fewest decisions (``xwsat.step_clock``), not the
    first to finish; nogoods are then not shared (what a racer takes from another depends on
    when). Returns UNKNOWN at the time limit, on Ctrl-C or a memory breach, or when no back-end
    decided (ERROR when every one of them failed); ``label`` names such an undecided outcome
    (the caller's policy, e.g. ``auto``) instead of its first racer. A race in step that has a
    verdict when it is stopped returns it."""
    started = time.monotonic()
    # each back-end is told to stop guard.REPORT_S early, so it reports by itself within the limit;
    # one that ignores its clock is stopped at the limit
    deadline = started + limits.time_limit if limits.time_limit else None
    memory = limits.memory_mb * 1024 * 1024 if limits.memory_mb else None
    runs: list[guard.Child | None] = [None] * len(specs)
    finished: list[Outcome] = []
    reported: set[int] = set()
    polls = 0
    exchange = None
    clock = StepClock(len(specs)) if in_step and len(specs) > 1 else None
    verdicts: dict[int, Outcome] = {}  # a race in step: the racers that decided
    if share and len(specs) > 1 and clock is None:
        from xwsat.compiled_search.share import Exchange

        exchange = Exchange(len(specs))
    try:
        while True:
            now = time.monotonic()
            for number, (spec, delay) in enumerate(specs):
                if runs[number] is None and now - started >= delay:
                    budget = limits.time_limit - delay if limits.time_limit else None
                    left = guard.Budget.from_now(budget).with_margin(
                        guard.REPORT_S, floor=budget / 2) if budget else budget
                    if left is not None and left <= 0:
                        continue  # no time left for it: the deadline ends the race
                    runs[number] = guard.Child(
                        _solve, (spec, problem, replace(limits, time_limit=left), exchange,
                                 number, clock), spec)
            for number, run in enumerate(runs):
                done = run.poll() if run is not None else None
                if done is not None and number not in reported:
                    reported.add(number)
                    outcome = _outcome(specs[number][0], done)
                    finished.append(outcome)
                    if outcome.status.definitive:
                        if clock is None:
                            return outcome
                        verdicts[number] = outcome
            if clock is not None:
                winner = in_step_winner({r: o.stats.nodes for r, o in verdicts.items()},
                                        reported, len(specs), clock)
                if winner is not None:
                    return verdicts[winner]
            if len(finished) == len(specs):
                return _undecided(finished, None, "no back-end decided", label)
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return _first_in_step(verdicts) or _undecided(finished, Stop.TIME,
                                                              "time limit reached", label)
            polls += 1
            if memory and polls % MEMORY_EVERY == 0 and guard.tree_rss(os.getpid()) > memory:
                return _first_in_step(verdicts) or _undecided(
                    finished, Stop.MEMORY, f"memory limit of {limits.memory_mb} MiB reached",
                    label)
            if on_tick:
                busy = [f"{r.label} ({r.note})" if r.note else r.label
                        for r in runs if r is not None and r.finished is None]
                held = _first_in_step(verdicts)  # in step: a verdict waits for the others
                on_tick(now - started, "solving with " + ", ".join(busy) + (
                    f"; {held.method} decided after {held.stats.nodes:,} decisions, kept until "
                    "the others pass that count" if held is not None else ""))
            guard.wait_any([r for r in runs if r is not None], guard.POLL_S)
    except KeyboardInterrupt as exc:
        stop, message = guard.interruption(exc)
        return _first_in_step(verdicts) or _undecided(finished, stop, message, label)
    finally:
        live = [run for run in runs if run is not None]
        for run in live:
            run.kill()  # all first, so that their teardowns overlap
        for run in live:
            run.stop()
        mac = sys.modules.get("xwsat.backends.mac")
        if mac is not None:  # a first look's search, handed over to this race's racers only
            mac.hand_over(problem, limits.seed, "", None)


def _first_in_step(verdicts: dict[int, Outcome]) -> Outcome | None:
    """Of a race in step stopped before its winner was known, the verdict after the fewest
    decisions so far (a racer still running might have decided after fewer)."""
    if not verdicts:
        return None
    return verdicts[min(verdicts, key=lambda r: (verdicts[r].stats.nodes, r))]


def _undecided(finished: list[Outcome], stop: Stop | None, why: str,
               label: str | None = None) -> Outcome:
    """UNKNOWN (or the first ERROR, if every back-end failed) with what each one said."""
    notes = "; ".join(f"{o.method}: {o.label} {o.message}".strip() for o in finished)
    errors = [o for o in finished if o.status is Status.ERROR]
    if stop is None and errors and len(errors) == len(finished):
        return replace(errors[0], message=notes)
    if stop is None:  # every back-end ended without a verdict: keep the first one's reason
        stop = next((o.stop for o in finished if o.stop is not None), Stop.EXHAUSTED)
    base = finished[0] if finished else Outcome(Status.UNKNOWN, label or "portfolio")
    if label:  # no racer decided: the verdict is the caller's policy's, not the first racer's
        base = replace(base, method=label)
    return replace(base, status=Status.UNKNOWN, fill=None, stop=stop,
                   message=why + (f" ({notes})" if notes else ""))
