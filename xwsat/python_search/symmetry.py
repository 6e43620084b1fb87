"""Transposition symmetry: a square-symmetric grid's transposed fill is a fill too.

When mirroring the grid in its main diagonal maps every slot onto a slot with the same candidates
and every cell onto a cell with the same letter set, each fill has a twin (across words become
down words). Requiring ``letter(x) <= letter(x')`` for the first cell ``x`` off the diagonal and
its mirror ``x'`` keeps one of every such pair (a lex-leader constraint on its first element,
Crawford et al. 1996), which roughly halves a proof that no fill exists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from xwsat.problem import FillProblem

if TYPE_CHECKING:
    from xwsat.python_search.state import SearchState


def transpose_pair(problem: FillProblem) -> tuple[int, int] | None:
    """Dense cells (x, mirror of x) to order, or None when the problem is not transpose-symmetric.

    The solver never sees the grid: the width is read off a down slot's cell-id step.
    """
    ids = problem.cell_ids.tolist()
    steps = {ids[c[1]] - ids[c[0]] for c in problem.slot_cells if len(c) > 1}
    downs = steps - {1}
    if len(downs) != 1 or 1 not in steps:
        return None
    width = downs.pop()
    dense = {cid: i for i, cid in enumerate(ids)}
    mirror = []
    for cid in ids:
        r, c = divmod(cid, width)
        image = dense.get(c * width + r) if r < width else None
        if image is None:
            return None
        mirror.append(image)
    by_cells = {tuple(c.tolist()): s for s, c in enumerate(problem.slot_cells)}
    masks = problem.cell_masks
    for s, cells in enumerate(problem.slot_cells):
        t = by_cells.get(tuple(mirror[c] for c in cells.tolist()))
        if t is None:
            return None
        if not np.array_equal(np.sort(problem.candidates[s]), np.sort(problem.candidates[t])):
            return None
    if any(masks[i] != masks[mirror[i]] for i in range(len(ids))):
        return None
    for x in sorted(range(len(ids)), key=ids.__getitem__):
        if mirror[x] != x:
            return x, mirror[x]
    return None


def enforce_order(st: SearchState, x: int, y: int) -> int | None:
    """Keep letter(x) <= letter(y) on the two cells' letter sets, explained by the other cell;
    a conflict set when one empties."""
    mx, my = st.masks[x], st.masks[y]
    at_most = (1 << my.bit_length()) - 1  # letters up to y's largest
    if mx & ~at_most:
        st.narrow_cell(x, mx & at_most, st.cell_expl[y], -1, True)
        mx &= at_most
        if not mx:
            return st.cell_expl[x]
    at_least = ~((mx & -mx) - 1)  # letters from x's smallest on
    if my & ~at_least:
        st.narrow_cell(y, my & at_least, st.cell_expl[x], -1, True)
        if not my & at_least:
            return st.cell_expl[y]
    return None
