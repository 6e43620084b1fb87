"""The trail checker gives dratify's verdict on sound and broken proofs, reads strictly."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

import dratify  # noqa: E402

from xwsat.errors import XwsatError  # noqa: E402
from xwsat.evidence import rup_check, rup_kernel  # noqa: E402
from xwsat.evidence.drat_check import checker_engine  # noqa: E402


def _trail(clauses: list[list[int]], lemmas: list[tuple[str, list[int]]]) -> bool:
    n_vars = max([abs(x) for c in clauses for x in c] + [abs(x) for _, c in lemmas for x in c])
    formula = np.array([x for c in clauses for x in (*c, 0)], np.int64)
    proof = np.array([x for _, c in lemmas for x in (*c, 0)], np.int64)
    kinds = np.array([kind == "d" for kind, _ in lemmas], np.int8)
    return rup_kernel.check(n_vars, formula, proof, kinds)[0] == 1


def _dratify(clauses: list[list[int]], lemmas: list[tuple[str, list[int]]]) -> bool:
    """dratify on the same steps, deletions left out (the trail checker does not apply them;
    either way every clause used is implied by the formula)."""
    checker_engine("dratify")  # registers dratify's native engine when it is installed
    text = f"p cnf 0 {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    steps = "".join(" ".join(map(str, c)) + " 0\n" for kind, c in lemmas if kind == "a")
    result = dratify.check_proof(dratify.parse_dimacs(text), dratify.parse_proof(steps),
                                 check_rat=False, engine="auto")
    return bool(result.ok) and bool(result.reached_empty)


def _propagates_to_conflict(clauses: list[list[int]], assumed: list[int]) -> dict | None:
    value = dict.fromkeys(assumed, True)
    if any(value.get(-a) for a in assumed):
        return None
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(value.get(x) for x in clause):
                continue
            open_ = [x for x in clause if not value.get(-x)]
            if not open_:
                return None
            if len(open_) == 1:
                value[open_[0]] = True
                changed = True
    return value


def _search_proof(n: int, clauses: list[list[int]], rng: random.Random) -> list[list[int]] | None:
    """The lemmas of a tree search: at each refuted node, the negation of its decisions (as the
    compiled search writes them); None when the formula has a model."""
    lemmas: list[list[int]] = []

    def refute(decisions: list[int]) -> bool:
        while True:
            value = _propagates_to_conflict(clauses + lemmas, decisions)
            if value is None:
                lemmas.append([-d for d in decisions])
                return True
            free = [v for v in range(1, n + 1) if v not in value and -v not in value]
            if not free:
                return False
            if not refute([*decisions, rng.choice(free) * rng.choice((1, -1))]):
                return False

    return lemmas if refute([]) else None


def _mutants(lemmas: list[list[int]], rng: random.Random, count: int) -> list[list[list[int]]]:
    out = [lemmas]
    for _ in range(count):
        cut = [list(c) for c in lemmas]
        i = rng.randrange(len(cut))
        roll = rng.random()
        if roll < 0.4 and len(cut) > 1:
            cut.pop(i)
        elif roll < 0.7 and cut[i]:
            j = rng.randrange(len(cut[i]))
            cut[i][j] = -cut[i][j]
        elif cut[i]:
            cut[i].pop(rng.randrange(len(cut[i])))
        out.append(cut)
    return out


def test_search_proofs_and_their_mutants_get_dratifys_verdict() -> None:
    rng = random.Random(7)
    verdicts = {True: 0, False: 0}
    for _ in range(120):
        n = rng.randint(6, 14)
        clauses = [[v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1),
                                                                rng.choice((2, 3, 3, 4)))]
                   for _ in range(int(n * rng.uniform(4.0, 6.0)))]
        lemmas = _search_proof(n, clauses, rng)
        if lemmas is None:
            continue
        for variant in _mutants(lemmas, rng, 4):
            steps = [("a", c) for c in variant]
            ours = _trail(clauses, steps)
            assert ours == _dratify(clauses, steps), (clauses, variant)
            verdicts[ours] += 1
    assert verdicts[True] >= 50 and verdicts[False] >= 50, verdicts  # both kinds were tried


def test_cdcl_proofs_with_deletions_get_dratifys_verdict() -> None:
    from pysat.solvers import Solver

    rng = random.Random(11)
    tried = 0
    for _ in range(80):
        n = rng.randint(10, 30)
        clauses = [[v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), 3)]
                   for _ in range(int(n * rng.uniform(4.2, 5.5)))]
        with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
            if solver.solve():
                continue
            lines = solver.get_proof()
        steps = [("d", [int(x) for x in line.split()[1:-1]]) if line.startswith("d") else
                 ("a", [int(x) for x in line.split()[:-1]]) for line in lines]
        adds = [c for kind, c in steps if kind == "a"]
        for variant in _mutants(adds, rng, 2):
            mixed = [("a", c) for c in variant] + [s for s in steps if s[0] == "d"][:3]
            assert _trail(clauses, mixed) == _dratify(clauses, mixed), (clauses, mixed)
            tried += 1
    assert tried >= 60


def test_a_formula_refuted_by_propagation_alone_needs_no_empty_clause() -> None:
    assert _trail([[1], [-1, 2], [-2]], [])
    assert not _trail([[1, 2], [-1, 2], [1, -2]], [("a", [2])])  # no empty clause derived


@pytest.mark.parametrize(("text", "line"), [
    ("p cnf 2 1\n1 x 0\n", 2),
    ("p cnf 2 1\n1 -0\n", 2),
    ("p cnf 2 1\n1 2\n", 3),
    ("p cnf 2 1\n1 d 2 0\n", 2),
    ("p dnf 2 1\n1 2 0\n", 1),
    ("1 2 0\np cnf 2 1\n", 2),
    ("p cnf 1073741824 1\n1073741824 0\n", 2),  # its literal codes would overflow int32
])
def test_a_malformed_file_is_refused_with_its_line(tmp_path, text: str, line: int) -> None:
    formula, proof = tmp_path / "f.cnf", tmp_path / "p.drat"
    formula.write_text(text)
    proof.write_text("0\n")
    with pytest.raises(XwsatError, match=f"line {line} is not DIMACS"):
        rup_check.check_files(str(formula), str(proof))


@pytest.mark.parametrize(("text", "message"), [
    ("1 2 0\n", "no 'p cnf' header"),
    ("p cnf 2 2\n1 2 0\n", "announces 2 clauses"),
    ("p cnf 2 1\n1 3 0\n", "beyond the header's 2 variables"),
    ("p cnf 2 1\nd 1 2 0\n", "cannot delete"),
    ("p cnf 2 1\n1 2 0\n|p cnf 2 1\n0\n", "a proof has no 'p cnf' header"),
])
def test_a_formula_must_match_its_header(tmp_path, text: str, message: str) -> None:
    formula, proof = tmp_path / "f.cnf", tmp_path / "p.drat"
    text, _, proof_text = text.partition("|")
    formula.write_text(text)
    proof.write_text(proof_text or "0\n")
    with pytest.raises(XwsatError, match=message):
        rup_check.check_files(str(formula), str(proof))


def test_comments_blank_lines_and_gzip_are_read(tmp_path) -> None:
    import gzip

    formula, proof = tmp_path / "f.cnf.gz", tmp_path / "p.drat"
    formula.write_bytes(gzip.compress(b"c a comment\np cnf 2 4\r\n1 2 0\n-1 2 0\n\n"
                                      b"1 -2 0 -1 -2 0\n"))
    proof.write_text("c lemma\n2 0\nd  1 2 0\n0\n")
    result = rup_check.check_files(str(formula), str(proof))
    assert result["verified"] and result["reached_empty"] and result["steps"] == 3, result


def test_the_kernel_refuses_literals_beyond_its_variables_before_any_step() -> None:
    # its arrays are indexed by literal without bounds checks: the wrapper sizes them from
    # both files, and the kernel itself refuses anything else
    formula = np.array([1, 2, 0, -1, 0, -2, 0], np.int64)
    assert rup_kernel.check(2, formula, np.array([0], np.int64), np.zeros(1, np.int8))[0] == 1
    beyond = rup_kernel.check(2, formula, np.array([3, 0, 0], np.int64), np.zeros(2, np.int8))
    assert beyond[:3] == (-1, 0, 0)
    open_end = rup_kernel.check(2, formula[:-1], np.array([0], np.int64), np.zeros(1, np.int8))
    assert open_end[:3] == (-1, 0, 0)


def test_compiling_the_checker_in_process_does_not_move_later_commands_clocks(
        monkeypatch) -> None:
    # found by CI: the first in-process `check-proof` compiled the checker and set the module's
    # start time, so every later command in the same process began "out of time"
    from xwsat.commands import common

    said: list[str] = []
    monkeypatch.setattr(rup_check, "compiled", lambda: False)
    monkeypatch.setattr(rup_check, "warm_up", lambda: None)
    monkeypatch.setattr(common, "STARTED", None)
    common.compile_first([], checker="trail")
    assert common.STARTED is None
    monkeypatch.setattr(common, "STARTED", 5.0)  # the `xwsat` process: counts from here
    common.compile_first([], checker="trail")
    assert common.STARTED > 5.0
    assert common.compile_checker_first("dratify", said.append) is False and not said


def test_a_malformed_proof_in_a_certificate_folder_is_one_line_and_exit_4(tmp_path) -> None:
    import json
    from hashlib import sha256

    from typer.testing import CliRunner

    from xwsat.cli import app

    (tmp_path / "g.txt").write_text("..\n.C\n")
    (tmp_path / "w.txt").write_text("AB\nAC\nBD\nCD\n")
    folder = tmp_path / "cert"
    made = CliRunner().invoke(app, ["prove", str(tmp_path / "g.txt"), "--dict",
                                    str(tmp_path / "w.txt"), "--certificate", str(folder),
                                    "--proof-method", "mac"])  # a proof, not the count
    assert made.exit_code == 1, made.output
    (folder / "proof.drat").write_text("1 2 x 0\n0\n")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"]["proof.drat"]["sha256"] = sha256(b"1 2 x 0\n0\n").hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))
    result = CliRunner().invoke(app, ["check-proof", str(folder)])
    assert result.exit_code == 4
    assert result.stdout.splitlines()[-1] == ("NOT VERIFIED: the check failed: proof.drat: "
                                              "line 1 is not DIMACS"), result.output
