"""Score levels of a grid's word list: which slots count, which levels exist, the problem at a
level, and where a fill stands (its level: the lowest score among the counted entries)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from xwsat.problem import Built, FillProblem


def exempt_slots(built: Built) -> frozenset[int]:
    """Slots whose every letter the grid gives: the constructor's entries, outside any level."""
    given = built.grid.given_letters()
    return frozenset(s for s, slot in enumerate(built.slots)
                     if all(c in given for c in slot.cells))


def open_scores(problem: FillProblem, exempt: frozenset[int]) -> np.ndarray:
    """The scores of every candidate of every counted slot, concatenated."""
    parts = [sc for s, sc in enumerate(problem.scores) if s not in exempt]
    return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64)


def levels(problem: FillProblem, exempt: frozenset[int]) -> list[int]:
    """The distinct scores among the counted slots' candidates, lowest first."""
    return np.unique(open_scores(problem, exempt)).tolist()


def top_tier(problem: FillProblem, exempt: frozenset[int]) -> int:
    """The highest score that at least half of the counted slots have among their candidates:
    the list's top tier as this grid meets it. A few favourites scored 100 in a personal list
    stacked over a list scored up to 50 fit a few slots only, so they do not make every 50 of
    the grid look weak."""
    best = sorted((int(sc.max(initial=0)) for s, sc in enumerate(problem.scores)
                   if s not in exempt), reverse=True)
    return best[(len(best) - 1) // 2] if best else 0


def at_level(problem: FillProblem, level: int, exempt: frozenset[int]) -> FillProblem:
    """The problem with each counted slot down to its words scored ``level`` or more."""
    keep = [np.arange(len(c)) if s in exempt else np.flatnonzero(problem.scores[s] >= level)
            for s, c in enumerate(problem.candidates)]
    return problem.with_candidates(keep, problem.cell_masks)


def fill_scores(built: Built, fill: tuple[int, ...], exempt: frozenset[int]) -> list[int]:
    """The score of each counted entry of ``fill``."""
    return [int(built.words.scores[w]) for s, w in enumerate(fill) if s not in exempt]


def fill_level(built: Built, fill: tuple[int, ...], exempt: frozenset[int],
               top: int = 100) -> int:
    """The lowest score among the counted entries (``top`` when every slot is exempt)."""
    return min(fill_scores(built, fill, exempt), default=top)


def tier_counts(built: Built, fill: tuple[int, ...], exempt: frozenset[int]) -> dict[int, int]:
    """How many counted entries sit at each score, highest first."""
    return dict(sorted(Counter(fill_scores(built, fill, exempt)).items(), reverse=True))


def rank(problem: FillProblem, fill: tuple[int, ...], scores: np.ndarray,
         exempt: frozenset[int]) -> tuple[int, ...]:
    """How constructors rank a fill, higher being better: minus its counted entries at each of
    the list's levels from the lowest up (the level first, then the entries at it, then above);
    ``scores``: the word list's score of each word id."""
    have = [int(scores[w]) for s, w in enumerate(fill) if s not in exempt]
    return tuple(-have.count(v) for v in levels(problem, exempt))
