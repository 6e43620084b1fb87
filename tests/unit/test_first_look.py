"""The letter search's first look in the parent process, and its hand-over to the forked racer."""

from __future__ import annotations

import random

import pytest

from xwsat import guard, portfolio
from xwsat.grid import parse_grid
from xwsat.outcome import Limits, Status, Stop
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.problem import build_problem
from xwsat.propagate import propagate
from xwsat.words import build_wordlist, load_words

pytest.importorskip("numba")

from xwsat.backends import mac as mac_backend  # noqa: E402
from xwsat.backends.mac import MacBackend  # noqa: E402


@pytest.fixture(scope="module")
def thinned():
    """A blank 5x5 and a thinned five-letter list (about 800 words): no fill, about a thousand
    failures."""
    rng = random.Random(3)
    words = [w for w in load_words("en").words if len(w) == 5 and rng.random() < 0.08]
    return parse_grid("\n".join(["....."] * 5)), build_wordlist({w: (50, None) for w in words})


class NoFork(Exception):
    pass


def no_fork(*args, **kwargs):
    raise NoFork


def test_a_small_grid_is_decided_without_forking(thinned, monkeypatch) -> None:
    monkeypatch.setattr(guard, "Child", no_fork)
    result = fill_grid(*thinned, FillOptions(backend="auto", time_limit=30))
    assert result.outcome.status is Status.UNFILLABLE and result.outcome.method == "mac"


def test_an_undecided_look_is_handed_over_and_goes_on(thinned, monkeypatch) -> None:
    """Cut after a few decisions, the look's search is continued by the forked ``mac`` racer:
    the same failures as one uninterrupted search with that seed, and no model built again."""
    grid, words = thinned
    problem = propagate(build_problem(grid, words).problem).problem
    whole = MacBackend().solve(problem, Limits(time_limit=30, seed=2))
    monkeypatch.setattr(portfolio, "FIRST_LOOK_S", 0.002)
    looked = []
    original = portfolio.first_look

    def spy(*args, **kwargs):
        out = original(*args, **kwargs)
        looked.append(out)
        return out

    monkeypatch.setattr("xwsat.pipeline.first_look", spy)
    result = fill_grid(grid, words, FillOptions(backend="mac", time_limit=30, seed=2))
    assert looked == [None]  # the look did not decide: the race did
    assert result.outcome.status is Status.UNFILLABLE
    assert result.outcome.stats.conflicts == whole.stats.conflicts
    assert result.outcome.stats.build_s < whole.stats.build_s


def test_the_renewing_racer_goes_on_with_the_look(thinned, monkeypatch) -> None:
    """``mac:renew``'s first epoch is the plain letter search under the run's seed, so it takes
    the look's search over: the same failures as ``mac`` uninterrupted, within one epoch."""
    grid, words = thinned
    problem = propagate(build_problem(grid, words).problem).problem
    whole = MacBackend().solve(problem, Limits(time_limit=30, seed=2))
    assert whole.stats.nodes < mac_backend.RESEED_UNIT  # decided within the first epoch
    monkeypatch.setattr(portfolio, "FIRST_LOOK_S", 0.002)
    result = fill_grid(grid, words, FillOptions(backend="mac:renew", time_limit=30, seed=2))
    assert result.outcome.status is Status.UNFILLABLE
    assert result.outcome.stats.conflicts == whole.stats.conflicts
    assert result.outcome.stats.build_s < whole.stats.build_s


def test_the_hand_over_is_taken_only_by_the_same_search(thinned) -> None:
    from xwsat.backends import mac

    grid, words = thinned
    problem = propagate(build_problem(grid, words).problem).problem
    look = MacBackend()
    look.solve(problem, Limits(time_limit=0.001, seed=0))
    for other_problem, seed, label in ((problem, 1, "mac"), (problem, 0, "mac:words"),
                                       (propagate(problem).problem, 0, "mac")):
        mac.hand_over(problem, 0, "mac", look.kept)
        assert mac._handed_over(other_problem, seed, label) is None
    mac.hand_over(problem, 0, "mac", look.kept)
    assert mac._handed_over(problem, 0, "mac") is not None
    assert mac._handed_over(problem, 0, "mac") is None  # taken once


def test_ctrl_c_during_the_look_ends_the_run_undecided(thinned, monkeypatch) -> None:
    def interrupted(self, problem, limits, progress=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(MacBackend, "solve", interrupted)
    monkeypatch.setattr(guard, "Child", no_fork)
    result = fill_grid(*thinned, FillOptions(backend="auto", time_limit=30))
    assert result.outcome.status is Status.UNKNOWN
    assert result.outcome.stop is Stop.INTERRUPTED and result.outcome.method == "auto"


@pytest.mark.parametrize(("backend", "limit"), [("native", 30.0), ("auto", 0.9)])
def test_no_look_without_the_letter_search_or_time_to_spare(thinned, monkeypatch, backend: str,
                                                            limit: float) -> None:
    def refuse(self, problem, limits, progress=None):
        raise AssertionError("the look ran")

    monkeypatch.setattr(MacBackend, "solve", refuse)
    grid, words = thinned
    problem = propagate(build_problem(grid, words).problem).problem
    specs = [(backend, 0.0)] if backend == "native" else [("mac:words", 0.0), ("mac", 0.0)]
    assert portfolio.first_look(specs, problem, Limits(time_limit=limit)) is None
