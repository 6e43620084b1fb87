"""The one oracle of the test suite: brute-force answers that share no code with xwsat's
encodings, searches or back-ends.

Two levels. ``brute_fills`` reads the grid text itself (its own run extraction, no xwsat slot
code) and tries every word in every run; it is the judge of whole pipelines. ``count_fills``,
``fillable`` and ``valid_fill`` work on a built ``FillProblem`` (slots, candidates, letter codes)
by plain enumeration; they judge encodings and searches that take a problem.
"""

from __future__ import annotations

import numpy as np

from xwsat.problem import FillProblem

Cell = tuple[int, int]


def runs(rows: tuple[str, ...], min_length: int = 2) -> list[list[Cell]]:
    """Every maximal run of non-block cells, across then down, as (row, col) lists."""
    height, width = len(rows), len(rows[0])
    lines = [[(r, c) for c in range(width)] for r in range(height)]
    lines += [[(r, c) for r in range(height)] for c in range(width)]
    found = []
    for line in lines:
        current: list[Cell] = []
        for r, c in line:
            if rows[r][c] != "#":
                current.append((r, c))
                continue
            if len(current) >= min_length:
                found.append(current)
            current = []
        if len(current) >= min_length:
            found.append(current)
    return found


def brute_fills(text: str, words: list[str], allow_repeats: bool,
                min_length: int = 2) -> set[tuple[str, ...]]:
    """Every filled grid (as rows) by trying each word of the right length in each run."""
    rows = tuple(text.split())
    slots = runs(rows, min_length)
    given = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in ".#"}
    fills: set[tuple[str, ...]] = set()

    def place(i: int, letters: dict[Cell, str], used: list[str]) -> None:
        if i == len(slots):
            fills.add(tuple(
                "".join(letters.get((r, c), ch) for c, ch in enumerate(row))
                for r, row in enumerate(rows)
            ))
            return
        for word in words:
            if len(word) != len(slots[i]) or (not allow_repeats and word in used):
                continue
            if any(letters.get(cell, ch) != ch for cell, ch in zip(slots[i], word)):
                continue
            new = {cell: ch for cell, ch in zip(slots[i], word) if cell not in letters}
            letters.update(new)
            used.append(word)
            place(i + 1, letters, used)
            used.pop()
            for cell in new:
                del letters[cell]

    place(0, dict(given), [])
    return fills


def _extend(problem: FillProblem, choice: list[int], crossings, stop_at_first: bool) -> int:
    s = len(choice)
    if s == problem.n_slots:
        words = [int(problem.candidates[t][k]) for t, k in enumerate(choice)]
        return int(problem.allow_repeats or len(set(words)) == len(words))
    total = 0
    for k in range(len(problem.candidates[s])):
        if all(problem.letters[a][choice[a]][pa] == problem.letters[b][k][pb]
               for a, pa, b, pb in crossings if b == s):
            total += _extend(problem, [*choice, k], crossings, stop_at_first)
            if total and stop_at_first:
                return total
    return total


def count_fills(problem: FillProblem) -> int:
    """Fills counted by trying every candidate per slot in turn (crossings checked as slots are
    placed, repeats at the end): tiny problems only."""
    return _extend(problem, [], problem.crossings(), False)


def fillable(problem: FillProblem) -> bool:
    return _extend(problem, [], problem.crossings(), True) > 0


def valid_fill(problem: FillProblem, fill: tuple[int, ...]) -> bool:
    """Each word is a candidate of its slot, crossing letters agree, no repeats unless allowed."""
    letters: dict[int, int] = {}
    for slot, word in enumerate(fill):
        where = np.flatnonzero(problem.candidates[slot] == word)
        if len(where) != 1:
            return False
        for cell, code in zip(problem.slot_cells[slot], problem.letters[slot][where[0]]):
            if letters.setdefault(int(cell), int(code)) != int(code):
                return False
    return problem.allow_repeats or len(set(fill)) == len(fill)
