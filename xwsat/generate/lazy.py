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


Literal = tuple[int, int, bool]   # (cell, symbol, True: "cell is symbol" / False: "is not")


def run_literals(cells: tuple[int, ...], symbols: list[int], block: int,
                 width: int, n_cells: int) -> list[Literal]:
    """What makes this exact run sit here: its symbols, and blocks (or edges) around it."""
    lits = [(c, s, True) for c, s in zip(cells, symbols)]
    step = cells[1] - cells[0] if len(cells) > 1 else 1
    before, after = cells[0] - step, cells[-1] + step
    across = step == 1 and (len(cells) > 1 or width > 1)
    if (before // width == cells[0] // width and before >= 0) if across else before >= 0:
        lits.append((before, block, True))
    if (after // width == cells[-1] // width) if across else after < n_cells:
        lits.append((after, block, True))
    return lits


def lazy_cuts(rows: Sequence[str], letters: str, allow_repeats: bool) -> list[list[Literal]]:
    """Clauses (lists of literals, one must hold) that the grid ``rows`` violates, each exact:
    it removes this grid and only grids that break the same rule."""
    height, width = len(rows), len(rows[0])
    block = len(letters)
    cuts: list[list[Literal]] = []
    if not allow_repeats:
        for first, second in repeated_runs(rows):
            text = [letters.index(rows[c // width][c % width]) for c in first]
            both = run_literals(first, text, block, width, height * width) + \
                run_literals(second, text, block, width, height * width)
            cuts.append([(c, s, not v) for c, s, v in both])
    regions = white_regions(rows)
    for region in regions[1:]:
        # Region R is walled in by blocks; while that wall stands, a cell of R and a cell of the
        # main region cannot both be white.
        inside = set(region)
        wall = sorted({m for c in region for m in neighbours(c, width, height)} - inside)
        anchor = regions[0][0]
        for cell in region:
            cuts.append([(m, block, False) for m in wall] +
                        [(cell, block, True), (anchor, block, True)])
    return cuts
