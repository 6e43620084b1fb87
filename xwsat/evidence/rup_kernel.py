"""A forward DRUP checker that keeps its trail between lemmas (compiled with numba).

A forward checker proves each lemma C by assuming the negation of its literals and propagating
from the root to a conflict. A tree search's lemmas are "not all of d1 .. dk" for the decisions
of its current branch, so consecutive lemmas share most of their assumptions; re-propagating
them from the root for every lemma is what costs dratify 20-70 ms per lemma on a hard 15x15's
formula. Here the assumptions are decision levels of a trail: a lemma backtracks only to the
longest prefix of its literals it shares with the previous lemma, and propagates the rest.

Why that is still a RUP check: every literal on the trail at level j was derived by unit
propagation from the clauses added so far (each implied by the formula) and the first j
assumptions; the clause set only grows, so those literals are still derivable when a later
lemma repeats the same j assumptions, and a conflict reached is a conflict unit propagation of
the lemma's negation reaches. An added lemma that is unit (or false) under the kept trail is
placed at the level where it becomes so (backjumping there first), so no propagation it
implies is missed. Deletions are not applied: a larger clause set only makes more lemmas
unit-propagation consequences, all of them implied by the formula. RAT steps are not checked:
a lemma that is not RUP fails the proof.

Literals are coded 2*v + (1 if negative), v from 1. Formula binary clauses live in a static
implication table (most of a certificate formula's clauses); the others are watched twice, in
linked lists, the search for a new watch resuming where the last one stopped.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _skip_line(buf, i):
    while i < len(buf) and buf[i] != 10:
        i += 1
    return i


@njit(cache=True)
def _is_blank(b):
    return b == 32 or b == 9 or b == 13


@njit(cache=True)
def parse_dimacs(buf):
    """The clauses of a DIMACS formula or a DRUP proof (bytes), strictly: 0-terminated
    literals, per clause 1 when it is a deletion ("d" line), the header's variable and clause
    counts (-1 when there is none), and the offset of the first byte that is not DIMACS (-1
    when none; an unterminated last clause is an error at the end). Lines starting with "c"
    are comments."""
    n = len(buf)
    count = 1
    for i in range(n):  # an upper bound of the numbers: runs of digits
        if 48 <= buf[i] <= 57 and (i == 0 or not (48 <= buf[i - 1] <= 57)):
            count += 1
    lits = np.empty(count, np.int64)
    kinds = np.zeros(count, np.int8)
    header = np.full(2, -1, np.int64)
    k = 0
    clauses = 0
    deleting = 0
    open_clause = False
    i = 0
    line_start = True
    while i < n:
        b = buf[i]
        if b == 10:
            line_start = True
            i += 1
            continue
        if _is_blank(b):
            i += 1
            continue
        if line_start and b == 99:  # 'c': a comment
            i = _skip_line(buf, i)
            continue
        if line_start and b == 112:  # 'p cnf V C'
            if header[0] >= 0 or open_clause or clauses > 0 or i + 4 >= n \
                    or buf[i + 1] != 32 or buf[i + 2] != 99 or buf[i + 3] != 110 \
                    or buf[i + 4] != 102:
                return lits[:k], kinds[:clauses], header, i
            i += 5
            for h in range(2):
                if i >= n or not _is_blank(buf[i]):
                    return lits[:k], kinds[:clauses], header, i
                while i < n and _is_blank(buf[i]):
                    i += 1
                v = 0
                digits = 0
                while i < n and 48 <= buf[i] <= 57 and digits < 12:
                    v = v * 10 + (buf[i] - 48)
                    digits += 1
                    i += 1
                if digits == 0:
                    return lits[:k], kinds[:clauses], header, i
                header[h] = v
            while i < n and _is_blank(buf[i]):
                i += 1
            if i < n and buf[i] != 10:
                return lits[:k], kinds[:clauses], header, i
            continue
        line_start = False
        if b == 100 and not open_clause and deleting == 0:  # 'd ': a deletion
            if i + 1 >= n or not _is_blank(buf[i + 1]):
                return lits[:k], kinds[:clauses], header, i
            deleting = 1
            i += 1
            continue
        sign = 1
        at = i
        if b == 45:
            sign = -1
            i += 1
        v = 0
        digits = 0
        while i < n and 48 <= buf[i] <= 57:
            v = v * 10 + (buf[i] - 48)
            digits += 1
            i += 1
            if v >= 1 << 30:  # literal codes 2v+1 must fit int32
                return lits[:k], kinds[:clauses], header, at
        if digits == 0 or (sign == -1 and v == 0) or (i < n and not (
                _is_blank(buf[i]) or buf[i] == 10)):
            return lits[:k], kinds[:clauses], header, at
        lits[k] = sign * v
        k += 1
        if v == 0:
            kinds[clauses] = deleting
            clauses += 1
            deleting = 0
            open_clause = False
        else:
            open_clause = True
    if open_clause or deleting:
        return lits[:k], kinds[:clauses], header, n
    return lits[:k], kinds[:clauses], header, -1


@njit(cache=True)
def _code(x):
    return 2 * x if x > 0 else -2 * x + 1


@njit(cache=True)
def _read_clause(lits, i, mark, stamp, out, at):
    """Copy the clause at ``lits[i]`` (0-terminated) to ``out[at:]`` without repeated
    literals: the index after its 0, the end in ``out``, and whether it is a tautology."""
    tautology = False
    while lits[i] != 0:
        lit = _code(lits[i])
        i += 1
        if mark[lit ^ 1] == stamp:
            tautology = True
        if mark[lit] != stamp:
            mark[lit] = stamp
            out[at] = lit
            at += 1
    return i + 1, at, tautology


@njit(cache=True)
def _assign(lit, level, val, lvl, trail, tlen):
    val[lit] = 1
    val[lit ^ 1] = -1
    lvl[lit >> 1] = level
    trail[tlen] = lit
    return tlen + 1


@njit(cache=True)
def _propagate(st, val, lvl, trail, bin_start, bin_other, db, cl_start, cl_len, cl_pos,
               whead, wnext, level):
    """Unit propagation from st[QHEAD] to the end of the trail: True on a conflict."""
    while st[QHEAD] < st[TLEN]:
        true_lit = trail[st[QHEAD]]
        st[QHEAD] += 1
        st[PROPS] += 1
        false_lit = true_lit ^ 1
        for e in range(bin_start[false_lit], bin_start[false_lit + 1]):
            o = bin_other[e]
            if val[o] == 1:
                continue
            if val[o] == -1:
                return True
            st[TLEN] = _assign(o, level, val, lvl, trail, st[TLEN])
        prev = -1
        w = whead[false_lit]
        while w != -1:
            nxt = wnext[w]
            c = w >> 1
            s = cl_start[c]
            p = w & 1
            other = db[s + 1 - p]
            if val[other] == 1:
                prev = w
                w = nxt
                continue
            length = cl_len[c]
            found = -1
            if length > 2:
                span = length - 2
                start = cl_pos[c]
                for t in range(span):
                    q = 2 + (start + t) % span
                    if val[db[s + q]] != -1:
                        found = q
                        cl_pos[c] = (start + t) % span
                        break
            if found >= 0:
                new_lit = db[s + found]
                db[s + found] = db[s + p]
                db[s + p] = new_lit
                if prev == -1:
                    whead[false_lit] = nxt
                else:
                    wnext[prev] = nxt
                wnext[w] = whead[new_lit]
                whead[new_lit] = w
                w = nxt
                continue
            if val[other] == -1:
                return True
            st[TLEN] = _assign(other, level, val, lvl, trail, st[TLEN])
            prev = w
            w = nxt
    return False


# st fields
QHEAD, TLEN, LEVEL, CONFLICT, NCL, PROPS = 0, 1, 2, 3, 4, 5


@njit(cache=True)
def _backtrack(st, target, val, trail, level_start):
    if st[LEVEL] <= target:
        return
    keep = level_start[target + 1]
    for i in range(keep, st[TLEN]):
        lit = trail[i]
        val[lit] = 0
        val[lit ^ 1] = 0
    st[TLEN] = keep
    st[QHEAD] = keep
    st[LEVEL] = target
    st[CONFLICT] = 0


@njit(cache=True)
def _attach(c, db, cl_start, whead, wnext):
    s = cl_start[c]
    wnext[2 * c] = whead[db[s]]
    whead[db[s]] = 2 * c
    wnext[2 * c + 1] = whead[db[s + 1]]
    whead[db[s + 1]] = 2 * c + 1


@njit(cache=True)
def check(n_vars, formula, proof, proof_kinds):
    """Check a DRUP proof (RUP lemmas) against a formula, both as 0-terminated integer lines.

    Returns (verdict, steps, failed_step, propagations): verdict 1 the empty clause was derived
    with every lemma before it verified, 0 every step verified but no empty clause, -1 step
    ``failed_step`` (1-based line of the proof) is not a unit-propagation consequence (step 0:
    a literal beyond ``n_vars`` or an unterminated clause, refused before any step)."""
    n_lits = 2 * (n_vars + 1) + 2
    for lits in (formula, proof):  # arrays are indexed by literal below, unchecked
        for x in lits:
            if x > n_vars or x < -n_vars:
                return -1, 0, 0, 0
        if len(lits) and lits[len(lits) - 1] != 0:
            return -1, 0, 0, 0
    # the formula's clauses, deduplicated; binaries counted per literal
    mark = np.zeros(n_lits, np.int64)
    bin_count = np.zeros(n_lits + 1, np.int64)
    n_formula_lits = len(formula)
    n_proof_lits = len(proof)
    db = np.empty(n_formula_lits + n_proof_lits + 2, np.int32)
    max_clauses = 2
    for x in formula:
        if x == 0:
            max_clauses += 1
    for x in proof:
        if x == 0:
            max_clauses += 1
    cl_start = np.empty(max_clauses, np.int64)
    cl_len = np.empty(max_clauses, np.int32)
    n_cl = 0
    top = 0
    units = np.empty(n_formula_lits + 1, np.int32)
    n_units = 0
    root_conflict = False
    stamp = 0
    bin_a = np.empty(n_formula_lits + 1, np.int32)
    bin_b = np.empty(n_formula_lits + 1, np.int32)
    n_bin = 0
    i = 0
    while i < n_formula_lits:
        stamp += 1
        begin = top
        i, top, tautology = _read_clause(formula, i, mark, stamp, db, top)
        length = top - begin
        if tautology:
            top = begin
            continue
        if length == 0:
            root_conflict = True
            top = begin
        elif length == 1:
            units[n_units] = db[begin]
            n_units += 1
            top = begin
        elif length == 2:
            bin_a[n_bin] = db[begin]
            bin_b[n_bin] = db[begin + 1]
            n_bin += 1
            bin_count[db[begin] + 1] += 1
            bin_count[db[begin + 1] + 1] += 1
            top = begin
        else:
            cl_start[n_cl] = begin
            cl_len[n_cl] = length
            n_cl += 1
    bin_start = np.cumsum(bin_count)
    fill = bin_start[:-1].copy()
    bin_other = np.empty(2 * n_bin + 1, np.int32)
    for e in range(n_bin):
        a, b = bin_a[e], bin_b[e]
        bin_other[fill[a]] = b  # a false -> b true
        fill[a] += 1
        bin_other[fill[b]] = a
        fill[b] += 1
    cl_pos = np.zeros(max_clauses, np.int32)
    whead = np.full(n_lits, -1, np.int64)
    wnext = np.full(2 * max_clauses, -1, np.int64)
    for c in range(n_cl):
        _attach(c, db, cl_start, whead, wnext)

    val = np.zeros(n_lits, np.int8)
    lvl = np.zeros(n_vars + 2, np.int64)
    trail = np.empty(n_vars + 2, np.int32)
    level_start = np.zeros(n_vars + 3, np.int64)
    assumed = np.zeros(n_vars + 3, np.int32)
    st = np.zeros(8, np.int64)
    for u in range(n_units):
        lit = units[u]
        if val[lit] == -1:
            root_conflict = True
        elif val[lit] == 0:
            st[TLEN] = _assign(lit, 0, val, lvl, trail, st[TLEN])
    if not root_conflict and _propagate(st, val, lvl, trail, bin_start, bin_other, db,
                                        cl_start, cl_len, cl_pos, whead, wnext, 0):
        root_conflict = True

    refuted_alone = root_conflict  # the formula alone: accepted without an empty clause
    steps = 0
    p = 0
    line = 0
    negs = np.empty(2 * n_vars + 4, np.int32)  # a tautology may hold both signs
    while p < n_proof_lits:
        kind = proof_kinds[line]
        line += 1
        stamp += 1
        p, m, tautology = _read_clause(proof, p, mark, stamp, negs, 0)
        steps += 1
        if kind == 1 or tautology:
            continue  # deletions are not applied; a tautology is implied
        if root_conflict:
            if m == 0:
                return 1, steps, -1, st[PROPS]
            continue
        # assume the negation of the lemma, level by level, reusing the shared prefix
        shared = 0
        while shared < m and shared < st[LEVEL] and assumed[shared + 1] == (negs[shared] ^ 1):
            shared += 1
        if not (st[CONFLICT] == 1 and shared >= st[LEVEL]):
            _backtrack(st, shared, val, trail, level_start)
            for k in range(shared, m):
                a = negs[k] ^ 1
                st[LEVEL] += 1
                level = st[LEVEL]
                assumed[level] = a
                level_start[level] = st[TLEN]
                if val[a] == -1:
                    st[CONFLICT] = 1
                    break
                if val[a] == 0:
                    st[TLEN] = _assign(a, level, val, lvl, trail, st[TLEN])
                    if _propagate(st, val, lvl, trail, bin_start, bin_other, db, cl_start,
                                  cl_len, cl_pos, whead, wnext, level):
                        st[CONFLICT] = 1
                        break
            if st[CONFLICT] == 0:
                return -1, steps, line, st[PROPS]
        if m == 0:  # guard: the empty clause verifies only by a root conflict, handled above
            return 1, steps, -1, st[PROPS]
        # verified: add it, where it is unit or false under the trail
        _backtrack(st, st[LEVEL] - 1, val, trail, level_start)
        if m == 1:
            _backtrack(st, 0, val, trail, level_start)
            lit = negs[0]
            if val[lit] == -1:
                root_conflict = True
            elif val[lit] == 0:
                st[TLEN] = _assign(lit, 0, val, lvl, trail, st[TLEN])
                if _propagate(st, val, lvl, trail, bin_start, bin_other, db, cl_start,
                              cl_len, cl_pos, whead, wnext, 0):
                    root_conflict = True
            continue
        c = n_cl
        n_cl += 1
        begin = top
        for k in range(m):
            db[top] = negs[k]
            top += 1
        cl_start[c] = begin
        cl_len[c] = m
        # the two literals to watch: non-false first, then the false ones of highest level
        best0, best1 = -1, -1
        key0, key1 = -2, -2
        for k in range(m):
            lit = db[begin + k]
            key = n_vars + 5 if val[lit] != -1 else lvl[lit >> 1]
            if key > key0:
                best1, key1 = best0, key0
                best0, key0 = k, key
            elif key > key1:
                best1, key1 = k, key
        x = db[begin + best0]
        y = db[begin + best1]
        db[begin + best0] = db[begin]
        db[begin] = x
        if best1 == 0:
            best1 = best0
        y = db[begin + best1]
        db[begin + best1] = db[begin + 1]
        db[begin + 1] = y
        x, y = db[begin], db[begin + 1]
        if val[y] != -1:
            _attach(c, db, cl_start, whead, wnext)  # two literals not false
            continue
        f1 = lvl[y >> 1]
        if val[x] == -1:  # every literal false: a guard (fuzzing never reached it:
            # the lemma's last assumption is unassigned or true once its level is undone)
            fx = lvl[x >> 1]
            if fx == f1:
                if fx == 0:
                    root_conflict = True
                    continue
                _backtrack(st, fx - 1, val, trail, level_start)
                _attach(c, db, cl_start, whead, wnext)
                continue
            _backtrack(st, f1, val, trail, level_start)
        elif val[x] == 1 and lvl[x >> 1] <= f1:
            _attach(c, db, cl_start, whead, wnext)  # satisfied no later than the other watch
            continue
        else:
            _backtrack(st, f1, val, trail, level_start)
        # x is now unassigned and the clause unit at level f1
        _attach(c, db, cl_start, whead, wnext)
        st[TLEN] = _assign(x, st[LEVEL], val, lvl, trail, st[TLEN])
        if _propagate(st, val, lvl, trail, bin_start, bin_other, db, cl_start, cl_len,
                      cl_pos, whead, wnext, st[LEVEL]):
            if st[LEVEL] == 0:
                root_conflict = True
            else:
                st[CONFLICT] = 1
    return (1 if refuted_alone else 0), steps, -1, st[PROPS]
