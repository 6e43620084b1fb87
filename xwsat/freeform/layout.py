"""Free-form puzzles: the input entries, a layout of placed words, its grid and numbered clues."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.words import parse_entries, read_text_file, text_lines

ACROSS, DOWN = "across", "down"


@dataclass(frozen=True)
class Entry:
    """A word to place (normalised letters) with its clue."""

    word: str
    clue: str
    score: int = 50


@dataclass(frozen=True)
class Placement:
    entry: int          # index into the entry list
    row: int
    col: int
    direction: str      # ACROSS or DOWN

    def cells(self, length: int) -> list[tuple[int, int]]:
        if self.direction == ACROSS:
            return [(self.row, self.col + i) for i in range(length)]
        return [(self.row + i, self.col) for i in range(length)]


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    entries: tuple[Entry, ...]
    placed: tuple[Placement, ...]

    def letters(self) -> dict[tuple[int, int], str]:
        out: dict[tuple[int, int], str] = {}
        for p in self.placed:
            word = self.entries[p.entry].word
            for (r, c), ch in zip(p.cells(len(word)), word):
                out[(r, c)] = ch
        return out

    def rows(self) -> tuple[str, ...]:
        """The board, '#' where no word runs (so it reads as an ordinary grid file)."""
        cells = self.letters()
        return tuple("".join(cells.get((r, c), "#") for c in range(self.width))
                     for r in range(self.height))

    def crossings(self) -> int:
        seen: dict[tuple[int, int], int] = {}
        for p in self.placed:
            for cell in p.cells(len(self.entries[p.entry].word)):
                seen[cell] = seen.get(cell, 0) + 1
        return sum(1 for n in seen.values() if n > 1)

    def numbered(self) -> list[tuple[int, Placement]]:
        """Standard numbering: one number per start cell, row-major; across before down."""
        starts = sorted({(p.row, p.col) for p in self.placed})
        number = {cell: i + 1 for i, cell in enumerate(starts)}
        out = [(number[(p.row, p.col)], p) for p in self.placed]
        return sorted(out, key=lambda np_: (np_[1].direction != ACROSS, np_[0]))

    def cropped(self) -> Layout:
        """The same words on the smallest board that holds them (moved up and left)."""
        cells = self.letters()
        top, left = min(r for r, _ in cells), min(c for _, c in cells)
        width, height = self.bounding_box()
        placed = tuple(replace(p, row=p.row - top, col=p.col - left) for p in self.placed)
        return replace(self, width=width, height=height, placed=placed)

    def bounding_box(self) -> tuple[int, int]:
        cells = self.letters()
        if not cells:
            return 0, 0
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        return max(cols) - min(cols) + 1, max(rows) - min(rows) + 1


def read_entries(path_text: str, source: str) -> tuple[list[Entry], list[str]]:
    """Entries from ``WORD;SCORE;CLUE`` or ``word — description`` lines, duplicates merged.

    Returns the entries and notes on what was left out (too short, unusable).
    """
    entries, skipped = parse_entries(text_lines(path_text), source)
    notes = [f"{skipped} line(s) were not words and were skipped"] if skipped else []
    out = []
    for word, (score, clue) in entries.items():
        if len(word) < 2:
            notes.append(f"{word}: one letter is not an entry; skipped")
            continue
        out.append(Entry(word, clue or "", score))  # never the answer as its own clue
    if not out:
        raise XwsatError(f"{source}: no words to place")
    return out, notes


def load_entries(path) -> tuple[list[Entry], list[str]]:
    return read_entries(read_text_file(Path(path)), str(path))
