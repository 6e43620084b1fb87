"""The fill plan: slot order, fragments, accelerators, difficulty (the fragment filler's
analysis, ARCHITECTURE.md).

``default_plan`` orders slots longest first, then by most crossings, then by fewest candidates.
``make_plan`` is the fragment filler's full analysis phase:

* **Placement difficulty** of a slot (the source describes it without a formula; this one is ours):
  ``crossings * ln(alphabet) - ln(1 + candidates)``, i.e. minus the log of the number of words
  expected to fit when every crossing letter is fixed at random; more crossings (a failure costs
  more) and fewer candidates (a word is harder to find) both raise it.
* **Order**: longest slots first, ties by higher placement difficulty, then slot index.
* **Fragments**: simulate placing slots in order; after each *start word*, every connected group of
  unfilled slots that no other unfilled slot touches, not all that remains and at most 50% of all
  slots, is a fragment (its *first word* is its earliest member, its *depth* its size). Placement
  rules: depth <= 2, or a first word as long as the start word -> right after the start word; else
  after the last slot of length ``len(first) + 1`` (never before the start word); several fragments
  after one word -> the harder (sum of placement difficulties) first. Members are then consecutive.
* **Accelerators**: a start word whose fragment touches it at exactly one cell.
* **Generation difficulty** of the grid (named by the source without a formula; ours, uncalibrated):
  ``sum over slots of crossings**2 / length``, so fully crossed long slots weigh most.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xwsat.problem import FillProblem

FRAGMENT_SHARE = 0.5  # a fragment holds at most this share of all slots


@dataclass(frozen=True)
class Fragment:
    """Slots that depend on no other unfilled slot once ``start`` is placed."""

    start: int
    first: int
    slots: tuple[int, ...]
    difficulty: float

    @property
    def depth(self) -> int:
        return len(self.slots)


@dataclass(frozen=True)
class Accelerator:
    """A start word whose fragment touches it at exactly one cell (dense index ``cell``)."""

    slot: int
    fragment: int
    cell: int
    position: int


@dataclass(frozen=True)
class Plan:
    """A slot order for search (first = decided first); ``source`` names who made it.

    The other fields are filled by ``make_plan`` only: per-slot placement difficulty, fragments,
    accelerators and the grid's generation difficulty.
    """

    order: tuple[int, ...]
    source: str = "length"
    placement: tuple[float, ...] = ()
    fragments: tuple[Fragment, ...] = ()
    accelerators: tuple[Accelerator, ...] = ()
    difficulty: float = 0.0


def default_plan(problem: FillProblem) -> Plan:
    """Longest slots first; ties by more crossings, then fewer candidates."""
    degree = [len(n) for n in problem.neighbours()]
    sizes = problem.domain_sizes()
    order = sorted(
        range(problem.n_slots),
        key=lambda s: (-problem.slot_length(s), -degree[s], int(sizes[s]), s),
    )
    return Plan(tuple(order), "length")


def crossing_cells(problem: FillProblem) -> list[int]:
    """Number of crossed (checked) cells per slot."""
    covers = problem.cell_slots()
    return [
        sum(1 for cell in cells if len(covers[int(cell)]) > 1) for cells in problem.slot_cells
    ]


def placement_difficulty(problem: FillProblem) -> list[float]:
    """``crossings * ln(alphabet) - ln(1 + candidates)`` per slot (higher = harder)."""
    crossed = crossing_cells(problem)
    log_a = math.log(max(2, problem.alphabet_size))
    return [
        crossed[s] * log_a - math.log1p(len(problem.candidates[s])) for s in range(problem.n_slots)
    ]


def difficulty_ranks(problem: FillProblem, tie: Sequence[float] | None = None) -> list[float]:
    """Each slot's placement-difficulty rank scaled to [0, 1] (0 easiest, 1 hardest; a lone
    slot 0): a scale-free form of the planner's measure, for a search's first weights. Many
    slots tie (a symmetric grid has pairs); ``tie`` orders them (e.g. a seeded noise), else
    slot index."""
    place = placement_difficulty(problem)
    order = sorted(range(problem.n_slots),
                   key=lambda s: (place[s], s if tie is None else tie[s]))
    top = max(1, problem.n_slots - 1)
    ranks = [0.0] * problem.n_slots
    for rank, s in enumerate(order):
        ranks[s] = rank / top
    return ranks


def generation_difficulty(problem: FillProblem) -> float:
    """``sum(crossings**2 / length)`` over slots: our stand-in for the fragment filler's grid
    figure."""
    crossed = crossing_cells(problem)
    return float(sum(c * c / problem.slot_length(s) for s, c in enumerate(crossed)))


def _components(slots: set[int], neighbours: list[set[int]]) -> list[set[int]]:
    """Connected groups of ``slots`` under the crossing relation (deterministic order)."""
    seen: set[int] = set()
    groups = []
    for s in sorted(slots):
        if s in seen:
            continue
        group, stack = {s}, [s]
        seen.add(s)
        while stack:
            for t in neighbours[stack.pop()]:
                if t in slots and t not in seen:
                    seen.add(t)
                    group.add(t)
                    stack.append(t)
        groups.append(group)
    return groups


def _shared_cells(problem: FillProblem, a: int, group: set[int]) -> list[tuple[int, int]]:
    """(dense cell, position in ``a``) where slot ``a`` touches a slot of ``group``."""
    covers = problem.cell_slots()
    return [
        (int(cell), pos)
        for pos, cell in enumerate(problem.slot_cells[a])
        if any(t in group for t, _ in covers[int(cell)] if t != a)
    ]


def make_plan(problem: FillProblem, seed: int = 0) -> Plan:
    """The fragment filler's analysis phase: order, fragments, accelerators, difficulty.

    Pure and deterministic; ``seed`` is accepted for interface symmetry and only breaks exact ties
    (seed 0 = by slot index).
    """
    n = problem.n_slots
    place = placement_difficulty(problem)
    neighbours = problem.neighbours()

    def tie(s: int) -> int:
        return s if seed == 0 else (s * 2654435761 + seed) % 4294967291

    order = sorted(range(n), key=lambda s: (-problem.slot_length(s), -place[s], tie(s)))
    limit = max(1, int(FRAGMENT_SHARE * n))
    fragments: list[Fragment] = []
    accelerators: list[Accelerator] = []
    known: set[frozenset[int]] = set()
    i = 0
    while i < len(order):
        start = order[i]
        unfilled = set(order[i + 1 :])
        touching = [g for g in _components(unfilled, neighbours) if neighbours[start] & g]
        new = [
            g for g in touching
            if len(g) <= limit and len(g) < len(unfilled) and frozenset(g) not in known
        ]
        new.sort(key=lambda g: (-sum(place[s] for s in g), min(order.index(s) for s in g)))
        anchor = i  # fragments after one start word go in order, harder first
        for group in new:
            known.add(frozenset(group))
            members = [s for s in order[i + 1 :] if s in group]
            first = members[0]
            rest = [s for s in order if s not in group]
            at = rest.index(order[anchor])
            same = problem.slot_length(first) == problem.slot_length(start)
            if not (len(members) <= 2 or same):
                longer = [
                    k for k, s in enumerate(rest)
                    if problem.slot_length(s) == problem.slot_length(first) + 1
                ]
                if longer:
                    at = max(at, longer[-1])
            order = rest[: at + 1] + members + rest[at + 1 :]
            if at == rest.index(order[anchor]):
                anchor = order.index(members[-1])
            number = len(fragments)
            fragments.append(
                Fragment(start, first, tuple(members), float(sum(place[s] for s in members)))
            )
            shared = _shared_cells(problem, start, group)
            if len(shared) == 1:
                accelerators.append(Accelerator(start, number, shared[0][0], shared[0][1]))
        i += 1
    return Plan(
        order=tuple(order),
        source="fragments",
        placement=tuple(place),
        fragments=tuple(fragments),
        accelerators=tuple(accelerators),
        difficulty=generation_difficulty(problem),
    )
