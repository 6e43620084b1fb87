"""The compiled search's state (``xwsat.compiled_search.kernel``): its arrays, scalar slots and
codes, kept apart from the kernel so that a caller of the ahead-of-time build
(``xwsat.compiled_search.aot``) makes and reads a state without importing numba.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from xwsat.compiled_search.model import Model, Start

# scalar slots in State.sc
(TR, LEVEL, STAMP, PATH, NG, LITS, QH, QN, FQ, NODES, FAILS, RESTARTS, SINCE, READY, PROOF,
 PROOF_ON, WORDS, SEED, WATCHED, PHASE, OPT, BOUND) = range(22)
WORD_NOISE = 0.5  # word decisions: random noise added to a word's score after a restart
SCALARS = 22
K_DOM, K_CT, K_FIX, K_LIM, K_WPT = 0, 1, 2, 3, 4
SAT, UNSAT, BUDGET = 1, 0, 2
RESTART_FIRST, RESTART_FACTOR = 10.0, 1.1


class State(NamedTuple):
    """Everything the search writes."""

    dom: np.ndarray
    ct: np.ndarray
    nz: np.ndarray  # per slot, its ct word indices: the first limit[s] non-zero
    limit: np.ndarray
    lim_stamp: np.ndarray
    fixed: np.ndarray
    res: np.ndarray
    weight: np.ndarray
    dom_stamp: np.ndarray
    ct_stamp: np.ndarray
    tr_kind: np.ndarray
    tr_idx: np.ndarray
    tr_val: np.ndarray
    lv_trail: np.ndarray
    lv_stamp: np.ndarray
    lv_var: np.ndarray
    lv_val: np.ndarray
    lv_path: np.ndarray
    pa_var: np.ndarray
    pa_val: np.ndarray
    pa_sign: np.ndarray
    pa_grp: np.ndarray  # the decision an entry belongs to (a word decision has several)
    queue: np.ndarray
    inq: np.ndarray
    fq: np.ndarray
    ng_start: np.ndarray
    ng_var: np.ndarray
    ng_val: np.ndarray
    ng_w: np.ndarray
    w_next: np.ndarray
    w_head: np.ndarray
    live_letters: np.ndarray  # uint64[longest slot]: the letters of a slot's live rows, by position
    letters: np.ndarray
    sc: np.ndarray
    cutoff: np.ndarray
    proof: np.ndarray  # DRUP lemmas over ``yvar``, 0-terminated, flushed by the caller
    yvar: np.ndarray  # int64[n_cells, n_letters]: the CNF variable of "cell holds letter"
    lcv: np.ndarray  # float64[max slot length * n_letters]: scratch for word decisions
    phase: np.ndarray  # int64[n_cells]: the letter a cell last held (-1: never), if sc[PHASE]
    wptr: np.ndarray  # int64[n_slots]: with an objective, where a slot's best live row may be
    wp_stamp: np.ndarray  # in its table's worth_order (no better row is live)


def new_state(model: Model, start: Start, seed: int, max_nogood_lits: int = 4_000_000,
              yvar: np.ndarray | None = None, words: bool = False,
              phase: bool = False, incumbent: int | None = None) -> State:
    """A fresh state: every slot queued, weights 1 with a seeded tie-break below 1e-3.

    With ``yvar`` (the CNF's letter variables) every refutation is written to ``proof`` as a DRUP
    lemma; see ``xwsat.compiled_search.proof``. With ``words`` the search decides whole words (a
    slot takes a word, or loses it) instead of single letters: the way fills are found faster on
    large grids; never with a proof. With ``phase`` (letter decisions only) a cell first tries again
    the letter it last held, as SAT solvers save phases across restarts: a letter search that
    wanders differently, raced against the plain one on large grids. With ``incumbent`` (the
    model built with a worth) the search looks only for fills worth more than it: branch and
    bound, each fill found raising ``sc[BOUND]``, UNSAT meaning that none is worth more."""
    n_cells, n_slots = len(start.dom), len(model.slot_table)
    levels = n_cells + 2
    trail = levels * (n_cells + len(start.ct) + 2 * n_slots) + n_slots + 16
    max_nogoods = max_nogood_lits // 2
    rng = np.random.default_rng(seed)
    sc = np.zeros(SCALARS, dtype=np.int64)
    sc[QN] = n_slots
    sc[PROOF_ON] = yvar is not None
    sc[WORDS] = words and yvar is None
    sc[SEED] = seed
    sc[PHASE] = phase and not sc[WORDS]
    if incumbent is not None:
        if not len(model.counted):
            raise ValueError("an incumbent needs a model built with a worth")
        if yvar is not None:
            raise ValueError("a branch and bound logs no proof")
        sc[OPT], sc[BOUND] = 1, incumbent
    max_len = int(np.max(np.diff(model.slot_start))) if n_slots else 1
    nz = np.zeros(len(start.ct), dtype=np.int64)
    limit = np.zeros(n_slots, dtype=np.int64)
    for s in range(n_slots):
        lo, hi = int(model.ct_off[s]), int(model.ct_off[s + 1])
        local = np.arange(hi - lo, dtype=np.int64)
        alive = start.ct[lo:hi] != 0
        nz[lo:hi] = np.concatenate([local[alive], local[~alive]])
        limit[s] = int(alive.sum())
    proof_size = max(1 << 20, 4 * (n_cells + 2) ** 2) if yvar is not None else 1
    return State(
        dom=start.dom.copy(),
        ct=start.ct.copy(),
        nz=nz,
        limit=limit,
        lim_stamp=np.full(n_slots, -1, dtype=np.int64),
        fixed=np.full(n_slots, -1, dtype=np.int64),
        res=np.zeros(len(model.slot_cells) * model.n_letters + 1, dtype=np.int64),
        weight=1.0 + rng.random(n_slots) * 1e-3,
        dom_stamp=np.full(n_cells, -1, dtype=np.int64),
        ct_stamp=np.full(len(start.ct), -1, dtype=np.int64),
        tr_kind=np.zeros(trail, dtype=np.int8),
        tr_idx=np.zeros(trail, dtype=np.int64),
        tr_val=np.zeros(trail, dtype=np.uint64),
        lv_trail=np.zeros(levels, dtype=np.int64),
        lv_stamp=np.zeros(levels, dtype=np.int64),
        lv_var=np.zeros(levels, dtype=np.int64),
        lv_val=np.zeros(levels, dtype=np.int64),
        lv_path=np.zeros(levels, dtype=np.int64),
        pa_var=np.zeros(2 * levels + 64 * n_cells, dtype=np.int64),
        pa_val=np.zeros(2 * levels + 64 * n_cells, dtype=np.int64),
        pa_sign=np.zeros(2 * levels + 64 * n_cells, dtype=np.int8),
        pa_grp=np.zeros(2 * levels + 64 * n_cells, dtype=np.int64),
        queue=np.arange(max(n_slots, 1), dtype=np.int64),
        inq=np.ones(max(n_slots, 1), dtype=np.bool_),
        fq=np.zeros(n_cells + 1, dtype=np.int64),
        ng_start=np.zeros(max_nogoods + 1, dtype=np.int64),
        ng_var=np.zeros(max_nogood_lits, dtype=np.int32),
        ng_val=np.zeros(max_nogood_lits, dtype=np.int32),
        ng_w=np.zeros(2 * max_nogoods, dtype=np.int64),
        w_next=np.zeros(2 * max_nogoods, dtype=np.int64),  # set by _watch before any use
        w_head=np.full(n_cells, -1, dtype=np.int64),
        live_letters=np.zeros(max_len, dtype=np.uint64),
        letters=np.zeros(64, dtype=np.int64),
        sc=sc,
        cutoff=np.array([RESTART_FIRST]),
        proof=np.zeros(proof_size, dtype=np.int64),
        yvar=yvar.astype(np.int64) if yvar is not None else np.zeros((1, 1), dtype=np.int64),
        lcv=np.zeros(max(max_len, 1) * max(model.n_letters, 1), dtype=np.float64),
        phase=np.full(max(n_cells, 1), -1, dtype=np.int64),
        wptr=np.zeros(max(n_slots, 1), dtype=np.int64),
        wp_stamp=np.full(max(n_slots, 1), -1, dtype=np.int64),
    )
