"""--max-shared-substring: the verifier checks it, mac, cpsat and sat enforce it (against the
brute-force oracle), the other searches refuse it, and certificates are refused with it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from oracle import brute_fills, runs
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.grid import parse_grid
from xwsat.outcome import Status
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.verify import check_fill
from xwsat.words import build_wordlist

runner = CliRunner()
ENFORCING = ("mac", "mac:words", "cpsat", "sat", "sat:cube")
# two entries that do not cross: CAKE and CHEESECAKE share CAKE (4 letters)
APART = "....######\n##########\n..........\n"
DESSERTS = ["CAKE", "CHEESECAKE"]


def shares(first: str, second: str, most: int) -> bool:
    """The oracle's own test: a common run of more than ``most`` letters."""
    return any(first[i:i + most + 1] in second for i in range(len(first) - most))


def brute_under_rule(text: str, words: list[str], most: int) -> set[tuple[str, ...]]:
    fills = brute_fills(text, words, allow_repeats=False)
    kept = set()
    for rows in fills:
        texts = ["".join(rows[r][c] for r, c in run) for run in runs(rows)]
        if not any(shares(a, b, most) for i, a in enumerate(texts) for b in texts[i + 1:]):
            kept.add(rows)
    return kept


def test_the_verifier_names_entries_sharing_a_long_run():
    rows = ["CAKE######", "##########", "CHEESECAKE"]
    assert check_fill(APART.split(), rows, DESSERTS) == []
    problems = check_fill(APART.split(), rows, DESSERTS, max_shared=3)
    assert problems == ["CAKE and CHEESECAKE share CAKE (more than 3 letters)"]
    assert check_fill(APART.split(), rows, DESSERTS, max_shared=4) == []


@pytest.mark.parametrize("spec", ENFORCING)
def test_unfillable_under_the_rule_and_fillable_without_it(spec):
    grid, words = parse_grid(APART), build_wordlist({w: (50, None) for w in DESSERTS})
    assert fill_grid(grid, words, FillOptions(spec, 20)).outcome.status is Status.FILLED
    ruled = fill_grid(grid, words, FillOptions(spec, 20, max_shared=3))
    assert ruled.outcome.status is Status.UNFILLABLE, ruled.outcome
    assert fill_grid(grid, words, FillOptions(spec, 20, max_shared=4)).verified


def _instances() -> list[tuple[str, list[str], int]]:
    """Small grids over a three-letter alphabet: fills share runs often."""
    rng = random.Random(7)
    found = []
    grids = ["...\n...\n...\n", "....\n.#..\n....\n", "#...\n....\n...#\n"]
    for i in range(9):
        text = grids[i % len(grids)]
        lengths = {len(run) for run in runs(tuple(text.split()))}
        words = sorted({"".join(rng.choice("ABC") for _ in range(n))
                        for n in lengths for _ in range(14 if n == 3 else 30)})
        found.append((text, words, 1 + i % 2))
    return found


INSTANCES = _instances()


@pytest.mark.parametrize("spec", ENFORCING)
def test_the_rule_matches_brute_force(spec):
    for text, words, most in INSTANCES:
        truth = brute_under_rule(text, words, most)
        wordlist = build_wordlist({w: (50, None) for w in words})
        result = fill_grid(parse_grid(text), wordlist, FillOptions(spec, 20, max_shared=most))
        assert (result.outcome.status is Status.FILLED) == bool(truth), (spec, text, words)
        if result.filled is not None:
            assert result.verified and tuple(result.filled.rows) in truth


def test_instances_cover_both_verdicts_and_the_rule_bites():
    verdicts = [bool(brute_under_rule(t, w, m)) for t, w, m in INSTANCES]
    assert any(verdicts) and not all(verdicts)
    assert any(brute_fills(t, w, False) and not brute_under_rule(t, w, m)
               for t, w, m in INSTANCES)


@pytest.mark.parametrize("spec", ["native", "ace", "qxw"])
def test_a_search_that_cannot_enforce_the_rule_refuses_it(spec):
    from xwsat.backends.registry import installed
    from xwsat.errors import XwsatError

    if spec == "qxw" and not installed(spec):  # its availability is said first
        pytest.skip("needs Debian's qxw")
    grid, words = parse_grid(APART), build_wordlist({w: (50, None) for w in DESSERTS})
    with pytest.raises(XwsatError, match="does not enforce --max-shared-substring"):
        fill_grid(grid, words, FillOptions(spec, 5, max_shared=3))


@pytest.fixture()
def desserts(tmp_path: Path) -> tuple[Path, Path]:
    grid = tmp_path / "g.txt"
    grid.write_text(APART, encoding="utf-8")
    words = tmp_path / "w.txt"
    words.write_text("cake\ncheesecake\n", encoding="utf-8")
    return grid, words


def test_cli_fill_reports_unfillable_under_the_rule(desserts):
    grid, words = desserts
    plain = runner.invoke(app, ["fill", str(grid), "-d", str(words)])
    assert plain.exit_code == 0, plain.output
    ruled = runner.invoke(app, ["fill", str(grid), "-d", str(words),
                                "--max-shared-substring", "3"])
    assert ruled.exit_code == 1 and "UNFILLABLE" in ruled.output
    assert "(with no two entries sharing more than 3 letters)" in ruled.output
    proved = runner.invoke(app, ["prove", str(grid), "-d", str(words),
                                 "--max-shared-substring", "3"])
    assert proved.exit_code == 1, proved.output


@pytest.mark.parametrize("args, message", [
    (["fill", "--max-shared-substring", "0"], "between 1 and 50"),
    (["fill", "--max-shared-substring", "51"], "between 1 and 50"),
    (["fill", "--max-shared-substring", "3", "-b", "native"], "does not enforce"),
    (["prove", "--max-shared-substring", "3", "--certificate", "cert"], "certificates"),
    (["prove", "--max-shared-substring", "3", "--explain"], "explanations"),
])
def test_bad_rule_values_and_refusals_are_one_line_errors(desserts, tmp_path, args, message):
    grid, words = desserts
    command, *rest = (str(tmp_path / "cert") if a == "cert" else a for a in args)
    result = runner.invoke(app, [command, str(grid), "-d", str(words), *rest])
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_entries_given_whole_that_break_the_rule_are_named_before_any_search(tmp_path):
    grid = tmp_path / "g.txt"
    grid.write_text("CAKES\n#####\n.....\n", encoding="utf-8")
    words = tmp_path / "w.txt"
    words.write_text("CAKES\nPANCAKE\nBAKES\nMAKES\n", encoding="utf-8")
    clash = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--lock", "2A=MAKES",
                                "--max-shared-substring", "3"])
    assert clash.exit_code == 2, clash.output
    assert clash.stderr.strip() == (
        "xwsat: error: 1A CAKES and 2A MAKES, both given whole (typed, locked or kept outside "
        "the region), share AKES: more than the 3 letters --max-shared-substring allows; raise "
        "it, or change one of them")
    allowed = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--lock", "2A=MAKES",
                                  "--max-shared-substring", "4"])
    assert allowed.exit_code == 0, allowed.output
