"""Counting fills: brute force on tiny grids, and the published counts with lex."""

from __future__ import annotations

import json
import time
from pathlib import Path

import oracle
import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.evidence.count import count_fills, count_rectangle
from xwsat.evidence.drup_search import count_leaves
from xwsat.grid import parse_grid
from xwsat.problem import build_problem
from xwsat.words import load_words

LEX = Path(__file__).resolve().parents[2] / "grids" / "dictionaries" / "lex.txt"
WORDS3 = ["CAT", "ARE", "TEN", "ACT", "TEA", "ERA", "EAT", "ATE", "NET", "TAN", "ANT", "RAT", "TAR"]
WORDS2 = ["AT", "TA", "NE", "EN", "AN", "NA", "TE", "ET", "AA"]


@pytest.mark.parametrize("grid", ["...\n...\n...\n", "..#\n...\n#..\n", "...\n...\n"])
@pytest.mark.parametrize("allow_repeats", [False, True])
def test_every_counting_method_equals_brute_force(make_words, grid, allow_repeats) -> None:
    built = build_problem(parse_grid(grid), make_words(WORDS3 + WORDS2),
                          allow_repeats=allow_repeats)
    expected = oracle.count_fills(built.problem)
    assert count_fills(built, time_limit=30).count == expected
    assert count_fills(built, time_limit=30, method="cpsat").count == expected
    assert count_leaves(built.problem, None)[:2] == (expected, True)
    g = built.grid
    if "#" not in grid:
        assert count_rectangle(built.words, g.height, g.width, allow_repeats, None,
                               time.monotonic() + 30) == (expected, True, "every fill counted")


def test_limit_stops_the_count_and_says_so(make_words) -> None:
    built = build_problem(parse_grid("...\n...\n...\n"), make_words(WORDS3), allow_repeats=True)
    result = count_fills(built, limit=2, time_limit=30)
    assert result.count == 2 and not result.exact and "limit" in result.reason
    assert result.stop == "limit"  # the --json record's "stop"
    assert count_fills(built, time_limit=30).stop is None


@pytest.mark.parametrize("width,expected", [(8, 1), (7, 125)])
def test_published_counts_with_lex(width, expected) -> None:
    words = load_words(str(LEX))
    built = build_problem(parse_grid(("." * width + "\n") * 4), words)
    result = count_fills(built, time_limit=120)
    assert (result.count, result.exact) == (expected, True)


@pytest.mark.slow
def test_published_count_4x6_with_lex() -> None:
    built = build_problem(parse_grid("......\n" * 4), load_words(str(LEX)))
    assert count_fills(built, time_limit=300).count == 4749


def test_cli_count(tmp_path) -> None:
    (tmp_path / "g.txt").write_text("...\n...\n...\n")
    (tmp_path / "w.txt").write_text("\n".join(WORDS3) + "\n")
    result = CliRunner().invoke(app, ["count", str(tmp_path / "g.txt"), "--dict",
                                      str(tmp_path / "w.txt"), "--allow-repeats"])
    assert result.exit_code == 0 and result.stdout.startswith("exactly ")
    as_json = CliRunner().invoke(app, ["count", str(tmp_path / "g.txt"), "--dict",
                                       str(tmp_path / "w.txt"), "--allow-repeats", "--json"])
    record = json.loads(as_json.stdout)
    assert record["status"] == "counted" and record["exact"] and "stop" not in record
    bad = CliRunner().invoke(app, ["count", str(tmp_path / "g.txt"), "--dict",
                                   str(tmp_path / "w.txt"), "--limit", "-1"])
    assert bad.exit_code == 2 and "--limit" in bad.stderr
