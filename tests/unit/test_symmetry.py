"""Symmetries of a fill problem, and the compiled search that copies what it learns through one."""

from __future__ import annotations

import random

import numpy as np
import pytest

from xwsat.grid import parse_grid
from xwsat.outcome import Limits, Status
from xwsat.problem import FillProblem, build_problem
from xwsat.propagate import propagate
from xwsat.symmetry import find_symmetry
from xwsat.words import build_wordlist, load_words


@pytest.fixture(scope="module")
def english():
    return load_words("en")


def problem_of(rows: list[str], words: list[str], repeats: bool = False) -> FillProblem:
    wordlist = build_wordlist({w: (50, None) for w in words}, source="sample")
    return build_problem(parse_grid("\n".join(rows)), wordlist, allow_repeats=repeats).problem


def thinned(english, lengths: set[int], share: float, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [w for w in english.words if len(w) in lengths and rng.random() < share]


def transposed_cells(problem: FillProblem, width: int) -> np.ndarray:
    dense = {int(c): i for i, c in enumerate(problem.cell_ids)}
    return np.array([dense[(c % width) * width + c // width] for c in problem.cell_ids.tolist()])


def test_a_blank_square_is_its_own_transpose(english) -> None:
    problem = problem_of(["....."] * 5, thinned(english, {5}, 0.3, 1))
    found = find_symmetry(problem)
    assert found is not None
    assert found.first != found.image
    assert found.cells.tolist() == transposed_cells(problem, 5).tolist()


def test_a_pattern_symmetric_about_the_diagonal(english) -> None:
    rows = ["#....", ".....", ".....", ".....", "....#"]
    problem = problem_of(rows, thinned(english, {4, 5}, 0.3, 2))
    found = find_symmetry(problem)
    assert found is not None
    assert found.cells.tolist() == transposed_cells(problem, 5).tolist()


@pytest.mark.parametrize("rows", [
    ["##...", ".....", ".....", ".....", "...##"],  # turned by 180 degrees only
    ["....", "....", "...."],  # not square
])
def test_no_symmetry_that_reverses_words_or_changes_shape(english, rows: list[str]) -> None:
    problem = problem_of(rows, thinned(english, {2, 3, 4, 5}, 0.5, 3))
    assert find_symmetry(problem) is None


def test_given_letters_keep_or_break_the_symmetry(english) -> None:
    words = [w for w in english.words if len(w) == 4]
    assert find_symmetry(problem_of(["A...", "....", "....", "...."], words)) is not None
    assert find_symmetry(problem_of([".S..", "S...", "....", "...."], words)) is not None
    assert find_symmetry(problem_of([".S..", "....", "....", "...."], words)) is None


def test_pruning_one_side_only_breaks_it(english) -> None:
    problem = problem_of(["...."] * 4, thinned(english, {4}, 0.5, 4))
    assert find_symmetry(problem) is not None
    keep = [np.arange(len(c)) for c in problem.candidates]
    keep[0] = keep[0][1:]  # the first across slot loses a word its mirror keeps
    assert find_symmetry(problem.with_candidates(keep, problem.cell_masks)) is None


pytest.importorskip("numba")

from xwsat.backends.mac import MacBackend  # noqa: E402
from xwsat.backends.native import from_spec as native_backend  # noqa: E402
from xwsat.compiled_search import kernel  # noqa: E402
from xwsat.compiled_search import state as mstate  # noqa: E402
from xwsat.compiled_search.model import build_model  # noqa: E402


def search(problem: FillProblem, seed: int, mirror: bool, proof: bool = False) -> tuple[int, int]:
    """(verdict code, failures) of the compiled search, to the end."""
    model, start = build_model(problem, mirror=mirror)
    yvar = np.ones((problem.n_cells, problem.alphabet_size), np.int64) if proof else None
    st = mstate.new_state(model, start, seed, yvar=yvar)
    code = mstate.BUDGET
    while code == mstate.BUDGET:
        code = kernel.run(model, st, 1 << 20)
        st.sc[mstate.PROOF] = 0
    return code, int(st.sc[mstate.FAILS])


def diagonal_pattern(rng: random.Random, size: int) -> list[str]:
    rows = [["." for _ in range(size)] for _ in range(size)]
    for _ in range(rng.randrange(0, 3)):
        r, c = rng.randrange(size), rng.randrange(size)
        if 0 < r < size - 1 or 0 < c < size - 1:
            continue  # blocks on the rim only: every slot stays at least 3 long
        rows[r][c] = rows[c][r] = "#"
    return ["".join(r) for r in rows]


@pytest.mark.parametrize("seed", range(16))
def test_mirroring_keeps_every_verdict(english, seed: int) -> None:
    """Random diagonal-symmetric grids, some fillable, most not: the compiled search with and
    without the copies reaches the verdict of the Python search (``native:csp``, which knows
    nothing of symmetries)."""
    rng = random.Random(seed)
    size = 4 + seed % 2
    problem = problem_of(diagonal_pattern(rng, size),
                         thinned(english, {2, 3, 4, 5}, 0.05 + 0.05 * (seed % 3), seed),
                         repeats=seed % 4 == 3)
    reduced = propagate(problem)
    if reduced.wiped is not None:
        pytest.skip("refuted by arc consistency alone")
    plain = native_backend("csp").solve(reduced.problem, Limits(time_limit=60, seed=seed))
    assert plain.status.definitive
    for mirror in (False, True):
        code, _ = search(reduced.problem, seed, mirror)
        assert code == (mstate.SAT if plain.status is Status.FILLED else mstate.UNSAT)


def test_mirroring_saves_failures_on_a_refutation(english) -> None:
    """A blank 5x5 with a thinned list (no fill): fewer failures over four seeds when each
    nogood and root refutation is copied to the mirror cells."""
    problem = propagate(problem_of(["....."] * 5, thinned(english, {5}, 0.12, 3))).problem
    assert find_symmetry(problem) is not None
    plain = [search(problem, seed, mirror=False) for seed in range(4)]
    mirrored = [search(problem, seed, mirror=True) for seed in range(4)]
    assert all(code == mstate.UNSAT for code, _ in plain + mirrored)
    assert sum(f for _, f in mirrored) < 0.9 * sum(f for _, f in plain)


def test_a_search_logging_a_proof_never_mirrors(english) -> None:
    """Copies are consequences of the problem, not RUP steps: with proof logging on, the search
    on a symmetric model makes exactly the failures of the plain one."""
    problem = propagate(problem_of(["....."] * 5, thinned(english, {5}, 0.12, 3))).problem
    assert search(problem, 1, mirror=True, proof=True) == search(problem, 1, mirror=False,
                                                                 proof=True)


def test_the_verdict_says_the_symmetry_was_used(english) -> None:
    problem = propagate(problem_of(["....."] * 5, thinned(english, {5}, 0.12, 3))).problem
    outcome = MacBackend().solve(problem, Limits(time_limit=60, seed=0))
    assert outcome.status is Status.UNFILLABLE
    assert outcome.evidence is not None and "symmetry" in outcome.evidence.detail
    assert outcome.stats.extra["mirrored"] is True
