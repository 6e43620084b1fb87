"""Grid text format and slot extraction with standard numbering."""

from __future__ import annotations

import pytest

from xwsat.errors import XwsatError
from xwsat.grid import extract_slots, parse_grid


def test_parse_empty_markers_blocks_and_letters() -> None:
    grid = parse_grid("._#\na?B\n")
    assert grid.rows == ("..#", "A.B")
    assert (grid.height, grid.width) == (2, 3)
    assert grid.given_letters() == {3: "A", 5: "B"}
    assert not grid.is_white(2)


def test_parse_keeps_cyrillic_and_enye_upper_cased() -> None:
    grid = parse_grid("ж.\n.ñ\n")
    assert grid.rows == ("Ж.", ".Ñ")
    assert grid.given_letters() == {0: "Ж", 3: "Ñ"}


def test_parse_normalises_decomposed_letter_to_one_cell() -> None:
    grid = parse_grid("n\u0303.\n..")  # N + combining tilde = one cell
    assert grid.rows == ("Ñ.", "..")


def test_parse_ignores_surrounding_blank_lines_and_trailing_spaces() -> None:
    grid = parse_grid("\n\n..#  \r\n...\n\n")
    assert grid.rows == ("..#", "...")


def test_ragged_rows_are_an_error() -> None:
    with pytest.raises(XwsatError, match="different widths"):
        parse_grid("...\n..\n")


@pytest.mark.parametrize("bad", ["*", "1", "+", " "])
def test_unknown_character_is_an_error_naming_line_and_column(bad: str) -> None:
    with pytest.raises(XwsatError, match="line 2, column 2"):
        parse_grid(f"...\n.{bad}.\n")


@pytest.mark.parametrize("text", ["", "\n\n", "   \n"])
def test_blank_grid_is_an_error(text: str) -> None:
    with pytest.raises(XwsatError, match="empty"):
        parse_grid(text)


def test_blank_line_inside_grid_is_an_error() -> None:
    with pytest.raises(XwsatError, match="blank"):
        parse_grid("..\n\n..\n")


def test_letter_that_upper_cases_to_two_letters_does_not_widen_the_row() -> None:
    try:
        grid = parse_grid("ß.")
    except XwsatError:
        return  # refusing the character is acceptable
    assert grid.width == 2


# The grid used for numbering, with clue numbers worked out by hand:
#   1 2 3 #        1A: cells 0-2      1D: cells 0,4
#   4 . . 5        4A: cells 4-7      2D: cells 1,5,9
#   # 6 . .        6A: cells 9-11     3D: cells 2,6,10
#                                     5D: cells 7,11
NUMBERED = "...#\n....\n#...\n"


def test_slots_are_numbered_in_standard_order() -> None:
    slots = extract_slots(parse_grid(NUMBERED))
    assert [(s.name, s.row, s.col, s.cells) for s in slots] == [
        ("1A", 0, 0, (0, 1, 2)),
        ("4A", 1, 0, (4, 5, 6, 7)),
        ("6A", 2, 1, (9, 10, 11)),
        ("1D", 0, 0, (0, 4)),
        ("2D", 0, 1, (1, 5, 9)),
        ("3D", 0, 2, (2, 6, 10)),
        ("5D", 1, 3, (7, 11)),
    ]
    assert [s.index for s in slots] == list(range(7))
    assert [s.length for s in slots] == [3, 4, 3, 2, 3, 3, 2]


def test_min_length_drops_short_runs_and_renumbers() -> None:
    slots = extract_slots(parse_grid(NUMBERED), min_length=3)
    assert [s.name for s in slots] == ["1A", "4A", "5A", "2D", "3D"]
    assert [s.cells for s in slots] == [(0, 1, 2), (4, 5, 6, 7), (9, 10, 11), (1, 5, 9), (2, 6, 10)]


def test_min_length_one_makes_single_cells_slots() -> None:
    slots = extract_slots(parse_grid(".#\n#."), min_length=1)
    assert [(s.name, s.cells) for s in slots] == [("1A", (0,)), ("2A", (3,)), ("1D", (0,)),
                                                   ("2D", (3,))]


def test_min_length_below_one_is_an_error() -> None:
    with pytest.raises(XwsatError):
        extract_slots(parse_grid(".."), min_length=0)


def test_cells_in_only_one_slot() -> None:
    # Row 0 is a 3-letter across; the cells under it are blocks except the middle one,
    # so cells 0 and 2 are unchecked (across only) and the middle column is a 2-letter down.
    slots = extract_slots(parse_grid("...\n#.#\n"))
    assert [(s.name, s.cells) for s in slots] == [("1A", (0, 1, 2)), ("2D", (1, 4))]
    covering = {c: [s.name for s in slots if c in s.cells] for c in (0, 1, 2, 4)}
    assert covering == {0: ["1A"], 1: ["1A", "2D"], 2: ["1A"], 4: ["2D"]}


def test_grid_without_slots_gives_no_slots() -> None:
    assert extract_slots(parse_grid(".#\n#.")) == ()


def test_to_text_round_trips() -> None:
    grid = parse_grid("A.#\n..Ж\n")
    assert parse_grid(grid.to_text()) == grid


def test_the_grid_as_fill_prints_it_is_read_back() -> None:
    # "B A L E #" pasted from the terminal was "unexpected character ' '"
    assert parse_grid("B A L E #\n. . . . #\n").rows == ("BALE#", "....#")
    with pytest.raises(XwsatError, match="unexpected character"):
        parse_grid("B A L\nCDE\n")  # one row spaced, one not: no such reading
