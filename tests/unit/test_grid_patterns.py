"""The pattern generator: symmetry, slot length, connectivity, block range, determinism, CLI."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from xwsat.bench.suites import load_suite
from xwsat.cli import app
from xwsat.errors import XwsatError
from xwsat.grid import BLOCK, extract_slots, parse_grid
from xwsat.grid_patterns import (
    block_count,
    cheater_cap,
    check_pattern,
    generate_patterns,
    word_ceiling,
)
from xwsat.pattern_stats import pattern_stats


def blocks_of(grid) -> list[list[bool]]:
    return [[ch == BLOCK for ch in row] for row in grid.rows]


def white_connected(grid) -> bool:
    n = grid.width
    whites = {i for i in range(n * n) if grid.is_white(i)}
    stack, seen = [min(whites)], {min(whites)}
    while stack:
        i = stack.pop()
        r, c = divmod(i, n)
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            j = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and j in whites and j not in seen:
                seen.add(j)
                stack.append(j)
    return seen == whites


def assert_legal(grid, size: int, lo: int, hi: int) -> None:
    n = size
    assert grid.width == grid.height == n
    for r in range(n):
        for c in range(n):
            assert grid.rows[r][c] == grid.rows[n - 1 - r][n - 1 - c], "not 180-degree symmetric"
    # Every white cell lies in an across and a down slot of length >= 3 (no unchecked cells).
    slots = extract_slots(grid, min_length=1)
    assert min(s.length for s in slots) >= 3
    covered = [c for s in slots for c in s.cells]
    assert all(covered.count(i) == 2 for i in range(n * n) if grid.is_white(i))
    assert white_connected(grid)
    assert lo <= block_count(grid) <= hi
    assert check_pattern(blocks_of(grid)) == []


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from([7, 9, 11, 15]))
def test_patterns_are_legal_for_any_seed(seed: int, size: int) -> None:
    lo, hi = round(0.13 * size * size), round(0.16 * size * size)
    for grid in generate_patterns(size, 2, seed):
        assert_legal(grid, size, lo, hi)


@pytest.mark.parametrize(("size", "lo", "hi"), [(15, 30, 36), (21, 60, 72), (5, 0, 8)])
def test_block_range_is_honoured(size: int, lo: int, hi: int) -> None:
    grids = generate_patterns(size, 5, 11, lo, hi)
    assert len({g.rows for g in grids}) == 5
    for grid in grids:
        assert_legal(grid, size, lo, hi)


def test_ratio_targets_the_share_of_blocks() -> None:
    for grid in generate_patterns(15, 4, 3, ratio=0.16):
        assert abs(block_count(grid) - 0.16 * 225) <= 1.5


def test_long_runs_give_stacks_of_full_width_slots() -> None:
    for grid in generate_patterns(15, 4, 2, 30, 36, long_runs=4):
        assert_legal(grid, 15, 30, 36)
        long = [s for s in extract_slots(grid, 3) if s.length >= 13]
        assert len(long) >= 4


def test_max_run_caps_every_slot_of_a_21x21() -> None:
    for grid in generate_patterns(21, 3, 21, 70, 82, max_run=15):
        assert_legal(grid, 21, 70, 82)
        assert max(s.length for s in extract_slots(grid, 3)) <= 15


def test_same_seed_same_patterns_and_prefix_stable() -> None:
    a = generate_patterns(15, 4, 42, 30, 36)
    b = generate_patterns(15, 4, 42, 30, 36)
    c = generate_patterns(15, 6, 42, 30, 36)
    assert [g.rows for g in a] == [g.rows for g in b] == [g.rows for g in c[:4]]
    assert [g.rows for g in generate_patterns(15, 4, 43, 30, 36)] != [g.rows for g in a]


def test_checker_catches_bad_patterns() -> None:
    asym = parse_grid("#....\n.....\n.....\n.....\n.....\n")
    assert any("symmetric" in p for p in check_pattern(blocks_of(asym)))
    short = parse_grid("..#..\n.....\n.....\n.....\n..#..\n")
    assert any("run of 2" in p for p in check_pattern(blocks_of(short)))
    split = parse_grid("...#...\n...#...\n...#...\n#######\n...#...\n...#...\n...#...\n")
    assert any("connected" in p for p in check_pattern(blocks_of(split)))


@pytest.mark.parametrize("kwargs", [dict(size=4), dict(count=0), dict(min_blocks=40,
                                                                       max_blocks=30)])
def test_bad_requests_are_errors(kwargs) -> None:
    args = dict(size=15, count=1, seed=0) | kwargs
    with pytest.raises(XwsatError):
        generate_patterns(**args)


def test_cli_writes_grids_and_manifest(tmp_path) -> None:
    out = tmp_path / "gen"
    words = tmp_path / "words.txt.gz"
    words.write_bytes(gzip.compress(b"ABC\nDEF\n"))
    result = CliRunner().invoke(app, ["grids", "generate", "--size", "15", "--count", "3",
                                      "--seed", "9", "--blocks", "30-36", "--out-dir", str(out),
                                      "--dict", str(words)])
    assert result.exit_code == 0, result.output
    suite = load_suite(str(out))  # the dictionary file resolves from the manifest
    assert {(i.dictionary, i.dictionary_path) for i in suite.instances} == {
        ("words", str(words.resolve()))}
    manifest = json.loads((out / "suite.json").read_text())
    assert manifest["generator"]["seeds"] == [9] and len(manifest["grids"]) == 3
    expected = generate_patterns(15, 3, 9, 30, 36, max_words=78, max_cheaters=6)
    assert manifest["generator"]["max_words"] == 78 and manifest["generator"]["max_cheaters"] == 6
    for entry, grid in zip(manifest["grids"], expected):
        assert parse_grid((out / entry["file"]).read_text()) == grid
        assert entry["blocks"] == block_count(grid)
    two = CliRunner().invoke(app, ["grids", "generate", "--size", "9", "--count", "2", "--seed",
                                   "3-4", "--blocks", "6-12", "--out-dir", str(tmp_path / "two")])
    assert two.exit_code == 0, two.output
    assert [e["file"] for e in json.loads((tmp_path / "two" / "suite.json").read_text())[
        "grids"]] == ["g9-s3-000.txt", "g9-s3-001.txt", "g9-s4-000.txt", "g9-s4-001.txt"]
    bad = CliRunner().invoke(app, ["grids", "generate", "--blocks", "many", "--out-dir", str(out)])
    assert bad.exit_code == 2 and bad.stderr.startswith("xwsat: error: --blocks")


@pytest.mark.parametrize(("size", "lo", "hi"), [(15, 30, 36), (21, 60, 72)])
def test_constructor_caps_bound_words_and_cheaters(size: int, lo: int, hi: int) -> None:
    words, cheats = word_ceiling(size), cheater_cap(size)
    for grid in generate_patterns(size, 4, 5, lo, hi, max_words=words, max_cheaters=cheats):
        assert_legal(grid, size, lo, hi)
        stats = pattern_stats(grid)
        assert stats.words <= words and len(stats.cheaters) <= cheats


def test_word_ceiling_follows_editors() -> None:
    assert (word_ceiling(15), word_ceiling(15, themeless=True)) == (78, 72)
    assert (word_ceiling(21), word_ceiling(21, themeless=True)) == (140, 144)
    assert word_ceiling(5) == 10 and 78 < word_ceiling(17) < 140
    assert cheater_cap(15) == 6


def test_cli_defaults_to_constructor_rules_and_legacy_remakes_a_suite(tmp_path) -> None:
    out = tmp_path / "new"
    made = CliRunner().invoke(app, ["grids", "generate", "--count", "10", "--seed", "97",
                                    "--blocks", "30-36", "--out-dir", str(out)])
    assert made.exit_code == 0, made.output
    cheats = [len(pattern_stats(parse_grid(f.read_text())).cheaters)
              for f in sorted(out.glob("*.txt"))]
    assert len(cheats) == 10 and max(cheats) <= 6
    suite = Path(__file__).parents[2] / "grids" / "heldout15"
    command = json.loads((suite / "suite.json").read_text())["generator"]["command"]
    args = command.split()[1:]
    args[args.index("--out-dir") + 1] = str(tmp_path / "again")
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    for old in sorted(suite.glob("g15-*.txt")):
        assert (tmp_path / "again" / old.name).read_text() == old.read_text()
    both = CliRunner().invoke(app, ["grids", "generate", "--legacy", "--max-cheaters", "3",
                                    "--out-dir", str(tmp_path / "x")])
    assert both.exit_code == 2 and "--legacy" in both.stderr


@pytest.mark.parametrize("size,max_run", [(15, 5), (9, 4), (7, 3), (15, 6)])
def test_a_max_run_no_block_can_reach_is_said_not_a_crash(size, max_run):
    """A run of 4-6 cannot be split by one block into two of 3 or more: the generator once
    drew from an empty range (an internal error)."""
    try:
        patterns = generate_patterns(size, 2, 0, max_run=max_run)
    except XwsatError as error:
        assert "--max-run" in str(error) or "distinct pattern" in str(error)
    else:
        assert all(len(run) <= max_run for grid in patterns
                   for row in [*grid.rows, *map("".join, zip(*grid.rows))]
                   for run in row.split("#") if run)
