"""The independent fill checker: accepts a correct fill, rejects each kind of fault."""

from __future__ import annotations

from xwsat.verify import check_fill

# 1A AB, 3A CD, 1D AC, 2D BD -- and a block-bearing variant.
WORDS = frozenset({"AB", "CD", "AC", "BD", "ABC", "CAT", "AX", "TX"})
PATTERN = ("..", "..")
FILLED = ("AB", "CD")


def test_correct_fill_passes() -> None:
    assert check_fill(PATTERN, FILLED, WORDS) == []


def test_correct_fill_with_blocks_and_given_letters_passes() -> None:
    assert check_fill(("C..", "#.#"), ("CAT", "#X#"), WORDS) == []


def test_non_word_is_rejected() -> None:
    problems = check_fill(PATTERN, ("AB", "CE"), WORDS)
    assert any("CE is not a word" in p for p in problems)


def test_changed_block_is_rejected() -> None:
    problems = check_fill(("C..", "#.#"), ("CAT", "AX#"), WORDS)
    assert any("row 2, column 1: block changed" in p for p in problems)


def test_removed_block_is_rejected_even_if_runs_are_words() -> None:
    problems = check_fill((".#", ".."), ("AB", "CD"), WORDS)
    assert any("block changed" in p for p in problems)


def test_changed_given_letter_is_rejected() -> None:
    problems = check_fill(("A.", ".."), ("CD", "AB"), WORDS)
    assert any("given letter A replaced by C" in p for p in problems)


def test_repeated_word_is_rejected() -> None:
    problems = check_fill(PATTERN, ("AB", "BA"), {"AB", "BA"})  # rows AB BA, columns AB BA
    assert "AB appears 2 times" in problems and "BA appears 2 times" in problems


def test_repeated_word_is_accepted_when_repeats_allowed() -> None:
    assert check_fill(PATTERN, ("AB", "BA"), {"AB", "BA"}, allow_repeats=True) == []


def test_incomplete_cell_is_rejected() -> None:
    problems = check_fill(PATTERN, ("AB", "C."), WORDS)
    assert any("incomplete" in p for p in problems)


def test_wrong_shape_is_rejected() -> None:
    shape = ["the filled grid does not have the pattern's shape"]
    assert check_fill(PATTERN, ("AB",), WORDS) == shape
    assert check_fill(PATTERN, ("AB", "CDE"), WORDS) != []


def test_runs_shorter_than_min_length_are_not_checked() -> None:
    # Row 2 is the single letter X (a 1-letter run): ignored at min_length 2.
    assert check_fill(("C..", "#.#"), ("CAT", "#X#"), WORDS, min_length=2) == []
    assert check_fill(("C..", "#.#"), ("CAT", "#X#"), WORDS, min_length=1) != []
