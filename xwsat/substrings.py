"""The rule against entries sharing a long substring (``--max-shared-substring N``).

Two entries of one fill may not share a run of more than N letters (CAKE and CHEESECAKE share
CAKE, so N = 3 keeps them apart). Sharing a run longer than N means sharing a run of exactly
N + 1 letters, a *gram*, so the rule is: no gram is in the words of two slots. Every searcher
holds it the same way, from the index built here: for each gram found in the candidates of two
or more slots, at most one slot takes a word containing it (a clause family in the CNF, an
at-most-one in CP-SAT, and in the compiled search a fixed slot's grams removing the words that
contain them from every other slot, as the no-repeat rule removes the fixed word itself).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from xwsat.problem import FillProblem


@dataclass(frozen=True)
class GramIndex:
    """The grams of every candidate word, as ids: word ``words[i]`` holds the distinct grams
    ``grams[off[i]:off[i + 1]]``; ``shared[g]`` is whether gram g is in two slots' candidates."""

    words: np.ndarray  # int64, ascending: the distinct candidate word ids of N + 1+ letters
    off: np.ndarray  # int64[len(words) + 1]
    grams: np.ndarray  # int64
    shared: np.ndarray  # bool[n_grams]

    def grams_of(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(which of ``ids``, gram) for every gram of every word in ``ids`` (shared or not)."""
        ids = np.asarray(ids, dtype=np.int64)
        if not len(self.words):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.words, ids), len(self.words) - 1)
        known = self.words[at] == ids
        starts = np.where(known, self.off[at], 0)
        counts = np.where(known, self.off[at + 1] - self.off[at], 0)
        which = np.repeat(np.arange(len(ids), dtype=np.int64), counts)
        firsts = np.repeat(starts - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        return which, self.grams[firsts + np.arange(len(which), dtype=np.int64)]


def gram_index(problem: FillProblem) -> GramIndex:
    """The grams of ``problem.max_shared + 1`` letters in its candidates, by word."""
    k = problem.max_shared + 1
    by_length: dict[int, tuple[list[np.ndarray], list[np.ndarray]]] = {}
    for ids, letters in zip(problem.candidates, problem.letters):
        if letters.shape[1] >= k and len(ids):  # a word of k letters is one gram itself
            found = by_length.setdefault(letters.shape[1], ([], []))
            found[0].append(ids)
            found[1].append(letters)
    owners, windows, kept = [], [], []
    for length in sorted(by_length):
        ids, first = np.unique(np.concatenate(by_length[length][0]), return_index=True)
        codes = np.concatenate(by_length[length][1])[first].astype(np.uint8)
        grams = sliding_window_view(codes, k, axis=1)  # (words, length - k + 1, k)
        kept.append(ids.astype(np.int64))
        owners.append(np.repeat(np.arange(len(ids), dtype=np.int64), length - k + 1))
        windows.append(grams.reshape(-1, k))
    if not kept:
        empty = np.zeros(0, dtype=np.int64)
        return GramIndex(empty, np.zeros(1, dtype=np.int64), empty, np.zeros(0, dtype=bool))
    shift = np.cumsum([0] + [len(i) for i in kept[:-1]])
    owner = np.concatenate([o + at for o, at in zip(owners, shift)])
    words = np.concatenate(kept)
    order = np.argsort(words, kind="stable")  # lengths apart: sort the ids once
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    owner, words = rank[owner], words[order]
    gram = _dense(_keys(np.concatenate(windows), problem.alphabet_size))
    n_grams = int(gram.max()) + 1
    pairs = np.sort(owner * n_grams + gram)
    pairs = pairs[np.concatenate([[True], pairs[1:] != pairs[:-1]])]
    owner, grams = pairs // n_grams, pairs % n_grams
    off = np.zeros(len(words) + 1, dtype=np.int64)
    off[1:] = np.cumsum(np.bincount(owner, minlength=len(words)))
    slots_with = np.zeros(n_grams, dtype=np.int64)
    index = GramIndex(words, off, grams, np.zeros(n_grams, dtype=bool))
    held = np.zeros(n_grams, dtype=bool)
    for ids in problem.candidates:
        held[:] = False
        held[index.grams_of(ids)[1]] = True
        slots_with += held
    return GramIndex(words, off, grams, slots_with >= 2)


def _keys(windows: np.ndarray, alphabet_size: int) -> np.ndarray:
    """One sortable key per row of letter codes: an integer when it fits 63 bits, else the
    row's bytes."""
    k = windows.shape[1]
    if alphabet_size ** k < 2**63:
        keys = np.zeros(len(windows), dtype=np.int64)
        for column in range(k):
            keys = keys * alphabet_size + windows[:, column]
        return keys
    return np.ascontiguousarray(windows).view(np.dtype((np.void, k))).ravel()


def _dense(keys: np.ndarray) -> np.ndarray:
    """Each key's rank among the distinct keys (0, 1, ...), by one sort."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    new = np.concatenate([[0], (ordered[1:] != ordered[:-1]).astype(np.int64)])
    ranks = np.empty(len(keys), dtype=np.int64)
    ranks[order] = np.cumsum(new)
    return ranks


@dataclass(frozen=True)
class SlotGrams:
    """Every (slot, candidate index, gram) where the candidate's word holds a gram found in two
    or more slots, sorted by gram, then slot; ``pair`` numbers the distinct (gram, slot) pairs
    0, 1, ... in that order, and ``pair_gram`` is each pair's gram."""

    slot: np.ndarray  # int64
    candidate: np.ndarray  # int64
    pair: np.ndarray  # int64
    pair_gram: np.ndarray  # int64


def slot_grams(problem: FillProblem) -> SlotGrams:
    """The rule as data: at most one slot takes a word holding a given gram (the ``pair``s of
    one gram exclude each other)."""
    index = gram_index(problem)
    slots, candidates, grams = [], [], []
    for s, ids in enumerate(problem.candidates):
        which, found = index.grams_of(ids)
        keep = index.shared[found]
        slots.append(np.full(int(keep.sum()), s, dtype=np.int64))
        candidates.append(which[keep])
        grams.append(found[keep])
    slot, candidate, gram = (np.concatenate(a) if a else np.zeros(0, np.int64)
                             for a in (slots, candidates, grams))
    order = np.lexsort((slot, gram))
    slot, candidate, gram = slot[order], candidate[order], gram[order]
    key = gram * problem.n_slots + slot
    starts = np.flatnonzero(np.diff(key)) + 1 if len(key) else np.zeros(0, np.int64)
    pair = np.zeros(len(key), dtype=np.int64)
    pair[starts] = 1
    pair = np.cumsum(pair)
    firsts = np.concatenate([[0], starts]).astype(np.int64) if len(key) else starts
    return SlotGrams(slot, candidate, pair, gram[firsts])
