"""CNF and CP-SAT encodings: model counts equal brute-force fill counts; back-ends agree."""

from __future__ import annotations

import numpy as np
import pytest
from oracle import count_fills

from xwsat.backends.cpsat import CpsatBackend
from xwsat.backends.sat import SatBackend
from xwsat.encode.cnf import encode_cnf, write_dimacs
from xwsat.grid import parse_grid
from xwsat.outcome import Limits, Status
from xwsat.planner import default_plan
from xwsat.problem import FillProblem, build_problem
from xwsat.words import load_words

pysat = pytest.importorskip("pysat.solvers")

SQUARE = "...\n...\n...\n"
CORNER = "..#\n...\n#..\n"
WORDS3 = ["CAT", "ARE", "TEN", "ACT", "TEA", "ERA", "EAT", "ATE", "NET", "TAN", "ANT", "RAT", "TAR"]
WORDS2 = ["AT", "TA", "NE", "EN", "AN", "NA", "TE", "ET"]


def make(tmp_path, grid: str, words: list[str], allow_repeats: bool = False) -> FillProblem:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(words) + "\n")
    built = build_problem(parse_grid(grid), load_words(str(path)), allow_repeats=allow_repeats)
    return built.problem


def count_models(problem: FillProblem, repeats: bool = True) -> int:
    """Models of the CNF, enumerated with blocking clauses over the word variables."""
    cnf = encode_cnf(problem, repeats=repeats)
    words = list(range(1, cnf.n_word_vars + 1))
    count = 0
    with pysat.Solver(name="cadical195", bootstrap_with=cnf.clauses()) as solver:
        while solver.solve():
            model = solver.get_model()
            chosen = [lit for lit in model[: len(words)] if lit > 0]
            assert len(chosen) == problem.n_slots  # exactly one word per slot
            solver.add_clause([-lit for lit in chosen])
            count += 1
    return count


def check_fill(problem: FillProblem, fill: tuple[int, ...]) -> None:
    choice = []
    for s, word in enumerate(fill):
        hits = np.flatnonzero(problem.candidates[s] == word)
        assert len(hits) == 1
        choice.append(int(hits[0]))
    for a, pa, b, pb in problem.crossings():
        assert problem.letters[a][choice[a]][pa] == problem.letters[b][choice[b]][pb]
    if not problem.allow_repeats:
        assert len(set(fill)) == len(fill)


@pytest.mark.parametrize("grid,words", [(SQUARE, WORDS3), (CORNER, WORDS3 + WORDS2)])
@pytest.mark.parametrize("allow_repeats", [False, True])
def test_cnf_model_count_equals_brute_force(tmp_path, grid, words, allow_repeats):
    problem = make(tmp_path, grid, words, allow_repeats)
    assert count_models(problem) == count_fills(problem)


def test_cnf_without_repeat_clauses_counts_fills_with_repeats(tmp_path):
    problem = make(tmp_path, SQUARE, WORDS3)
    relaxed = make(tmp_path, SQUARE, WORDS3, allow_repeats=True)
    assert count_models(problem, repeats=False) == count_fills(relaxed)


def test_plan_order_numbering_keeps_the_model_count(tmp_path):
    problem = make(tmp_path, CORNER, WORDS3 + WORDS2)
    order = default_plan(problem).order
    cnf = encode_cnf(problem, order=order)
    assert cnf.x_base[order[0]] == 0
    with pysat.Solver(name="cadical195", bootstrap_with=cnf.clauses()) as solver:
        found = sum(1 for _ in solver.enum_models())
    assert found >= count_fills(problem)  # every fill extends to at least one model


def test_families_add_up_to_the_clause_count(tmp_path):
    cnf = encode_cnf(make(tmp_path, SQUARE, WORDS3))
    assert sum(n for _, n, _ in cnf.families) == cnf.n_clauses
    assert sum(k for _, _, k in cnf.families) == cnf.n_literals


def test_write_dimacs_output_parses(tmp_path):
    from pysat.formula import CNF as PysatCNF

    cnf = encode_cnf(make(tmp_path, SQUARE, WORDS3))
    path = tmp_path / "f.cnf"
    write_dimacs(cnf, str(path), comments=("tiny",))
    parsed = PysatCNF(from_file=str(path))
    assert parsed.nv == cnf.n_vars
    assert sorted(map(sorted, parsed.clauses)) == sorted(map(sorted, cnf.clauses()))


@pytest.mark.parametrize("grid,words", [
    (SQUARE, WORDS3), (SQUARE, WORDS3[:6]),
    (CORNER, WORDS3 + WORDS2), (CORNER, WORDS3[:5] + ["AT"]),
])
@pytest.mark.parametrize("lazy", [True, False])
def test_sat_and_cpsat_agree_and_fills_are_valid(tmp_path, grid, words, lazy):
    pytest.importorskip("ortools")
    problem = make(tmp_path, grid, words)
    expected = Status.FILLED if count_fills(problem) else Status.UNFILLABLE
    sat = SatBackend(lazy_repeats=lazy).solve(problem, Limits(time_limit=10))
    cp = CpsatBackend(use_plan=lazy).solve(problem, Limits(time_limit=10))
    assert sat.status == cp.status == expected
    for outcome in (sat, cp):
        if outcome.status == Status.FILLED:
            check_fill(problem, outcome.fill)
    if cp.status == Status.UNFILLABLE:
        assert "not an independent certificate" in cp.evidence.detail


def test_lazy_repeats_block_a_symmetric_square(tmp_path):
    # CAT/ARE/TEN across and down is the only square: it repeats every word, so no fill.
    problem = make(tmp_path, SQUARE, ["CAT", "ARE", "TEN"])
    outcome = SatBackend().solve(problem, Limits())
    assert outcome.status == Status.UNFILLABLE
    assert outcome.stats.extra["rounds"] > 1


def test_lazy_repeats_leave_allowed_repeats_alone(tmp_path):
    problem = make(tmp_path, SQUARE, ["CAT", "ARE", "TEN"], allow_repeats=True)
    outcome = SatBackend().solve(problem, Limits())
    assert outcome.status == Status.FILLED
    assert outcome.stats.extra["rounds"] == 1


def test_the_certificate_formula_text_is_stable() -> None:
    """A certificate made by an earlier xwsat must still re-check: ``check-proof`` rebuilds the
    formula and demands the same text, clause for clause (hash from the encoder of 6d84905;
    open5 with every tenth five-letter word has at-most-one groups of both kinds)."""
    import hashlib
    from pathlib import Path

    from xwsat.encode.cnf import dimacs_text
    from xwsat.evidence.certificate import certificate_cnf, certificate_problem

    root = Path(__file__).resolve().parents[2] / "grids" / "small"
    built = build_problem(parse_grid((root / "open5.txt").read_text()),
                          load_words(str(root / "words5_sub10.txt")))
    text = dimacs_text(certificate_cnf(certificate_problem(built, None)))
    assert hashlib.sha256(text).hexdigest() == (
        "3926dcf7cac5e70a6a5e2b4e94e9050480e1e06ebe253f4fcf15fb69fa5e0f50")
