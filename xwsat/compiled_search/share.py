"""Nogoods passed between two compiled searches racing on the same problem.

Each search records nld-nogoods over (cell, letter) literals at its restarts; both racers build
the same model from the same problem, so a nogood one of them proved holds for the other too.
Between two slices a search sends the short nogoods it recorded since the last exchange and
appends what the other sent; the kernel watches them from its next restart on. A nogood is
a consequence of the problem alone, so sharing changes which branches are explored, never a
verdict; it is off whenever a proof is written (the other search's lemmas are not in it).
"""

from __future__ import annotations

import numpy as np

from xwsat.compiled_search import state as mstate
from xwsat.compiled_search.state import State


def recorded(st: State, since: int, max_len: int) -> np.ndarray:
    """The nogoods ``since``.. as one int32 array: length, then (cell, letter) pairs; only
    those of at most ``max_len`` literals (long ones prune little and cost watches)."""
    out: list[np.ndarray] = []
    for g in range(since, int(st.sc[mstate.NG])):
        lo, hi = int(st.ng_start[g]), int(st.ng_start[g + 1])
        if hi - lo > max_len:
            continue
        pairs = np.empty(2 * (hi - lo) + 1, dtype=np.int32)
        pairs[0] = hi - lo
        pairs[1::2] = st.ng_var[lo:hi]
        pairs[2::2] = st.ng_val[lo:hi]
        out.append(pairs)
    return np.concatenate(out) if out else np.empty(0, dtype=np.int32)


def learned(st: State, start_dom: np.ndarray) -> np.ndarray:
    """Everything a search has proved, laid out as ``recorded`` writes it: its nogoods, and
    each letter it removed at the root (from ``start_dom``) as a nogood of one literal. The
    root removals are found by undoing the whole trail on a copy of the domains (below the
    root every change is trailed with its old value; root changes never are)."""
    root = st.dom.copy()
    kinds, cells, olds = st.tr_kind, st.tr_idx, st.tr_val
    for n in range(int(st.sc[mstate.TR]) - 1, -1, -1):
        if kinds[n] == mstate.K_DOM:
            root[cells[n]] = olds[n]
    units = []
    for c in np.flatnonzero(start_dom & ~root):
        gone = int(start_dom[c] & ~root[c])
        units += [(1, int(c), a) for a in range(64) if gone >> a & 1]
    flat = np.array(units, dtype=np.int32).reshape(-1)
    return np.concatenate([flat, recorded(st, 0, len(st.ng_var))])


def count(flat: np.ndarray) -> int:
    """How many nogoods ``flat`` holds."""
    n, i = 0, 0
    while i < len(flat):
        i += 1 + 2 * int(flat[i])
        n += 1
    return n


def absorb(st: State, flat: np.ndarray) -> int:
    """Append the nogoods of ``flat`` (as ``recorded`` writes them) while there is room; the
    kernel watches them at its next restart. Returns how many were added."""
    added, i = 0, 0
    g, k = int(st.sc[mstate.NG]), int(st.sc[mstate.LITS])
    while i < len(flat):
        n = int(flat[i])
        if g + 1 >= len(st.ng_start) or k + n > len(st.ng_var):
            break
        st.ng_var[k:k + n] = flat[i + 1:i + 1 + 2 * n:2]
        st.ng_val[k:k + n] = flat[i + 2:i + 2 + 2 * n:2]
        k += n
        g += 1
        st.ng_start[g] = k
        added += 1
        i += 1 + 2 * n
    st.sc[mstate.NG], st.sc[mstate.LITS] = g, k
    return added


class Exchange:
    """One append-only box of shared memory per racer, made by the parent before it forks them:
    each racer writes only its own box (its length first, then nogoods as ``recorded`` lays
    them out) and reads the others' from where it stopped. No locks: a box's length is written
    after its data, and a full box just stops sharing."""

    def __init__(self, racers: int, capacity: int = 1 << 21) -> None:
        import multiprocessing as mp

        context = mp.get_context("fork")
        self.boxes = [context.RawArray("i", capacity + 1) for _ in range(racers)]

    def endpoint(self, me: int) -> Endpoint:
        return Endpoint(self.boxes, me)


class Endpoint:
    """Racer ``me``'s side of an Exchange (used in the racer's process only)."""

    def __init__(self, boxes: list, me: int) -> None:
        self.me = me
        self.views = [np.frombuffer(box, dtype=np.int32) for box in boxes]
        self.read = [0] * len(boxes)

    def publish(self, flat: np.ndarray) -> bool:
        box = self.views[self.me]
        used = int(box[0])
        if len(flat) == 0 or used + len(flat) > len(box) - 1:
            return False
        box[1 + used:1 + used + len(flat)] = flat
        box[0] = used + len(flat)  # after the data: a reader never sees a half-written nogood
        return True

    def collect(self) -> np.ndarray:
        parts = []
        for other, box in enumerate(self.views):
            if other == self.me:
                continue
            used = int(box[0])
            if used > self.read[other]:
                parts.append(np.array(box[1 + self.read[other]:1 + used]))
                self.read[other] = used
        return np.concatenate(parts) if parts else np.empty(0, dtype=np.int32)
