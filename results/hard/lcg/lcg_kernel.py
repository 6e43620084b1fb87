"""Compiled core of the slot-table propagator that runs inside CaDiCaL (lazy clause generation).

An experiment, not part of xwsat (results/hard/lcg/README.md). The state is the letters model of
the compiled MAC search (``xwsat.mac.model``: one bitset of live rows per slot, the supports of
compact-table propagation) plus what CaDiCaL told us: each letter variable's value, a trail of
them, and a trail of the bitset words changed, restored on backtracking. Every pruning leaves
with its explanation: the letters that exclude every row still supporting it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# slots of the ``cnt`` array
TRAIL, WTRAIL, LEVEL, IDS, NDIRTY, NOUT, NPOOL, CONFLICT = range(8)  # CONFLICT 11-13: a bug


@njit(cache=True)
def _save(ct, stamp, wtr_idx, wtr_old, cnt, lvid, i):
    lev = cnt[LEVEL]
    if lev == 0:
        return
    cur = lvid[lev]
    if stamp[i] != cur:
        n = cnt[WTRAIL]
        wtr_idx[n] = i
        wtr_old[n] = ct[i]
        cnt[WTRAIL] = n + 1
        stamp[i] = cur


@njit(cache=True)
def _where(c, j, a, A, cell_slot, cell_pos, slot_table, tab_words, sup_off, ct_off):
    """The ``j``-th slot through cell ``c``: the slot, its bitset's words, where letter
    ``a``'s support bitset at that cell starts, and where the slot's live rows start."""
    s = cell_slot[c, j]
    t = slot_table[s]
    W = tab_words[t]
    return s, W, sup_off[t] + (cell_pos[c, j] * A + a) * W, ct_off[s]


@njit(cache=True)
def assign(lits, n_lits, A, cell_nslots, cell_slot, cell_pos, slot_table, tab_words, sup_off,
           sup, ct_off, ct, stamp, wtr_idx, wtr_old, trl, cnt, lvid, val, dirty, dlist):
    """Record assigned literals and remove the rows they exclude from the slots' tables."""
    for k in range(n_lits):
        lit = lits[k]
        v = lit if lit > 0 else -lit
        if val[v] != 0:
            continue
        val[v] = 1 if lit > 0 else -1
        trl[cnt[TRAIL]] = v
        cnt[TRAIL] += 1
        c = (v - 1) // A
        a = (v - 1) % A
        for j in range(cell_nslots[c]):
            s, W, base, off = _where(c, j, a, A, cell_slot, cell_pos, slot_table, tab_words,
                                     sup_off, ct_off)
            changed = False
            for w in range(W):
                old = ct[off + w]
                if old == 0:
                    continue
                new = old & sup[base + w] if lit > 0 else old & ~sup[base + w]
                if new != old:
                    _save(ct, stamp, wtr_idx, wtr_old, cnt, lvid, off + w)
                    ct[off + w] = new
                    changed = True
            if (changed or lit > 0) and dirty[s] == 0:
                dirty[s] = 1
                dlist[cnt[NDIRTY]] = s
                cnt[NDIRTY] += 1


@njit(cache=True)
def new_level(cnt, lvid, lev_t, lev_w):
    lev = cnt[LEVEL] + 1
    cnt[LEVEL] = lev
    cnt[IDS] += 1
    lvid[lev] = cnt[IDS]
    lev_t[lev] = cnt[TRAIL]
    lev_w[lev] = cnt[WTRAIL]


@njit(cache=True)
def backtrack(to, cnt, lev_t, lev_w, trl, val, ct, wtr_idx, wtr_old, dirty, dlist):
    lev = cnt[LEVEL]
    if to >= lev:
        return
    t0 = lev_t[to + 1]
    w0 = lev_w[to + 1]
    for k in range(cnt[TRAIL] - 1, t0 - 1, -1):
        val[trl[k]] = 0
    cnt[TRAIL] = t0
    for k in range(cnt[WTRAIL] - 1, w0 - 1, -1):
        ct[wtr_idx[k]] = wtr_old[k]
    cnt[WTRAIL] = w0
    cnt[LEVEL] = to
    for k in range(cnt[NDIRTY]):
        dirty[dlist[k]] = 0
    cnt[NDIRTY] = 0


@njit(cache=True)
def _placed_row(s, A, slot_start, slot_cells, slot_table, tab_words, sup_off, sup, ct_off, ct,
                val):
    """The row of ``s`` when every cell of it has a placed letter, else -1."""
    t = slot_table[s]
    W = tab_words[t]
    L = slot_start[s + 1] - slot_start[s]
    for p in range(L):
        c = slot_cells[slot_start[s] + p]
        placed = False
        for a in range(A):
            if val[1 + c * A + a] == 1:
                placed = True
                break
        if not placed:
            return -1
    off = ct_off[s]
    row = -1
    for w in range(W):
        x = ct[off + w]
        if x != 0:
            if row >= 0 or (x & (x - np.uint64(1))) != 0:
                return -2
            b = 0
            while (x >> np.uint64(b)) & np.uint64(1) == 0:
                b += 1
            row = w * 64 + b
    return row


@njit(cache=True)
def _cover(s, q, b, A, slot_start, slot_cells, slot_table, tab_words, sup_off, sup, ct_off,
           ct, init, val, R, pool, cnt, banner, seen):
    """Append to ``pool`` the literals that exclude every row of ``s`` with b at q (b < 0: every
    row): the explanation's body. Rows not excluded by a literal were banned by a slot placed
    on the same word (no repeats): that slot's letters join. False if something is left
    unexplained (a broken invariant)."""
    t = slot_table[s]
    W = tab_words[t]
    off = ct_off[s]
    L = slot_start[s + 1] - slot_start[s]
    left = 0
    for w in range(W):
        r = init[off + w]
        if b >= 0:
            r &= sup[sup_off[t] + (q * A + b) * W + w]
        R[w] = r
        if r != 0:
            left += 1
    if left == 0:
        return True
    start = cnt[NPOOL]
    # positions with a placed letter first: one literal excludes every other letter there
    for p in range(L):
        c = slot_cells[slot_start[s] + p]
        for a in range(A):
            v = 1 + c * A + a
            if val[v] == 1:
                base = sup_off[t] + (p * A + a) * W
                kills = False
                for w in range(W):
                    if R[w] & ~sup[base + w]:
                        kills = True
                        break
                if kills:
                    pool[cnt[NPOOL]] = -v
                    cnt[NPOOL] += 1
                    seen[v] = 1
                    left = 0
                    for w in range(W):
                        R[w] &= sup[base + w]
                        if R[w] != 0:
                            left += 1
                break
        if left == 0:
            break
    if left > 0:
        for p in range(L):
            if p == q:
                continue
            c = slot_cells[slot_start[s] + p]
            for a in range(A):
                v = 1 + c * A + a
                if val[v] != -1:
                    continue
                base = sup_off[t] + (p * A + a) * W
                hit = False
                for w in range(W):
                    if R[w] & sup[base + w]:
                        hit = True
                        break
                if hit:
                    pool[cnt[NPOOL]] = v
                    cnt[NPOOL] += 1
                    left = 0
                    for w in range(W):
                        R[w] &= ~sup[base + w]
                        if R[w] != 0:
                            left += 1
                    if left == 0:
                        break
            if left == 0:
                break
    ok = True
    if left > 0:  # banned rows: the slot placed on that word explains each
        for w in range(W):
            x = R[w]
            while x != 0:
                bit = 0
                while (x >> np.uint64(bit)) & np.uint64(1) == 0:
                    bit += 1
                x &= ~(np.uint64(1) << np.uint64(bit))
                if ct[off + w] & (np.uint64(1) << np.uint64(bit)):
                    cnt[CONFLICT] = 11  # still live: nothing excludes it
                    return False
                o = banner[(off + w) * 64 + bit]
                if o < 0:
                    cnt[CONFLICT] = 12
                    return False
                Lo = slot_start[o + 1] - slot_start[o]
                for p in range(Lo):
                    c = slot_cells[slot_start[o] + p]
                    placed = -1
                    for a in range(A):
                        if val[1 + c * A + a] == 1:
                            placed = 1 + c * A + a
                            break
                    if placed < 0:
                        cnt[CONFLICT] = 13
                        return False
                    if seen[placed] == 0:
                        seen[placed] = 1
                        pool[cnt[NPOOL]] = -placed
                        cnt[NPOOL] += 1
    for k in range(start, cnt[NPOOL]):
        lit = pool[k]
        seen[lit if lit > 0 else -lit] = 0
    return ok


@njit(cache=True)
def _find_row(row_word, lo, hi, word):
    while lo < hi:
        mid = (lo + hi) // 2
        if row_word[mid] < word:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def propagate(A, slot_start, slot_cells, slot_table, tab_words, sup_off, sup, ct_off, ct, init,
              res, res_off, val, dirty, dlist, cnt, out_lit, out_start, pool, mark, R, max_pool,
              row_off, row_word, same_start, same_slots, banner, seen, stamp, wtr_idx, wtr_old,
              lvid):
    """Unsupported letters of the dirty slots, each with its explanation clause; a slot whose
    letters are all placed bans its word from the slots of its length.

    cnt[CONFLICT] is 1 when the pool holds one falsified clause (a conflict), 2 on a bug."""
    cnt[NOUT] = 0
    cnt[NPOOL] = 0
    cnt[CONFLICT] = 0
    out_start[0] = 0
    while cnt[NDIRTY] > 0:
        if cnt[NPOOL] > max_pool:
            return
        cnt[NDIRTY] -= 1
        s = dlist[cnt[NDIRTY]]
        dirty[s] = 0
        t = slot_table[s]
        W = tab_words[t]
        off = ct_off[s]
        alive = False
        for w in range(W):
            if ct[off + w] != 0:
                alive = True
                break
        if not alive:
            cnt[NPOOL] = 0
            ok = _cover(s, -1, -1, A, slot_start, slot_cells, slot_table, tab_words, sup_off,
                        sup, ct_off, ct, init, val, R, pool, cnt, banner, seen)
            if ok:
                cnt[CONFLICT] = 1
            return
        row = _placed_row(s, A, slot_start, slot_cells, slot_table, tab_words, sup_off, sup,
                          ct_off, ct, val)
        if row >= 0:
            word = row_word[row_off[t] + row]
            for k in range(same_start[s], same_start[s + 1]):
                o = same_slots[k]
                to = slot_table[o]
                r = _find_row(row_word, row_off[to], row_off[to + 1], word)
                if r == row_off[to + 1] or row_word[r] != word:
                    continue
                r -= row_off[to]
                i = ct_off[o] + r // 64
                bit = np.uint64(1) << np.uint64(r % 64)
                if ct[i] & bit:
                    _save(ct, stamp, wtr_idx, wtr_old, cnt, lvid, i)
                    ct[i] &= ~bit
                    banner[i * 64 + r % 64] = s
                    if dirty[o] == 0:
                        dirty[o] = 1
                        dlist[cnt[NDIRTY]] = o
                        cnt[NDIRTY] += 1
        L = slot_start[s + 1] - slot_start[s]
        for q in range(L):
            c = slot_cells[slot_start[s] + q]
            for b in range(A):
                v = 1 + c * A + b
                if val[v] == -1 or mark[v] == 1:
                    continue
                base = sup_off[t] + (q * A + b) * W
                ri = res_off[s] + q * A + b
                r = res[ri]
                if ct[off + r] & sup[base + r]:
                    continue
                found = False
                for w in range(W):
                    if ct[off + w] & sup[base + w]:
                        res[ri] = w
                        found = True
                        break
                if found:
                    continue
                if len(pool) - cnt[NPOOL] < len(val) + L * A + 2:
                    # no room for one more explanation (numba checks no bounds): return what
                    # there is, and come back to this slot
                    dirty[s] = 1
                    dlist[cnt[NDIRTY]] = s
                    cnt[NDIRTY] += 1
                    return
                start = cnt[NPOOL]
                pool[start] = -v
                cnt[NPOOL] += 1
                ok = _cover(s, q, b, A, slot_start, slot_cells, slot_table, tab_words, sup_off,
                            sup, ct_off, ct, init, val, R, pool, cnt, banner, seen)
                if not ok:
                    return
                if val[v] == 1:  # the letter is placed but has lost its support: conflict
                    n = cnt[NPOOL] - start
                    for k in range(n):
                        pool[k] = pool[start + k]
                    cnt[NPOOL] = n
                    cnt[CONFLICT] = 1
                    return
                mark[v] = 1
                o = cnt[NOUT]
                out_lit[o] = -v
                out_start[o + 1] = cnt[NPOOL]
                cnt[NOUT] = o + 1
    return


def empty_buffers(n_vars: int, n_ct: int, n_slots: int, n_res: int, wmax: int):
    return dict(
        val=np.zeros(n_vars + 1, np.int8),
        mark=np.zeros(n_vars + 1, np.int8),
        stamp=np.zeros(n_ct, np.int64),
        trl=np.zeros(n_vars + 1, np.int64),
        cnt=np.zeros(8, np.int64),
        lvid=np.zeros(n_vars + 2, np.int64),
        lev_t=np.zeros(n_vars + 2, np.int64),
        lev_w=np.zeros(n_vars + 2, np.int64),
        dirty=np.zeros(n_slots, np.int8),
        dlist=np.zeros(n_slots, np.int64),
        res=np.zeros(n_res, np.int64),
        R=np.zeros(wmax, np.uint64),
        banner=np.full(n_ct * 64, -1, np.int64),
        seen=np.zeros(n_vars + 1, np.int8),
    )


@njit(cache=True)
def decide(A, n_cells, val, cell_nslots, cell_slot, cell_pos, slot_table, tab_words, sup_off,
           sup, ct_off, ct, weight, by_weight):
    """The open cell with the fewest letters left (``by_weight``: per unit of its slots' weight,
    dom/wdeg as the compiled search chooses); its letter with the most rows left in its slots."""
    best = -1
    best_r = 1e300
    for c in range(n_cells):
        n = 0
        placed = False
        for a in range(A):
            x = val[1 + c * A + a]
            if x == 1:
                placed = True
                break
            if x == 0:
                n += 1
        if placed or n == 0:
            continue
        r = float(n)
        if by_weight:
            w = 0.0
            for j in range(cell_nslots[c]):
                w += weight[cell_slot[c, j]]
            r /= w
        if r < best_r:
            best_r = r
            best = c
    if best < 0:
        return 0
    return _most_rows(best, A, val, cell_nslots, cell_slot, cell_pos, slot_table, tab_words,
                      sup_off, sup, ct_off, ct)


@njit(cache=True)
def _most_rows(c, A, val, cell_nslots, cell_slot, cell_pos, slot_table, tab_words, sup_off, sup,
               ct_off, ct):
    """The literal placing cell ``c``'s open letter with the most rows left in its slots (the
    product over its slots)."""
    best_a = -1
    best_score = -1
    for a in range(A):
        if val[1 + c * A + a] != 0:
            continue
        score = 1
        for j in range(cell_nslots[c]):
            _, W, base, off = _where(c, j, a, A, cell_slot, cell_pos, slot_table, tab_words,
                                     sup_off, ct_off)
            k = 0
            for w in range(W):
                x = ct[off + w] & sup[base + w]
                while x != 0:
                    x &= x - np.uint64(1)
                    k += 1
            score *= k
        if score > best_score:
            best_score = score
            best_a = a
    return 1 + c * A + best_a
