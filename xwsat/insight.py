"""What a half-built grid allows, after every edit: the constructor's live "problem areas".

Arc consistency (``xwsat.propagate``) gives each slot's candidate count and the letters forced
into empty cells; a slot no word fits is named with the reason, and the no-repeat count
(``xwsat.no_repeat``) names slots of one length that have too few words between them. All of it is
sound: a red slot really cannot be filled as the grid stands. Only the search can say whether
the rest fills, so that is left to it (``xwsat.pipeline.fill_grid``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from xwsat.grid import EMPTY, Grid
from xwsat.pipeline import explain_hall, explain_wipeout
from xwsat.problem import Built, build_problem
from xwsat.propagate import propagate
from xwsat.words import WordList


@dataclass(frozen=True)
class SlotInsight:
    """One slot: its cells, its pattern, and how many words fit it (``matching`` as the
    letters stand, ``candidates`` after arc consistency)."""

    name: str
    cells: tuple[int, ...]
    pattern: str
    matching: int
    candidates: int


@dataclass(frozen=True)
class Insight:
    """Per-slot counts, forced letters (grid cell id -> letter), and the slots that cannot be
    filled as the grid stands, each with a sentence saying why (``dead``: slot name -> why;
    ``conflict``: the no-repeat count's slots and its sentence)."""

    slots: tuple[SlotInsight, ...]
    forced: dict[int, str]
    dead: dict[str, str] = field(default_factory=dict)
    conflict: tuple[tuple[str, ...], str] | None = None
    settled: bool = True  # False when arc consistency stopped at a wipe-out (counts are bounds)
    seconds: float = 0.0

    @property
    def unfillable(self) -> bool:
        return bool(self.dead) or self.conflict is not None

    def as_dict(self) -> dict[str, Any]:
        return {
            "slots": [{"name": s.name, "cells": list(s.cells), "pattern": s.pattern,
                       "matching": s.matching, "candidates": s.candidates} for s in self.slots],
            "forced": {str(k): v for k, v in self.forced.items()},
            "dead": self.dead,
            "conflict": ({"slots": list(self.conflict[0]), "why": self.conflict[1]}
                         if self.conflict else None),
            "settled": self.settled, "unfillable": self.unfillable,
            "ms": round(self.seconds * 1000, 1),
        }


def grid_insight(grid: Grid, words: WordList, min_length: int = 2,
                 allow_repeats: bool = False) -> Insight:
    """Build and propagate ``grid`` with ``words`` and say what each slot still allows."""
    started = time.perf_counter()
    built = build_problem(grid, words, min_length, allow_repeats)
    return insight_of(built, started)


def insight_of(built: Built, started: float | None = None) -> Insight:
    """The insight of a problem already built (``grid_insight`` without the build)."""
    started = time.perf_counter() if started is None else started
    problem = built.problem
    propagated = propagate(problem)
    after = propagated.problem
    dead: dict[str, str] = {}
    for index, slot in enumerate(built.slots):  # every slot no word matches, not only the first
        if len(problem.candidates[index]) == 0:
            dead[slot.name] = explain_wipeout(built, index, "no candidate word")
    if propagated.wiped is not None and built.slots[propagated.wiped].name not in dead:
        dead[built.slots[propagated.wiped].name] = explain_wipeout(
            built, propagated.wiped, propagated.reason)
    conflict = None
    if propagated.hall is not None:
        found = propagated.hall
        conflict = (tuple(built.slots[s].name for s in found.slots),
                    explain_hall(built, found, True))
    letters = built.words.alphabet.letters
    forced: dict[int, str] = {}
    if propagated.wiped is None:
        for dense, cell in enumerate(problem.cell_ids.tolist()):
            mask = int(after.cell_masks[dense])
            if built.grid.cell(cell) == EMPTY and mask and mask & (mask - 1) == 0:
                forced[cell] = letters[mask.bit_length() - 1]
    slots = tuple(
        SlotInsight(slot.name, slot.cells, "".join(built.grid.cell(c) for c in slot.cells),
                    len(problem.candidates[i]), len(after.candidates[i]))
        for i, slot in enumerate(built.slots))
    return Insight(slots, forced, dead, conflict, propagated.wiped is None,
                   time.perf_counter() - started)
