"""The letters model as flat arrays, for the compiled MAC search (``xwsat.compiled_search.kernel``).

A variable per cell (its letters as a uint64 mask), a table constraint per slot. The slots of one
length share one table (``_table_sources``), each with its own current rows. A table keeps, for
each (position, letter), the bitset of its rows with that letter there (the "supports" of
compact-table propagation, Demeulenaere et al. 2016, the propagator ACE and OR-tools' CP solvers
use for tables). Rows are sorted by word id so the no-repeat rule can find a word in another
slot's table by binary search.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from xwsat.errors import XwsatError
from xwsat.problem import FillProblem

MAX_LETTERS = 64  # one uint64 mask per cell
SHARE_BELOW = 4  # a slot with fewer than 1/4 of its length's rows gets its own table


class Model(NamedTuple):
    """Static arrays, never written by the search."""

    n_letters: int
    slot_start: np.ndarray  # int64[n_slots + 1]: slot s covers slot_cells[slot_start[s]:...]
    slot_cells: np.ndarray  # int64
    cell_nslots: np.ndarray  # int64[n_cells]: 1 or 2 slots cover a cell
    cell_slot: np.ndarray  # int64[n_cells, 2]
    cell_pos: np.ndarray  # int64[n_cells, 2]: the cell's position in that slot
    slot_table: np.ndarray  # int64[n_slots]
    tab_words: np.ndarray  # int64[n_tables]: 64-bit words per row bitset
    tab_rows: np.ndarray  # int64[n_tables]
    sup_off: np.ndarray  # int64[n_tables]: sup[sup_off[t] + (p * n_letters + a) * W + w]
    sup: np.ndarray  # uint64
    row_off: np.ndarray  # int64[n_tables + 1]: word ids of table t's rows, ascending
    row_word: np.ndarray  # int64
    same_start: np.ndarray  # int64[n_slots + 1]: other slots the no-repeat rule separates from s
    same_slots: np.ndarray  # int64
    ct_off: np.ndarray  # int64[n_slots + 1]: slot s's current-table bitset in the state
    res_off: np.ndarray  # int64[n_slots]: residues res[res_off[s] + p * n_letters + a]
    let_off: np.ndarray  # int64[n_tables]: row r's letter at p is row_letters[let_off + r*L + p]
    row_letters: np.ndarray  # int64: the letters of each table's rows (word decisions)
    row_score: np.ndarray  # float64, aligned with row_word: the word's score / 100
    mirror_cell: np.ndarray  # int64[n_cells]: a symmetry's image of each cell, or empty
    # the shared-substring rule (``xwsat.substrings``), all empty when it is off: the grams in
    # two or more slots held by global row R are row_gram[gram_off[R]:gram_off[R + 1]]; the
    # rows of table t holding gram g are key_row[key_off[i]:key_off[i + 1]] where
    # gram_key[i] == g * n_tables + t (gram_key ascending)
    gram_off: np.ndarray  # int64
    row_gram: np.ndarray  # int64
    gram_key: np.ndarray  # int64
    key_off: np.ndarray  # int64
    key_row: np.ndarray  # int64
    # an objective to maximise (``worth``), all empty without one: the worth of each table row
    # (aligned with row_word), each table's rows by descending worth (local indices, aligned
    # likewise) and, per slot, 1 when it counts towards the objective
    worth: np.ndarray  # int64
    worth_order: np.ndarray  # int64
    counted: np.ndarray  # int64[n_slots]


class Start(NamedTuple):
    """The initial state: cell masks and each slot's rows still consistent with them."""

    dom: np.ndarray  # uint64[n_cells]
    ct: np.ndarray  # uint64[ct_off[-1]]


def _bitsets(rows: np.ndarray, n_letters: int, words: int) -> np.ndarray:
    """(letters, words) uint64: bit r set where ``rows[r] == letter``."""
    onehot = np.zeros((n_letters, words * 64), dtype=bool)
    onehot[rows, np.arange(len(rows))] = True
    packed = np.packbits(onehot, axis=1, bitorder="little")
    return packed.view("<u8").astype(np.uint64)


def build_model(problem: FillProblem, mirror: bool = False,
                worth: tuple[np.ndarray, frozenset[int]] | None = None) -> tuple[Model, Start]:
    """Flatten a FillProblem into the kernel's arrays (tables shared between equal slots).

    With ``worth`` (a worth per word id, and the slots that do not count), the arrays of an
    objective the search can maximise by branch and bound (``state.new_state(incumbent=...)``).

    With ``mirror``, a symmetry of the problem (``xwsat.symmetry``), when it has one, lets the
    search copy what it learns through it: every verdict stands and a refutation fails less
    often, but the copies are not steps a proof checker can replay, so a search logging a proof
    never makes them."""
    n_letters = problem.alphabet_size
    if n_letters > MAX_LETTERS:
        raise XwsatError(f"the compiled search handles at most {MAX_LETTERS} letters")
    n_slots, n_cells = problem.n_slots, problem.n_cells
    slot_start = np.zeros(n_slots + 1, dtype=np.int64)
    slot_start[1:] = np.cumsum([len(c) for c in problem.slot_cells])
    slot_cells = np.concatenate(problem.slot_cells).astype(np.int64)
    cell_nslots = np.zeros(n_cells, dtype=np.int64)
    cell_slot = np.full((n_cells, 2), -1, dtype=np.int64)
    cell_pos = np.full((n_cells, 2), -1, dtype=np.int64)
    for s, cells in enumerate(problem.slot_cells):
        for p, c in enumerate(cells.tolist()):
            k = cell_nslots[c]
            cell_slot[c, k], cell_pos[c, k] = s, p
            cell_nslots[c] = k + 1

    tables: dict[int, int] = {}  # id() of a table's word ids -> its index
    slot_table = np.zeros(n_slots, dtype=np.int64)
    tab_words, tab_rows, sup_off, sups, row_words, orders, scores = [], [], [], [], [], [], []
    offset = 0
    sources = _table_sources(problem)
    for s in range(n_slots):
        ids, slot_letters, slot_scores = sources[s]
        if id(ids) not in tables:
            order = np.argsort(ids, kind="stable")
            letters = slot_letters[order]
            rows, length = letters.shape
            words = max(1, (rows + 63) // 64)
            block = np.stack([_bitsets(letters[:, p].astype(np.int64), n_letters, words)
                              for p in range(length)]) if length else np.zeros(0, np.uint64)
            tables[id(ids)] = len(tab_words)
            tab_words.append(words)
            tab_rows.append(rows)
            sup_off.append(offset)
            sups.append(block.ravel())
            offset += block.size
            row_words.append(ids[order].astype(np.int64))
            orders.append(letters)
            scores.append(slot_scores[order].astype(np.float64) / 100.0
                          if slot_scores is not None else np.full(rows, 0.5))
        slot_table[s] = tables[id(ids)]
    row_off = np.zeros(len(row_words) + 1, dtype=np.int64)
    row_off[1:] = np.cumsum([len(r) for r in row_words])

    same: list[list[int]] = [[] for _ in range(n_slots)]
    if not problem.allow_repeats:
        by_length: dict[int, list[int]] = {}
        for s, cells in enumerate(problem.slot_cells):
            by_length.setdefault(len(cells), []).append(s)
        for group in by_length.values():
            for s in group:
                same[s] = [t for t in group if t != s]
    same_start = np.zeros(n_slots + 1, dtype=np.int64)
    same_start[1:] = np.cumsum([len(x) for x in same])
    same_slots = np.array([t for x in same for t in x], dtype=np.int64)

    words_of_slot = np.array([tab_words[t] for t in slot_table], dtype=np.int64)
    ct_off = np.zeros(n_slots + 1, dtype=np.int64)
    ct_off[1:] = np.cumsum(words_of_slot)
    res_off = (slot_start[:-1] * n_letters).astype(np.int64)

    let_off = np.zeros(len(orders), dtype=np.int64)
    let_off[1:] = np.cumsum([o.size for o in orders])[:-1]
    model = Model(
        n_letters=n_letters,
        slot_start=slot_start,
        slot_cells=slot_cells,
        cell_nslots=cell_nslots,
        cell_slot=cell_slot,
        cell_pos=cell_pos,
        slot_table=slot_table,
        tab_words=np.array(tab_words, dtype=np.int64),
        tab_rows=np.array(tab_rows, dtype=np.int64),
        sup_off=np.array(sup_off, dtype=np.int64),
        sup=np.concatenate(sups).astype(np.uint64) if sups else np.zeros(0, np.uint64),
        row_off=row_off,
        row_word=np.concatenate(row_words) if row_words else np.zeros(0, np.int64),
        same_start=same_start,
        same_slots=same_slots,
        ct_off=ct_off,
        res_off=res_off,
        let_off=let_off,
        row_letters=(np.concatenate([o.ravel() for o in orders]).astype(np.int64)
                     if orders else np.zeros(0, np.int64)),
        row_score=np.concatenate(scores) if scores else np.zeros(0, np.float64),
        mirror_cell=_mirror_cells(problem) if mirror else np.zeros(0, np.int64),
        **_gram_rows(problem, row_words),
        **_worth_rows(row_words, n_slots, worth),
    )
    dom = problem.cell_masks.astype(np.uint64).copy()
    ct = np.zeros(ct_off[-1], dtype=np.uint64)
    for s in range(n_slots):
        t = slot_table[s]
        letters = orders[t]
        keep = np.ones(len(letters), dtype=bool)
        if len(letters) != len(problem.candidates[s]):  # a shared table: the slot's own rows
            keep &= np.isin(row_words[t], problem.candidates[s])
        for p, c in enumerate(problem.slot_cells[s].tolist()):
            # in uint64: a mask using the 64th letter does not fit a signed integer
            keep &= ((dom[c] >> letters[:, p].astype(np.uint64)) & np.uint64(1)).astype(bool)
        words = tab_words[t]
        bits = np.packbits(np.concatenate([keep, np.zeros(words * 64 - len(keep), bool)]),
                           bitorder="little").view("<u8").astype(np.uint64)
        ct[ct_off[s]:ct_off[s + 1]] = bits
    return model, Start(dom, ct)


def _table_sources(problem: FillProblem) -> list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
    """Each slot's table rows: (word ids, their letters, their scores or None).

    The slots of one length share a table, the union of their candidates, and each starts with
    only its own rows set. One table per length instead of one per slot makes the same search
    1.1-2.2x faster on propagated problems (median 1.34x; less memory to walk:
    docs/hard-grids.md). A slot with less than ``1 / SHARE_BELOW`` of its length's
    rows (given letters, a lock) keeps a table of its own, so it scans no empty rows."""
    cands = problem.candidates
    sources = [(cands[s], problem.letters[s], problem.scores[s] if problem.scores else None)
               for s in range(problem.n_slots)]
    by_length: dict[int, list[int]] = {}
    for s, cells in enumerate(problem.slot_cells):
        by_length.setdefault(len(cells), []).append(s)
    top = 1 + max((int(c.max()) for c in cands if len(c)), default=0)
    for length, members in by_length.items():
        while len(members) > 1:
            seen = np.zeros(top, dtype=bool)
            for s in members:
                seen[cands[s]] = True
            rows = int(seen.sum())
            shared = [s for s in members if SHARE_BELOW * len(cands[s]) >= rows]
            if len(shared) == len(members):
                break
            members = shared
        if len(members) < 2:
            continue
        letters = np.zeros((top, length), dtype=problem.letters[members[0]].dtype)
        scores = np.zeros(top, dtype=problem.scores[0].dtype if problem.scores else np.int16)
        for s in members:
            letters[cands[s]] = problem.letters[s]
            if problem.scores:
                scores[cands[s]] = problem.scores[s]
        union = np.flatnonzero(seen)
        shared_scores = scores[union] if problem.scores else None
        for s in members:
            sources[s] = (union, letters[union], shared_scores)
    return sources


def _gram_rows(problem: FillProblem, row_words: list[np.ndarray]) -> dict[str, np.ndarray]:
    """The shared-substring rule's arrays of ``Model`` (see there) for tables whose rows are
    the word ids ``row_words[t]``, ascending; empty when the rule is off."""
    empty = np.zeros(0, np.int64)
    if not problem.max_shared:
        return {"gram_off": np.zeros(1, np.int64), "row_gram": empty, "gram_key": empty,
                "key_off": np.zeros(1, np.int64), "key_row": empty}
    from xwsat.substrings import gram_index

    index = gram_index(problem)
    n_tables = len(row_words)
    counts, grams, keys, rows = [], [], [], []
    for t, ids in enumerate(row_words):
        which, found = index.grams_of(ids)  # which: ascending, as ids are
        keep = index.shared[found]
        which, found = which[keep], found[keep]
        counts.append(np.bincount(which, minlength=len(ids)))
        grams.append(found)
        keys.append(found * n_tables + t)
        rows.append(which)
    gram_off = np.zeros(sum(len(c) for c in counts) + 1, np.int64)
    gram_off[1:] = np.cumsum(np.concatenate(counts)) if counts else empty
    key, row = np.concatenate(keys), np.concatenate(rows)
    order = np.argsort(key, kind="stable")
    key, row = key[order], row[order]
    gram_key, starts = np.unique(key, return_index=True)
    return {"gram_off": gram_off, "row_gram": np.concatenate(grams).astype(np.int64),
            "gram_key": gram_key.astype(np.int64),
            "key_off": np.append(starts, len(key)).astype(np.int64),
            "key_row": row.astype(np.int64)}


def _worth_rows(row_words: list[np.ndarray], n_slots: int,
                worth: tuple[np.ndarray, frozenset[int]] | None) -> dict[str, np.ndarray]:
    """The objective's arrays of ``Model`` (see there); empty without one."""
    if worth is None:
        empty = np.zeros(0, np.int64)
        return {"worth": empty, "worth_order": empty, "counted": empty}
    weights, exempt = worth
    rows = [weights[ids].astype(np.int64) for ids in row_words]
    return {"worth": np.concatenate(rows) if rows else np.zeros(0, np.int64),
            "worth_order": (np.concatenate([np.argsort(-r, kind="stable") for r in rows])
                            .astype(np.int64) if rows else np.zeros(0, np.int64)),
            "counted": np.array([s not in exempt for s in range(n_slots)], dtype=np.int64)}


def read_fill(model: Model, ct: np.ndarray) -> tuple[int, ...] | None:
    """The word id each slot holds in a complete assignment (None if a slot has not exactly
    one row left)."""
    fill = []
    for s in range(len(model.slot_table)):
        rows = slot_rows(model, ct, s)
        if len(rows) != 1:
            return None
        fill.append(word_of_row(model, s, int(rows[0])))
    return tuple(fill)


def _mirror_cells(problem: FillProblem) -> np.ndarray:
    from xwsat.symmetry import find_symmetry

    found = find_symmetry(problem)
    return found.cells.astype(np.int64) if found is not None else np.zeros(0, np.int64)


def slot_rows(model: Model, ct: np.ndarray, slot: int) -> np.ndarray:
    """The row indices still set in a slot's current table."""
    words = ct[model.ct_off[slot]:model.ct_off[slot + 1]]
    bits = np.unpackbits(words.astype("<u8").view(np.uint8), bitorder="little")
    return np.flatnonzero(bits)


def word_of_row(model: Model, slot: int, row: int) -> int:
    """The global word id of a row of a slot's table."""
    t = int(model.slot_table[slot])
    return int(model.row_word[model.row_off[t] + row])
