"""xwsat encode: the checked-in examples are current, and every format solves to one verdict."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.backends.ace import AceBackend, run_ace
from xwsat.cli import app
from xwsat.encode.solver_files import FORMATS, export_problem
from xwsat.grid import parse_grid
from xwsat.outcome import Status
from xwsat.problem import build_problem
from xwsat.words import load_words

EXAMPLES = Path(__file__).resolve().parents[2] / "encodings" / "examples"
SUFFIX = {"dimacs": "cnf", "xcsp3": "xml", "xcsp3-cells": "cells.xml", "cpsat": "cpsat.txt"}
CASES = [("words13", True), ("words3", False)]  # the open 3x3: fillable, and only by repeats


def exported(words: str, fmt: str) -> bytes:
    grid = parse_grid((EXAMPLES / "open3.txt").read_text())
    built = build_problem(grid, load_words(str(EXAMPLES / f"{words}.txt")))
    return export_problem(built, fmt, source="open3.txt").data


@pytest.mark.parametrize("words,_", CASES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_checked_in_examples_are_what_encode_writes(words, _, fmt) -> None:
    path = EXAMPLES / f"open3-{words}.{SUFFIX[fmt]}"
    assert path.read_bytes() == exported(words, fmt), f"regenerate {path.name} (encodings/xcsp3.md)"


@pytest.mark.parametrize("words,fillable", CASES)
def test_dimacs_verdict(words, fillable) -> None:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cnf = CNF(from_file=str(EXAMPLES / f"open3-{words}.cnf"))
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve() is fillable


@pytest.mark.parametrize("words,fillable", CASES)
def test_cpsat_proto_verdict(words, fillable) -> None:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    model.Proto().parse_text_format((EXAMPLES / f"open3-{words}.cpsat.txt").read_text())
    status = cp_model.CpSolver().solve(model)
    assert (status in (cp_model.OPTIMAL, cp_model.FEASIBLE)) is fillable


@pytest.mark.slow  # ACE's verdicts on the same instances are in test_xcsp3.py
@pytest.mark.skipif(not AceBackend.available(), reason="java or pycsp3's ACE jar missing")
@pytest.mark.parametrize("words,fillable", CASES)
def test_xcsp3_verdict_with_ace(words, fillable) -> None:
    result = run_ace(EXAMPLES / f"open3-{words}.xml", time_limit=60)
    assert result.status is (Status.FILLED if fillable else Status.UNFILLABLE)


def test_cli_encode_to_stdout_and_bad_format(tmp_path) -> None:
    args = ["encode", str(EXAMPLES / "open3.txt"), "--dict", str(EXAMPLES / "words3.txt")]
    result = CliRunner().invoke(app, [*args, "--format", "dimacs"])
    assert result.exit_code == 0 and "p cnf 72 342" in result.stdout
    bad = CliRunner().invoke(app, [*args, "--format", "smt"])
    assert bad.exit_code == 2 and bad.stderr.startswith("xwsat: error: --format")
    missing = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "no" / "x.cnf")])
    assert missing.exit_code == 2 and "does not exist" in missing.stderr


@pytest.mark.skipif(not AceBackend.available(), reason="java or pycsp3's ACE jar missing")
@pytest.mark.parametrize("words,fillable", CASES)
def test_letters_only_xcsp3_verdict_with_ace(words, fillable) -> None:
    """The letters model keeps the no-repeat rule: words3 is unfillable without repeats."""
    result = run_ace(EXAMPLES / f"open3-{words}.cells.xml", time_limit=60)
    assert result.status is (Status.FILLED if fillable else Status.UNFILLABLE)
