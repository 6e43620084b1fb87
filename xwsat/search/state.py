"""Search state: candidate domains, letter bitmasks, explanations and a trail to undo them.

Domains are sorted arrays of candidate indices per slot; cell masks are uint64 letter sets, kept
arc consistent (MAC) or one step deep (forward checking, the seed-000 "templates").

Every removal carries an *explanation*: a Python-int bitset of the decisions it depends on. A
decision literal is "dense cell c holds its letter" (bit ``c``) or, for the no-repeat rule, "slot s
holds its word" (bit ``n_cells + s``). When a slot runs out of candidates its explanation is a
conflict set; the search jumps to the latest decision in it (conflict-directed backjumping) and
removes from that slot every word that repeats the guilty letters (seed 002's tree pruning, made
exact by the explanation). An empty conflict set means no fill exists.
"""

from __future__ import annotations

import numpy as np

from xwsat.problem import FillProblem

DOM, CELL, ASSIGN = 0, 1, 2


class SearchState:
    """Mutable search state over an immutable FillProblem; changes are undone from the trail."""

    def __init__(self, problem: FillProblem, cascade: bool = True) -> None:
        self.problem = problem
        self.cascade = cascade  # True: full arc consistency; False: forward checking only
        n = problem.n_slots
        self.n_slots = n
        self.n_cells = problem.n_cells
        self.alphabet = problem.alphabet_size
        one = np.uint64(1)
        self.cells = [c.astype(np.int64) for c in problem.slot_cells]
        self.cell_lists = [c.tolist() for c in problem.slot_cells]
        self.length = [len(c) for c in problem.slot_cells]
        # column-major letter codes and letter bits: cols[s][j] is position j of every candidate
        self.cols = [np.ascontiguousarray(m.T) for m in problem.letters]
        self.bitcols = [one << c.astype(np.uint64) for c in self.cols]
        # letter support counts per (position, letter), flattened; offsets turn codes into slots
        self.rows = [np.ascontiguousarray(m, dtype=np.int64) for m in problem.letters]
        self.offsets = [
            np.arange(len(c), dtype=np.int64) * problem.alphabet_size for c in problem.slot_cells
        ]
        self.counts = [self._count(s, np.arange(len(problem.candidates[s]))) for s in range(n)]
        covers = problem.cell_slots()
        self.covers = covers
        # crossings[s] = [(position in s, cell, other slot, position in other)]
        self.crossings: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        for s in range(n):
            for j, cell in enumerate(self.cell_lists[s]):
                for t, p in covers[cell]:
                    if t != s:
                        self.crossings[s].append((j, cell, t, p))
        self.neighbours = [sorted({t for _, _, t, _ in cr}) for cr in self.crossings]
        same: dict[int, list[int]] = {}
        for s in range(n):
            same.setdefault(self.length[s], []).append(s)
        self.same_length = (
            [[t for t in same[self.length[s]] if t != s] for s in range(n)]
            if not problem.allow_repeats
            else [[] for _ in range(n)]
        )
        self.sorted_ids = []  # (sorted word ids, candidate index for each) per slot
        for cand in problem.candidates:
            order = np.argsort(cand, kind="stable")
            self.sorted_ids.append((cand[order].astype(np.int64), order.astype(np.int64)))
        # dynamic state
        self.dom: list[np.ndarray] = [np.arange(len(c), dtype=np.int64) for c in problem.candidates]
        self.masks: list[int] = [int(m) for m in problem.cell_masks]
        self.expl = [0] * n
        self.cell_expl = [0] * self.n_cells
        self.assigned = [False] * n
        self.value = [-1] * n
        self.trail: list[tuple] = []
        self.marks: list[int] = []  # trail length before each decision
        self.decisions: list[tuple[int, int]] = []  # (slot, candidate index) per level
        self.level_lits: list[int] = []  # literal bits introduced by each level
        self.pending: list[set[int]] = [set() for _ in range(n)]
        self.queue: list[int] = []
        self.queued = [False] * n
        self.revisions = 0

    def _count(self, slot: int, index: np.ndarray) -> np.ndarray:
        """Letter counts per (position, letter) over candidates ``index`` of ``slot``."""
        size = len(self.offsets[slot]) * self.alphabet
        codes = self.rows[slot][index] + self.offsets[slot]
        return np.bincount(codes.ravel(), minlength=size)

    # ---- literals ------------------------------------------------------------------------
    def marker(self, slot: int) -> int:
        return 1 << (self.n_cells + slot)

    def all_literals(self) -> int:
        lits = 0
        for level in self.level_lits:
            lits |= level
        return lits

    # ---- changes ---------------------------------------------------------------------------
    def _enqueue(self, slot: int, pos: int) -> None:
        if self.assigned[slot]:
            return
        self.pending[slot].add(pos)
        if not self.queued[slot]:
            self.queued[slot] = True
            self.queue.append(slot)

    def _narrow_cell(self, cell: int, mask: int, reason: int, source: int, cascade: bool) -> None:
        """Set ``cell``'s letter set to ``mask`` (a subset), explained by ``reason``."""
        self.trail.append((CELL, cell, self.masks[cell], self.cell_expl[cell]))
        self.masks[cell] = mask
        self.cell_expl[cell] |= reason
        if cascade:
            for t, p in self.covers[cell]:
                if t != source:
                    self._enqueue(t, p)

    def shrink(
        self, slot: int, new: np.ndarray, reason: int, cascade: bool = True,
        removed: np.ndarray | None = None,
    ) -> int | None:
        """Replace ``slot``'s domain by the subset ``new``; narrow its cells; a conflict if empty.

        Letters whose support count drops to zero leave the crossing cells' letter sets (the
        templates). Without ``cascade`` the cells narrow but nothing else is revised.
        """
        old = self.dom[slot]
        self.trail.append((DOM, slot, old, self.expl[slot], self.counts[slot]))
        self.dom[slot] = new
        self.expl[slot] |= reason
        if len(new) == 0:
            return self.expl[slot]
        if removed is None:
            removed = np.setdiff1d(old, new, assume_unique=True)
        before = self.counts[slot]
        if 2 * len(removed) < len(new):
            after = before - self._count(slot, removed)
        else:
            after = self._count(slot, new)
        self.counts[slot] = after
        if len(new) == 1 and self.same_length[slot]:
            conflict = self._no_repeat(slot, int(new[0]), self.expl[slot], cascade)
            if conflict is not None:
                return conflict
        gone = np.flatnonzero((after == 0) & (before > 0)).tolist()
        if not gone:
            return None
        alphabet = self.alphabet
        cells = self.cell_lists[slot]
        lost: dict[int, int] = {}
        for code in gone:
            j, letter = divmod(code, alphabet)
            lost[j] = lost.get(j, 0) | (1 << letter)
        why = self.expl[slot]
        masks = self.masks
        for j, bits in lost.items():
            cell = cells[j]
            if len(self.covers[cell]) > 1 and masks[cell] & bits:
                self._narrow_cell(cell, masks[cell] & ~bits, why, slot, cascade)
        return None

    def _no_repeat(self, slot: int, k: int, reason: int, cascade: bool) -> int | None:
        """Remove ``slot``'s word (candidate ``k``) from every other unfilled slot of its length."""
        word = int(self.problem.candidates[slot][k])
        for other in self.same_length[slot]:
            if self.assigned[other]:
                continue
            index = self.index_in(other, word)
            if index < 0:
                continue
            dom = self.dom[other]
            at = int(np.searchsorted(dom, index))
            if at < len(dom) and dom[at] == index:
                conflict = self.shrink(other, np.delete(dom, at), reason, cascade)
                if conflict is not None:
                    return conflict
        return None

    def revise(self, slot: int, positions: list[int] | None = None) -> int | None:
        """Drop ``slot``'s candidates whose letters left their cells' masks."""
        self.revisions += 1
        dom = self.dom[slot]
        cells = self.cell_lists[slot]
        positions = range(self.length[slot]) if positions is None else positions
        keep = None
        reason = 0
        bitcols = self.bitcols[slot]
        for j in positions:
            mask = self.masks[cells[j]]
            ok = (bitcols[j][dom] & np.uint64(mask)) != 0
            if ok.all():
                continue
            keep = ok if keep is None else keep & ok
            reason |= self.cell_expl[cells[j]]
        if keep is None:
            return None
        return self.shrink(slot, dom[keep], reason, self.cascade, dom[~keep])

    def propagate(self) -> int | None:
        """Revise queued slots to a fixed point (or one step, without cascade); a conflict set."""
        queue = self.queue
        while queue:
            slot = queue.pop()
            self.queued[slot] = False
            positions = list(self.pending[slot])
            self.pending[slot].clear()
            if self.assigned[slot]:
                continue
            conflict = self.revise(slot, positions)
            if conflict is not None:
                self._clear_queue()
                return conflict
        return None

    def _clear_queue(self) -> None:
        for slot in self.queue:
            self.queued[slot] = False
            self.pending[slot].clear()
        self.queue.clear()

    def index_in(self, slot: int, word: int) -> int:
        """Candidate index of global ``word`` in ``slot``, or -1."""
        ids, order = self.sorted_ids[slot]
        k = int(np.searchsorted(ids, word))
        return int(order[k]) if k < len(ids) and ids[k] == word else -1

    def assign(self, slot: int, k: int) -> int | None:
        """Decide ``slot`` := candidate ``k`` (a new level), propagate; a conflict set or None."""
        self.marks.append(len(self.trail))
        self.decisions.append((slot, k))
        self.trail.append((ASSIGN, slot))
        self.assigned[slot] = True
        self.value[slot] = k
        self.trail.append((DOM, slot, self.dom[slot], self.expl[slot], self.counts[slot]))
        self.dom[slot] = np.array([k], dtype=np.int64)
        self.counts[slot] = self._count(slot, self.dom[slot])
        lits = self.marker(slot)
        word_letters = self.problem.letters[slot][k]
        for j, cell in enumerate(self.cell_lists[slot]):
            bit = 1 << int(word_letters[j])
            if self.masks[cell] != bit:
                self.trail.append((CELL, cell, self.masks[cell], self.cell_expl[cell]))
                self.masks[cell] = bit
                self.cell_expl[cell] = 1 << cell
                lits |= 1 << cell
                for t, p in self.covers[cell]:
                    if t != slot:
                        self._enqueue(t, p)
        self.level_lits.append(lits)
        conflict = self._no_repeat(slot, k, self.marker(slot), self.cascade)
        if conflict is not None:
            self._clear_queue()
            return conflict
        # with cascade off (forward checking) the crossing slots are revised once, no further
        return self.propagate()

    def initialise(self) -> int | None:
        """Root propagation: revise every slot, no-repeat for singletons; a conflict or None."""
        for slot in range(self.n_slots):
            if len(self.dom[slot]) == 0:
                return self.expl[slot]
            if len(self.dom[slot]) == 1 and self.same_length[slot]:
                conflict = self._no_repeat(slot, int(self.dom[slot][0]), 0, True)
                if conflict is not None:
                    return conflict
        for slot in range(self.n_slots):
            for pos in range(self.length[slot]):
                self._enqueue(slot, pos)
            support = self.counts[slot].reshape(self.length[slot], self.alphabet) > 0
            for j, cell in enumerate(self.cell_lists[slot]):
                letters = sum(1 << int(a) for a in np.flatnonzero(support[j]))
                if self.masks[cell] & ~letters:  # a letter no candidate puts here
                    self._narrow_cell(cell, self.masks[cell] & letters, 0, -1, True)
        cascade, self.cascade = self.cascade, True
        try:
            return self.propagate()
        finally:
            self.cascade = cascade

    def assign_letter(self, cell: int, letter: int) -> int | None:
        """Decide that dense ``cell`` holds ``letter`` (a new level) and propagate."""
        self.marks.append(len(self.trail))
        self.decisions.append((-1 - cell, letter))
        self.level_lits.append(1 << cell)
        self.trail.append((CELL, cell, self.masks[cell], self.cell_expl[cell]))
        self.masks[cell] = 1 << letter
        self.cell_expl[cell] = 1 << cell
        for t, p in self.covers[cell]:
            self._enqueue(t, p)
        return self.propagate()

    def forbid_letter(self, cell: int, letter: int, reason: int) -> int | None:
        """Remove ``letter`` from ``cell`` (a learnt nogood) and propagate; a conflict or None."""
        mask = self.masks[cell] & ~(1 << letter)
        self._narrow_cell(cell, mask, reason, -1, True)
        if mask == 0:
            self._clear_queue()
            return self.cell_expl[cell]
        return self.propagate()

    def undo_to_level(self, level: int) -> None:
        """Undo every decision from ``level`` (1-based) on, back to the state before it."""
        if level > len(self.marks):
            return
        self._clear_queue()
        target = self.marks[level - 1]
        trail = self.trail
        while len(trail) > target:
            entry = trail.pop()
            kind = entry[0]
            if kind == DOM:
                self.dom[entry[1]] = entry[2]
                self.expl[entry[1]] = entry[3]
                self.counts[entry[1]] = entry[4]
            elif kind == CELL:
                self.masks[entry[1]] = entry[2]
                self.cell_expl[entry[1]] = entry[3]
            else:
                self.assigned[entry[1]] = False
                self.value[entry[1]] = -1
        del self.marks[level - 1 :]
        del self.decisions[level - 1 :]
        del self.level_lits[level - 1 :]

    def level_of(self, conflict: int) -> int:
        """The latest level (1-based) with a literal in ``conflict``; 0 if none."""
        for level in range(len(self.level_lits), 0, -1):
            if conflict & self.level_lits[level - 1]:
                return level
        return 0
