"""Block patterns around a constructor's theme entries, kept only when the search fills them.

The theme entries are the runs of three or more given letters, across and down, in a grid that
may hold blocks already. Each entry gets a block (and its 180-degree partner) at both ends, short
runs this leaves are closed with blocks, and then ``xwsat.grid_patterns``' legal walk adds
symmetric block pairs under the constructors' rules: no run shorter than three, white cells
connected, a word-count ceiling and a cheater cap. Each pattern, with the theme letters in it,
goes to the real fill search under a short limit (theme entries outside the list join it, as
``--lock`` does); a pattern is suggested only with a fill that ``xwsat.verify`` accepted.
Patterns come from (seed, index) streams, so the same seed proposes the same patterns in the same
order.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from xwsat import guard
from xwsat.errors import XwsatError
from xwsat.grid import BLOCK, EMPTY, Grid
from xwsat.grid_patterns import (
    MAX_SIZE,
    MIN_RUN,
    MIN_SIZE,
    Target,
    block_range,
    cheater_cap,
    check_caps,
    generate_pattern,
    word_ceiling,
)
from xwsat.lock import with_words
from xwsat.outcome import Status, Stop
from xwsat.pattern_stats import PatternStats, pattern_stats
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.words import WordList

STOPPING = (Stop.INTERRUPTED, Stop.KILLED, Stop.MEMORY)  # the command is stopping: no more

Cell = tuple[int, int]
Say = Callable[[str], None]
TRY_LIMIT_S = 10.0  # the fill search's time on one pattern
MAX_PATTERNS = 10_000  # proposals before giving up on finding ``count`` fillable ones


@dataclass(frozen=True)
class PatternRules:
    """The constructors' rules a suggestion obeys (None: the editors' figure for the size)."""

    max_words: int | None = None
    max_cheaters: int | None = None
    min_blocks: int | None = None
    max_blocks: int | None = None


@dataclass(frozen=True)
class Suggestion:
    """A legal pattern with the theme letters, its figures, and a verified fill of it."""

    index: int  # which proposal of the seed's stream it was
    pattern: Grid
    fill: Grid
    stats: PatternStats
    seconds: float

    def sort_key(self) -> tuple[int, int, int]:
        return (self.stats.words, len(self.stats.cheaters), self.index)


@dataclass(frozen=True)
class SuggestReport:
    """The fillable patterns, best first, and what became of the others."""

    suggestions: list[Suggestion]
    tried: int
    unfillable: int
    undecided: int
    entries: tuple[str, ...]
    stopped: Stop | None = None  # Ctrl-C or the command's memory limit ended the search early

    @property
    def interrupted(self) -> bool:
        return self.stopped is not None


def theme_entries(grid: Grid) -> list[tuple[str, list[Cell]]]:
    """Each run of ``MIN_RUN`` or more given letters, across then down, as (word, cells)."""
    found = []
    for across in (True, False):
        lines = grid.height if across else grid.width
        length = grid.width if across else grid.height
        for i in range(lines):
            run: list[Cell] = []
            for j in range(length + 1):
                cell = (i, j) if across else (j, i)
                ch = grid.rows[cell[0]][cell[1]] if j < length else BLOCK
                if ch not in (BLOCK, EMPTY):
                    run.append(cell)
                    continue
                if len(run) >= MIN_RUN:
                    found.append(("".join(grid.rows[r][c] for r, c in run), run))
                run = []
    return found


def theme_start(grid: Grid) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """The blocks every suggestion has (the grid's, the theme entries' ends, their partners and
    the blocks closing runs too short to be words) and the cells that stay white (letters)."""
    n = grid.width
    if grid.height != n or not MIN_SIZE <= n <= MAX_SIZE:
        raise XwsatError(f"pattern suggestions need a square grid from {MIN_SIZE}x{MIN_SIZE} to "
                         f"{MAX_SIZE}x{MAX_SIZE}, not {grid.width}x{grid.height}")
    letters = {(r, c) for r in range(n) for c in range(n)
               if grid.rows[r][c] not in (BLOCK, EMPTY)}
    blocks = {(r, c) for r in range(n) for c in range(n) if grid.rows[r][c] == BLOCK}
    for _, cells in theme_entries(grid):
        (r0, c0), (r1, c1) = cells[0], cells[-1]
        dr, dc = (0, 1) if r0 == r1 else (1, 0)
        for r, c in ((r0 - dr, c0 - dc), (r1 + dr, c1 + dc)):
            if 0 <= r < n and 0 <= c < n:
                blocks.add((r, c))
    changed = True
    while changed:
        blocks |= {(n - 1 - r, n - 1 - c) for r, c in blocks}
        clash = blocks & letters
        if clash:
            r, c = min(clash)
            raise XwsatError(f"row {r + 1}, column {c + 1} holds a letter but its place in a "
                             "180-degree symmetric pattern needs a block (a theme entry's end, "
                             "or the partner of one); move the entry")
        changed = _close_short_runs(n, blocks, letters)
    return frozenset(blocks), frozenset(letters)


def _close_short_runs(n: int, blocks: set[Cell], letters: set[Cell]) -> bool:
    """Turn white runs shorter than ``MIN_RUN`` into blocks; whether any changed."""
    changed = False
    for across in (True, False):
        for i in range(n):
            run: list[Cell] = []
            for j in range(n + 1):
                cell = (i, j) if across else (j, i)
                if j < n and cell not in blocks:
                    run.append(cell)
                    continue
                if 0 < len(run) < MIN_RUN:
                    if any(c in letters for c in run):
                        r, c = run[0]
                        raise XwsatError(f"the letters at row {r + 1}, column {c + 1} lie in a "
                                         f"run of {len(run)} cells between blocks; no word "
                                         f"is shorter than {MIN_RUN}")
                    blocks.update(run)
                    changed = True
                run = []
    return changed


def suggest_patterns(grid: Grid, words: WordList, count: int = 3, seed: int = 0,
                     time_limit: float = 60.0, rules: PatternRules = PatternRules(),
                     try_limit: float = TRY_LIMIT_S, backend: str = "auto",
                     say: Say = lambda _: None,
                     on_found: Callable[[list[Suggestion]], None] = lambda _: None,
                     in_step: bool = False) -> SuggestReport:
    """Up to ``count`` fillable patterns around ``grid``'s theme letters, best first (fewest
    words, then fewest cheaters); ``words`` is the list at the chosen score level.
    ``on_found`` hears the suggestions so far, best first, each time one is added."""
    if count < 1:
        raise XwsatError("--count must be at least 1")
    if try_limit <= 0:
        raise XwsatError("--try-limit must be a positive number of seconds")
    n = grid.width
    blocks, white = theme_start(grid)
    max_words = word_ceiling(n) if rules.max_words is None else rules.max_words
    max_cheaters = cheater_cap(n) if rules.max_cheaters is None else rules.max_cheaters
    check_caps(n, max_words, max_cheaters)
    lo, hi = block_range(n, rules.min_blocks, rules.max_blocks)
    lo = max(lo, len(blocks))  # the theme's blocks may already pass the usual low end
    if hi < lo:
        theme = any(cell.isalpha() for row in grid.rows for cell in row)
        needs = "the theme entries need" if theme else "the grid's blocks come to"
        raise XwsatError(f"{needs} {lo} blocks (with their mirror cells and the runs too short "
                         f"to be words closed), more than the {hi} a {n}x{n} pattern may have")
    target = Target(n, lo, hi, max_words=max_words, max_cheaters=max_cheaters,
                    blocks=blocks, white=white)
    entries = tuple(word for word, _ in theme_entries(grid))
    lettered = with_words(words, entries)
    letters = {(r, c): grid.rows[r][c] for r, c in white}
    deadline = time.monotonic() + time_limit
    found: list[Suggestion] = []
    seen: set[tuple[str, ...]] = set()
    tried = unfillable = undecided = 0
    stopped: Stop | None = None
    for index in range(MAX_PATTERNS):
        left = deadline - time.monotonic()
        if len(found) >= count or left <= 0.5:
            break
        pattern = generate_pattern(target, seed, index)
        if pattern.rows in seen:
            continue
        seen.add(pattern.rows)
        pattern = pattern.with_letters({r * n + c: ch for (r, c), ch in letters.items()})
        tried += 1
        started = time.monotonic()
        options = FillOptions(backend=backend, time_limit=min(try_limit, left), seed=seed,
                              min_length=MIN_RUN, in_step=in_step)
        result = fill_grid(pattern, lettered, options)
        took = time.monotonic() - started
        if guard.user_stopped() or result.outcome.stop in STOPPING:
            stopped = result.outcome.stop or Stop.INTERRUPTED  # the search caught it; no
            break  # pattern after this one
        stats = pattern_stats(pattern)
        shape = f"pattern {index}: {stats.words} words, {len(stats.cheaters)} cheaters"
        if result.outcome.status is Status.FILLED and result.verified and result.filled:
            found.append(Suggestion(index, pattern, result.filled, stats, round(took, 2)))
            on_found(sorted(found, key=Suggestion.sort_key))
            say(f"{shape}: filled in {took:.1f} s ({len(found)}/{count})")
        elif result.outcome.status is Status.UNFILLABLE:
            unfillable += 1
            say(f"{shape}: cannot be filled (proved in {took:.1f} s)")
        else:
            undecided += 1
            say(f"{shape}: not decided in {took:.1f} s")
    return SuggestReport(sorted(found, key=Suggestion.sort_key), tried, unfillable, undecided,
                         entries, stopped)
