"""A certificate verifies only for the grid, words and rules it was made for (tampering fails)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.evidence.certificate import certify, sha256_file
from xwsat.evidence.recheck import recheck
from xwsat.grid import parse_grid
from xwsat.problem import build_problem

UNFILLABLE = ("...\n...\n", ["AAB", "ABA", "BAA", "AB", "BA"])
OTHER_UNFILLABLE = ("..\n..\n", ["AB", "CD"])


@pytest.fixture
def certificate(tmp_path, make_words) -> Path:
    grid, words = UNFILLABLE
    built = build_problem(parse_grid(grid), make_words(words))
    folder = tmp_path / "cert"
    run = certify(built, folder, "grid.txt", 30, proof="search")
    assert run.checked is True
    return folder


def rehash(folder: Path) -> None:
    """What a forger does after editing files: make the manifest's hashes match again."""
    manifest = json.loads((folder / "manifest.json").read_text())
    for name in manifest["files"]:
        manifest["files"][name]["sha256"] = sha256_file(folder / name)
    (folder / "manifest.json").write_text(json.dumps(manifest))


def test_an_untampered_certificate_verifies_and_names_its_question(certificate) -> None:
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "verified"
    assert "    ..." in lines and any("words: 5 " in line for line in lines)


def test_any_unsatisfiable_formula_is_not_a_certificate(tmp_path) -> None:
    folder = tmp_path / "forged"
    folder.mkdir()
    (folder / "formula.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    (folder / "proof.drat").write_text("")
    files = {n: {"sha256": sha256_file(folder / n)} for n in ("formula.cnf", "proof.drat")}
    (folder / "manifest.json").write_text(json.dumps({"result": "unfillable", "files": files}))
    lines, verdict = recheck(folder, "auto", 30)
    assert verdict == "rejected" and lines[-1].startswith("NOT VERIFIED")


def test_the_trivial_formula_with_the_real_grid_and_words_is_rejected(certificate) -> None:
    (certificate / "formula.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    (certificate / "proof.drat").write_text("")
    rehash(certificate)
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "rejected" and "not the encoding" in lines[-1]


@pytest.mark.parametrize("edit", ["grid", "words", "repeats", "min_length", "alphabet"])
def test_changing_the_question_breaks_the_certificate(certificate, edit) -> None:
    manifest = json.loads((certificate / "manifest.json").read_text())
    if edit == "grid":
        (certificate / "grid.txt").write_text("....\n....\n")
    elif edit == "words":
        (certificate / "words.txt.gz").write_bytes(gzip.compress(b"AB\nBA\nAAB\nABA\nBAA\nBBB\n"))
    elif edit == "repeats":
        manifest["rules"]["allow_repeats"] = True
    elif edit == "min_length":
        manifest["rules"]["min_length"] = 3
    else:
        manifest["rules"]["alphabet"] = "ABC"
    (certificate / "manifest.json").write_text(json.dumps(manifest))
    rehash(certificate)
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "rejected", lines


def test_a_certificate_for_another_grid_is_refused_when_yours_is_given(certificate, tmp_path,
                                                                         make_words) -> None:
    grid, words = OTHER_UNFILLABLE
    other = tmp_path / "other"
    certify(build_problem(parse_grid(grid), make_words(words)), other, "o.txt", 30,
            proof="search")
    mine = parse_grid(UNFILLABLE[0])
    _, verdict = recheck(other, "auto", 30, grid=mine)
    assert verdict == "rejected"
    _, verdict = recheck(other, "auto", 30, words=tuple(UNFILLABLE[1]))
    assert verdict == "rejected"
    _, verdict = recheck(certificate, "auto", 30, grid=mine, words=tuple(UNFILLABLE[1]))
    assert verdict == "verified"


def test_a_manifest_cannot_point_outside_the_folder(certificate) -> None:
    manifest = json.loads((certificate / "manifest.json").read_text())
    manifest["files"]["../../../../etc/hostname"] = {"sha256": "0" * 64}
    (certificate / "manifest.json").write_text(json.dumps(manifest))
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "rejected" and "outside the folder" in lines[-1]


def test_cli_check_proof_exit_codes(certificate, tmp_path) -> None:
    grid = tmp_path / "g.txt"
    grid.write_text(UNFILLABLE[0])
    words = tmp_path / "w.txt"
    words.write_text("\n".join(UNFILLABLE[1]) + "\n")
    runner = CliRunner()
    ok = runner.invoke(app, ["check-proof", str(certificate), "--grid", str(grid),
                             "--dict", str(words)])
    assert ok.exit_code == 1 and "VERIFIED" in ok.stdout, ok.output
    words.write_text("\n".join([*UNFILLABLE[1], "BBA"]) + "\n")
    other = runner.invoke(app, ["check-proof", str(certificate), "--dict", str(words)])
    assert other.exit_code == 4 and "another word list" in other.stdout
    missing = runner.invoke(app, ["check-proof", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2


def test_certificate_folder_must_be_new_or_empty(tmp_path, make_words) -> None:
    grid, words = UNFILLABLE
    folder = tmp_path / "cert"
    folder.mkdir()
    (folder / "fill.txt").write_text("my own grid\n")
    g = tmp_path / "g.txt"
    g.write_text(grid)
    w = tmp_path / "w.txt"
    w.write_text("\n".join(words) + "\n")
    result = CliRunner().invoke(app, ["prove", str(g), "--dict", str(w), "--certificate",
                                      str(folder)])
    assert result.exit_code == 2 and "not empty" in result.stderr
    assert (folder / "fill.txt").read_text() == "my own grid\n"
    assert sorted(p.name for p in folder.iterdir()) == ["fill.txt"]
