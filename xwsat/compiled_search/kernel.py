"""Compiled MAC search on the letters model: compact tables, dom/wdeg, restarts with nogoods.

The native Python search spends its time re-deriving supports (about 150 decisions a CPU second on
hard 15x15 grids); this is the same kind of search compiled with numba, in the shape of ACE's:

- a variable per cell (uint64 letter mask), a compact-table propagator per slot: each slot keeps
  the bitset of its rows still consistent with its cells; a letter leaves a cell when no row
  supports it (residues make most checks one AND; a slot down to a few live rows lists them
  instead);
- the no-repeat rule: a slot whose cells are all fixed removes its word from the other slots of
  its length; with the shared-substring rule (``xwsat.substrings``) it also removes from every
  other slot the words holding one of its word's grams;
- binary branching (cell = letter, then cell != letter), dom/wdeg cell choice, the letter with
  most support in both crossing slots first;
- geometric restarts, recording at each restart the reduced nld-nogoods of the abandoned branch
  (Lecoutre et al. 2007), propagated with two watched literals;
- on a problem with a symmetry (``xwsat.symmetry``: a grid symmetric about its diagonal), each
  such nogood and each letter refuted at the root is also added for the mirror cells, unless a
  proof is being logged.
- with an objective (a worth per row, ``state.new_state(incumbent=...)``), branch and bound: a
  node fails when the sum over the counted slots of their best live row's worth cannot beat the
  best fill found (``sc[BOUND]``, raised by the caller at each fill), and word decisions try the
  worthiest words first; a failure there means "no better fill below", which every later,
  higher bound keeps true, so the restarts' nogoods stay sound.

Every change below the root goes on one trail (kind, index, old value), saved at most once per
level thanks to a stamp per entry; the root's changes are never undone, so never saved. A table's
non-zero words are listed first (a reversible sparse bitset, as in compact tables), so deep in
the search only the few live words are visited. ``run`` stops after a node budget with the state
ready for the next decision, so the Python side can watch the clock, report progress and call it
again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from xwsat.compiled_search.model import Model
from xwsat.compiled_search.state import (  # noqa: F401  (re-exported: the kernel's callers read them here)
    BOUND,
    BUDGET,
    FAILS,
    FQ,
    K_CT,
    K_DOM,
    K_FIX,
    K_LIM,
    K_WPT,
    LEVEL,
    LITS,
    NG,
    NODES,
    OPT,
    PATH,
    PHASE,
    PROOF,
    PROOF_ON,
    QH,
    QN,
    READY,
    RESTART_FACTOR,
    RESTART_FIRST,
    RESTARTS,
    SAT,
    SCALARS,
    SEED,
    SINCE,
    STAMP,
    TR,
    UNSAT,
    WATCHED,
    WORD_NOISE,
    WORDS,
    State,
    new_state,
)

# No NRT: the kernel allocates no array, and without numba's runtime a call between these
# functions no longer increfs and decrefs every array of Model and State: measured 2.2-3.8x
# faster on the same decisions (results/latency/). tests/unit/test_compiled_search.py checks
# verdicts and decision counts against the Python search.
compiled_kernel = njit(cache=True, _nrt=False)

U0, U1 = np.uint64(0), np.uint64(1)
_M1, _M2, _M4 = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333),
                 np.uint64(0x0F0F0F0F0F0F0F0F))
_H01 = np.uint64(0x0101010101010101)
_S1, _S2, _S4, _SHIFT56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)

@compiled_kernel
def popcount(x: np.uint64) -> int:
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return int((x * _H01) >> _SHIFT56)


@compiled_kernel
def single(x: np.uint64) -> bool:
    return x != U0 and (x & (x - U1)) == U0


@compiled_kernel
def low_bit(x: np.uint64) -> int:
    return popcount((x & (~x + U1)) - U1)


@compiled_kernel
def _push(st: State, kind: int, idx: int, val: np.uint64) -> None:
    n = st.sc[TR]
    st.tr_kind[n] = kind
    st.tr_idx[n] = idx
    st.tr_val[n] = val
    st.sc[TR] = n + 1


@compiled_kernel
def set_dom(st: State, c: int, value: np.uint64) -> None:
    level = st.sc[LEVEL]
    stamp = st.lv_stamp[level]
    if level > 0 and st.dom_stamp[c] != stamp:  # root changes are never undone
        _push(st, K_DOM, c, st.dom[c])
        st.dom_stamp[c] = stamp
    st.dom[c] = value


@compiled_kernel
def set_ct(st: State, i: int, value: np.uint64) -> None:
    level = st.sc[LEVEL]
    stamp = st.lv_stamp[level]
    if level > 0 and st.ct_stamp[i] != stamp:
        _push(st, K_CT, i, st.ct[i])
        st.ct_stamp[i] = stamp
    st.ct[i] = value


@compiled_kernel
def undo(st: State, mark: int) -> None:
    n = st.sc[TR]
    while n > mark:
        n -= 1
        kind, i = st.tr_kind[n], st.tr_idx[n]
        if kind == K_DOM:
            st.dom[i] = st.tr_val[n]
        elif kind == K_CT:
            st.ct[i] = st.tr_val[n]
        elif kind == K_LIM:
            st.limit[i] = np.int64(st.tr_val[n])
        elif kind == K_WPT:
            st.wptr[i] = np.int64(st.tr_val[n])
        else:
            st.fixed[i] = -1
    st.sc[TR] = n


@compiled_kernel
def enqueue(st: State, s: int) -> None:
    if not st.inq[s]:
        st.inq[s] = True
        size = len(st.queue)
        st.queue[(st.sc[QH] + st.sc[QN]) % size] = s
        st.sc[QN] += 1


@compiled_kernel
def clear_queues(st: State) -> None:
    size = len(st.queue)
    while st.sc[QN] > 0:
        st.inq[st.queue[st.sc[QH]]] = False
        st.sc[QH] = (st.sc[QH] + 1) % size
        st.sc[QN] -= 1
    st.sc[FQ] = 0


@compiled_kernel
def _drop_word(st: State, off: int, s: int, w: int) -> None:
    """Move word w of slot s, just become zero, past the limit of non-zero words."""
    limit = st.limit[s]
    for i in range(limit):
        if st.nz[off + i] == w:
            st.nz[off + i] = st.nz[off + limit - 1]
            st.nz[off + limit - 1] = w
            set_limit(st, s, limit - 1)
            return


@compiled_kernel
def set_limit(st: State, s: int, value: int) -> None:
    level = st.sc[LEVEL]
    stamp = st.lv_stamp[level]
    if level > 0 and st.lim_stamp[s] != stamp:
        _push(st, K_LIM, s, np.uint64(st.limit[s]))
        st.lim_stamp[s] = stamp
    st.limit[s] = value


@compiled_kernel
def set_wptr(st: State, s: int, value: int) -> None:
    level = st.sc[LEVEL]
    stamp = st.lv_stamp[level]
    if level > 0 and st.wp_stamp[s] != stamp:
        _push(st, K_WPT, s, np.uint64(st.wptr[s]))
        st.wp_stamp[s] = stamp
    st.wptr[s] = value


@compiled_kernel
def best_live(m: Model, st: State, s: int) -> int:
    """The worth of slot s's best live row, or -1 when none is live. Rows only leave a table
    below a node, so the pointer into the rows by worth only moves on (undone with the trail)."""
    t = m.slot_table[s]
    lo = m.row_off[t]
    n = m.tab_rows[t]
    off = m.ct_off[s]
    k = st.wptr[s]
    while k < n:
        row = m.worth_order[lo + k]
        if (st.ct[off + (row >> 6)] >> np.uint64(row & 63)) & U1:
            break
        k += 1
    if k != st.wptr[s]:
        set_wptr(st, s, k)
    return m.worth[lo + m.worth_order[lo + k]] if k < n else -1


@compiled_kernel
def no_better(m: Model, st: State) -> bool:
    """Branch and bound: whether no fill below this node can be worth more than the best found
    (``sc[BOUND]``), by the sum over the counted slots of their best live row."""
    total = 0
    for s in range(len(m.slot_table)):
        if m.counted[s]:
            w = best_live(m, st, s)
            if w < 0:
                return True
            total += w
    return total <= st.sc[BOUND]


@compiled_kernel
def update_ct(m: Model, st: State, s: int, p: int, old: np.uint64, new: np.uint64) -> bool:
    """Drop from slot s's table the rows whose letter at p left the cell; False if none is left.

    Only the table's non-zero words are visited (a reversible sparse bitset: ``nz`` lists the
    word indices, the first ``limit[s]`` of them non-zero); a word that becomes zero is swapped
    past the limit. Few letters removed: AND out their rows; else AND in the remaining ones'."""
    t = m.slot_table[s]
    words = m.tab_words[t]
    n_letters = m.n_letters
    base = m.sup_off[t] + p * n_letters * words
    off = m.ct_off[s]
    removed = old & ~new
    keep = popcount(removed) > popcount(new)
    pick = new if keep else removed
    k = 0
    bits = pick
    while bits != U0:
        st.letters[k] = base + low_bit(bits) * words
        bits &= bits - U1
        k += 1
    limit = st.limit[s]
    i = limit - 1
    while i >= 0:
        w = st.nz[off + i]
        x = st.ct[off + w]
        acc = U0
        for j in range(k):
            acc |= m.sup[st.letters[j] + w]
        y = (x & acc) if keep else (x & ~acc)
        if y != x:
            set_ct(st, off + w, y)
            if y == U0:
                limit -= 1
                st.nz[off + i] = st.nz[off + limit]
                st.nz[off + limit] = w
        i -= 1
    if limit != st.limit[s]:
        set_limit(st, s, limit)
    return limit > 0


@compiled_kernel
def remove(m: Model, st: State, c: int, removed: np.uint64, skip: int) -> int:
    """Take letters out of cell c and update its slots (not ``skip``); a conflict slot or -1."""
    old = st.dom[c]
    new = old & ~removed
    if new == old:
        return -1
    set_dom(st, c, new)
    if new == U0:
        return m.cell_slot[c, 0]
    for k in range(m.cell_nslots[c]):
        s = m.cell_slot[c, k]
        if s == skip:
            continue
        if not update_ct(m, st, s, m.cell_pos[c, k], old, new):
            return s
        enqueue(st, s)
    if single(new) and st.sc[PHASE]:
        st.phase[c] = low_bit(new)
    if single(new) and st.sc[NG] > 0:
        st.fq[st.sc[FQ]] = c
        st.sc[FQ] += 1
    return -1


# A slot with few live rows is filtered by listing them (each row ORs its letters into its
# positions) instead of a support check per open letter; "few": at most this many rows per open
# letter of a position, on average. Same prunings either way; 1.6x faster on the 5x5
# refutations, 1.2x on the quick subset's hard grids (results/latency/).
ROWS_FACTOR = 8

# Word decisions under an objective: a word's worth, as a share of its slot's best, weighs this
# much against the least-constraining score (a sum of logs over the crossings).
WORTH_WEIGHT = 8.0


@compiled_kernel
def _few_rows(m: Model, st: State, s: int, most: int) -> bool:
    """Whether slot s has at most ``most`` live rows (counted only as far as needed)."""
    off = m.ct_off[s]
    if st.limit[s] > most:  # every listed word holds a row
        return False
    n = 0
    for i in range(st.limit[s]):
        n += popcount(st.ct[off + st.nz[off + i]])
        if n > most:
            return False
    return True


@compiled_kernel
def _live_letters(m: Model, st: State, s: int, t: int, off: int, length: int) -> None:
    """``live_letters[p]``: the letters at position p of slot s's live rows."""
    for p in range(length):
        st.live_letters[p] = U0
    base = m.let_off[t]
    for i in range(st.limit[s]):
        w = st.nz[off + i]
        x = st.ct[off + w]
        while x != U0:
            row = w * 64 + low_bit(x)
            x &= x - U1
            rb = base + row * length
            for p in range(length):
                st.live_letters[p] |= U1 << np.uint64(m.row_letters[rb + p])


@compiled_kernel
def _unsupported(m: Model, st: State, s: int, p: int, d: np.uint64) -> np.uint64:
    """The letters of ``d`` that no live row of slot s has at position p: a residue check per
    letter, then a scan of the live words for a new residue."""
    t = m.slot_table[s]
    words = m.tab_words[t]
    n_letters = m.n_letters
    off = m.ct_off[s]
    base = m.sup_off[t] + p * n_letters * words
    removed = U0
    bits = d
    while bits != U0:
        a = low_bit(bits)
        bits &= bits - U1
        sb = base + a * words
        ri = m.res_off[s] + p * n_letters + a
        r = st.res[ri]
        if st.ct[off + r] & m.sup[sb + r] != U0:
            continue
        found = False
        for i in range(st.limit[s]):
            w = st.nz[off + i]
            if st.ct[off + w] & m.sup[sb + w] != U0:
                st.res[ri] = w
                found = True
                break
        if not found:
            removed |= U1 << np.uint64(a)
    return removed


@compiled_kernel
def filter_slot(m: Model, st: State, s: int) -> int:
    """Remove every letter of s's cells that no row of s supports; then the no-repeat rule."""
    t = m.slot_table[s]
    off = m.ct_off[s]
    first = m.slot_start[s]
    length = m.slot_start[s + 1] - first
    all_fixed = True
    open_letters = 0
    for p in range(length):
        d = st.dom[m.slot_cells[first + p]]
        if not single(d):
            open_letters += popcount(d)
    by_rows = open_letters > 0 and _few_rows(m, st, s, ROWS_FACTOR * open_letters // length)
    if by_rows:
        _live_letters(m, st, s, t, off, length)
    for p in range(length):
        c = m.slot_cells[first + p]
        d = st.dom[c]
        if single(d):
            continue
        removed = d & ~st.live_letters[p] if by_rows else _unsupported(m, st, s, p, d)
        if removed != U0:
            conflict = remove(m, st, c, removed, s)
            if conflict >= 0:
                return conflict
        if not single(st.dom[c]):
            all_fixed = False
    if not all_fixed or st.fixed[s] >= 0 or (m.same_start[s + 1] == m.same_start[s]
                                               and len(m.gram_key) == 0):
        return -1
    w = st.nz[off]
    row = w * 64 + low_bit(st.ct[off + w])
    if st.sc[LEVEL] > 0:
        _push(st, K_FIX, s, U0)
    st.fixed[s] = row
    word = m.row_word[m.row_off[t] + row]
    for j in range(m.same_start[s], m.same_start[s + 1]):
        u = m.same_slots[j]
        tu = m.slot_table[u]
        lo, hi = m.row_off[tu], m.row_off[tu + 1]
        i = np.searchsorted(m.row_word[lo:hi], word)
        if i < hi - lo and m.row_word[lo + i] == word and _clear_row(m, st, u, i):
            return u
    if len(m.gram_key) > 0:
        return _drop_grams(m, st, s, m.row_off[t] + row)
    return -1


@compiled_kernel
def _drop_grams(m: Model, st: State, s: int, held: int) -> int:
    """The shared-substring rule for slot s, now fixed to the word of global row ``held``:
    remove from every other slot the rows holding one of that word's grams. Returns a slot
    left without rows, or -1."""
    n_tables = len(m.tab_words)
    for j in range(m.gram_off[held], m.gram_off[held + 1]):
        g = m.row_gram[j]
        for u in range(len(m.slot_table)):
            if u == s:
                continue
            key = g * n_tables + m.slot_table[u]
            i = np.searchsorted(m.gram_key, key)
            if i >= len(m.gram_key) or m.gram_key[i] != key:
                continue
            for q in range(m.key_off[i], m.key_off[i + 1]):
                if _clear_row(m, st, u, m.key_row[q]):
                    return u
    return -1


@compiled_kernel
def _clear_row(m: Model, st: State, u: int, i: int) -> bool:
    """Take row i out of slot u's current table and queue u; True when u has no row left."""
    idx = m.ct_off[u] + (i >> 6)
    bit = U1 << np.uint64(i & 63)
    if st.ct[idx] & bit:
        set_ct(st, idx, st.ct[idx] & ~bit)
        if st.ct[idx] == U0:
            _drop_word(st, m.ct_off[u], u, i >> 6)
            if st.limit[u] == 0:
                return True
        enqueue(st, u)
    return False


@compiled_kernel
def nogoods_on_fixed(m: Model, st: State, c: int) -> int:
    """Two-watched-literal propagation of the nogoods watching cell c, now fixed."""
    a = low_bit(st.dom[c])
    prev = -1
    wi = st.w_head[c]
    n_slots = len(m.slot_table)
    while wi >= 0:
        nxt = st.w_next[wi]
        lit = st.ng_w[wi]
        if st.ng_val[lit] != a:  # the literal is false: the nogood holds
            prev = wi
            wi = nxt
            continue
        g = wi >> 1
        other = st.ng_w[wi ^ 1]
        moved = False
        for li in range(st.ng_start[g], st.ng_start[g + 1]):
            if li == lit or li == other:  # noqa: SIM109 (numba)
                continue
            x = st.ng_var[li]
            if st.dom[x] != U1 << np.uint64(st.ng_val[li]):
                st.ng_w[wi] = li
                if prev < 0:
                    st.w_head[c] = nxt
                else:
                    st.w_next[prev] = nxt
                st.w_next[wi] = st.w_head[x]
                st.w_head[x] = wi
                moved = True
                break
        if not moved:
            y, b = st.ng_var[other], st.ng_val[other]
            bit = U1 << np.uint64(b)
            if st.dom[y] == bit:
                return n_slots
            if st.dom[y] & bit:
                conflict = remove(m, st, y, bit, -1)
                if conflict >= 0:
                    return conflict
            prev = wi
        wi = nxt
    return -1


@compiled_kernel
def propagate(m: Model, st: State) -> int:
    """Run the queues to a fixpoint; the slot that failed (n_slots for a nogood), or -1."""
    size = len(st.queue)
    while True:
        if st.sc[FQ] > 0:
            st.sc[FQ] -= 1
            conflict = nogoods_on_fixed(m, st, st.fq[st.sc[FQ]])
        elif st.sc[QN] > 0:
            s = st.queue[st.sc[QH]]
            st.sc[QH] = (st.sc[QH] + 1) % size
            st.sc[QN] -= 1
            st.inq[s] = False
            conflict = filter_slot(m, st, s)
        else:
            return -1
        if conflict >= 0:
            clear_queues(st)
            return conflict


@compiled_kernel
def select_cell(m: Model, st: State) -> int:
    """dom/wdeg over the unfixed cells (a cell's weight: the failures of its slots)."""
    best, best_score = -1, 0.0
    for c in range(len(st.dom)):
        d = st.dom[c]
        if single(d):
            continue
        w = 0.0
        for k in range(m.cell_nslots[c]):
            w += st.weight[m.cell_slot[c, k]]
        score = popcount(d) / w
        if best < 0 or score < best_score:
            best, best_score = c, score
    return best


@compiled_kernel
def choose_letter(m: Model, st: State, c: int) -> int:
    """The letter with the largest product of supporting rows in the cell's slots (with phase
    saving, the cell's last letter while it is still possible)."""
    d = st.dom[c]
    if st.sc[PHASE] and st.phase[c] >= 0 and (d >> np.uint64(st.phase[c])) & U1:
        return st.phase[c]
    best, best_score = -1, -1.0
    for a in range(m.n_letters):
        if not (d >> np.uint64(a)) & U1:
            continue
        score = 1.0
        for k in range(m.cell_nslots[c]):
            s, p = m.cell_slot[c, k], m.cell_pos[c, k]
            t = m.slot_table[s]
            words = m.tab_words[t]
            sb = m.sup_off[t] + (p * m.n_letters + a) * words
            off = m.ct_off[s]
            n = 0
            for i in range(st.limit[s]):
                w = st.nz[off + i]
                n += popcount(st.ct[off + w] & m.sup[sb + w])
            score *= n
        if score > best_score:
            best, best_score = a, score
    return best


@compiled_kernel
def _watch(st: State, wi: int, li: int) -> None:
    st.ng_w[wi] = li
    x = st.ng_var[li]
    st.w_next[wi] = st.w_head[x]
    st.w_head[x] = wi


@compiled_kernel
def restart(m: Model, st: State) -> bool:
    """Record the branch's reduced nld-nogoods, go back to the root; False if that proves UNSAT."""
    positives = 0
    i = 0
    n_path = st.sc[PATH]
    while i < n_path:
        if st.pa_sign[i] == 1:
            positives += 1
            i += 1
            continue
        end = i + 1  # a refuted word is one decision over several letters
        while end < n_path and st.pa_sign[end] == 0 and st.pa_grp[end] == st.pa_grp[i]:
            end += 1
        if positives == 0:
            i = end
            continue  # a refutation at the root is already permanent
        g, lits = st.sc[NG], st.sc[LITS]
        if g + 1 >= len(st.ng_start) or lits + positives + end - i > len(st.ng_var):
            break
        k = lits
        for j in range(i):
            if st.pa_sign[j] == 1:
                st.ng_var[k] = st.pa_var[j]
                st.ng_val[k] = st.pa_val[j]
                k += 1
        for j in range(i, end):
            st.ng_var[k] = st.pa_var[j]
            st.ng_val[k] = st.pa_val[j]
            k += 1
        st.ng_start[g + 1] = k
        st.sc[NG] = g + 1
        st.sc[LITS] = k
        if mirrored(m, st) and g + 2 < len(st.ng_start) and 2 * k - lits <= len(st.ng_var):
            # the nogood's mirror image holds too: the symmetry maps fills to fills
            k2, moved = k, False
            for j in range(lits, k):
                x = m.mirror_cell[st.ng_var[j]]
                moved = moved or x != st.ng_var[j]
                st.ng_var[k2] = x
                st.ng_val[k2] = st.ng_val[j]
                k2 += 1
            if moved:
                st.ng_start[g + 2] = k2
                st.sc[NG] = g + 2
                st.sc[LITS] = k2
        i = end
    if st.sc[LEVEL] > 0:
        undo(st, st.lv_trail[1])
        st.sc[LEVEL] = 0
    st.sc[PATH] = 0
    st.sc[RESTARTS] += 1
    st.sc[SINCE] = 0
    st.cutoff[0] *= RESTART_FACTOR
    # every nogood not yet watched: this branch's, and any added between two runs (another
    # search's, shared by the caller)
    first_new = st.sc[WATCHED]
    st.sc[WATCHED] = st.sc[NG]
    for g in range(first_new, st.sc[NG]):
        free0, free1 = -1, -1
        for li in range(st.ng_start[g], st.ng_start[g + 1]):
            if st.dom[st.ng_var[li]] != U1 << np.uint64(st.ng_val[li]):
                if free0 < 0:
                    free0 = li
                elif free1 < 0:
                    free1 = li
        if free0 < 0:
            return False
        if free1 < 0:  # all but one literal hold at the root: the last one is false for good
            y, bit = st.ng_var[free0], U1 << np.uint64(st.ng_val[free0])
            if st.dom[y] & bit and remove(m, st, y, bit, -1) >= 0:
                return False
            free1 = st.ng_start[g] if st.ng_start[g] != free0 else st.ng_start[g] + 1
        _watch(st, 2 * g, free0)
        _watch(st, 2 * g + 1, free1)
    return propagate(m, st) < 0


@compiled_kernel
def _decide(m: Model, st: State, c: int, a: int, positive: bool) -> int:
    n = st.sc[PATH]
    st.pa_var[n] = c
    st.pa_val[n] = a
    st.pa_sign[n] = 1 if positive else 0
    st.pa_grp[n] = st.sc[NODES]
    st.sc[PATH] = n + 1
    bit = U1 << np.uint64(a)
    conflict = remove(m, st, c, (st.dom[c] & ~bit) if positive else bit, -1)
    if conflict >= 0:
        clear_queues(st)
        return conflict
    return propagate(m, st)


@compiled_kernel
def live_rows(m: Model, st: State, s: int) -> int:
    off = m.ct_off[s]
    n = 0
    for i in range(st.limit[s]):
        n += popcount(st.ct[off + st.nz[off + i]])
    return n


@compiled_kernel
def select_slot(m: Model, st: State) -> int:
    """dom/wdeg over slots: fewest live words per unit of conflict weight; -1 when every slot
    is down to one word (a fill)."""
    best, best_score = -1, 0.0
    for s in range(len(m.slot_table)):
        n = live_rows(m, st, s)
        if n <= 1:
            continue
        score = n / st.weight[s]
        if best < 0 or score < best_score:
            best, best_score = s, score
    return best


@compiled_kernel
def choose_row(m: Model, st: State, s: int) -> int:
    """The least constraining live word of slot s: the largest sum over its open cells of the log
    of the crossing slot's words that agree there, plus its score (common words first)."""
    first = m.slot_start[s]
    length = m.slot_start[s + 1] - first
    n_letters = m.n_letters
    for p in range(length):
        c = m.slot_cells[first + p]
        d = st.dom[c]
        for a in range(n_letters):
            st.lcv[p * n_letters + a] = 0.0
        if single(d) or m.cell_nslots[c] < 2:
            continue
        k = 0 if m.cell_slot[c, 0] != s else 1
        u, q = m.cell_slot[c, k], m.cell_pos[c, k]
        tu = m.slot_table[u]
        words = m.tab_words[tu]
        off = m.ct_off[u]
        for a in range(n_letters):
            if not (d >> np.uint64(a)) & U1:
                continue
            sb = m.sup_off[tu] + (q * n_letters + a) * words
            n = 0
            for i in range(st.limit[u]):
                w = st.nz[off + i]
                n += popcount(st.ct[off + w] & m.sup[sb + w])
            st.lcv[p * n_letters + a] = np.log(n + 1.0)
    t = m.slot_table[s]
    off = m.ct_off[s]
    base = m.let_off[t]
    noisy = st.sc[RESTARTS] > 0 or st.sc[SEED] != 0  # seed 0 starts greedy, then varies
    optimizing = st.sc[OPT] != 0 and m.counted[s] != 0
    top = 1.0
    if optimizing:
        top = max(1.0, float(m.worth[m.row_off[t] + m.worth_order[m.row_off[t]]]))
    best, best_score = -1, 0.0
    for i in range(st.limit[s]):
        w = st.nz[off + i]
        x = st.ct[off + w]
        while x != U0:
            b = low_bit(x)
            x &= x - U1
            row = w * 64 + b
            score = 3.0 * m.row_score[m.row_off[t] + row]
            if optimizing:
                score += WORTH_WEIGHT * m.worth[m.row_off[t] + row] / top
            if noisy:
                score += WORD_NOISE * np.random.random()
            for p in range(length):
                score += st.lcv[p * n_letters + m.row_letters[base + row * length + p]]
            if best < 0 or score > best_score:
                best, best_score = row, score
    return best


@compiled_kernel
def take_row(m: Model, st: State, s: int, row: int) -> int:
    """The word decision: slot s takes row ``row`` (its open cells get its letters)."""
    first = m.slot_start[s]
    length = m.slot_start[s + 1] - first
    base = m.let_off[m.slot_table[s]] + row * length
    group = st.sc[NODES]
    for p in range(length):
        c = m.slot_cells[first + p]
        a = m.row_letters[base + p]
        bit = U1 << np.uint64(a)
        if st.dom[c] == bit:
            continue
        n = st.sc[PATH]
        st.pa_var[n], st.pa_val[n], st.pa_sign[n], st.pa_grp[n] = c, a, 1, group
        st.sc[PATH] = n + 1
        conflict = remove(m, st, c, st.dom[c] & ~bit, -1)
        if conflict >= 0:
            clear_queues(st)  # what the earlier letters queued is stale after the undo
            return conflict
    return propagate(m, st)


@compiled_kernel
def drop_row(m: Model, st: State, s: int, row: int) -> int:
    """The refutation of a word decision: slot s loses row ``row``."""
    first = m.slot_start[s]
    length = m.slot_start[s + 1] - first
    base = m.let_off[m.slot_table[s]] + row * length
    group = st.sc[NODES] + (1 << 40)  # a group id no positive decision uses
    # A slot may lose thousands of words at one depth: record the refutation (for a nogood at
    # the next restart) only while the path keeps room for every later positive decision. A
    # refutation left out only means one nogood fewer; positives are always recorded.
    if st.sc[PATH] + length + len(st.dom) <= len(st.pa_var):
        for p in range(length):
            c = m.slot_cells[first + p]
            if single(st.dom[c]):
                continue  # implied by the decisions above: not needed in the nogood
            n = st.sc[PATH]
            st.pa_var[n], st.pa_val[n] = c, m.row_letters[base + p]
            st.pa_sign[n], st.pa_grp[n] = 0, group
            st.sc[PATH] = n + 1
    off = m.ct_off[s]
    idx = off + (row >> 6)
    bit = U1 << np.uint64(row & 63)
    if st.ct[idx] & bit:
        set_ct(st, idx, st.ct[idx] & ~bit)
        if st.ct[idx] == U0:
            _drop_word(st, off, s, row >> 6)
            if st.limit[s] == 0:
                clear_queues(st)
                return s
    enqueue(st, s)
    return propagate(m, st)


@compiled_kernel
def mirrored(m: Model, st: State) -> bool:
    """Whether learned facts are copied through a symmetry (never in a logged proof: a mirror
    image is implied by the problem, not by unit propagation)."""
    return len(m.mirror_cell) > 0 and not st.sc[PROOF_ON] and not st.sc[OPT]


@compiled_kernel
def mirror_root(m: Model, st: State, c: int, a: int) -> int:
    """At the root, after "cell c is not a" was proven: the mirror cell is not a either (the
    symmetry maps fills to fills); the slot that failed, or -1."""
    y = m.mirror_cell[c]
    bit = U1 << np.uint64(a)
    if y == c or not st.dom[y] & bit:
        return -1
    conflict = remove(m, st, y, bit, -1)
    if conflict >= 0:
        clear_queues(st)
        return conflict
    return propagate(m, st)


@compiled_kernel
def _lemma(st: State, level: int) -> None:
    """Write "not all of the positive decisions of levels 1..level" (empty at the root)."""
    n = st.sc[PROOF]
    for k in range(1, level + 1):
        st.proof[n] = -st.yvar[st.lv_var[k], st.lv_val[k]]
        n += 1
    st.proof[n] = 0
    st.sc[PROOF] = n + 1


@compiled_kernel
def run(m: Model, st: State, budget: int) -> int:
    """Search on for at most ``budget`` decisions: SAT, UNSAT or BUDGET (state kept)."""
    n_slots = len(m.slot_table)
    if st.sc[READY] == 0:
        np.random.seed(st.sc[SEED])  # numba's own generator: the same seed, the same search
        if propagate(m, st) >= 0:
            if st.sc[PROOF_ON]:
                _lemma(st, 0)
            return UNSAT
        st.sc[READY] = 1
    stop = st.sc[NODES] + budget
    room = len(st.proof) - (len(st.dom) + 2) ** 2
    optimizing = st.sc[OPT] != 0
    fresh = True  # a node whose bound is not checked yet: at a call (after a fill) or a restart
    while True:
        if st.sc[NODES] >= stop or (st.sc[PROOF_ON] and st.sc[PROOF] > room):
            return BUDGET
        if st.sc[SINCE] >= st.cutoff[0]:
            if not restart(m, st):
                if st.sc[PROOF_ON]:
                    _lemma(st, 0)
                return UNSAT
            fresh = True
        if optimizing and fresh and no_better(m, st):  # (after a fill: the bound is its worth)
            if st.sc[LEVEL] == 0:
                return UNSAT
            conflict = n_slots
        else:
            if st.sc[WORDS] != 0:
                s = select_slot(m, st)
                if s < 0:
                    return SAT
                c, a = -1 - s, choose_row(m, st, s)
            else:
                c = select_cell(m, st)
                if c < 0:
                    return SAT
                a = choose_letter(m, st, c)
            level = st.sc[LEVEL] + 1
            st.sc[LEVEL] = level
            st.sc[STAMP] += 1
            st.lv_stamp[level] = st.sc[STAMP]
            st.lv_trail[level] = st.sc[TR]
            st.lv_var[level] = c
            st.lv_val[level] = a
            st.lv_path[level] = st.sc[PATH]
            st.sc[NODES] += 1
            conflict = take_row(m, st, -1 - c, a) if c < 0 else _decide(m, st, c, a, True)
            if conflict < 0 and optimizing and no_better(m, st):
                conflict = n_slots
        fresh = False  # each way out of the loop below checked the bound of the node it left
        while conflict >= 0:
            if conflict < n_slots:
                st.weight[conflict] += 1.0
            st.sc[FAILS] += 1
            st.sc[SINCE] += 1
            level = st.sc[LEVEL]
            if st.sc[PROOF_ON]:
                _lemma(st, level)
            if level == 0:
                return UNSAT
            c, a = st.lv_var[level], st.lv_val[level]
            undo(st, st.lv_trail[level])
            st.sc[PATH] = st.lv_path[level]
            st.sc[LEVEL] = level - 1
            conflict = drop_row(m, st, -1 - c, a) if c < 0 else _decide(m, st, c, a, False)
            if conflict < 0 and level == 1 and c >= 0 and mirrored(m, st):
                conflict = mirror_root(m, st, c, a)
            if conflict < 0 and optimizing and no_better(m, st):
                conflict = n_slots
