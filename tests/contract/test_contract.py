"""One contract for every back-end the registry knows: verdicts equal a brute-force answer
(``oracle.brute_fills``, which shares no code with what it judges), fills pass check_fill.

The list of back-ends comes from the registry, so a new back-end is tested without editing
this file; one that is not installed is skipped.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from oracle import brute_fills

from xwsat.backends.registry import backend_specs, experimental_specs, make_backend
from xwsat.encode.cnf import encode_cnf
from xwsat.errors import XwsatError
from xwsat.grid import parse_grid
from xwsat.outcome import Status, Stop
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.problem import build_problem, fill_letters
from xwsat.propagate import propagate
from xwsat.verify import check_fill
from xwsat.words import build_wordlist

SPECS = backend_specs()


# (id, grid, words, allow_repeats): answers come from brute_fills, not from this table.
INSTANCES = [
    ("fillable-2x2", "..\n..", ["AB", "AC", "BD", "CD", "XY"], False),
    # Columns force row 2 to be row 1 with A/B swapped; no row word's swap is a row word.
    # Arc consistency prunes nothing here, so only search can refute it.
    ("unfillable-arc-consistent", "...\n...", ["AAB", "ABA", "BAA", "AB", "BA"], True),
    # The only fills use column word AB (or BA) twice.
    ("only-fill-repeats-forbidden", "...\n...", ["AAB", "BBA", "AB", "BA"], False),
    ("only-fill-repeats-allowed", "...\n...", ["AAB", "BBA", "AB", "BA"], True),
    ("given-letters-ring", "C..\n.#.\n...",
     ["CAT", "CAD", "TEN", "TAN", "DEN", "NET", "TOT", "ANT", "DOT"], False),
    ("given-letters-unfillable", "..\n.Z", ["AB", "BA", "AZ", "BZ", "ZZZ"], False),
    ("open-3x3", "...\n...\n...",
     ["ABC", "BCA", "CAB", "ACB", "BAC", "CBA", "AAA", "BBB"], False),
]


def require(spec: str):
    """The back-end, or a skip when its solver is not installed."""
    try:
        return make_backend(spec)
    except XwsatError as exc:
        pytest.skip(f"back-end {spec} unavailable: {exc}")


def test_the_registry_lists_every_back_end_and_variant() -> None:
    assert {"mac", "cpsat", "sat", "native", "ace", "native:prove", "mac:words",
            "mac:renew"} <= set(SPECS)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize(("text", "words", "allow_repeats"),
                         [pytest.param(*i[1:], id=i[0]) for i in INSTANCES])
def test_verdict_matches_brute_force(spec: str, text: str, words: list[str],
                                     allow_repeats: bool) -> None:
    check_against_brute_force(spec, text, words, allow_repeats)


@pytest.mark.parametrize("spec", experimental_specs())
@pytest.mark.parametrize(("text", "words", "allow_repeats"),
                         [pytest.param(*i[1:], id=i[0]) for i in INSTANCES[:2]])
def test_experimental_variant_still_matches_brute_force(spec: str, text: str, words: list[str],
                                                         allow_repeats: bool) -> None:
    """Research variants are not the product, but a wrong verdict from one is still a bug."""
    check_against_brute_force(spec, text, words, allow_repeats)


def test_experimental_variants_are_runnable_but_not_listed() -> None:
    assert experimental_specs()
    assert not set(experimental_specs()) & set(SPECS)
    for spec in experimental_specs():
        make_backend(spec)


def check_against_brute_force(spec: str, text: str, words: list[str],
                              allow_repeats: bool) -> None:
    backend = require(spec)
    grid = parse_grid(text)
    wordlist = build_wordlist({w: (50, None) for w in words})
    expected = brute_fills(text, words, allow_repeats)
    result = fill_grid(grid, wordlist, FillOptions(backend=spec, time_limit=20,
                                                   allow_repeats=allow_repeats))
    status = result.outcome.status
    assert result.outcome.method != "propagate"  # the back-end itself answered
    if not backend.traits.complete and status is Status.UNKNOWN:  # incomplete: no verdict
        assert result.outcome.stop is Stop.EXHAUSTED or not expected, result.outcome.message
        return
    assert status in (Status.FILLED, Status.UNFILLABLE), result.outcome.message
    assert (status is Status.FILLED) == bool(expected)
    if status is Status.FILLED:
        assert result.filled is not None and result.verified
        assert check_fill(grid.rows, result.filled.rows, set(words), allow_repeats) == []
        assert result.filled.rows in expected
        chosen = tuple(wordlist.words[w] for w in result.outcome.fill)
        assert len(chosen) == len(result.built.slots)


def test_instances_need_search_and_cover_both_verdicts() -> None:
    """Guard on the table above: propagation alone decides none, and both answers occur."""
    verdicts = set()
    for _, text, words, allow_repeats in INSTANCES:
        built = build_problem(parse_grid(text), build_wordlist({w: (50, None) for w in words}),
                              allow_repeats=allow_repeats)
        propagated = propagate(built.problem)
        fills = brute_fills(text, words, allow_repeats)
        verdicts.add(bool(fills))
        assert propagated.wiped is None, text
        assert any(len(c) > 1 for c in propagated.problem.candidates), text
    assert verdicts == {True, False}


def cnf_fills(text: str, words: list[str], allow_repeats: bool,
              propagated: bool) -> list[tuple[str, ...]]:
    """Every fill the CNF encoding admits, enumerated with blocking clauses over word variables."""
    from pysat.solvers import Solver

    grid = parse_grid(text)
    built = build_problem(grid, build_wordlist({w: (50, None) for w in words}),
                          allow_repeats=allow_repeats)
    problem = built.problem
    if propagated:
        result = propagate(problem)
        if result.wiped is not None:
            return []
        problem = result.problem
    cnf = encode_cnf(problem)
    found = []
    with Solver(name="cadical153", bootstrap_with=cnf.clauses()) as solver:
        while solver.solve():
            model = np.array(solver.get_model(), dtype=np.int64)
            choice = cnf.decode(problem, model)
            assert all(k >= 0 for k in choice)
            # exactly one word variable per slot is true
            for s, cands in enumerate(problem.candidates):
                xs = cnf.x_vars(s, len(cands))
                assert int((model[xs - 1] > 0).sum()) == 1
            fill = tuple(int(problem.candidates[s][k]) for s, k in enumerate(choice))
            found.append(grid.with_letters(fill_letters(built, fill)).rows)
            solver.add_clause([-int(cnf.x_vars(s, len(problem.candidates[s]))[k])
                               for s, k in enumerate(choice)])
            assert len(found) < 10_000
    return found


AB3 = ["".join(p) for p in itertools.product("AB", repeat=3) if "".join(p) != "BBB"]
COUNTING = [
    ("2x3", "...\n...", ["AAB", "ABA", "BAA", "BBA", "AB", "BA", "AA", "BB"]),
    ("3x3", "...\n...\n...", AB3),
    ("3x3-given", "A..\n...\n..B", AB3 + ["ABB", "BAB"]),
]


@pytest.mark.parametrize("propagated", [False, True], ids=["raw", "propagated"])
@pytest.mark.parametrize("allow_repeats", [True, False], ids=["repeats", "distinct"])
@pytest.mark.parametrize(("text", "words"), [pytest.param(*c[1:], id=c[0]) for c in COUNTING])
def test_cnf_model_count_equals_brute_force(text: str, words: list[str], allow_repeats: bool,
                                            propagated: bool) -> None:
    words = sorted(set(words))
    expected = brute_fills(text, words, allow_repeats)
    found = cnf_fills(text, words, allow_repeats, propagated)
    assert len(found) == len(set(found))  # blocking never lets a fill come back
    assert set(found) == expected
    assert len(found) == len(expected)


def test_counting_instances_are_not_trivial() -> None:
    counts = {(c[0], rep): len(brute_fills(c[1], sorted(set(c[2])), rep))
              for c in COUNTING for rep in (True, False)}
    assert all(n > 0 for (name, rep), n in counts.items() if rep), counts
    assert any(counts[(c[0], True)] > counts[(c[0], False)] > 0 for c in COUNTING), counts
