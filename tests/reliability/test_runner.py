"""The isolating runner: limits enforced by killing, failures reported as statuses, never hangs.

Fake back-ends are registered with monkeypatch; forked children inherit the patched registry.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from xwsat.grid import parse_grid
from xwsat.guard import GRACE_S
from xwsat.outcome import Limits, Outcome, Status
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.portfolio import run_portfolio
from xwsat.problem import FillProblem, build_problem
from xwsat.words import build_wordlist

WORDS = ["AB", "AC", "BD", "CD", "XY"]


@pytest.fixture
def fakes(fake_backend) -> None:
    """``fake:ACTION`` back-ends (tests/fake_backends.py)."""


@pytest.fixture
def problem() -> FillProblem:
    built = build_problem(parse_grid("..\n.."), build_wordlist({w: (50, None) for w in WORDS}))
    return built.problem


def run(specs: list[str], problem: FillProblem, **limits: object) -> tuple[Outcome, float]:
    start = time.monotonic()
    named = [(spec if ":" in spec or spec in ("native", "mac", "sat", "cpsat") else
              f"fake:{spec}", 0.0) for spec in specs]
    outcome = run_portfolio(named, problem, Limits(**limits))
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
    result = fill_grid(grid, words, FillOptions(backend="fake:sleep", time_limit=1.0))
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
    assert outcome.method.startswith("sat")
    assert elapsed < 10.0


def test_portfolio_where_every_backend_fails_gives_error(fakes, problem) -> None:
    outcome, _ = run(["raise", "exit"], problem, time_limit=20.0)
    assert outcome.status is Status.ERROR
    assert "boom" in outcome.message and "died" in outcome.message


def test_portfolio_with_an_error_and_a_giveup_is_unknown(fakes, problem) -> None:
    outcome, _ = run(["raise", "giveup"], problem, time_limit=20.0)
    assert outcome.status is Status.UNKNOWN


def test_unknown_spec_in_child_is_an_error_not_a_hang(problem) -> None:
    outcome, elapsed = run(["nonexistent:x"], problem, time_limit=20.0)
    assert outcome.status is Status.ERROR
    assert elapsed < 5.0


def test_delayed_backend_starts_late_and_still_answers(fakes, problem) -> None:
    """A staged portfolio: the first back-end gives up, the delayed one starts and decides."""
    start = time.monotonic()
    outcome = run_portfolio([("fake:giveup", 0.0), ("native", 0.5)], problem,
                            Limits(time_limit=20))
    assert outcome.status is Status.FILLED and outcome.method.startswith("native")
    assert time.monotonic() - start >= 0.5


def test_delayed_backend_is_never_started_once_decided(fakes, problem) -> None:
    start = time.monotonic()
    outcome = run_portfolio([("native", 0.0), ("fake:sleep", 10.0)], problem,
                            Limits(time_limit=20))
    assert outcome.status is Status.FILLED and time.monotonic() - start < 10


def test_a_killed_parent_leaves_no_child_behind(tmp_path) -> None:
    """SIGKILL the process that runs a portfolio: its solver child dies with it."""
    import signal
    import subprocess
    import sys

    script = tmp_path / "race.py"
    script.write_text(
        "import sys, time\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from xwsat.backends import registry\n"
        "registry._MODULES['fake'] = 'fake_backends'\n"
        "from xwsat.grid import parse_grid\n"
        "from xwsat.words import build_wordlist\n"
        "from xwsat.problem import build_problem\n"
        "from xwsat.outcome import Limits\n"
        "from xwsat.portfolio import run_portfolio\n"
        "p = build_problem(parse_grid('..\\n..'), build_wordlist({w: (50, None) for w in "
        "['AB', 'AC', 'BD', 'CD']})).problem\n"
        "run_portfolio([('fake:sleep', 0.0)], p, Limits(time_limit=100))\n")
    tests = str(Path(__file__).resolve().parents[1])
    proc = subprocess.Popen([sys.executable, str(script), tests])
    children: list[int] = []
    deadline = time.monotonic() + 30
    while not children and time.monotonic() < deadline:
        time.sleep(0.2)
        children = [int(p) for p in Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
                    .read_text().split()] if proc.poll() is None else []
    assert children, "the portfolio started no child"
    proc.send_signal(signal.SIGKILL)
    proc.wait()

    def alive(pid: int) -> bool:
        try:
            return Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0] != "Z"
        except OSError:
            return False

    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in children)
