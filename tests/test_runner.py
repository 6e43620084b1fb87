"""The isolating runner: limits enforced by killing, failures reported as statuses, never hangs.

Fake back-ends are registered with monkeypatch; forked children inherit the patched registry.
"""

from __future__ import annotations

import os
import time
from typing import ClassVar

import pytest

from xwsat.backends import registry
from xwsat.backends.base import Limits, Outcome, Status
from xwsat.grid import parse_grid
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.planner import default_plan
from xwsat.problem import FillProblem, build_problem
from xwsat.runner import GRACE_S, run_portfolio
from xwsat.words import build_wordlist

WORDS = ["AB", "AC", "BD", "CD", "XY"]


class Fake:
    """A back-end whose solve() does whatever ``action`` says."""

    name: ClassVar[str] = "fake"

    def __init__(self, action: str) -> None:
        self.action = action

    @staticmethod
    def available() -> bool:
        return True

    def solve(self, problem: FillProblem, plan, limits: Limits) -> Outcome:
        if self.action == "sleep":
            time.sleep(120)
        if self.action == "raise":
            raise RuntimeError("boom in the back-end")
        if self.action == "exit":
            os._exit(7)
        if self.action == "memory":
            hog = bytearray(4 << 30)  # 4 GiB, far over the limit
            return Outcome(Status.FILLED, "fake", message=str(len(hog)))
        return Outcome(Status.UNKNOWN, "fake", message="gave up")


@pytest.fixture
def fakes(monkeypatch: pytest.MonkeyPatch) -> None:
    for action in ("sleep", "raise", "exit", "memory", "giveup"):
        monkeypatch.setitem(registry.FACTORIES, action,
                            lambda sub, action=action: Fake(action))


@pytest.fixture
def problem() -> FillProblem:
    built = build_problem(parse_grid("..\n.."), build_wordlist({w: (50, None) for w in WORDS}))
    return built.problem


def run(specs: list[str], problem: FillProblem, **limits: object) -> tuple[Outcome, float]:
    start = time.monotonic()
    outcome = run_portfolio(specs, problem, default_plan(problem), Limits(**limits))
    return outcome, time.monotonic() - start


def test_backend_over_time_limit_is_unknown_and_parent_returns_promptly(fakes, problem) -> None:
    outcome, elapsed = run(["sleep"], problem, time_limit=1.0)
    assert outcome.status is Status.UNKNOWN
    assert "time limit" in outcome.message
    assert elapsed < 1.0 + GRACE_S + 2.0


def test_fill_grid_reports_timeout_as_unknown_not_unfillable(fakes) -> None:
    grid = parse_grid("..\n..")
    words = build_wordlist({w: (50, None) for w in WORDS})
    start = time.monotonic()
    result = fill_grid(grid, words, FillOptions(backend="sleep", time_limit=1.0))
    assert time.monotonic() - start < 1.0 + GRACE_S + 2.0
    assert result.outcome.status is Status.UNKNOWN
    assert result.filled is None and not result.verified


def test_backend_that_raises_gives_error(fakes, problem) -> None:
    outcome, elapsed = run(["raise"], problem, time_limit=20.0)
    assert outcome.status is Status.ERROR
    assert "boom in the back-end" in outcome.message
    assert elapsed < 5.0


def test_backend_that_dies_gives_error(fakes, problem) -> None:
    outcome, elapsed = run(["exit"], problem, time_limit=20.0)
    assert outcome.status is Status.ERROR
    assert "died" in outcome.message
    assert elapsed < 5.0


def test_backend_that_gives_up_is_unknown_without_waiting(fakes, problem) -> None:
    outcome, elapsed = run(["giveup"], problem, time_limit=20.0)
    assert outcome.status is Status.UNKNOWN
    assert "gave up" in outcome.message
    assert elapsed < 5.0


def test_memory_limit_gives_unknown(fakes, problem) -> None:
    with open("/proc/self/status") as status:
        vm_kib = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
    outcome, _ = run(["memory"], problem, time_limit=20.0, memory_mb=vm_kib // 1024 + 512)
    assert outcome.status is Status.UNKNOWN
    assert "memory" in outcome.message


def test_portfolio_takes_the_first_verdict_and_stops_the_rest(fakes, problem) -> None:
    outcome, elapsed = run(["sleep", "raise", "sat"], problem, time_limit=30.0)
    assert outcome.status is Status.FILLED
    assert outcome.backend.startswith("sat")
    assert elapsed < 10.0


def test_portfolio_where_every_backend_fails_gives_error(fakes, problem) -> None:
    outcome, _ = run(["raise", "exit"], problem, time_limit=20.0)
    assert outcome.status is Status.ERROR
    assert "boom" in outcome.message and "died" in outcome.message


def test_portfolio_with_an_error_and_a_giveup_is_unknown(fakes, problem) -> None:
    outcome, _ = run(["raise", "giveup"], problem, time_limit=20.0)
    assert outcome.status is Status.UNKNOWN


def test_unknown_spec_in_child_is_an_error_not_a_hang(problem) -> None:
    outcome, elapsed = run(["nonexistent"], problem, time_limit=20.0)
    assert outcome.status is Status.ERROR
    assert elapsed < 5.0


def test_delayed_backend_starts_late_and_still_answers(fakes, problem) -> None:
    """A staged portfolio: the first back-end gives up, the delayed one starts and decides."""
    start = time.monotonic()
    outcome = run_portfolio(["giveup", "native"], problem, default_plan(problem),
                            Limits(time_limit=20), starts=[0.0, 0.5])
    assert outcome.status is Status.FILLED and outcome.backend.startswith("native")
    assert time.monotonic() - start >= 0.5


def test_delayed_backend_is_never_started_once_decided(fakes, problem) -> None:
    start = time.monotonic()
    outcome = run_portfolio(["native", "sleep"], problem, default_plan(problem),
                            Limits(time_limit=20), starts=[0.0, 10.0])
    assert outcome.status is Status.FILLED and time.monotonic() - start < 10


def test_start_delays_must_match_backends(problem) -> None:
    with pytest.raises(ValueError):
        run_portfolio(["native"], problem, default_plan(problem), Limits(), starts=[0.0, 1.0])
