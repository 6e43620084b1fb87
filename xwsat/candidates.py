"""What a word costs: a slot's candidates ranked by score, each marked as keeping the grid
fillable, making it unfillable, or not yet known.

The ranking and the first marks come from arc consistency (a word it removes cannot be part
of any fill: unfillable, at once). The rest are decided best first by the real search
(``xwsat.pipeline.fill_grid``) with the word placed, each within a small budget, until the
time limit; whatever is left stays "not yet known". A "fillable" mark carries a verified fill
with that word in place, so it is never a guess.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from xwsat import guard
from xwsat.errors import XwsatError
from xwsat.grid import Grid, slot_range
from xwsat.outcome import Status, Stop
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.problem import Built, build_problem
from xwsat.propagate import propagate
from xwsat.words import WordList

FILLABLE, UNFILLABLE, UNKNOWN = "fillable", "unfillable", "unknown"
PER_WORD_S = 2.0  # each word's search budget: a grid that takes longer is "not yet known"


@dataclass(frozen=True)
class Candidate:
    """A word for the slot, its score, the mark, and how the mark was reached."""

    word: str
    score: int
    verdict: str = UNKNOWN
    how: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"word": self.word, "score": self.score, "verdict": self.verdict, "how": self.how}


def find_slot(built: Built, name: str) -> int:
    """The index of the slot called ``name`` ("12A", "3d", "12 across")."""
    wanted = name.strip().upper().replace(" ", "").replace("ACROSS", "A").replace("DOWN", "D")
    for slot in built.slots:
        if slot.name == wanted:
            return slot.index
    raise XwsatError(f"the grid has no slot {name!r} (its slots: {slot_range(built.slots)})")


def ranked(built: Built, slot: int, refuted: bool = False) -> list[Candidate]:
    """Every word that fits the slot's letters: those arc consistency keeps first (not yet
    known), then those it removes (unfillable), each group best score first, then
    alphabetically. ``refuted``: the grid is known to have no fill, so no word placed in it
    can give it one (a word only adds constraints): every word is unfillable."""
    problem = built.problem
    propagated = propagate(problem)
    ids = problem.candidates[slot]
    whole = refuted or propagated.wiped is not None or propagated.hall is not None
    if whole:
        kept = np.zeros(0, dtype=ids.dtype)
        why = "the grid cannot be filled as it stands"
    else:
        kept = propagated.problem.candidates[slot]
        why = "arc consistency: no word fits the crossings with it"
    alive = set(kept.tolist())
    words, scores = built.words.words, built.words.scores
    order = sorted(ids.tolist(), key=lambda w: (w not in alive, -int(scores[w]), words[w]))
    taken: dict[str, str] = {}  # the only word of another entry: the no-repeat rule's reason
    if not problem.allow_repeats and not whole:
        taken = {words[int(c[0])]: other.name
                 for other, c in zip(built.slots, propagated.problem.candidates)
                 if other.index != slot and len(c) == 1}
    return [Candidate(words[w], int(scores[w])) if w in alive else
            Candidate(words[w], int(scores[w]), UNFILLABLE,
                      f"no repeats: it is the only word for {taken[words[w]]}"
                      if words[w] in taken else why) for w in order]


def _decide(grid: Grid, words: WordList, cells: tuple[int, ...], word: str,
            options: FillOptions) -> tuple[str, str]:
    """Place ``word`` and search: (mark, how)."""
    placed = grid.with_letters(dict(zip(cells, word)))
    result = fill_grid(placed, words, options)
    if result.outcome.stop is Stop.INTERRUPTED:  # the search caught Ctrl-C: the ranking stops
        raise KeyboardInterrupt  # too, not only this word's search (it went on for seconds)
    status = result.outcome.status
    seconds = sum(result.times.values())
    if status is Status.FILLED and result.verified:
        return FILLABLE, f"verified fill by {result.outcome.method}, {seconds:.2f} s"
    if status is Status.UNFILLABLE:
        return UNFILLABLE, f"proven by {result.outcome.method}, {seconds:.2f} s"
    return UNKNOWN, f"undecided in {seconds:.1f} s"


def decide_candidates(grid: Grid, words: WordList, slot_name: str, options: FillOptions,
                      time_limit: float, top: int | None = None, per_word: float = PER_WORD_S,
                      on_change: Callable[[list[Candidate]], None] | None = None
                      ) -> list[Candidate]:
    """The slot's candidates ranked by score, the first ``top`` of those arc consistency keeps
    decided best first by the search within ``time_limit`` in all; ``on_change`` sees the
    list after each decision (the workbench shows it as it goes)."""
    deadline = time.monotonic() + time_limit
    built = build_problem(grid, words, options.min_length, options.allow_repeats)
    slot = find_slot(built, slot_name)
    cells = built.slots[slot].cells
    found = ranked(built, slot)
    if on_change is not None:
        on_change(found)
    open_ones = [i for i, c in enumerate(found) if c.verdict == UNKNOWN][:top]
    for i in open_ones:
        if guard.user_stopped():  # a Ctrl-C that a search caught and answered (its lift's,
            raise KeyboardInterrupt  # say): the next word, decided in-process, would not see it
        left = deadline - time.monotonic()
        if left < 0.05:
            break
        verdict, how = _decide(grid, words, cells, found[i].word,
                               replace(options, time_limit=min(per_word, left)))
        found[i] = replace(found[i], verdict=verdict, how=how)
        if on_change is not None:
            on_change(found)
    return found
