"""One contract for every back-end: verdicts equal a brute-force answer, fills pass check_fill.

The brute force below reads the grid itself (no xwsat slot extraction) and tries every word in
every slot, so it shares no code with the encodings or back-ends it judges.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from xwsat.backends.base import Status
from xwsat.backends.registry import make_backend
from xwsat.encode.cnf import encode_cnf
from xwsat.grid import parse_grid
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.problem import build_problem, fill_letters
from xwsat.propagate import propagate
from xwsat.verify import check_fill
from xwsat.words import build_wordlist

SPECS = [
    "cpsat", "cpsat:plan", "sat", "sat:glucose4", "sat:maplecm", "sat:plan", "sat:glucose4:plan",
    "native", "native:letters", "native:fragments", "native:static", "mac",
]

Cell = tuple[int, int]


def runs(rows: tuple[str, ...], min_length: int = 2) -> list[list[Cell]]:
    """Every maximal run of non-block cells, across then down, as (row, col) lists."""
    height, width = len(rows), len(rows[0])
    lines = [[(r, c) for c in range(width)] for r in range(height)]
    lines += [[(r, c) for r in range(height)] for c in range(width)]
    found = []
    for line in lines:
        current: list[Cell] = []
        for r, c in line:
            if rows[r][c] != "#":
                current.append((r, c))
                continue
            if len(current) >= min_length:
                found.append(current)
            current = []
        if len(current) >= min_length:
            found.append(current)
    return found


def brute_fills(text: str, words: list[str], allow_repeats: bool) -> set[tuple[str, ...]]:
    """Every filled grid (as rows) by trying each word of the right length in each run."""
    rows = tuple(text.split())
    slots = runs(rows)
    given = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in ".#"}
    fills: set[tuple[str, ...]] = set()

    def place(i: int, letters: dict[Cell, str], used: list[str]) -> None:
        if i == len(slots):
            fills.add(tuple(
                "".join(letters.get((r, c), ch) for c, ch in enumerate(row))
                for r, row in enumerate(rows)
            ))
            return
        for word in words:
            if len(word) != len(slots[i]) or (not allow_repeats and word in used):
                continue
            if any(letters.get(cell, ch) != ch for cell, ch in zip(slots[i], word)):
                continue
            new = {cell: ch for cell, ch in zip(slots[i], word) if cell not in letters}
            letters.update(new)
            used.append(word)
            place(i + 1, letters, used)
            used.pop()
            for cell in new:
                del letters[cell]

    place(0, dict(given), [])
    return fills


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


def require(spec: str) -> None:
    """Skip a back-end that is not installed or not written yet."""
    try:
        make_backend(spec)
    except Exception as exc:  # ImportError for a missing module, XwsatError for a missing library
        pytest.skip(f"back-end {spec} unavailable: {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize(("text", "words", "allow_repeats"),
                         [pytest.param(*i[1:], id=i[0]) for i in INSTANCES])
def test_verdict_matches_brute_force(spec: str, text: str, words: list[str],
                                     allow_repeats: bool) -> None:
    require(spec)
    grid = parse_grid(text)
    wordlist = build_wordlist({w: (50, None) for w in words})
    expected = brute_fills(text, words, allow_repeats)
    result = fill_grid(grid, wordlist, FillOptions(backend=spec, time_limit=20,
                                                   allow_repeats=allow_repeats))
    status = result.outcome.status
    assert result.outcome.backend != "propagate"  # the back-end itself answered
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
