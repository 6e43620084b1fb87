"""Seeded American-style grid patterns: fresh benchmark instances made at will.

A pattern is square, 180-degree rotationally symmetric, every run of white cells (across and down)
is at least ``MIN_RUN`` long, the white cells are connected, and the block count lies in a target
range. Constructors' rules can be added: a word-count ceiling (78 on a themed 15x15) and a cap on
cheaters (blocks that change no word count). Blocks are added one symmetric pair at a time and a
pair is kept only if the pattern stays legal, so every intermediate pattern is legal and a walk that
gets stuck is simply restarted. A walk may start from given blocks and cells that must stay white
(theme entries, ``xwsat.pattern_suggest``).
Each pattern has its own random stream derived from (seed, size, index): the same seed gives the
same patterns, and asking for more patterns does not change the first ones.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from xwsat.errors import XwsatError
from xwsat.grid import BLOCK, EMPTY, Grid, parse_grid
from xwsat.pattern_stats import cheaters

MIN_SIZE = 5
MAX_SIZE = 41
MIN_RUN = 3
DEFAULT_RATIO = (0.13, 0.16)  # block share of American dailies (15x15: 29-36 blocks)
_ATTEMPTS = 400  # restarts per pattern before giving up on an impossible target


@dataclass(frozen=True)
class Target:
    """What to generate: size, an inclusive block-count range, and full-width runs wanted."""

    size: int
    min_blocks: int
    max_blocks: int
    long_runs: int = 0
    max_run: int = 0  # no run longer than this (0: any length)
    max_words: int | None = None  # word-count ceiling (None: any)
    max_cheaters: int | None = None  # cheater cap (None: any)
    blocks: frozenset[tuple[int, int]] = frozenset()  # placed before the walk (with mirrors)
    white: frozenset[tuple[int, int]] = frozenset()  # never a block


def word_ceiling(size: int, themeless: bool = False) -> int:
    """The word count editors accept at most: 78 on a themed 15x15 (72 themeless), 140 on a
    21x21 (144 themeless); other sizes scale the share of words per cell between those two,
    never below the 2 x size words of a grid without blocks."""
    anchors = {15: (78, 72), 21: (140, 144)}
    if size in anchors:
        return anchors[size][1 if themeless else 0]
    share15, share21 = anchors[15][themeless] / 225, anchors[21][themeless] / 441
    t = min(max((size - 15) / 6, 0.0), 1.0)
    return max(2 * size, int(size * size * (share15 + t * (share21 - share15))))


def cheater_cap(size: int) -> int:
    """A few cheaters, as in published grids (0-10 on a 15x15): 6 on a 15x15, scaled by area,
    never below 4, the corner blocks a mini needs (on a 5x5 every legal block is a cheater)."""
    return max(4, round(6 * size * size / 225))


def block_range(size: int, min_blocks: int | None = None, max_blocks: int | None = None,
                ratio: float | None = None) -> tuple[int, int]:
    """The inclusive block-count range from explicit bounds, a ratio, or the American default."""
    cells = size * size
    if ratio is not None:
        if not 0 <= ratio < 0.5:
            raise XwsatError("block ratio must be at least 0 and below 0.5")
        centre = ratio * cells
        low, high = int(centre), int(centre + 0.999999)
        low, high = (low - 1, high + 1) if low == high else (low, high)
        lo = min_blocks if min_blocks is not None else max(0, low)
        hi = max_blocks if max_blocks is not None else high
    else:
        lo = min_blocks if min_blocks is not None else round(DEFAULT_RATIO[0] * cells)
        hi = max_blocks if max_blocks is not None else round(DEFAULT_RATIO[1] * cells)
    if lo < 0 or hi < lo:
        raise XwsatError(f"block range {lo}-{hi} is empty or negative")
    if lo >= cells // 2:
        raise XwsatError(f"{lo} blocks leave too few white cells in a {size}x{size} grid")
    return lo, hi


def check_pattern(rows: list[list[bool]]) -> list[str]:
    """What is wrong with a pattern (``True`` = block); empty when legal. Independent of search."""
    n = len(rows)
    problems = []
    for r in range(n):
        for c in range(n):
            if rows[r][c] != rows[n - 1 - r][n - 1 - c]:
                problems.append(f"not symmetric at row {r + 1}, column {c + 1}")
                break
    for line, name in ((rows, "row"), ([list(col) for col in zip(*rows)], "column")):
        for i, cells in enumerate(line):
            for length in _runs(cells):
                if length < MIN_RUN:
                    problems.append(f"{name} {i + 1} has a run of {length}")
    if not _connected(rows):
        problems.append("white cells are not connected")
    return problems


def _runs(cells: list[bool]) -> list[int]:
    runs, length = [], 0
    for block in cells:
        if block:
            if length:
                runs.append(length)
            length = 0
        else:
            length += 1
    if length:
        runs.append(length)
    return runs


def _connected(rows: list[list[bool]]) -> bool:
    n = len(rows)
    whites = [(r, c) for r in range(n) for c in range(n) if not rows[r][c]]
    if not whites:
        return False
    seen = {whites[0]}
    queue = deque([whites[0]])
    while queue:
        r, c = queue.popleft()
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= rr < n and 0 <= cc < n and not rows[rr][cc] and (rr, cc) not in seen:
                seen.add((rr, cc))
                queue.append((rr, cc))
    return len(seen) == len(whites)


def _lines_ok(rows: list[list[bool]], cells: list[tuple[int, int]]) -> bool:
    """Every run in the rows and columns through ``cells`` is at least MIN_RUN long."""
    for r in {r for r, _ in cells}:
        if any(length < MIN_RUN for length in _runs(rows[r])):
            return False
    for c in {c for _, c in cells}:
        if any(length < MIN_RUN for length in _runs([row[c] for row in rows])):
            return False
    return True


def _protect_long_runs(rows: list[list[bool]], rng: random.Random, wanted: int,
                       protected: set[tuple[int, int]]) -> bool:
    """Reserve ``wanted`` full or nearly full-width across runs (in symmetric row pairs)."""
    n = len(rows)
    choices = [r for r in range(n) if r not in (n // 2,) or n % 2 == 0]
    rng.shuffle(choices)
    made = 0
    for r in choices:
        if made >= wanted:
            break
        if any((r, c) in protected for c in range(n)) or any(rows[r]):
            continue
        start = rng.choice((0, 0, 1)) if n > 8 else 0  # a full row, or a block at one end
        if start:
            for cell in ((r, 0), (n - 1 - r, n - 1)):
                rows[cell[0]][cell[1]] = True
            if not _lines_ok(rows, [(r, 0), (n - 1 - r, n - 1)]):
                rows[r][0] = rows[n - 1 - r][n - 1] = False
                continue
        for c in range(start, n):
            protected.add((r, c))
            protected.add((n - 1 - r, n - 1 - c))
        made += 1 if r == n - 1 - r else 2
    return made >= wanted


def word_count(rows: list[list[bool]]) -> int:
    """Across and down runs of two or more cells."""
    cols = [list(col) for col in zip(*rows)]
    return sum(length >= 2 for line in (*rows, *cols) for length in _runs(list(line)))


def cheater_count(rows: list[list[bool]]) -> int:
    """Blocks that change no word count (``xwsat.pattern_stats.cheaters``)."""
    text = "\n".join("".join(BLOCK if b else EMPTY for b in row) for row in rows)
    return len(cheaters(parse_grid(text)))


def _within_caps(rows: list[list[bool]], target: Target) -> bool:
    if target.max_words is not None and word_count(rows) > target.max_words:
        return False
    return target.max_cheaters is None or cheater_count(rows) <= target.max_cheaters


def _one_attempt(target: Target, rng: random.Random) -> list[list[bool]] | None:
    n = target.size
    rows = [[False] * n for _ in range(n)]
    for r, c in target.blocks:
        rows[r][c] = rows[n - 1 - r][n - 1 - c] = True
    protected: set[tuple[int, int]] = set(target.white)
    if target.long_runs and not _protect_long_runs(rows, rng, target.long_runs, protected):
        return None
    goal = rng.randint(target.min_blocks, target.max_blocks)
    count = sum(map(sum, rows))
    if target.max_run:
        count = _break_long_runs(rows, rng, target.max_run, protected, count)
    moves = [(r, c) for r in range(n) for c in range(n) if r * n + c <= (n * n - 1) // 2]
    rng.shuffle(moves)
    progress = True
    while count < goal and progress:
        progress = False
        for r, c in moves:
            mirror = (n - 1 - r, n - 1 - c)
            add = 1 if mirror == (r, c) else 2
            if rows[r][c] or (r, c) in protected or mirror in protected or count + add > goal:
                continue
            rows[r][c] = rows[mirror[0]][mirror[1]] = True
            if (_lines_ok(rows, [(r, c), mirror]) and _connected(rows)
                    and _within_caps(rows, target)):
                count += add
                progress = True
                if count >= goal:
                    break
            else:
                rows[r][c] = rows[mirror[0]][mirror[1]] = False
        rng.shuffle(moves)
    if not target.min_blocks <= count <= target.max_blocks or check_pattern(rows):
        return None
    if target.long_runs and _long_run_count(rows) < target.long_runs:
        return None
    if target.max_run and _longest_run(rows) > target.max_run:
        return None
    if not _within_caps(rows, target):
        return None
    return rows


def _longest_run(rows: list[list[bool]]) -> int:
    cols = [list(col) for col in zip(*rows)]
    return max((length for line in (*rows, *cols) for length in _runs(list(line))), default=0)


def _break_long_runs(rows: list[list[bool]], rng: random.Random, max_run: int,
                     protected: set[tuple[int, int]], count: int) -> int:
    """Place symmetric block pairs inside runs longer than ``max_run`` (leaving both sides at
    least MIN_RUN long) until none is left or no placement stays legal; the new block count."""
    n = len(rows)
    for _ in range(4 * n * n):
        long_runs = []  # those one block can split into two runs of MIN_RUN or more
        splittable = max(max_run, 2 * MIN_RUN)
        for r in range(n):
            long_runs += [[(r, c) for c in range(start, start + length)]
                          for start, length in _run_spans(rows[r]) if length > splittable]
        for c in range(n):
            long_runs += [[(r, c) for r in range(start, start + length)]
                          for start, length in _run_spans([row[c] for row in rows])
                          if length > splittable]
        if not long_runs:
            return count
        run = rng.choice(long_runs)
        r, c = run[rng.randint(MIN_RUN, len(run) - MIN_RUN - 1)]
        mirror = (n - 1 - r, n - 1 - c)
        if (r, c) in protected or mirror in protected:
            continue
        rows[r][c] = rows[mirror[0]][mirror[1]] = True
        if _lines_ok(rows, [(r, c), mirror]) and _connected(rows):
            count += 1 if mirror == (r, c) else 2
        else:
            rows[r][c] = rows[mirror[0]][mirror[1]] = False
    return count


def _run_spans(cells: list[bool]) -> list[tuple[int, int]]:
    """(start, length) of each run of white cells."""
    spans, start = [], None
    for i, block in enumerate([*cells, True]):
        if not block and start is None:
            start = i
        elif block and start is not None:
            spans.append((start, i - start))
            start = None
    return spans


def _long_run_count(rows: list[list[bool]]) -> int:
    """Across and down runs at least as long as the width less two."""
    n = len(rows)
    cols = [list(col) for col in zip(*rows)]
    return sum(length >= n - 2 for line in (*rows, *cols) for length in _runs(list(line)))


def check_caps(size: int, max_words: int | None, max_cheaters: int | None) -> None:
    if max_words is not None and max_words < 2 * size:
        raise XwsatError(f"a {size}x{size} grid has at least {2 * size} words; "
                         f"the word ceiling {max_words} is below that")
    if max_cheaters is not None and max_cheaters < 0:
        raise XwsatError("the cheater cap must be zero or more")


def generate_pattern(target: Target, seed: int, index: int) -> Grid:
    """The ``index``-th pattern for ``seed``: reproducible and independent of the others."""
    rng = random.Random(f"xwsat-gridgen:{seed}:{target.size}:{index}")
    for _ in range(_ATTEMPTS):
        rows = _one_attempt(target, rng)
        if rows is not None:
            text = "\n".join("".join(BLOCK if b else EMPTY for b in row) for row in rows)
            return parse_grid(text, f"pattern {index}")
    raise XwsatError(
        f"could not make a legal {target.size}x{target.size} pattern with "
        f"{target.min_blocks}-{target.max_blocks} blocks in {_ATTEMPTS} attempts; widen the range"
        + ("" if target.max_words is None and target.max_cheaters is None
           else " or raise --max-words / --max-cheaters")
        + (f", or raise --max-run (one block splits a run into two of {MIN_RUN} or more, so "
           f"runs of at most {target.max_run} are rare)"
           if target.max_run and target.max_run <= 2 * MIN_RUN else "")
    )


def generate_patterns(size: int, count: int, seed: int, min_blocks: int | None = None,
                      max_blocks: int | None = None, ratio: float | None = None,
                      long_runs: int = 0, max_run: int = 0, max_words: int | None = None,
                      max_cheaters: int | None = None) -> list[Grid]:
    """``count`` distinct legal patterns for ``seed`` (see the module docstring for the rules).

    ``long_runs`` asks for at least that many across runs of width or width-1 (stacks of long
    slots make grids hard). Block range: explicit bounds, else ``ratio`` of the cells (+-1),
    else 13-16% of the cells. ``max_words`` and ``max_cheaters`` (None: no cap) are the
    constructors' ceilings (``word_ceiling``, ``cheater_cap``); without them the patterns are
    those of the suites in grids/.
    """
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise XwsatError(f"size must be between {MIN_SIZE} and {MAX_SIZE}")
    if count < 1:
        raise XwsatError("count must be at least 1")
    if seed < 0:
        raise XwsatError("seed must be zero or positive")
    if not 0 <= long_runs <= size:
        raise XwsatError(f"long runs must be between 0 and {size}")
    if max_run and not max_run >= MIN_RUN:
        raise XwsatError(f"the longest run allowed must be at least {MIN_RUN}")
    if max_run and long_runs and max_run < size - 2:
        raise XwsatError("long runs need runs of at least the width less two")
    check_caps(size, max_words, max_cheaters)
    lo, hi = block_range(size, min_blocks, max_blocks, ratio)
    target = Target(size, lo, hi, long_runs, max_run, max_words, max_cheaters)
    patterns: list[Grid] = []
    seen: set[tuple[str, ...]] = set()
    index = 0
    while len(patterns) < count:
        if index >= count * 20 + 100:
            found = f"{len(patterns)} distinct pattern{'s' if len(patterns) != 1 else ''}"
            raise XwsatError(f"only {found} found for these settings in {index} tries")
        grid = generate_pattern(target, seed, index)
        index += 1
        if grid.rows not in seen:
            seen.add(grid.rows)
            patterns.append(grid)
    return patterns


def block_count(grid: Grid) -> int:
    return sum(row.count(BLOCK) for row in grid.rows)
