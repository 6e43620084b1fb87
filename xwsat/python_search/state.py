"""Search state: candidate domains as bitsets, letter bitmasks, explanations and an undo trail.

A slot's domain is a Python int whose bit ``k`` says candidate ``k`` is still possible; for each
(position, letter) the slot keeps the bitset of candidates with that letter there, so narrowing a
cell is one AND per removed letter and a letter's support is one AND (Qxw's feasible-word lists,
with big-int bit operations instead of per-node numpy calls). Cell masks are letter sets (ints),
kept arc consistent (MAC) or one step deep (forward checking, the fragment filler's "templates").

Every removal carries an *explanation*: an int bitset of the decisions it depends on. A decision
literal is "dense cell c holds its letter" (bit ``c``) or, for the no-repeat rule, "slot s holds
its word" (bit ``n_cells + s``). When a slot runs out of candidates its explanation is a conflict
set; the search jumps to the latest decision in it (conflict-directed backjumping) and removes from
that slot every word that repeats the guilty letters (the CSP filler's tree pruning, made exact
by the explanation). An empty conflict set means no fill exists.
"""

from __future__ import annotations

import numpy as np

from xwsat.problem import FillProblem
from xwsat.python_search.bitsets import bit_indices, letter_bitsets, members
from xwsat.python_search.symmetry import enforce_order

DOM, CELL, ASSIGN = 0, 1, 2
FEW = 12  # below this many candidates, read letters from the candidates themselves


class SearchState:
    """Mutable search state over an immutable FillProblem; changes are undone from the trail."""

    def __init__(
        self, problem: FillProblem, cascade: bool = True, order: tuple[int, int] | None = None
    ) -> None:
        self.problem = problem
        self.cascade = cascade  # True: full arc consistency; False: forward checking only
        self.order = order  # dense cells (x, y) with letter(x) <= letter(y) (symmetry breaking)
        n = problem.n_slots
        self.n_slots = n
        self.n_cells = problem.n_cells
        self.alphabet = problem.alphabet_size
        self.cell_lists = [c.tolist() for c in problem.slot_cells]
        self.length = [len(c) for c in problem.slot_cells]
        self.size0 = [len(c) for c in problem.candidates]
        self.cols = [np.ascontiguousarray(m.T) for m in problem.letters]  # cols[s][j]: position j
        self._rows: list[dict[int, list[int]]] = [{} for _ in range(n)]  # letters, on demand
        # bits[s][j][a]: candidates of s with letter a at position j (0 when none)
        self.bits: list[list[list[int]]] = []
        support0: list[list[int]] = []
        for cols in self.cols:
            self.bits.append([letter_bitsets(col, self.alphabet) for col in cols])
            support0.append([sum(1 << a for a, b in enumerate(row) if b) for row in self.bits[-1]])
        # pairs[s][j]: (letter bit, candidate bitset) for the letters present at position j
        self.pairs = [
            [[(1 << a, row[a]) for a in range(self.alphabet) if row[a]] for row in per_slot]
            for per_slot in self.bits
        ]
        covers = problem.cell_slots()
        self.covers = covers
        # crossings[s] = [(position in s, cell, other slot, position in other)]
        self.crossings: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        for s in range(n):
            for j, cell in enumerate(self.cell_lists[s]):
                for t, p in covers[cell]:
                    if t != s:
                        self.crossings[s].append((j, cell, t, p))
        self.checked = [
            [j for j, cell in enumerate(self.cell_lists[s]) if len(covers[cell]) > 1]
            for s in range(n)
        ]
        self.neighbours = [sorted({t for _, _, t, _ in cr}) for cr in self.crossings]
        same: dict[int, list[int]] = {}
        for s in range(n):
            same.setdefault(self.length[s], []).append(s)
        self.same_length = (
            [[t for t in same[self.length[s]] if t != s] for s in range(n)]
            if not problem.allow_repeats
            else [[] for _ in range(n)]
        )
        self._index: list[dict[int, int] | None] = [None] * n  # word id -> candidate index
        # dynamic state
        self.dom: list[int] = [(1 << size) - 1 for size in self.size0]
        self.support = support0  # letters with a candidate, per position (exact where checked)
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

    # ---- queries -----------------------------------------------------------------------------
    def size(self, slot: int) -> int:
        return self.dom[slot].bit_count()

    def indices(self, slot: int) -> np.ndarray:
        """Candidate indices still in ``slot``'s domain, ascending."""
        return bit_indices(self.dom[slot], self.size0[slot])

    def letter_counts(self, slot: int, pos: int) -> np.ndarray:
        """Candidates left in ``slot`` per letter at position ``pos`` (float64, alphabet-long)."""
        counts = np.zeros(self.alphabet, dtype=np.float64)
        dom = self.dom[slot]
        row = self.bits[slot][pos]
        for a in members(self.support[slot][pos]):
            counts[a] = (dom & row[a]).bit_count()
        return counts

    def row(self, slot: int, k: int) -> list[int]:
        """Letter codes of candidate ``k`` of ``slot``."""
        cache = self._rows[slot]
        word = cache.get(k)
        if word is None:
            word = cache[k] = self.problem.letters[slot][k].tolist()
        return word

    def index_in(self, slot: int, word: int) -> int:
        """Candidate index of global ``word`` in ``slot``, or -1 (the table is built on demand)."""
        table = self._index[slot]
        if table is None:
            ids = self.problem.candidates[slot].tolist()
            table = self._index[slot] = dict(zip(ids, range(len(ids))))
        return table.get(word, -1)

    def matching(self, slot: int, pos: int, letters: int) -> int:
        """Bitset of ``slot``'s candidates (any, not only the domain) with a letter of ``letters``
        at ``pos``."""
        row = self.bits[slot][pos]
        out = 0
        for a in members(letters):
            out |= row[a]
        return out

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

    def narrow_cell(self, cell: int, mask: int, reason: int, source: int, cascade: bool) -> None:
        """Set ``cell``'s letter set to ``mask`` (a subset), explained by ``reason``."""
        self.trail.append((CELL, cell, self.masks[cell], self.cell_expl[cell]))
        self.masks[cell] = mask
        self.cell_expl[cell] |= reason
        if cascade:
            for t, p in self.covers[cell]:
                if t != source:
                    self._enqueue(t, p)

    def shrink(self, slot: int, new: int, reason: int, cascade: bool = True) -> int | None:
        """Replace ``slot``'s domain by the subset ``new``; narrow its cells; a conflict if empty.

        Letters left without a candidate leave the crossing cells' letter sets (the templates).
        Without ``cascade`` the cells narrow but nothing else is revised.
        """
        sup = self.support[slot]
        old = self.dom[slot]
        self.trail.append((DOM, slot, old, self.expl[slot], sup))
        self.dom[slot] = new
        self.expl[slot] |= reason
        if new == 0:
            return self.expl[slot]
        if new & (new - 1) == 0 and self.same_length[slot]:
            conflict = self._no_repeat(slot, new.bit_length() - 1, self.expl[slot], cascade)
            if conflict is not None:
                return conflict
        cells = self.cell_lists[slot]
        masks = self.masks
        fresh = None
        for j, keep in self._support(slot, old, new):
            had = sup[j]
            if keep == had:
                continue
            if fresh is None:
                fresh = list(sup)
            fresh[j] = keep
            cell = cells[j]
            if masks[cell] & ~keep:
                self.narrow_cell(cell, masks[cell] & keep, self.expl[slot], slot, cascade)
        if fresh is not None:
            self.support[slot] = fresh
        return None

    def _support(self, slot: int, old: int, new: int) -> list[tuple[int, int]]:
        """(position, letters with a candidate in ``new``) for each checked position of ``slot``.

        Reads the few candidates left, or checks only the letters of the few removed, or ANDs
        every supported letter's bitset, whichever is cheapest.
        """
        checked = self.checked[slot]
        row_of = self.row
        sup = self.support[slot]
        if new.bit_count() <= FEW:
            acc = [0] * len(checked)
            for k in members(new):
                row = row_of(slot, k)
                for i, j in enumerate(checked):
                    acc[i] |= 1 << row[j]
            return [(j, acc[i] & sup[j]) for i, j in enumerate(checked)]
        removed = old & ~new
        out = []
        if removed.bit_count() > FEW:
            pairs = self.pairs[slot]
            for j in checked:
                keep = sup[j]
                for low, candidates in pairs[j]:
                    if keep & low and not new & candidates:
                        keep ^= low
                out.append((j, keep))
            return out
        touched = [0] * len(checked)
        for k in members(removed):
            row = row_of(slot, k)
            for i, j in enumerate(checked):
                touched[i] |= 1 << row[j]
        bits = self.bits[slot]
        for i, j in enumerate(checked):
            keep = sup[j]
            x = touched[i] & keep
            while x:  # only the letters of removed candidates can have lost their support
                low = x & -x
                x ^= low
                if not new & bits[j][low.bit_length() - 1]:
                    keep ^= low
            out.append((j, keep))
        return out

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
            if dom >> index & 1:
                conflict = self.shrink(other, dom ^ (1 << index), reason, cascade)
                if conflict is not None:
                    return conflict
        return None

    def revise(self, slot: int, positions: list[int] | None = None) -> int | None:
        """Drop ``slot``'s candidates whose letters left their cells' masks."""
        self.revisions += 1
        dom = self.dom[slot]
        new = dom
        cells = self.cell_lists[slot]
        positions = range(self.length[slot]) if positions is None else positions
        reason = 0
        sup = self.support[slot]
        bits = self.bits[slot]
        masks = self.masks
        for j in positions:
            cell = cells[j]
            bad = sup[j] & ~masks[cell]
            if not bad:
                continue
            row = bits[j]
            before = new
            while bad:
                low = bad & -bad
                bad ^= low
                new &= ~row[low.bit_length() - 1]
            if new != before:
                reason |= self.cell_expl[cell]
        if new == dom:
            return None
        return self.shrink(slot, new, reason, self.cascade)

    def propagate(self) -> int | None:
        """Revise queued slots to a fixed point (or one step, without cascade); a conflict set."""
        queue = self.queue
        while True:
            if self.order is not None:
                conflict = enforce_order(self, *self.order)
                if conflict is not None:
                    self._clear_queue()
                    return conflict
            if not queue:
                return None
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

    def _clear_queue(self) -> None:
        for slot in self.queue:
            self.queued[slot] = False
            self.pending[slot].clear()
        self.queue.clear()

    def assign(self, slot: int, k: int) -> int | None:
        """Decide ``slot`` := candidate ``k`` (a new level), propagate; a conflict set or None."""
        self.marks.append(len(self.trail))
        self.decisions.append((slot, k))
        self.trail.append((ASSIGN, slot))
        self.assigned[slot] = True
        self.value[slot] = k
        self.trail.append((DOM, slot, self.dom[slot], self.expl[slot], self.support[slot]))
        self.dom[slot] = 1 << k
        word_letters = self.row(slot, k)
        self.support[slot] = [1 << a for a in word_letters]
        lits = self.marker(slot)
        for j, cell in enumerate(self.cell_lists[slot]):
            bit = 1 << word_letters[j]
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
            dom = self.dom[slot]
            if dom == 0:
                return self.expl[slot]
            if dom & (dom - 1) == 0 and self.same_length[slot]:
                conflict = self._no_repeat(slot, dom.bit_length() - 1, 0, True)
                if conflict is not None:
                    return conflict
        for slot in range(self.n_slots):
            for pos in range(self.length[slot]):
                self._enqueue(slot, pos)
            for j, cell in enumerate(self.cell_lists[slot]):
                letters = self.support[slot][j]
                if self.masks[cell] & ~letters:  # a letter no candidate puts here
                    self.narrow_cell(cell, self.masks[cell] & letters, 0, -1, True)
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
        self.narrow_cell(cell, mask, reason, -1, True)
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
                self.support[entry[1]] = entry[4]
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
