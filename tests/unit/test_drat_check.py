"""A proof checked in parts at once is accepted exactly when the whole proof holds; the trail
checker (one part) gives the same verdicts."""

from __future__ import annotations

import hashlib
import json

import pytest

from xwsat.evidence.certificate import certify
from xwsat.evidence.drat_check import check_files, check_in_parts, combined, parts_for
from xwsat.evidence.recheck import recheck
from xwsat.grid import parse_grid
from xwsat.problem import build_problem

# Every clause over three variables: unsatisfiable. The proof's third lemma (2) is a unit
# consequence only given its second (1): a part that did not take earlier lemmas would fail.
FORMULA = "p cnf 3 8\n" + "".join(
    f"{a} {b} {c} 0\n" for a in (1, -1) for b in (2, -2) for c in (3, -3))
PROOF = "1 2 0\n1 0\n2 0\n0\n"


def _write(tmp_path, formula: str, proof: str):
    cnf, drat = tmp_path / "f.cnf", tmp_path / "p.drat"
    cnf.write_text(formula)
    drat.write_text(proof)
    return cnf, drat


@pytest.mark.parametrize(("engine", "parts"), [("dratify", 1), ("dratify", 2), ("dratify", 3),
                                               ("dratify", 4), ("trail", 1)])
def test_a_sound_proof_is_verified_in_any_number_of_parts(tmp_path, engine, parts) -> None:
    cnf, drat = _write(tmp_path, FORMULA, PROOF)
    run = check_in_parts(cnf, drat, engine, parts, 30)
    assert run.ok and run.value["ok"] and run.value["reached_empty"], run.value
    assert run.value["parts"] == parts and run.value["steps"] >= 3


@pytest.mark.parametrize(("engine", "parts"), [("dratify", 1), ("dratify", 2), ("dratify", 4),
                                               ("trail", 1)])
def test_a_wrong_lemma_in_any_part_rejects_the_proof_with_its_step(tmp_path, engine,
                                                                   parts) -> None:
    # 4 and 5 must both be true (three of their four clauses): -5 is neither a unit
    # consequence nor RAT (resolved with -4 5, the clause -5 -4 propagates nothing).
    formula = FORMULA.replace("p cnf 3 8", "p cnf 5 11") + "4 5 0\n-4 5 0\n4 -5 0\n"
    cnf, drat = _write(tmp_path, formula, "1 2 0\n1 0\n-5 0\n0\n")
    run = check_in_parts(cnf, drat, engine, parts, 30)
    assert run.ok and not run.value["ok"], run.value
    assert run.value["reason"].startswith("step 3"), run.value


@pytest.mark.parametrize("engine", ["dratify", "trail"])
def test_a_proof_that_never_derives_the_empty_clause_is_not_accepted(tmp_path, engine) -> None:
    cnf, drat = _write(tmp_path, FORMULA, "1 2 0\n1 0\n2 0\n")
    run = check_in_parts(cnf, drat, engine, 2, 30)
    assert run.ok and not run.value["ok"] and "never derives" in run.value["reason"]


def test_each_part_checks_only_its_own_lemmas(tmp_path) -> None:
    cnf, drat = _write(tmp_path, FORMULA, PROOF)
    first = check_files(str(cnf), str(drat), "auto", 0, 2)
    second = check_files(str(cnf), str(drat), "auto", 1, 2)
    assert (first["first"], first["last"], second["first"], second["last"]) == (0, 2, 2, 4)
    assert first["verified"] and not first["reached_empty"]
    assert second["verified"] and second["reached_empty"]
    assert combined([first, second])["ok"]
    assert not combined([{**first, "verified": False, "failed_step": 2}, second])["ok"]


@pytest.mark.parametrize(("engine", "parts"), [("dratify", 1), ("dratify", 2), ("trail", 1)])
def test_a_rat_step_is_refused(tmp_path, engine, parts) -> None:
    # 4 is a fresh variable: "4" is RAT (no clause has -4), not a unit consequence.
    cnf, drat = _write(tmp_path, FORMULA.replace("p cnf 3 8", "p cnf 4 8"), "4 0\n" + PROOF)
    assert not check_in_parts(cnf, drat, engine, parts, 30).value["ok"]


@pytest.mark.parametrize("engine", ["auto", "dratify", "python"])
def test_rat_steps_and_a_deletion_do_not_refute_a_satisfiable_formula(tmp_path, engine) -> None:
    # dratify's RAT check keeps the root literal of a deleted clause: with RAT allowed, this
    # proof "refutes" any formula. Unit propagation only rejects it.
    cnf, drat = _write(tmp_path, "p cnf 2 1\n1 2 0\n", "3 0\n4 -3 0\nd 4 -3 0\n-4 0\n0\n")
    run = check_in_parts(cnf, drat, engine, 1, 30)
    assert run.ok and not run.value["ok"], run.value


@pytest.mark.parametrize("engine", ["dratify", "trail"])
def test_the_parts_report_the_texts_they_read(tmp_path, engine) -> None:
    cnf, drat = _write(tmp_path, FORMULA, PROOF)
    run = check_in_parts(cnf, drat, engine, 2, 30)
    assert run.value["read"] == (hashlib.sha256(FORMULA.encode()).hexdigest(),
                                 hashlib.sha256(PROOF.encode()).hexdigest())


def test_only_long_proofs_are_cut() -> None:
    assert parts_for(10) == 1 and parts_for(10_000) >= 1 and parts_for(10_000) == parts_for(500)


def test_under_a_memory_limit_the_proof_is_checked_whole() -> None:
    from xwsat.guard import watch

    with watch(None, memory_mb=1 << 20):  # each part would hold its own copy of the formula
        assert parts_for(10_000) == 1


def test_a_certificate_checked_in_parts_verifies_and_rechecks(tmp_path, make_words,
                                                               monkeypatch) -> None:
    import xwsat.evidence.certificate as certificate
    import xwsat.evidence.recheck as recheck_module

    monkeypatch.setattr(certificate, "parts_for", lambda lines: 2)
    monkeypatch.setattr(recheck_module, "parts_for", lambda lines: 2)
    built = build_problem(parse_grid("...\n...\n"), make_words(["AAB", "ABA", "BAA", "AB", "BA"]))
    run = certify(built, tmp_path / "cert", "grid.txt", 30, proof="mac", engine="dratify")
    assert run.checked is True, run.outcome.message
    manifest = json.loads((tmp_path / "cert" / "manifest.json").read_text())
    assert manifest["check"]["parts"] == 2 and manifest["check"]["ok"]
    lines, verdict = recheck(tmp_path / "cert", "dratify", 30)
    assert verdict == "verified" and any("(2 parts at once)" in line for line in lines), lines


def test_a_certificate_under_a_memory_limit_runs_one_search_and_one_check(
        tmp_path, make_words, monkeypatch) -> None:
    from xwsat.evidence import drat_check
    from xwsat.guard import watch

    monkeypatch.setattr(drat_check, "MIN_PART_LINES", 1)  # would be cut in two without a limit
    built = build_problem(parse_grid("...\n...\n"), make_words(["AAB", "ABA", "BAA", "AB", "BA"]))
    with watch(None, memory_mb=1 << 20):
        run = certify(built, tmp_path / "cert", "grid.txt", 30, proof="mac", engine="dratify")
    assert run.checked is True, run.outcome.message
    manifest = json.loads((tmp_path / "cert" / "manifest.json").read_text())
    assert manifest["check"]["parts"] == 1 and manifest["proof"]["seed"] in (0, 1, 2)
