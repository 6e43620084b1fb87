"""Evidence for verdicts: checked certificates, minimal explanations, cross-checks (CLI too)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.backends.ace import AceBackend
from xwsat.cli import app
from xwsat.evidence import crosscheck
from xwsat.evidence.certificate import certify, sha256_file
from xwsat.evidence.cores import explain
from xwsat.evidence.drup_search import decide
from xwsat.evidence.explain import blank_of, sub_problem
from xwsat.evidence.recheck import recheck
from xwsat.grid import parse_grid
from xwsat.outcome import Status
from xwsat.problem import build_problem

# Arc consistent but unfillable: the two rows must be complements of each other.
AC_UNFILLABLE = ("...\n...\n", ["AAB", "ABA", "BAA", "AB", "BA"])
SQUARE_REPEATS = ("...\n...\n...\n", ["CAT", "ARE", "TEN"])  # only fill repeats every word
FILLABLE = ("..\n..\n", ["AB", "AC", "BD", "CD", "XY"])
GIVEN_MATTERS = ("..\n.C\n", ["AB", "AC", "BD", "CD"])  # blank it is fillable; the C is fatal


def built_of(make_words, case, allow_repeats: bool = False):
    grid, words = case
    return build_problem(parse_grid(grid), make_words(words), allow_repeats=allow_repeats)


@pytest.mark.parametrize("method", ["mac", "search", "cdcl"])
@pytest.mark.parametrize("case", [AC_UNFILLABLE, SQUARE_REPEATS])
def test_certificate_is_written_and_checked(tmp_path, make_words, method, case) -> None:
    built = built_of(make_words, case)
    run = certify(built, tmp_path / "cert", "grid.txt", 30, proof=method)
    assert run.outcome.status is Status.UNFILLABLE and run.checked is True, run.outcome.message
    manifest = json.loads((tmp_path / "cert" / "manifest.json").read_text())
    assert manifest["verified"] is True and manifest["check"]["reached_empty"] is True
    assert manifest["encoding"]["pruning"].startswith("none")
    for name, info in manifest["files"].items():
        assert sha256_file(tmp_path / "cert" / name) == info["sha256"]
    lines, verdict = recheck(tmp_path / "cert", "auto", 30)
    assert verdict == "verified" and any(line.startswith("VERIFIED") for line in lines), lines


@pytest.mark.parametrize("solver", ["maplecm", "glucose4", "lingeling"])
def test_every_proof_solver_offered_gives_a_checked_certificate(tmp_path, make_words,
                                                                 solver) -> None:
    """MapleCM's proof stops before the empty clause: the certificate adds it (a step the
    checker verifies like any other) instead of being refused."""
    from xwsat.evidence.producers import CdclProducer

    built = built_of(make_words, AC_UNFILLABLE)
    run = certify(built, tmp_path / "cert", "grid.txt", 30, proof=CdclProducer(solver))
    assert run.outcome.status is Status.UNFILLABLE and run.checked is True, run.outcome.message


def test_python_checker_agrees_with_native(tmp_path, make_words) -> None:
    built = built_of(make_words, SQUARE_REPEATS)
    certify(built, tmp_path / "cert", "grid.txt", 30, engine="python")
    lines, verdict = recheck(tmp_path / "cert", "python", 30)
    assert verdict == "verified", lines


def test_forged_proof_is_rejected(tmp_path, make_words) -> None:
    built = built_of(make_words, AC_UNFILLABLE)
    folder = tmp_path / "cert"
    certify(built, folder, "grid.txt", 30)
    (folder / "proof.drat").write_text("0\n")  # "refuted by unit propagation": it is not
    lines, verdict = recheck(folder, "auto", 30)
    assert verdict == "rejected" and "proof.drat is not the file" in lines[-1]
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"]["proof.drat"]["sha256"] = sha256_file(folder / "proof.drat")
    (folder / "manifest.json").write_text(json.dumps(manifest))
    lines, verdict = recheck(folder, "auto", 30)
    assert verdict == "rejected" and lines[-1].startswith("NOT VERIFIED")


def test_certificate_run_on_a_fillable_grid_reports_the_verified_fill(tmp_path, make_words):
    built = built_of(make_words, FILLABLE)
    run = certify(built, tmp_path / "cert", "grid.txt", 30)
    assert run.outcome.status is Status.FILLED and run.outcome.fill is not None
    assert (tmp_path / "cert" / "fill.txt").read_text().split() in (["AB", "CD"], ["AC", "BD"])
    # nothing is wrong with that folder: check-proof says what it is (it said NOT VERIFIED,
    # exit 4, as for a forged proof)
    checked = CliRunner().invoke(app, ["check-proof", str(tmp_path / "cert")])
    assert checked.exit_code == 2 and "the record of a fill (the fill is in its fill.txt)" in \
        checked.output and "NOT VERIFIED" not in checked.output


def test_explanation_of_the_repeat_square_is_two_crossing_slots(make_words) -> None:
    built = built_of(make_words, SQUARE_REPEATS)
    for oracle in ("search", "cdcl"):
        expl = explain(built, 30, oracle=oracle)
        assert expl.minimal and len(expl.slots) == 2 and not expl.givens
        a, b = (built.slots[s] for s in expl.slots)
        assert a.direction != b.direction and set(a.cells) & set(b.cells)


def test_explanation_names_the_given_letter_and_is_minimal(make_words) -> None:
    built = built_of(make_words, GIVEN_MATTERS)
    expl = explain(built, 30)
    assert expl.minimal and expl.givens == (3,) and len(expl.slots) == 2
    blank = build_problem(blank_of(built.grid), built.words)
    members = [("slot", s) for s in expl.slots] + [("given", 3)]
    for drop in range(len(members)):  # every proper subset can be filled
        rest = members[:drop] + members[drop + 1:]
        slots = [m for kind, m in rest if kind == "slot"]
        givens = {3: built.words.alphabet.code("C")} if ("given", 3) in rest else {}
        assert decide(sub_problem(blank.problem, slots, givens), None) is Status.FILLED


def test_trivial_wipe_out_explains_itself_in_words(make_words) -> None:
    built = built_of(make_words, ("....\n", ["AB", "ABC"]))
    expl = explain(built, 30)
    assert expl.slots == (0,) and "no 4-letter word" in expl.sentence


def test_cross_check_agrees_and_says_cpsat_is_no_certificate(make_words, monkeypatch) -> None:
    built = built_of(make_words, AC_UNFILLABLE)
    real = crosscheck.installed
    monkeypatch.setattr(crosscheck, "installed", lambda spec: spec != "ace" and real(spec))
    cc = crosscheck.cross_check(built, Status.UNFILLABLE, "native:csp", 30)
    assert cc.agree is True and cc.method == "mac"  # the compiled search checks the Python one
    cc = crosscheck.cross_check(built, Status.UNFILLABLE, "mac", 30)
    assert cc.agree is True and cc.method.startswith("native")
    monkeypatch.setattr(crosscheck, "second_method", lambda first: "cpsat")
    cc = crosscheck.cross_check(built, Status.UNFILLABLE, "native:csp", 30)
    assert cc.agree is True and cc.method.startswith("cpsat")
    assert "not a certificate" in cc.detail
    monkeypatch.undo()
    cc = crosscheck.cross_check(built, Status.UNFILLABLE, "sat:cadical195", 30)
    assert cc.agree is True and cc.method.startswith("native")


@pytest.mark.skipif(not AceBackend.available(), reason="java or pycsp3's ACE jar missing")
def test_cross_check_with_ace_verifies_its_fill(make_words) -> None:
    built = built_of(make_words, FILLABLE)
    cc = crosscheck.cross_check(built, Status.FILLED, "certificate:search", 60)
    assert cc.method == "ace" and cc.agree is True and "passes the independent checker" in cc.detail
    cc = crosscheck.cross_check(built, Status.UNFILLABLE, "native", 60)
    assert cc.agree is False


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def write_case(tmp_path: Path, case) -> tuple[Path, Path]:
    grid, words = case
    (tmp_path / "g.txt").write_text(grid)
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    return tmp_path / "g.txt", tmp_path / "w.txt"


def test_cli_prove_with_every_kind_of_evidence(tmp_path) -> None:
    grid, words = write_case(tmp_path, GIVEN_MATTERS)
    # the given C leaves 2A and 2D the one word AC: by default the certificate would be the
    # count (tests/unit/test_no_repeat.py); a proof method asks for a proof
    result = invoke("prove", grid, "--dict", words, "--certificate", tmp_path / "cert",
                    "--proof-method", "mac", "--explain", "--explain-svg",
                    tmp_path / "core.svg", "--cross-check")
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert "UNFILLABLE: certificate checked by xwsat's trail checker (RUP)" in out
    assert "EXPLANATION (minimal)" in out and "given  C at row 2, column 2" in out
    assert "CROSS-CHECK agrees" in out
    for name in ("formula.cnf", "proof.drat", "manifest.json", "explanation.svg"):
        assert (tmp_path / "cert" / name).is_file()
    assert ET.parse(tmp_path / "core.svg").getroot().tag.endswith("svg")
    manifest = json.loads((tmp_path / "cert" / "manifest.json").read_text())
    assert {"explanation.txt", "explanation.svg"} <= set(manifest["files"])
    check = invoke("check-proof", tmp_path / "cert")
    assert check.exit_code == 1 and "VERIFIED" in check.stdout
    assert "sha256 ok: explanation.svg" in check.stdout
    other = invoke("check-proof", tmp_path / "cert", "--engine", "dratify")
    assert other.exit_code == 1 and "and dratify (" in other.stdout, other.output
    bad = invoke("check-proof", tmp_path / "cert", "--engine", "drat-trim")
    assert bad.exit_code == 2 and bad.stderr.startswith("xwsat: error: --engine must be")


def test_cli_cross_check_disagreement_is_loud_and_exits_4(tmp_path, monkeypatch) -> None:
    grid, words = write_case(tmp_path, AC_UNFILLABLE)
    fake = crosscheck.CrossCheck("cpsat", Status.FILLED, False, "found a fill (simulated)")
    monkeypatch.setattr(crosscheck, "cross_check", lambda *a, **k: fake)
    result = invoke("prove", grid, "--dict", words, "--backend", "sat", "--cross-check")
    assert result.exit_code == 4
    assert "CROSS-CHECK DISAGREES" in result.stdout


@pytest.mark.parametrize("args,message", [
    (["--certificate", "/nonexistent/dir/cert"], "does not exist"),
    (["--certificate", "-"], "a certificate is a folder"),  # was a folder named "-" in cwd
    (["--certificate", "{tmp}/cert", "--proof-method", "magic"], "--proof-method"),
    (["--certificate", "{tmp}/cert", "--proof-solver", "maplesat"], "--proof-solver"),
    (["--certificate", "{tmp}/cert", "--proof-checker", "drat-trim"], "unknown proof checker"),
])
def test_cli_bad_evidence_options_are_one_line_errors(tmp_path, args, message) -> None:
    grid, words = write_case(tmp_path, AC_UNFILLABLE)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = invoke("prove", grid, "--dict", words, *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("xwsat: error: ") and message in result.stderr


def test_an_explanation_never_cites_a_slot_outside_its_core(tmp_path) -> None:
    """Arc consistency empties 1D here, but the minimal core is 7A, 3D, 5D and
    three givens; the sentence about 1D read as a contradiction of the core."""
    from typer.testing import CliRunner

    from xwsat.cli import app

    grid = tmp_path / "g.txt"
    grid.write_text("#Q...\nX....\n.....\n....Z\n...J#\n")
    result = CliRunner().invoke(app, ["prove", str(grid), "--explain"])
    assert result.exit_code == 1, result.output
    head = next(line for line in result.output.splitlines() if line.startswith("EXPLANATION"))
    core = {line.split()[0] for line in result.output.splitlines()
            if line.startswith("     ") and "length" in line}
    cited = {word for word in head.replace(":", " ").split() if word[:-1].isdigit()
             and word[-1] in "AD"}
    assert core and cited <= core, (head, core)


def test_a_certificate_stopped_by_its_time_limit_says_so_in_its_json(tmp_path) -> None:
    grids = Path(__file__).resolve().parents[2] / "grids" / "small"
    result = CliRunner().invoke(app, [
        "prove", str(grids / "open5.txt"), "-d", str(grids / "words5_sub3.txt"), "-b",
        "sat:glucose4", "--certificate", str(tmp_path / "cert"), "-t", "1", "--json"])
    assert result.exit_code == 3, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "unknown" and record["stop"] == "timeout"
    assert record["certificate"]["directory"] is None  # it named a folder never written


@pytest.mark.parametrize("stage", ["xwsat.evidence.certificate.check_in_parts",
                                   "xwsat.evidence.certificate._publish"])
def test_a_limit_while_the_certificate_is_written_keeps_the_refutation(tmp_path, make_words,
                                                                       monkeypatch, stage):
    from xwsat.evidence.evidence_text import certificate_lines
    from xwsat.guard import LimitReached
    from xwsat.outcome import Stop

    def limit(*_args, **_kwargs):
        raise LimitReached(Stop.TIME, "time limit of 3 s reached")

    monkeypatch.setattr(stage, limit)  # the refutation is found; its check or its writing stops
    run = certify(built_of(make_words, AC_UNFILLABLE), tmp_path / "cert", "grid.txt", 30,
                  proof="mac")
    assert run.outcome.status is Status.UNFILLABLE and run.checked is None
    assert run.outcome.stop is Stop.TIME and run.exit_code == 3  # no certificate: undecided
    assert certificate_lines(run) == [
        "UNFILLABLE by the compiled MAC search, with no certificate (time limit of 3 s reached "
        "while the certificate was written; give it more time)"]
    assert not (tmp_path / "cert").exists()  # nothing half-written: no folder at all


def test_a_limit_while_the_formula_is_encoded_keeps_the_refutation(tmp_path, make_words,
                                                                   monkeypatch):
    # the slots for the formula were found by refuting the grid; a limit in the encoding that
    # follows said "UNDECIDED: no certificate", the refutation lost
    from xwsat.evidence.evidence_text import certificate_lines
    from xwsat.guard import LimitReached
    from xwsat.outcome import Stop

    def limit(*_args, **_kwargs):
        raise LimitReached(Stop.TIME, "time limit of 3 s reached")

    monkeypatch.setattr("xwsat.evidence.certificate.certificate_cnf", limit)
    run = certify(built_of(make_words, AC_UNFILLABLE), tmp_path / "cert", "grid.txt", 30,
                  proof="mac")
    assert run.outcome.status is Status.UNFILLABLE and run.exit_code == 3
    assert certificate_lines(run) == [
        "UNFILLABLE by the compiled MAC search, with no certificate (time limit of 3 s reached "
        "while the certificate was made; give it more time)"]
    assert not (tmp_path / "cert").exists()
    # with no refutation before the limit (the whole formula asked for), the limit stands
    with pytest.raises(LimitReached):
        certify(built_of(make_words, AC_UNFILLABLE), tmp_path / "cert", "grid.txt", 30,
                proof="mac", core=False)


def test_explain_without_a_refutation_says_why(tmp_path) -> None:
    # an undecided run said "the grid is not unfillable" of a grid that is
    (tmp_path / "g.txt").write_text("..\n..\n")
    (tmp_path / "w.txt").write_text("AB\nCD\nAC\nBD\n")
    filled = invoke("prove", tmp_path / "g.txt", "--dict", tmp_path / "w.txt", "--explain")
    assert filled.exit_code == 0 and "(nothing to explain: the grid has a fill)" in filled.output
    root = Path(__file__).resolve().parents[2]
    undecided = invoke("prove", root / "grids/blank/blank6x6.txt", "--dict",
                       root / "grids/dictionaries/lex.txt", "-b", "native", "--explain",
                       "-t", "1")
    assert undecided.exit_code == 3, undecided.output
    assert "the grid was not decided, so there is no refutation to explain" in undecided.output


@pytest.mark.parametrize("edit", ["lower", "alphabet"])
def test_a_list_outside_its_alphabet_is_rejected_in_words(tmp_path, make_words, edit) -> None:
    # both were rejected with "IndexError: index 26 is out of bounds for axis 0 with size 26"
    import gzip

    certify(built_of(make_words, AC_UNFILLABLE), tmp_path / "cert", "grid.txt", 30)
    folder = tmp_path / "cert"
    manifest = json.loads((folder / "manifest.json").read_text())
    if edit == "lower":
        text = gzip.decompress((folder / "words.txt.gz").read_bytes()).decode()
        (folder / "words.txt.gz").write_bytes(gzip.compress(text.lower().encode()))
        manifest["files"]["words.txt.gz"]["sha256"] = sha256_file(folder / "words.txt.gz")
    else:
        manifest["rules"]["alphabet"] = "A"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    lines, verdict = recheck(folder, "auto", 30)
    assert verdict == "rejected" and "Error" not in lines[-1], lines
    assert "is not in the manifest's alphabet" in lines[-1], lines
