"""Arc consistency on letter bitmasks (the Qxw way): prune candidates to a fixed point.

A candidate survives when each of its letters is still allowed in its cell; a cell keeps only the
letters some surviving candidate of every covering slot puts there. With repeats forbidden, a slot
reduced to one word removes that word from every other slot. An empty slot ends it: no fill exists.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from xwsat.problem import FillProblem


@dataclass(frozen=True)
class Propagated:
    """The pruned problem, or the slot whose candidates ran out (``wiped``), with a reason."""

    problem: FillProblem
    wiped: int | None = None
    reason: str = ""
    revisions: int = 0


def _allowed_table(masks: np.ndarray, alphabet_size: int) -> np.ndarray:
    """(len(masks), alphabet_size) bool: letter a allowed in cell i."""
    bits = np.uint64(1) << np.arange(alphabet_size, dtype=np.uint64)
    return (masks[:, None] & bits[None, :]) != 0


def _position_masks(letters: np.ndarray, alphabet_size: int) -> np.ndarray:
    """For each position of a slot, the bitmask of letters its candidates use there."""
    length = letters.shape[1]
    seen = np.zeros((length, alphabet_size), dtype=bool)
    seen[np.repeat(np.arange(length), len(letters)), letters.T.ravel()] = True
    weights = np.uint64(1) << np.arange(alphabet_size, dtype=np.uint64)
    return (seen * weights[None, :]).sum(axis=1, dtype=np.uint64)


def propagate(problem: FillProblem) -> Propagated:
    """Prune ``problem`` to arc consistency; report a wiped-out slot if one empties."""
    n = problem.n_slots
    alphabet = problem.alphabet_size
    masks = problem.cell_masks.copy()
    keep = [np.arange(len(c)) for c in problem.candidates]
    covers = problem.cell_slots()
    by_length: dict[int, list[int]] = {}
    for s in range(n):
        by_length.setdefault(problem.slot_length(s), []).append(s)
    removed_words: list[set[int]] = [set() for _ in range(n)]
    queue = deque(range(n))
    queued = [True] * n
    revisions = 0
    for s in range(n):
        if len(problem.candidates[s]) == 0:
            return Propagated(problem, s, "no candidate word", 0)
    while queue:
        s = queue.popleft()
        queued[s] = False
        revisions += 1
        cells = problem.slot_cells[s]
        letters = problem.letters[s][keep[s]]
        allowed = _allowed_table(masks[cells], alphabet)
        fits = allowed[np.arange(len(cells))[None, :], letters].all(axis=1)
        ok = fits
        if removed_words[s]:
            ok = fits & ~np.isin(problem.candidates[s][keep[s]], list(removed_words[s]))
        if not ok.all():
            keep[s] = keep[s][ok]
            letters = letters[ok]
        if len(keep[s]) == 0:
            reason = ("every word that fits is already another slot's (no repeats)"
                      if fits.any() else "no word fits the crossing letters")
            return Propagated(problem.with_candidates(keep, masks), s, reason, revisions)
        new = _position_masks(letters, alphabet) & masks[cells]
        for pos, cell in enumerate(cells):
            if new[pos] != masks[cell]:
                masks[cell] = new[pos]
                for other, _ in covers[int(cell)]:
                    if other != s and not queued[other]:
                        queue.append(other)
                        queued[other] = True
        if len(keep[s]) == 1 and not problem.allow_repeats:
            word = int(problem.candidates[s][keep[s][0]])
            for other in by_length[problem.slot_length(s)]:
                if other != s and word not in removed_words[other]:
                    removed_words[other].add(word)
                    if not queued[other]:
                        queue.append(other)
                        queued[other] = True
    return Propagated(problem.with_candidates(keep, masks), None, "", revisions)
