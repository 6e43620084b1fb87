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
    """Every filled grid (as rows) by trying each word of the right length in each run.

    The run tried next is the one with the fewest words that fit the letters placed so far
    (none: back up). That changes the order of the enumeration only, never what it finds."""
    rows = tuple(text.split())
    slots = runs(rows, min_length)
    given = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in ".#"}
    by_length: dict[int, list[str]] = {}
    for word in dict.fromkeys(words):
        by_length.setdefault(len(word), []).append(word)
    fills: set[tuple[str, ...]] = set()

    def fitting(slot: list[Cell], letters: dict[Cell, str], used: list[str]) -> list[str]:
        return [word for word in by_length.get(len(slot), [])
                if (allow_repeats or word not in used)
                and all(letters.get(cell, ch) == ch for cell, ch in zip(slot, word))]

    def place(left: list[int], letters: dict[Cell, str], used: list[str]) -> None:
        if not left:
            fills.add(tuple(
                "".join(letters.get((r, c), ch) for c, ch in enumerate(row))
                for r, row in enumerate(rows)
            ))
            return
        options = {i: fitting(slots[i], letters, used) for i in left}
        chosen = min(left, key=lambda i: (len(options[i]), i))
        rest = [i for i in left if i != chosen]
        for word in options[chosen]:
            new = {cell: ch for cell, ch in zip(slots[chosen], word) if cell not in letters}
            letters.update(new)
            used.append(word)
            place(rest, letters, used)
            used.pop()
            for cell in new:
                del letters[cell]

    place(list(range(len(slots))), dict(given), [])
    return fills


def _slot_order(problem: FillProblem) -> list[int]:
    """Slots in an order where each crosses as many placed ones as it can (see
    ``connected_order``): crossings are checked as soon as both words are placed."""
    cells = [set(c.tolist()) for c in problem.slot_cells]
    order: list[int] = []
    placed: set[int] = set()
    remaining = list(range(problem.n_slots))
    while remaining:
        best = max(remaining, key=lambda s: (len(placed & cells[s]), -s))
        order.append(best)
        remaining.remove(best)
        placed |= cells[best]
    return order


def _enumerate(problem: FillProblem, stop_at_first: bool) -> int:
    order = _slot_order(problem)
    checks: dict[int, list[tuple[int, int, int]]] = {s: [] for s in range(problem.n_slots)}
    rank = {s: i for i, s in enumerate(order)}
    for a, pa, b, pb in problem.crossings():  # checked when the later of the two is placed
        if rank[a] < rank[b]:
            checks[b].append((a, pa, pb))
        else:
            checks[a].append((b, pb, pa))
    chosen: dict[int, int] = {}

    def extend(depth: int) -> int:
        if depth == len(order):
            words = [int(problem.candidates[t][k]) for t, k in chosen.items()]
            return int(problem.allow_repeats or len(set(words)) == len(words))
        s = order[depth]
        total = 0
        for k in range(len(problem.candidates[s])):
            if all(problem.letters[a][chosen[a]][pa] == problem.letters[s][k][ps]
                   for a, pa, ps in checks[s]):
                chosen[s] = k
                total += extend(depth + 1)
                del chosen[s]
                if total and stop_at_first:
                    return total
        return total

    return extend(0)


def count_fills(problem: FillProblem) -> int:
    """Fills counted by trying every candidate per slot in turn (crossings checked as slots are
    placed, repeats at the end): tiny problems only."""
    return _enumerate(problem, False)


def fillable(problem: FillProblem) -> bool:
    return _enumerate(problem, True) > 0


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
