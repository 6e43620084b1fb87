"""A problem-level fill checker for the search tests, sharing no code with the searches."""

from __future__ import annotations

import numpy as np

from xwsat.problem import FillProblem


def valid(problem: FillProblem, fill: tuple[int, ...]) -> bool:
    """Independent check: each word is a candidate, crossing letters agree, no repeats."""
    letters: dict[int, int] = {}
    for slot, word in enumerate(fill):
        where = np.flatnonzero(problem.candidates[slot] == word)
        if len(where) != 1:
            return False
        for cell, code in zip(problem.slot_cells[slot], problem.letters[slot][where[0]]):
            if letters.setdefault(int(cell), int(code)) != int(code):
                return False
    return problem.allow_repeats or len(set(fill)) == len(fill)
