"""Regions: prove a part of the grid unfillable, which proves the whole grid unfillable.

A region is a rectangle of cells. Its problem keeps every slot with at least two cells inside; a
slot that leaves the rectangle is replaced by the *projection* of its candidates onto its cells
inside (the distinct letter tuples they put there), and only slots wholly inside keep the no-repeat
rule. Every fill of the grid restricted to the rectangle satisfies this problem, so the region's
problem is a relaxation: no fill of the region means no fill of the grid. The region's problem is
much smaller (short projected slots, dozens of cells), so a complete search exhausts it in a
fraction of the time the whole grid needs, and the certificate is small (the rectangle and the
search's node count).

Regions are ranked by the log of the expected number of fills (candidate counts times, per checked
cell, the chance that the two crossing slots agree on a letter under their letter frequencies): a
region with very few expected fills is the likeliest to have none (stacks of long slots).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from xwsat.problem import FillProblem


@dataclass(frozen=True)
class Region:
    """A rectangle of the grid (rows and columns inclusive) and its relaxed problem."""

    name: str
    rows: tuple[int, int]
    cols: tuple[int, int]
    problem: FillProblem
    slots: tuple[int, ...]  # the grid's slots that take part (whole or projected)
    log_fills: float  # log10 of the expected number of fills of the region

    @property
    def cells(self) -> int:
        return self.problem.n_cells


def grid_width(problem: FillProblem) -> int | None:
    """The grid's width, read off a down slot's cell-id step (None without down slots)."""
    ids = problem.cell_ids
    steps = {int(ids[c[1]] - ids[c[0]]) for c in problem.slot_cells if len(c) > 1} - {1}
    return steps.pop() if len(steps) == 1 else None


def project(problem: FillProblem, inside: np.ndarray, name: str = "region") -> tuple[
        FillProblem, tuple[int, ...]] | None:
    """The relaxed problem on the dense cells flagged in ``inside`` (None if it has no slot).

    Slots wholly inside keep their words (and the no-repeat rule); slots partly inside become the
    distinct tuples of their candidates' letters there, with fresh ids that repeat nothing.
    """
    keep_cells = np.flatnonzero(inside)
    dense = np.full(problem.n_cells, -1, dtype=np.int64)
    dense[keep_cells] = np.arange(len(keep_cells))
    fresh = 1 + max((int(c.max()) for c in problem.candidates if len(c)), default=0)
    slot_cells, candidates, letters, names, slots = [], [], [], [], []
    for s, cells in enumerate(problem.slot_cells):
        pos = np.flatnonzero(inside[cells])
        if len(pos) < 2:
            continue
        if len(pos) == len(cells):
            ids, rows = problem.candidates[s], problem.letters[s]
        else:
            rows = distinct_rows(problem.letters[s][:, pos], problem.alphabet_size)
            ids = np.arange(fresh, fresh + len(rows), dtype=np.int32)
            fresh += len(rows)
        slot_cells.append(dense[cells[pos]].astype(np.int32))
        candidates.append(ids)
        letters.append(np.ascontiguousarray(rows))
        names.append(problem.slot_names[s])
        slots.append(s)
    if not slots:
        return None
    used = np.zeros(len(keep_cells), dtype=bool)
    for cells in slot_cells:
        used[cells] = True
    if not used.all():  # cells in no kept slot: drop them and renumber
        renumber = np.cumsum(used) - 1
        slot_cells = [renumber[c].astype(np.int32) for c in slot_cells]
        keep_cells = keep_cells[used]
    sub = FillProblem(
        alphabet_size=problem.alphabet_size,
        cell_ids=problem.cell_ids[keep_cells],
        slot_cells=tuple(slot_cells),
        slot_names=tuple(names),
        candidates=tuple(candidates),
        letters=tuple(letters),
        cell_masks=problem.cell_masks[keep_cells].copy(),
        allow_repeats=problem.allow_repeats,
        scores=tuple(np.zeros(len(c), dtype=np.int16) for c in candidates),
    )
    return sub, tuple(slots)


def distinct_rows(rows: np.ndarray, alphabet: int) -> np.ndarray:
    """The distinct rows of a letter-code matrix, sorted (via one int64 key per row when the
    row fits, which is many times faster than ``np.unique(axis=0)``)."""
    width = rows.shape[1]
    if width * math.log2(max(2, alphabet)) > 62:
        return np.unique(rows, axis=0)
    weights = alphabet ** np.arange(width - 1, -1, -1, dtype=np.int64)
    keys = np.unique(rows.astype(np.int64) @ weights)
    out = np.empty((len(keys), width), dtype=rows.dtype)
    for j in range(width - 1, -1, -1):
        keys, out[:, j] = np.divmod(keys, alphabet)
    return out


def log_fills(problem: FillProblem) -> float:
    """log10 of the expected number of fills if letters at crossings agreed independently."""
    total = sum(math.log10(max(1, len(c))) for c in problem.candidates)
    freq: dict[tuple[int, int], np.ndarray] = {}
    for s, rows in enumerate(problem.letters):
        if len(rows) == 0:
            return -math.inf
        for j in range(rows.shape[1]):
            counts = np.bincount(rows[:, j], minlength=problem.alphabet_size)
            freq[(s, j)] = counts / counts.sum()
    for pairs in problem.cell_slots():
        if len(pairs) == 2:
            agree = float(freq[pairs[0]] @ freq[pairs[1]])
            total += math.log10(agree) if agree > 0 else -math.inf
    return total


def stacks(problem: FillProblem, min_overlap: int = 4) -> list[
        tuple[str, tuple[int, int], tuple[int, int]]]:
    """Rectangles over stacks of parallel slots: runs of slots in consecutive rows (columns)
    that overlap by at least ``min_overlap`` cells, each run and its 2- and 3-line sub-runs, as
    (name, (row0, row1), (col0, col1)), inclusive. Stacks of long slots are where fills die."""
    width = grid_width(problem)
    if width is None:
        return []
    ids = problem.cell_ids
    spans: dict[str, list[tuple[int, int, int]]] = {"across": [], "down": []}
    for cells in problem.slot_cells:
        first, last = int(ids[cells[0]]), int(ids[cells[-1]])
        r0, c0 = divmod(first, width)
        r1, c1 = divmod(last, width)
        if r0 == r1:
            spans["across"].append((r0, c0, c1))
        else:
            spans["down"].append((c0, r0, r1))
    out: dict[tuple[tuple[int, int], tuple[int, int]], str] = {}
    for direction, items in spans.items():
        by_line: dict[int, list[tuple[int, int]]] = {}
        for line, lo, hi in items:
            by_line.setdefault(line, []).append((lo, hi))

        def grow(line: int, lo: int, hi: int, chain: list[tuple[int, int, int]],
                 direction: str = direction, by_line: dict = by_line) -> None:
            chain = [*chain, (line, lo, hi)]
            if len(chain) >= 2:
                for first in range(len(chain) - 1):
                    for last in range(first + 2, min(len(chain), first + 3) + 1):
                        part = chain[first:last]
                        a = max(p[1] for p in part)
                        b = min(p[2] for p in part)
                        key = ((part[0][0], part[-1][0]), (a, b))
                        if direction == "down":
                            key = ((a, b), (part[0][0], part[-1][0]))
                        out.setdefault(key, direction)
            for nlo, nhi in by_line.get(line + 1, []):
                a, b = max(lo, nlo), min(hi, nhi)
                if b - a + 1 >= min_overlap:
                    grow(line + 1, a, b, chain)

        for line, lo, hi in items:
            grow(line, lo, hi, [])
    result = []
    for ((r0, r1), (c0, c1)), direction in out.items():
        result.append((f"{direction} stack rows {r0 + 1}-{r1 + 1} x columns {c0 + 1}-{c1 + 1}",
                       (r0, r1), (c0, c1)))
    return result


def regions(problem: FillProblem, min_overlap: int = 4) -> list[Region]:
    """The stack regions of ``problem``, fewest expected fills first (duplicates dropped)."""
    width = grid_width(problem)
    if width is None:
        return []
    rows, cols = np.divmod(problem.cell_ids.astype(np.int64), width)
    seen: set[tuple[int, ...]] = set()
    out = []
    for name, (r0, r1), (c0, c1) in stacks(problem, min_overlap):
        inside = (rows >= r0) & (rows <= r1) & (cols >= c0) & (cols <= c1)
        projected = project(problem, inside, name)
        if projected is None:
            continue
        sub, slots = projected
        key = tuple(sub.cell_ids.tolist())
        if key in seen or sub.n_slots == problem.n_slots:
            continue
        seen.add(key)
        out.append(Region(name, (r0, r1), (c0, c1), sub, slots, log_fills(sub)))
    out.sort(key=lambda r: (r.log_fills, r.cells))
    return out
