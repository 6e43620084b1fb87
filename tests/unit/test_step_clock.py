"""A race kept in step (``xwsat.step_clock``): the winner is the racer that decided after the
fewest decisions, whatever the order in which the racers finished on the clock."""

from __future__ import annotations

import pytest
from oracle import valid_fill as valid
from test_compiled_search import CASES, random_problem

from xwsat.backends.mac import MacBackend
from xwsat.outcome import Limits, Status
from xwsat.portfolio import run_portfolio, steps_counted
from xwsat.step_clock import StepClock, in_step_winner
from xwsat.words import load_words

pytest.importorskip("numba")


@pytest.fixture(scope="module")
def english():
    return load_words("en")


def test_a_racer_still_running_holds_the_verdict_until_it_passes_the_count() -> None:
    clock = StepClock(2)
    clock.endpoint(0).tick(900)
    assert in_step_winner({1: 1000}, {1}, 2, clock) is None  # racer 0 might decide at 950
    clock.endpoint(0).tick(1000)  # at 1000, racer 0 could still end at 1000: it would win
    assert in_step_winner({1: 1000}, {1}, 2, clock) is None
    clock.endpoint(0).tick(1001)
    assert in_step_winner({1: 1000}, {1}, 2, clock) == 1


def test_the_first_racer_wins_a_tie_and_an_ended_racer_holds_nothing() -> None:
    clock = StepClock(3)
    clock.endpoint(1).tick(500)
    assert in_step_winner({0: 500}, {0, 2}, 3, clock) == 0  # racer 1, later in order, tied
    clock.endpoint(1).tick(400)
    assert in_step_winner({0: 500, 2: 400}, {0, 2}, 3, clock) is None  # racer 1 would win a tie
    clock.endpoint(1).tick(401)
    assert in_step_winner({0: 500, 2: 400}, {0, 2}, 3, clock) == 2
    assert in_step_winner({}, {0, 1, 2}, 3, clock) is None


def test_only_races_of_the_compiled_searches_started_at_once_are_kept_in_step() -> None:
    assert steps_counted([("mac:words", 0.0), ("mac:renew", 0.0)])
    assert not steps_counted([("native", 0.0), ("mac", 0.0)])
    assert not steps_counted([("mac", 0.0), ("mac:words", 3.0)])


def test_the_race_in_step_names_the_racer_with_fewer_decisions(english) -> None:
    """Each sample problem raced by the word and letter searches in step: the verdict is that
    of the racer that needs fewer decisions alone (the word search on a tie: it is first), and
    a fill is that racer's own fill."""
    specs = [("mac:words", 0.0), ("mac", 0.0)]
    decided = 0
    for seed, size, fraction in CASES[:10]:
        problem = random_problem(english, seed, size, fraction, repeats=False)
        limits = Limits(time_limit=60, seed=seed)
        alone = [MacBackend(words=True).solve(problem, limits), MacBackend().solve(problem, limits)]
        first = min(range(2), key=lambda r: (alone[r].stats.nodes, r))
        raced = run_portfolio(specs, problem, limits, in_step=True)
        assert raced.status is alone[first].status, seed
        assert raced.method == alone[first].method and raced.stats.nodes == alone[first].stats.nodes
        assert raced.fill == alone[first].fill
        if raced.status is Status.FILLED:
            assert raced.fill is not None and valid(problem, raced.fill)
        decided += alone[0].stats.nodes != alone[1].stats.nodes
    assert decided >= 3  # the samples do tell the racers apart
