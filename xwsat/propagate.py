"""Arc consistency on letter bitmasks (the Qxw way): prune candidates to a fixed point.

A candidate survives when each of its letters is still allowed in its cell; a cell keeps only the
letters some surviving candidate of every covering slot puts there. With repeats forbidden, a slot
reduced to one word removes that word from every other slot. An empty slot ends it: no fill exists.
At the fixed point the no-repeat rule is counted too (``xwsat.no_repeat``): slots of one length that
fit fewer words between them than their number are named in ``hall``: no fill exists either.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from xwsat.no_repeat import HallSet, hall_set
from xwsat.problem import FillProblem


@dataclass(frozen=True)
class Propagated:
    """The pruned problem, or the slot whose candidates ran out (``wiped``), with a reason;
    ``hall``: slots of the pruned problem the no-repeat rule cannot fill (never with ``wiped``)."""

    problem: FillProblem
    wiped: int | None = None
    reason: str = ""
    revisions: int = 0
    hall: HallSet | None = None


def _position_masks(letters: np.ndarray, alphabet_size: int) -> np.ndarray:
    """For each position of a slot, the bitmask of letters its candidates use there."""
    weights = np.uint64(1) << np.arange(alphabet_size, dtype=np.uint64)
    masks = np.zeros(letters.shape[1], dtype=np.uint64)
    for pos in range(letters.shape[1]):
        used = np.bincount(letters[:, pos], minlength=alphabet_size) > 0
        masks[pos] = weights[used].sum(dtype=np.uint64)
    return masks


def _fitting(letters: np.ndarray, masks: np.ndarray, blocked: np.ndarray) -> np.ndarray:
    """Which rows of ``letters`` have an allowed letter at every position; only the positions
    where ``blocked`` (letters used there but no longer allowed) is nonzero can fail."""
    fits = np.ones(len(letters), dtype=bool)
    for pos in np.flatnonzero(blocked).tolist():
        allowed = (int(masks[pos]) >> np.arange(64, dtype=np.uint64)) & np.uint64(1) != 0
        fits &= allowed[letters[:, pos]]
    return fits


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
    used: list[np.ndarray | None] = [None] * n  # letters each slot's rows use, per position
    whole: dict[int, np.ndarray] = {}  # the same for a slot's whole letters array, by identity
    while queue:
        s = queue.popleft()
        queued[s] = False
        revisions += 1
        cells = problem.slot_cells[s]
        if used[s] is None:
            key = id(problem.letters[s])
            if key not in whole:
                whole[key] = _position_masks(problem.letters[s], alphabet)
            used[s] = whole[key]
        blocked = used[s] & ~masks[cells]
        if blocked.any() or removed_words[s]:  # some row may no longer fit
            whole_slot = len(keep[s]) == len(problem.candidates[s])
            letters = problem.letters[s] if whole_slot else problem.letters[s][keep[s]]
            fits = _fitting(letters, masks[cells], blocked)
            ok = fits
            if removed_words[s]:
                ids = problem.candidates[s] if whole_slot else problem.candidates[s][keep[s]]
                ok = fits & ~np.isin(ids, list(removed_words[s]))
            if not ok.all():
                keep[s] = keep[s][ok]
                used[s] = _position_masks(letters[ok], alphabet)
            if len(keep[s]) == 0:
                reason = ("every word that fits is already another slot's (no repeats)"
                          if fits.any() else "no word fits the crossing letters")
                return Propagated(problem.with_candidates(keep, masks), s, reason, revisions)
        new = used[s] & masks[cells]
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
    pruned = problem.with_candidates(keep, masks)
    return Propagated(pruned, None, "", revisions, hall_set(pruned))
