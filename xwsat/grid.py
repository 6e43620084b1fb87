"""Grid patterns: blocks, empty cells and pre-placed letters; slot extraction and numbering.

A grid knows nothing of solvers. Cells are numbered row-major (``r * width + c``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from xwsat.errors import GridTooLarge, XwsatError

BLOCK = "#"
EMPTY = "."
_EMPTY_INPUT = {".", "_", "?"}
MAX_SIDE = 50  # rows and columns; the largest published grids are about 25 (memory grows with
# the slots times their candidates: 200x200 of short slots took 1.8 GB before a first answer)


def check_size(height: int, width: int, source: str) -> None:
    """Refuse a grid too large to be a crossword, before anything is built from it."""
    if height > MAX_SIDE or width > MAX_SIDE:
        raise GridTooLarge(f"{source}: the grid is {width}x{height}; xwsat takes grids of up "
                           f"to {MAX_SIDE}x{MAX_SIDE}", width, height)


@dataclass(frozen=True)
class Slot:
    """A maximal run of white cells, across ("A") or down ("D"), with its clue number."""

    index: int
    number: int
    direction: str
    row: int
    col: int
    cells: tuple[int, ...]

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def name(self) -> str:
        return f"{self.number}{self.direction}"


@dataclass(frozen=True)
class Grid:
    """An immutable grid: each cell is BLOCK, EMPTY or one (normalised, upper-case) letter."""

    rows: tuple[str, ...]
    # the cells whose letters are a locked entry's (``--lock``), for the words that name them:
    # not part of what the grid is (equal grids may differ here)
    locked: frozenset[int] = field(default=frozenset(), compare=False)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def cell(self, index: int) -> str:
        return self.rows[index // self.width][index % self.width]

    def given_kind(self, index: int) -> str:
        """What a given letter is called where it is named: a locked entry's, or the grid's."""
        return "locked" if index in self.locked else "given"

    def is_white(self, index: int) -> bool:
        return self.cell(index) != BLOCK

    def given_letters(self) -> dict[int, str]:
        """Pre-placed letters by cell id."""
        return {
            r * self.width + c: ch
            for r, row in enumerate(self.rows)
            for c, ch in enumerate(row)
            if ch not in (BLOCK, EMPTY)
        }

    def with_letters(self, letters: dict[int, str]) -> Grid:
        """A copy with the given cells set (used to show a fill)."""
        cells = [list(row) for row in self.rows]
        for index, ch in letters.items():
            cells[index // self.width][index % self.width] = ch
        return Grid(tuple("".join(row) for row in cells), self.locked)

    def map_letters(self, convert: Callable[[str], str]) -> Grid:
        """A copy with every given letter passed through ``convert`` (dictionary folding)."""
        return Grid(tuple(
            "".join(ch if ch in (BLOCK, EMPTY) else convert(ch) for ch in row) for row in self.rows
        ), self.locked)

    def to_text(self) -> str:
        return "\n".join(self.rows) + "\n"


def parse_grid(text: str, source: str = "grid") -> Grid:
    """Read the text format: one row per line, '.'/'_'/'?' empty, '#' block, a letter pre-placed.

    Blank lines at the ends and trailing spaces are ignored; rows must all be the same width.
    Cells one space apart (the grid as ``fill`` prints it, pasted into a file) are read too.
    """
    text = text.strip("\r\n")  # (first: a file of millions of blank lines is not split)
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    if not lines:
        raise XwsatError(f"{source}: the grid is empty")
    if all(len(line) > 1 and len(line) % 2 and line[1::2].strip(" ") == "" for line in lines):
        lines = [line[::2] for line in lines]  # "B A L E #": the grid as xwsat prints it
    check_size(len(lines), max(len(unicodedata.normalize("NFC", line)) for line in lines),
               source)
    rows: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line:
            raise XwsatError(f"{source}: line {number} is blank inside the grid")
        row = []
        for col, ch in enumerate(unicodedata.normalize("NFC", line), start=1):
            if ch in _EMPTY_INPUT:
                row.append(EMPTY)
            elif ch == BLOCK:
                row.append(BLOCK)
            elif ch.isalpha():
                upper = ch.upper()
                if len(upper) != 1:
                    raise XwsatError(
                        f"{source}: line {number}, column {col}: letter {ch!r} has no single "
                        f"upper-case form; write it as the dictionary does ({upper!r} is 2 cells)"
                    )
                row.append(upper)
            else:
                raise XwsatError(
                    f"{source}: line {number}, column {col}: unexpected character {ch!r} "
                    f"(use '.' for an empty cell, '#' for a block, or a letter)"
                )
        rows.append("".join(row))
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        short = min(range(len(rows)), key=lambda i: len(rows[i]))
        raise XwsatError(
            f"{source}: rows have different widths ({min(widths)} to {max(widths)}); "
            f"line {short + 1} has {len(rows[short])} cells"
        )
    return Grid(tuple(rows))


def extract_slots(grid: Grid, min_length: int = 2) -> tuple[Slot, ...]:
    """All across and down runs of at least ``min_length`` white cells, in clue order.

    Numbering is the standard one: a cell gets a number when it starts a slot, counting row-major.
    Across slots come first, then down slots, each in numbering order.
    """
    if min_length < 1:
        raise XwsatError("--min-length must be at least 1")
    width, height = grid.width, grid.height
    starts: list[tuple[int, str, tuple[int, ...]]] = []
    for r in range(height):
        for c in range(width):
            if not grid.is_white(r * width + c):
                continue
            if c == 0 or not grid.is_white(r * width + c - 1):
                run = []
                cc = c
                while cc < width and grid.is_white(r * width + cc):
                    run.append(r * width + cc)
                    cc += 1
                if len(run) >= min_length:
                    starts.append((r * width + c, "A", tuple(run)))
            if r == 0 or not grid.is_white((r - 1) * width + c):
                run = []
                rr = r
                while rr < height and grid.is_white(rr * width + c):
                    run.append(rr * width + c)
                    rr += 1
                if len(run) >= min_length:
                    starts.append((r * width + c, "D", tuple(run)))
    numbers: dict[int, int] = {}
    for cell, _, _ in sorted(starts):
        numbers.setdefault(cell, len(numbers) + 1)
    ordered = sorted(starts, key=lambda s: (s[1] != "A", numbers[s[0]]))
    return tuple(
        Slot(index=i, number=numbers[cell], direction=d, row=cell // width, col=cell % width,
             cells=cells)
        for i, (cell, d, cells) in enumerate(ordered)
    )


def slot_range(slots: tuple[Slot, ...]) -> str:
    """"across 1A to 19A, down 1D to 16D": what a user may name, for a message about a slot
    the grid lacks (across and down are numbered apart, so one range would mislead)."""
    parts = []
    for direction, label in (("A", "across"), ("D", "down")):
        names = [s.name for s in slots if s.direction == direction]
        if names:
            parts.append(f"{label} {names[0]}" + (f" to {names[-1]}" if len(names) > 1 else ""))
    return ", ".join(parts) or "none"
