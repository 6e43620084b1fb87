"""The planner: order, fragments, accelerators and difficulty figures."""

from __future__ import annotations

import math

from xwsat.grid import parse_grid
from xwsat.planner import (
    Plan,
    default_plan,
    difficulty_ranks,
    generation_difficulty,
    make_plan,
    placement_difficulty,
)
from xwsat.problem import FillProblem, build_problem
from xwsat.words import build_wordlist

WORDS = [a + b + c for a in "ABC" for b in "ABC" for c in "ABC"] + ["AB", "BA", "ABCA", "CABA"]


def problem_of(grid: str, words: list[str] = WORDS) -> FillProblem:
    wordlist = build_wordlist({w: (50, None) for w in words}, source="inline")
    return build_problem(parse_grid(grid), wordlist).problem


# two 3x3 blocks joined by one row: the long across slot separates them
COMB = "...#...\n...#...\n.......\n"


def test_default_plan_is_unchanged() -> None:
    plan = default_plan(problem_of(COMB, [*WORDS, "ABCABCA"]))
    assert isinstance(plan, Plan) and plan.source == "length"
    assert plan.fragments == () and plan.accelerators == ()


def test_order_is_a_permutation_longest_first() -> None:
    problem = problem_of(COMB, [*WORDS, "ABCABCA"])
    plan = make_plan(problem)
    assert sorted(plan.order) == list(range(problem.n_slots))
    assert problem.slot_length(plan.order[0]) == max(
        problem.slot_length(s) for s in range(problem.n_slots)
    )


def test_plan_is_deterministic() -> None:
    problem = problem_of(COMB, [*WORDS, "ABCABCA"])
    assert make_plan(problem) == make_plan(problem)


def test_fragments_are_consecutive_and_closed() -> None:
    problem = problem_of(COMB, [*WORDS, "ABCABCA"])
    plan = make_plan(problem)
    assert plan.fragments, "the long row should split the grid into fragments"
    neighbours = problem.neighbours()
    for fragment in plan.fragments:
        positions = sorted(plan.order.index(s) for s in fragment.slots)
        assert positions == list(range(positions[0], positions[0] + fragment.depth))
        assert fragment.first == plan.order[positions[0]]
        assert plan.order.index(fragment.start) < positions[0]
        assert fragment.depth <= problem.n_slots // 2
        # once the start word and everything before it are placed, no other unfilled slot
        # touches the fragment
        placed = set(plan.order[: plan.order.index(fragment.start) + 1])
        outside = set(range(problem.n_slots)) - placed - set(fragment.slots)
        for s in fragment.slots:
            assert not neighbours[s] & outside


def test_accelerators_touch_their_fragment_once() -> None:
    problem = problem_of(COMB, [*WORDS, "ABCABCA"])
    plan = make_plan(problem)
    covers = problem.cell_slots()
    for acc in plan.accelerators:
        fragment = plan.fragments[acc.fragment]
        assert acc.slot == fragment.start
        shared = [
            int(c) for c in problem.slot_cells[acc.slot]
            if any(t in fragment.slots for t, _ in covers[int(c)])
        ]
        assert shared == [acc.cell]
        assert int(problem.slot_cells[acc.slot][acc.position]) == acc.cell


def test_difficulty_ranks_put_the_hardest_slot_last_and_order_ties_by_tie() -> None:
    problem = problem_of("....\n....\n#...")
    place = placement_difficulty(problem)
    ranks = difficulty_ranks(problem)
    assert sorted(ranks) == [r / (problem.n_slots - 1) for r in range(problem.n_slots)]
    assert ranks[max(range(problem.n_slots), key=lambda s: (place[s], s))] == 1.0
    tied = [s for s in range(problem.n_slots) if place[s] == place[0]]
    assert len(tied) >= 2
    flipped = difficulty_ranks(problem, [-s for s in range(problem.n_slots)])
    assert [ranks[s] for s in tied] == sorted(ranks[s] for s in tied)
    assert [flipped[s] for s in tied] == sorted((flipped[s] for s in tied), reverse=True)


def test_difficulty_figures() -> None:
    problem = problem_of("...\n...\n...")
    place = placement_difficulty(problem)
    # every 3-letter slot: 3 crossings, 27 candidates
    assert all(math.isclose(p, 3 * math.log(3) - math.log(28)) for p in place)
    assert math.isclose(generation_difficulty(problem), 6 * 9 / 3)
    assert make_plan(problem).difficulty == generation_difficulty(problem)
