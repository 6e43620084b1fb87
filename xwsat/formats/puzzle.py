"""A puzzle as files carry it: pattern (blocks, given letters), optional solution, clues.

Every reader returns a ``Puzzle`` and every writer takes one, so the formats convert through
one value and standard numbering is computed in one place (``xwsat.grid.extract_slots``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xwsat.errors import XwsatError
from xwsat.grid import BLOCK, EMPTY, Grid, Slot, check_size, extract_slots


@dataclass(frozen=True)
class Puzzle:
    """Pattern (``.`` empty, ``#`` block, letters given), an optional full solution, clues.

    ``clues`` maps a slot name ("1A", "3D") to its clue text; missing clues are allowed.
    ``copyright``, ``notes`` and ``circles`` (circled cells by id, a theme's usual marking) are
    carried from format to format as the files hold them; ``locked`` names the entries the
    constructor locked (xwsat's ``.json`` keeps them, the other formats have no place for them),
    and ``bans`` the words the constructor banned for this puzzle (``.json`` too);
    ``word_list`` the list it was made with and the minimum score, (name, score): the
    workbench's choice, which its ``.json`` keeps and an Open takes again.
    ``dropped`` says what the reader read
    but could not keep (a scrambled solution, a letter on a block), for a command that writes
    the puzzle again to tell its user rather than lose it silently.
    """

    pattern: Grid
    solution: Grid | None = None
    clues: dict[str, str] = field(default_factory=dict)
    title: str = ""
    author: str = ""
    min_length: int = 2
    copyright: str = ""
    notes: str = ""
    circles: frozenset[int] = frozenset()
    locked: frozenset[str] = frozenset()
    bans: tuple[str, ...] = ()
    word_list: tuple[str, int] | None = None
    dropped: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        shape = (self.pattern.height, self.pattern.width)
        if self.solution is not None and (self.solution.height, self.solution.width) != shape:
            raise XwsatError("the solution does not have the pattern's shape")

    @property
    def slots(self) -> tuple[Slot, ...]:
        return extract_slots(self.pattern, self.min_length)

    def unclued(self) -> int:
        """How many entries have no clue yet."""
        return sum(1 for slot in self.slots if not (self.clues.get(slot.name) or "").strip())

    def numbering(self) -> dict[int, int]:
        """Clue number of each cell that starts a slot (standard numbering)."""
        return numbering(self.pattern, self.min_length)

    def answer(self, slot: Slot) -> str | None:
        """The slot's word in the solution, or None when there is no complete solution."""
        if self.solution is None:
            return None
        text = "".join(self.solution.cell(c) for c in slot.cells)
        return None if EMPTY in text else text

    def letters(self) -> set[str]:
        """Every letter used by the pattern and the solution."""
        grids = [self.pattern] + ([self.solution] if self.solution else [])
        return {ch for g in grids for row in g.rows for ch in row if ch not in (BLOCK, EMPTY)}


def numbering(grid: Grid, min_length: int = 2) -> dict[int, int]:
    """Cell id -> clue number for the cells that start a slot (standard numbering)."""
    return {s.cells[0]: s.number for s in extract_slots(grid, min_length)}


def upper_letter(ch: str, source: str, where: str) -> str:
    """A cell's letter in upper case; a letter with no one-letter capital (ß is SS) is refused
    as a text grid refuses it, naming the letter the file holds."""
    upper = ch.upper()
    if len(upper) != 1:
        raise XwsatError(f"{source}: {where}: letter {ch!r} has no single upper-case form; "
                         f"write it as the dictionary does ({upper!r} is 2 cells)")
    return upper


def make_grid(rows: list[list[str]], source: str) -> Grid:
    """A Grid from cells already mapped to '#', '.' or one upper-case letter."""
    if not rows or not rows[0]:
        raise XwsatError(f"{source}: the grid is empty")
    check_size(len(rows), max(len(r) for r in rows), source)
    if len({len(r) for r in rows}) != 1:
        raise XwsatError(f"{source}: rows have different widths")
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if len(ch) != 1 or not (ch in (BLOCK, EMPTY) or ch.isalpha()):
                raise XwsatError(
                    f"{source}: row {r + 1}, column {c + 1}: cell {ch!r} is not a block, an "
                    "empty cell or one letter")
    return Grid(tuple("".join(row) for row in rows))
