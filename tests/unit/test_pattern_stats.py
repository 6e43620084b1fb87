"""The pattern's figures as constructors read them (``xwsat.pattern_stats``)."""

from __future__ import annotations

from xwsat.grid import parse_grid
from xwsat.pattern_stats import asymmetric_cells, cheaters, pattern_stats, shared_pieces


def test_word_count_blocks_and_lengths_of_a_small_pattern():
    stats = pattern_stats(parse_grid("...#\n....\n....\n#...\n"))
    assert stats.words == 8 and stats.blocks == 2
    assert stats.three_letter == 4 and stats.mean_length == 3.5
    assert stats.two_letter == () and stats.regions == 1


def test_a_block_that_only_shortens_words_is_a_cheater():
    # the corner block at the end of 1A and above 5D adds no word: whitening it keeps 8
    grid = parse_grid("....#\n.....\n.....\n.....\n#....\n")
    assert cheaters(grid) == (4, 20)
    # a block in the middle of a wall splits words: not a cheater
    assert cheaters(parse_grid(".....\n.....\n..#..\n.....\n.....\n")) == ()


def test_broken_rotational_symmetry_names_both_cells_mirror_checks_left_right():
    grid = parse_grid("#....\n.....\n.....\n.....\n.....\n")
    assert asymmetric_cells(grid, "rotational") == (0, 24)
    assert asymmetric_cells(grid, "mirror") == (0, 4)
    assert asymmetric_cells(grid, "none") == ()


def test_disconnected_white_regions_and_two_letter_runs_are_counted():
    stats = pattern_stats(parse_grid("..#..\n..#..\n#####\n..#..\n..#..\n"))
    assert stats.regions == 4
    assert len(stats.two_letter) == 16


def test_repeated_entries_and_a_short_entry_inside_a_long_one_are_flagged():
    entries = {"1A": "CHEESECAKE", "5D": "CAKE", "7A": "OCEAN", "9D": "TOAST", "11A": "ACE",
               "12D": "PANCAKES", "13A": "ALATE", "14A": "PLATE"}
    # CAKE inside two longer entries; PANCAKES and CHEESECAKE share only 4 letters, ALATE and
    # PLATE too, ACE is too short to count
    assert shared_pieces(entries) == [("12D", "5D", "CAKE"), ("1A", "5D", "CAKE")]
    assert shared_pieces({"1A": "CHEESECAKE", "12D": "LATECAKES"}) == [("12D", "1A", "ECAKE")]
    stats = pattern_stats(parse_grid("CAT#\n...#\n####\nCAT#\n"))
    assert stats.repeated == (("1A", "5A"),)


def test_info_prints_the_pattern_lines(tmp_path):
    from typer.testing import CliRunner

    from xwsat.cli import app

    grid = tmp_path / "g.txt"
    grid.write_text("#....\n.....\n.....\n.....\n.....\n")
    words = tmp_path / "w.txt"
    words.write_text("ABCDE\nABCD\n")
    result = CliRunner().invoke(app, ["info", str(grid), "--dict", str(words)])
    assert "rotational symmetry broken at 2 cells" in result.output


def test_info_counts_the_slots_of_its_min_length():
    from xwsat.info import grid_info
    from xwsat.words import build_wordlist

    grid = parse_grid("...#\n...#\n....\n##..\n")
    words = build_wordlist({"CAT": (50, None), "ARE": (50, None)}, None, "test")
    report = grid_info(grid, words, 3, False)
    assert len(report.slots) == 6 and report.pattern.words == 6
    assert report.pattern.two_letter == ()
