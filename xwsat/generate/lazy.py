"""The rules checked on whole solutions and enforced lazily: white cells in one region, and no
word used twice. Both back-ends call these on a complete grid; CP-SAT turns a violation into a cut.
"""

from __future__ import annotations

from collections.abc import Sequence

BLOCK = "#"


def white_regions(rows: Sequence[str]) -> list[list[int]]:
    """The 4-connected regions of non-block cells, largest first (cell ids row-major)."""
    height, width = len(rows), len(rows[0])
    seen: set[int] = set()
    regions: list[list[int]] = []
    for start in range(height * width):
        if start in seen or rows[start // width][start % width] == BLOCK:
            continue
        region, stack = [], [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            region.append(cell)
            for nxt in neighbours(cell, width, height):
                if nxt not in seen and rows[nxt // width][nxt % width] != BLOCK:
                    seen.add(nxt)
                    stack.append(nxt)
        regions.append(sorted(region))
    return sorted(regions, key=len, reverse=True)


def neighbours(cell: int, width: int, height: int) -> list[int]:
    r, c = divmod(cell, width)
    out = []
    if r > 0:
        out.append(cell - width)
    if r < height - 1:
        out.append(cell + width)
    if c > 0:
        out.append(cell - 1)
    if c < width - 1:
        out.append(cell + 1)
    return out


def runs(rows: Sequence[str]) -> list[tuple[str, tuple[int, ...]]]:
    """(text, cell ids) of every maximal run of letters, across then down."""
    height, width = len(rows), len(rows[0])
    found: list[tuple[str, tuple[int, ...]]] = []
    lines = [tuple(r * width + c for c in range(width)) for r in range(height)]
    lines += [tuple(r * width + c for r in range(height)) for c in range(width)]
    for cells in lines:
        current: list[int] = []
        for cell in (*cells, -1):
            if cell >= 0 and rows[cell // width][cell % width] != BLOCK:
                current.append(cell)
                continue
            if current:
                text = "".join(rows[x // width][x % width] for x in current)
                found.append((text, tuple(current)))
            current = []
    return found


def repeated_runs(rows: Sequence[str]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Pairs of runs that spell the same word (each repeat reported against its first use)."""
    first: dict[str, tuple[int, ...]] = {}
    pairs = []
    for text, cells in runs(rows):
        if text in first:
            pairs.append((first[text], cells))
        else:
            first[text] = cells
    return pairs
