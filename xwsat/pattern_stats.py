"""A pattern as constructors read it: word count, blocks, cheaters, symmetry, connectivity.

These are the numbers editors check before a grid is filled (a 15x15 themed daily keeps to 78
words, rotational symmetry, no 2-letter words, every white cell connected, few "cheater"
blocks that add no word), and, once entries are in, whether two of them repeat or share a
long piece (CAKE and CHEESECAKE). ``xwsat info`` prints them and the workbench shows them live.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from xwsat.grid import BLOCK, EMPTY, Grid, Slot, extract_slots

SYMMETRIES = ("rotational", "mirror", "none")
SHARED_LETTERS = 5  # a piece this long in two entries is flagged (CHEESECAKE / PANCAKES)
INSIDE_LETTERS = 4  # an entry this long inside another is flagged (CAKE / CHEESECAKE)


def partners(cell: int, height: int, width: int, symmetry: str) -> tuple[int, ...]:
    """The cells a block at ``cell`` is mirrored to under ``symmetry`` (itself excluded):
    rotational is 180-degree turn, mirror is left-right."""
    r, c = divmod(cell, width)
    if symmetry == "rotational":
        other = (height - 1 - r) * width + (width - 1 - c)
    elif symmetry == "mirror":
        other = r * width + (width - 1 - c)
    elif symmetry == "none":
        return ()
    else:
        raise ValueError(f"unknown symmetry {symmetry!r}; one of {', '.join(SYMMETRIES)}")
    return () if other == cell else (other,)


def asymmetric_cells(grid: Grid, symmetry: str) -> tuple[int, ...]:
    """Cells whose block/white state differs from their partner's under ``symmetry``."""
    if symmetry == "none":
        return ()
    flat = "".join(grid.rows)
    return tuple(cell for cell, ch in enumerate(flat)
                 if any((ch == BLOCK) != (flat[o] == BLOCK)
                        for o in partners(cell, grid.height, grid.width, symmetry)))


def _run(grid: Grid, row: int, col: int, dr: int, dc: int) -> int:
    """White cells in a line from (row, col) (exclusive) in direction (dr, dc)."""
    count = 0
    r, c = row + dr, col + dc
    while 0 <= r < grid.height and 0 <= c < grid.width and grid.rows[r][c] != BLOCK:
        count += 1
        r, c = r + dr, c + dc
    return count


def cheaters(grid: Grid, min_length: int = 2) -> tuple[int, ...]:
    """Blocks beside a white cell whose removal would leave the word count as it is: they
    shape the grid without adding a word (constructors' "cheater" squares)."""
    found = []
    for cell in range(grid.height * grid.width):
        if grid.cell(cell) != BLOCK:
            continue
        r, c = divmod(cell, grid.width)
        change = 0
        touches = False
        for (dr, dc) in ((0, 1), (1, 0)):
            before, after = _run(grid, r, c, -dr, -dc), _run(grid, r, c, dr, dc)
            touches = touches or before > 0 or after > 0
            change += (int(before + after + 1 >= min_length) - int(before >= min_length)
                       - int(after >= min_length))
        if touches and change == 0:
            found.append(cell)
    return tuple(found)


def white_regions(grid: Grid) -> list[list[int]]:
    """The white cells in groups connected across and down, largest first."""
    seen: set[int] = set()
    regions = []
    for start in range(grid.height * grid.width):
        if start in seen or not grid.is_white(start):
            continue
        stack, region = [start], []
        seen.add(start)
        while stack:
            cell = stack.pop()
            region.append(cell)
            r, c = divmod(cell, grid.width)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                other = rr * grid.width + cc
                if (0 <= rr < grid.height and 0 <= cc < grid.width and other not in seen
                        and grid.is_white(other)):
                    seen.add(other)
                    stack.append(other)
        regions.append(sorted(region))
    return sorted(regions, key=len, reverse=True)


def longest_shared(a: str, b: str) -> str:
    """The longest piece of letters that ``a`` and ``b`` both contain."""
    best = ""
    for i in range(len(a)):
        for j in range(i + len(best) + 1, len(a) + 1):
            if a[i:j] in b:
                best = a[i:j]
            else:
                break
    return best


def shared_pieces(entries: dict[str, str], least: int = SHARED_LETTERS,
                  inside: int = INSIDE_LETTERS) -> list[tuple[str, str, str]]:
    """Pairs of distinct entries that share ``least`` or more letters in a row, as
    (slot, slot, the piece); a short entry wholly inside a longer one counts from ``inside``
    letters."""
    by_piece: dict[str, list[str]] = {}  # every piece of ``inside`` letters: both kinds share one
    for name, word in entries.items():
        for i in range(len(word) - inside + 1):
            by_piece.setdefault(word[i:i + inside], []).append(name)
    pairs: set[tuple[str, str]] = set()
    for names in by_piece.values():
        names = list(dict.fromkeys(names))
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if a != b and entries[a] != entries[b]:
                    pairs.add((a, b) if a < b else (b, a))
    found = []
    for a, b in sorted(pairs):
        piece = longest_shared(entries[a], entries[b])
        inside = piece in (entries[a], entries[b])
        if len(piece) >= least or inside:
            found.append((a, b, piece))
    return found


@dataclass(frozen=True)
class PatternStats:
    """The pattern's figures; cells are grid cell ids, entries slot names."""

    words: int
    blocks: int
    mean_length: float
    three_letter: int
    two_letter: tuple[str, ...]
    cheaters: tuple[int, ...]
    symmetry: str  # the symmetry checked
    asymmetric: tuple[int, ...]  # cells breaking it
    regions: int  # groups of connected white cells (1 when connected)
    repeated: tuple[tuple[str, ...], ...]  # slot names holding the same complete entry
    shared: tuple[tuple[str, str, str], ...]  # (slot, slot, piece)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def as_lines(self) -> list[str]:
        """The figures in a constructor's words, a line each."""
        lines = [f"{self.words} words, {self.blocks} blocks, mean length "
                 f"{self.mean_length:.2f}, {self.three_letter} of 3 letters, "
                 f"{len(self.cheaters)} cheaters"]
        if self.asymmetric:
            lines.append(f"{self.symmetry} symmetry broken at {len(self.asymmetric)} cells")
        if self.regions > 1:
            lines.append(f"white cells fall into {self.regions} disconnected regions")
        if self.two_letter:
            lines.append(f"2-letter entries: {', '.join(self.two_letter)}")
        for names in self.repeated:
            lines.append(f"repeated entry: {', '.join(names)}")
        for a, b, piece in self.shared:
            lines.append(f"{a} and {b} share {piece}")
        return lines


def pattern_stats(grid: Grid, symmetry: str = "rotational",
                  slots: tuple[Slot, ...] | None = None) -> PatternStats:
    """Every figure of ``grid`` (slots of 2+ letters are its words)."""
    slots = extract_slots(grid, 2) if slots is None else slots
    entries = {s.name: "".join(grid.cell(c) for c in s.cells) for s in slots}
    complete = {n: w for n, w in entries.items() if EMPTY not in w}
    by_word: dict[str, list[str]] = {}
    for name, word in complete.items():
        by_word.setdefault(word, []).append(name)
    lengths = [s.length for s in slots]
    return PatternStats(
        words=len(slots),
        blocks=sum(row.count(BLOCK) for row in grid.rows),
        mean_length=round(sum(lengths) / len(lengths), 2) if lengths else 0.0,
        three_letter=sum(1 for n in lengths if n == 3),
        two_letter=tuple(s.name for s in slots if s.length == 2),
        cheaters=cheaters(grid),
        symmetry=symmetry,
        asymmetric=asymmetric_cells(grid, symmetry),
        regions=len(white_regions(grid)),
        repeated=tuple(tuple(names) for names in by_word.values() if len(names) > 1),
        shared=tuple(shared_pieces(complete)),
    )
