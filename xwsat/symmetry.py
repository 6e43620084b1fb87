"""A symmetry of a fill problem, so the search can learn each fact once for it and its mirror.

A grid symmetric about its diagonal (a blank square, most 5x5 minis, 32 of the 72 classic
grids) has its transposed fill for every fill: the across words become the down words, and a
search refutes each branch and, later, its mirror image. ``find_symmetry`` looks for such a
symmetry on the problem itself, not on the pattern: a one-to-one map of slots onto slots and
cells onto cells that keeps each letter's position in its slot, each slot's candidate words and
each cell's allowed letters. Any such map sends fills to fills (the no-repeat rule involves
every slot alike), whatever the grid looks like; a rotation by 180 degrees reverses positions,
so it is never one (a word read backwards is not a word). Given letters, a locked region or a
slot pruned on one side only break the symmetry, and are seen, because the problem is compared.

So a fact the search proves about the problem (a nogood, a letter ruled out at the root) holds
for the mirror cells too, and the compiled search adds that copy
(``xwsat.compiled_search.kernel``). The copy is a consequence of the problem, not a
unit-propagation step, so a search that logs a proof for a certificate never makes it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from xwsat.problem import FillProblem

MAX_TRIES = 64  # anchor pairs tried before giving up (each a walk over the slots, O(cells))


def _table_keys(problem: FillProblem) -> list[bytes]:
    """Slots with equal keys have the same candidate words in the same order."""
    return [len(cells).to_bytes(2, "little") + cands.astype(np.int64).tobytes()
            for cells, cands in zip(problem.slot_cells, problem.candidates)]


@dataclass(frozen=True)
class Symmetry:
    """A symmetry that sends slot ``first`` to slot ``image`` and dense cell c to ``cells[c]``."""

    first: int
    image: int
    cells: np.ndarray  # int64[n_cells]


def _follow(problem: FillProblem, covers: list[list[tuple[int, int]]], keys: list[bytes],
            first: int, image: int) -> dict[int, int] | None:
    """The cell map of the symmetry that sends slot ``first`` to ``image`` and keeps positions,
    crossings, tables and cell masks, grown over ``first``'s connected part of the grid (other
    cells stay in place); None when no such map exists."""
    masks = problem.cell_masks
    slots: dict[int, int] = {first: image}
    cells: dict[int, int] = {}
    todo = [first]
    while todo:
        s = todo.pop()
        t = slots[s]
        if keys[s] != keys[t]:
            return None
        for c, d in zip(problem.slot_cells[s].tolist(), problem.slot_cells[t].tolist()):
            if c in cells:
                if cells[c] != d:
                    return None
                continue
            cells[c] = d
            if masks[c] != masks[d] or len(covers[c]) != len(covers[d]):
                return None
            others_c = [(u, p) for u, p in covers[c] if u != s]
            others_d = [(u, p) for u, p in covers[d] if u != t]
            for (u, p), (v, q) in zip(others_c, others_d):
                if p != q:
                    return None
                if u in slots:
                    if slots[u] != v:
                        return None
                else:
                    slots[u] = v
                    todo.append(u)
    # a permutation of the slots it moved (and so of their cells), not a map into other parts
    if set(slots.values()) != set(slots) or len(set(cells.values())) != len(cells):
        return None
    return cells


def find_symmetry(problem: FillProblem) -> Symmetry | None:
    """A symmetry of ``problem`` that moves some slot S to a slot T != S, or None."""
    n = problem.n_slots
    if n < 2:
        return None
    covers = problem.cell_slots()
    if any(len(c) > 2 for c in covers):
        return None
    keys = _table_keys(problem)
    tries = 0
    for first in range(n):
        for image in range(n):
            if image == first or keys[image] != keys[first]:
                continue
            tries += 1
            if tries > MAX_TRIES:
                return None
            cells = _follow(problem, covers, keys, first, image)
            if cells is not None:
                where = np.arange(problem.n_cells, dtype=np.int64)
                where[list(cells)] = list(cells.values())
                return Symmetry(first, image, where)
    return None
