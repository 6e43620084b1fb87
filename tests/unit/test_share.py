"""Nogoods traded between racing compiled searches (``xwsat.compiled_search.share``): what one
search proved prunes the other without changing any verdict."""

from __future__ import annotations

import numpy as np
import pytest
from oracle import valid_fill as valid
from test_compiled_search import CASES, random_problem

from xwsat.backends.native import from_spec
from xwsat.backends.registry import resolve, shares_nogoods
from xwsat.outcome import Limits, Status
from xwsat.portfolio import run_portfolio
from xwsat.words import load_words

pytest.importorskip("numba")

from xwsat.compiled_search import aot, share  # noqa: E402
from xwsat.compiled_search import state as mstate  # noqa: E402
from xwsat.compiled_search.model import build_model  # noqa: E402


@pytest.fixture(scope="module")
def english():
    return load_words("en")


def _searched(problem, seed: int, words: bool, budget: int | None = None):
    """A state after the search ran to its end (or for ``budget`` decisions)."""
    model, start = build_model(problem)
    st = mstate.new_state(model, start, seed, words=words)
    run = aot.runner()
    code = mstate.BUDGET
    while code == mstate.BUDGET and (budget is None or st.sc[mstate.NODES] < budget):
        code = run(model, st, 50)
    return model, start, st, code


def _nogoods(st) -> list[tuple[tuple[int, int], ...]]:
    out = []
    for g in range(int(st.sc[mstate.NG])):
        lo, hi = int(st.ng_start[g]), int(st.ng_start[g + 1])
        out.append(tuple(zip(st.ng_var[lo:hi].tolist(), st.ng_val[lo:hi].tolist())))
    return out


def _hard_case(english):
    """The first sample problem whose letter search restarts (so it records nogoods)."""
    for seed, size, fraction in CASES:
        problem = random_problem(english, seed, size, fraction, repeats=False)
        _, _, st, _ = _searched(problem, seed, words=False)
        if st.sc[mstate.NG] >= 3:
            return problem, seed, st
    pytest.fail("no sample problem records nogoods")


def test_recorded_then_absorbed_gives_the_same_nogoods(english) -> None:
    problem, seed, st = _hard_case(english)
    flat = share.recorded(st, 0, 1000)
    assert share.count(flat) == st.sc[mstate.NG]
    _, _, fresh, _ = _searched(problem, seed, words=False, budget=0)
    assert share.absorb(fresh, flat) == st.sc[mstate.NG]
    assert _nogoods(fresh) == _nogoods(st)
    short = share.recorded(st, 0, 3)
    assert all(len(n) <= 3 for n in _nogoods_of(short))
    assert share.count(short) == sum(len(n) <= 3 for n in _nogoods(st))


def _nogoods_of(flat: np.ndarray) -> list[list[tuple[int, int]]]:
    out, i = [], 0
    while i < len(flat):
        n = int(flat[i])
        body = flat[i + 1:i + 1 + 2 * n].tolist()
        out.append(list(zip(body[::2], body[1::2])))
        i += 1 + 2 * n
    return out


def test_exchange_hands_each_racer_only_the_others_new_nogoods() -> None:
    exchange = share.Exchange(3, capacity=12)
    a, b, c = (exchange.endpoint(k) for k in range(3))
    assert a.publish(np.array([1, 4, 2], dtype=np.int32))
    assert b.publish(np.array([2, 0, 1, 3, 3], dtype=np.int32))
    assert a.collect().tolist() == [2, 0, 1, 3, 3]
    assert a.collect().tolist() == []  # nothing new
    assert sorted(c.collect().tolist()) == sorted([1, 4, 2, 2, 0, 1, 3, 3])
    assert b.collect().tolist() == [1, 4, 2]
    assert not a.publish(np.arange(10, dtype=np.int32))  # a full box stops sharing
    assert a.publish(np.array([1, 5, 5], dtype=np.int32))
    assert b.collect().tolist() == [1, 5, 5]


def test_another_searchs_nogoods_never_change_a_verdict(english) -> None:
    """Every sample problem: a letter search seeded with all the nogoods a word search learnt
    (and the other way round) reaches the verdict the native search proves."""
    for seed, size, fraction in CASES[:12]:
        problem = random_problem(english, seed, size, fraction, repeats=seed % 4 == 1)
        truth = from_spec("csp").solve(problem, Limits(time_limit=60, seed=seed)).status
        for giver, taker in ((True, False), (False, True)):
            _, _, learnt, _ = _searched(problem, seed, words=giver)
            model, _, st, _ = _searched(problem, seed + 1, words=taker, budget=0)
            share.absorb(st, share.recorded(learnt, 0, 1000))
            code = mstate.BUDGET
            while code == mstate.BUDGET:
                code = aot.runner()(model, st, 50)
            assert (code == mstate.SAT) == (truth is Status.FILLED), (seed, giver)
            assert st.sc[mstate.WATCHED] == st.sc[mstate.NG] or st.sc[mstate.RESTARTS] == 0


def test_racing_with_sharing_gives_verified_verdicts(english) -> None:
    assert shares_nogoods("auto:share") and not shares_nogoods("auto")
    assert not shares_nogoods("mac")
    specs = resolve("auto:share")
    for seed, size, fraction in CASES[:8]:
        problem = random_problem(english, seed, size, fraction, repeats=False)
        truth = from_spec("csp").solve(problem, Limits(time_limit=60, seed=seed)).status
        outcome = run_portfolio(specs, problem, Limits(time_limit=60, seed=seed), share=True)
        assert outcome.status == truth
        if outcome.status is Status.FILLED:
            assert outcome.fill is not None and valid(problem, outcome.fill)
