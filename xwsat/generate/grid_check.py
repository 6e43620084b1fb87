"""Independent checker for generated grids: re-reads the rows and trusts nothing the generator
computed (it imports no generator module). A grid passes when every maximal letter run is a
dictionary word of at least ``min_length`` letters, no word repeats (unless allowed), the white
cells form one region, the block cap and symmetry hold, and givens and theme entries are there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Sequence


def _lines(rows: Sequence[str]) -> list[tuple[str, int, str]]:
    cols = ["".join(row[c] for row in rows) for c in range(len(rows[0]))]
    return [("row", i, r) for i, r in enumerate(rows)] + [("column", i, c) for i, c in
                                                           enumerate(cols)]


def _regions(rows: Sequence[str]) -> int:
    """How many 4-connected regions of non-block cells there are."""
    white = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"}
    count = 0
    while white:
        count += 1
        todo = [white.pop()]
        while todo:
            r, c = todo.pop()
            for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if cell in white:
                    white.remove(cell)
                    todo.append(cell)
    return count


def check_generated(
    rows: Sequence[str],
    dictionary: Container[str],
    min_length: int = 3,
    max_blocks: int | None = None,
    symmetry: str = "none",
    allow_repeats: bool = False,
    givens: Sequence[str] | None = None,
    theme: Sequence[str] = (),
) -> list[str]:
    """Every problem with ``rows`` as a generated grid; an empty list means valid."""
    problems: list[str] = []
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        return ["the grid is not rectangular"]
    words: list[str] = []
    for kind, index, line in _lines(rows):
        for piece in line.split("#"):
            if not piece:
                continue
            where = f"{kind} {index + 1}: {piece}"
            if not piece.isalpha():
                problems.append(f"{where} has a cell that is neither a letter nor a block")
            elif len(piece) < min_length:
                problems.append(f"{where} is shorter than {min_length} letters")
            elif piece not in dictionary:
                problems.append(f"{where} is not a dictionary word")
            words.append(piece)
    if not allow_repeats:
        problems.extend(f"{w} appears {n} times" for w, n in sorted(Counter(words).items())
                        if n > 1)
    blocks = sum(row.count("#") for row in rows)
    if max_blocks is not None and blocks > max_blocks:
        problems.append(f"{blocks} blocks, more than the cap of {max_blocks}")
    if blocks < len(rows) * len(rows[0]) and _regions(rows) > 1:
        problems.append("the white cells are not one connected region")
    height, width = len(rows), len(rows[0])
    for r in range(height):
        for c in range(width):
            if symmetry == "rotational":
                other = rows[height - 1 - r][width - 1 - c]
            elif symmetry == "mirror":
                other = rows[r][width - 1 - c]
            else:
                continue
            if (rows[r][c] == "#") != (other == "#"):
                problems.append(f"row {r + 1}, column {c + 1}: breaks {symmetry} symmetry")
    if givens is not None:
        for r, (want, got) in enumerate(zip(givens, rows)):
            for c, (g, f) in enumerate(zip(want, got)):
                if g not in ".?_" and g != f:
                    problems.append(f"row {r + 1}, column {c + 1}: given {g} became {f}")
    for entry in theme:
        if entry not in words:
            problems.append(f"theme entry {entry} is not in the grid")
    return problems
