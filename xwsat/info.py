"""``xwsat info``: what a grid asks of a dictionary, before any search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xwsat.grid import Grid
from xwsat.no_repeat import hall_set
from xwsat.pattern_stats import PatternStats, pattern_stats
from xwsat.pipeline import explain_hall, explain_wipeout
from xwsat.problem import build_problem
from xwsat.propagate import propagate
from xwsat.words import WordList


@dataclass(frozen=True)
class SlotInfo:
    name: str
    length: int
    pattern: str
    crossings: int
    candidates: int
    after_pruning: int | None  # None when propagation emptied some slot: no count means anything


@dataclass(frozen=True)
class GridInfo:
    """Per-slot facts plus the grid's totals; ``wipeout`` names a slot arc consistency emptied,
    ``counted`` the slots the no-repeat rule cannot fill (``xwsat.no_repeat``)."""

    width: int
    height: int
    blocks: int
    dictionary: str
    dictionary_size: int
    slots: tuple[SlotInfo, ...]
    wipeout: str | None
    counted: str | None = None
    pattern: PatternStats | None = None  # the constructor's figures (``xwsat.pattern_stats``)

    def as_dict(self) -> dict[str, Any]:
        return {
            "width": self.width, "height": self.height, "blocks": self.blocks,
            "dictionary": self.dictionary, "dictionary_size": self.dictionary_size,
            "slots": [s.__dict__ for s in self.slots], "unfillable_by_propagation": self.wipeout,
            "unfillable_by_count": self.counted,
            "pattern": self.pattern.as_dict() if self.pattern is not None else None,
        }

    def as_text(self) -> str:
        lines = [
            f"grid {self.width}x{self.height}, {self.blocks} blocks, {len(self.slots)} slots; "
            f"dictionary {self.dictionary} ({self.dictionary_size:,} words)",
            f"{'slot':>5} {'len':>3} {'cross':>5} {'words':>8} {'pruned':>8}  pattern",
        ]
        lines += [
            f"{s.name:>5} {s.length:>3} {s.crossings:>5} {s.candidates:>8}"
            f" {'-' if s.after_pruning is None else s.after_pruning:>8}"
            f"  {s.pattern}"
            for s in self.slots
        ]
        if self.pattern is not None:
            lines += [f"pattern: {line}" for line in self.pattern.as_lines()]
        if self.wipeout:
            lines.append(f"unfillable by arc consistency: {self.wipeout}")
        if self.counted:
            lines.append(f"unfillable by the no-repeat count: {self.counted}")
        return "\n".join(lines)


def grid_info(grid: Grid, words: WordList, min_length: int = 2,
              allow_repeats: bool = False) -> GridInfo:
    """Build and propagate, and describe each slot."""
    built = build_problem(grid, words, min_length, allow_repeats)
    problem = built.problem
    propagated = propagate(problem)
    neighbours = problem.neighbours()
    after = propagated.problem.domain_sizes()
    slots = tuple(
        SlotInfo(
            name=slot.name,
            length=slot.length,
            pattern="".join(grid.cell(c) for c in slot.cells),
            crossings=len(neighbours[i]),
            candidates=len(problem.candidates[i]),
            after_pruning=int(after[i]) if propagated.wiped is None else None,
        )
        for i, slot in enumerate(built.slots)
    )
    wipeout = (
        explain_wipeout(built, propagated.wiped, propagated.reason)
        if propagated.wiped is not None else None
    )
    found = propagated.hall
    counted = (explain_hall(built, found, hall_set(problem) is None)
               if found is not None else None)
    blocks = sum(row.count("#") for row in grid.rows)
    return GridInfo(grid.width, grid.height, blocks, words.source, len(words), slots, wipeout,
                    counted, pattern_stats(grid, slots=tuple(built.slots)))
