"""Variable order for the solvers: the plan (seeds 000/001 analysis phase).

The default plan orders slots longest first, then by most crossings, then by fewest candidates.
"""

from __future__ import annotations

from dataclasses import dataclass

from xwsat.problem import FillProblem


@dataclass(frozen=True)
class Plan:
    """A slot order for search (first = decided first); ``source`` names who made it."""

    order: tuple[int, ...]
    source: str = "length"


def default_plan(problem: FillProblem) -> Plan:
    """Longest slots first; ties by more crossings, then fewer candidates."""
    degree = [len(n) for n in problem.neighbours()]
    sizes = problem.domain_sizes()
    order = sorted(
        range(problem.n_slots),
        key=lambda s: (-problem.slot_length(s), -degree[s], int(sizes[s]), s),
    )
    return Plan(tuple(order), "length")
