"""Pattern suggestions around theme entries: every constructors' rule, a verified fill each,
the seed's determinism, and bad input as one line with exit 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.errors import XwsatError
from xwsat.grid import BLOCK, EMPTY, parse_grid
from xwsat.grid_patterns import cheater_cap, check_pattern, word_ceiling
from xwsat.pattern_stats import pattern_stats
from xwsat.pattern_suggest import PatternRules, suggest_patterns, theme_entries, theme_start
from xwsat.verify import check_fill
from xwsat.words import load_words

THEME15 = "\n".join(["." * 15] * 2 + ["ACCOMPLISHMENTS"] + ["." * 15] * 4 + ["...AFTERNOON..."]
                     + ["." * 15] * 4 + ["ADMINISTRATIONS"] + ["." * 15] * 2) + "\n"
THEME9 = "\n".join(["." * 9] * 4 + ["AFTERNOON"] + ["." * 9] * 4) + "\n"


@pytest.fixture(scope="module")
def english():
    return load_words("en")


def blocks_of(grid) -> list[list[bool]]:
    return [[ch == BLOCK for ch in row] for row in grid.rows]


def test_suggestions_obey_every_rule_and_come_filled(english) -> None:
    theme = parse_grid(THEME9)
    report = suggest_patterns(theme, english, count=3, seed=4, time_limit=60)
    assert len(report.suggestions) == 3 and report.entries == ("AFTERNOON",)
    for found in report.suggestions:
        assert check_pattern(blocks_of(found.pattern)) == []  # symmetric, runs >= 3, connected
        stats = pattern_stats(found.pattern)
        assert stats.words <= word_ceiling(9) and len(stats.cheaters) <= cheater_cap(9)
        assert found.pattern.rows[4] == "AFTERNOON" == found.fill.rows[4]
        assert check_fill(found.pattern.rows, found.fill.rows, set(english.words),
                          min_length=3) == []
    keys = [f.sort_key() for f in report.suggestions]
    assert keys == sorted(keys)


def test_caps_given_are_kept(english) -> None:
    report = suggest_patterns(parse_grid(THEME15), english, count=2, seed=1, time_limit=60,
                              rules=PatternRules(max_words=74, max_cheaters=3))
    assert report.entries == ("ACCOMPLISHMENTS", "AFTERNOON", "ADMINISTRATIONS")
    assert report.suggestions
    for found in report.suggestions:
        assert check_pattern(blocks_of(found.pattern)) == []
        stats = pattern_stats(found.pattern)
        assert stats.words <= 74 and len(stats.cheaters) <= 3


def test_same_seed_same_suggestions(english) -> None:
    def patterns(seed: int) -> list[tuple[str, ...]]:
        report = suggest_patterns(parse_grid(THEME9), english, count=2, seed=seed,
                                  time_limit=60)
        return [f.pattern.rows for f in report.suggestions]

    assert patterns(7) == patterns(7)
    assert patterns(7) != patterns(8)


def test_theme_entries_get_blocks_at_both_ends_and_their_partners() -> None:
    grid = parse_grid("\n".join(["." * 9] * 2 + [".CAT....."] + ["." * 9] * 6) + "\n")
    assert [w for w, _ in theme_entries(grid)] == ["CAT"]
    blocks, white = theme_start(grid)
    assert {(2, 0), (2, 4), (6, 8), (6, 4)} <= blocks
    assert white == {(2, 1), (2, 2), (2, 3)}


@pytest.mark.parametrize("rows", [
    ["." * 9] * 4 + ["..CAT...."] + ["." * 9] * 4,  # its end's partner falls on its own letter
    ["AF#......"] + ["." * 9] * 8,  # letters in a run too short to be a word
])
def test_a_theme_no_symmetric_pattern_holds_is_bad_input(rows: list[str]) -> None:
    with pytest.raises(XwsatError):
        theme_start(parse_grid("\n".join(rows) + "\n"))


def test_cli_writes_patterns_and_fills_and_keeps_files(tmp_path) -> None:
    theme = tmp_path / "theme.txt"
    theme.write_text(THEME9)
    out = tmp_path / "out"
    args = ["grids", "suggest", str(theme), "--count", "2", "-t", "60", "-o", str(out), "-q"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "2 fillable" in result.stdout and "verified" in result.stdout
    pattern = parse_grid((out / "pattern-1.txt").read_text())
    fill = parse_grid((out / "fill-1.txt").read_text())
    assert pattern.rows[4] == "AFTERNOON" and EMPTY in "".join(pattern.rows)
    assert EMPTY not in "".join(fill.rows)
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 2 and "--force" in again.stderr


@pytest.mark.parametrize(("grid", "extra", "said"), [
    ("....\n....\n....\n", [], "square"),
    (THEME9, ["--count", "0"], "--count"),
    (THEME9, ["--max-words", "5"], "word ceiling"),
    (THEME9, ["--try-limit", "0"], "--try-limit"),
    ("\n".join(["#.#.#.#.#"] * 9) + "\n", [], "the grid's blocks come to 81 blocks"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, grid: str, extra: list[str],
                                          said: str) -> None:
    path = tmp_path / "g.txt"
    path.write_text(grid)
    result = CliRunner().invoke(app, ["grids", "suggest", str(path), *extra])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and said in result.stderr
    missing = CliRunner().invoke(app, ["grids", "suggest", str(tmp_path / "none.txt")])
    assert missing.exit_code == 2 and missing.stderr.startswith("xwsat: error:")


def test_a_theme_entry_the_list_lacks_is_named_with_its_lock() -> None:
    """The search holds such an entry as --lock does; the pattern file alone would not fill."""
    from xwsat.commands.grids import _theme_locks

    pattern = parse_grid("QZXJV\n.....\n#...#\n")
    assert _theme_locks(pattern, {"CAT"}) == ["1A=QZXJV"]
    assert _theme_locks(pattern, {"QZXJV"}) == []


def test_ctrl_c_in_a_pattern_search_stops_the_search_for_more(english, monkeypatch) -> None:
    """The fill search catches Ctrl-C and returns stopped; no pattern is tried after it (the
    first look of a small grid needs no child, so nothing else would stop the loop)."""
    from types import SimpleNamespace

    import xwsat.pattern_suggest as suggest
    from xwsat import guard
    from xwsat.outcome import Status, Stop

    calls = []

    def stopped_search(*args, **kwargs):
        calls.append(1)
        guard.interruption(KeyboardInterrupt())  # what the search does with the signal
        return SimpleNamespace(outcome=SimpleNamespace(status=Status.UNKNOWN,
                                                       stop=Stop.INTERRUPTED),
                               verified=False, filled=None)

    monkeypatch.setattr(suggest, "fill_grid", stopped_search)
    with guard.one_command():
        report = suggest_patterns(parse_grid(THEME9), english, count=3, seed=4, time_limit=60)
    assert report.interrupted and len(calls) == 1 and not report.suggestions
