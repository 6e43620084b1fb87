"""The native back-end: sound fills, verdicts equal to brute force, seeds, limits, stats."""

from __future__ import annotations

import functools
import random
import time
from dataclasses import replace

import numpy as np
import pytest
from oracle import count_fills
from oracle import valid_fill as valid

from xwsat.backends.native import from_spec
from xwsat.errors import XwsatError
from xwsat.grid import parse_grid
from xwsat.outcome import Limits, Status
from xwsat.planner import default_plan
from xwsat.problem import FillProblem, build_problem
from xwsat.propagate import propagate
from xwsat.python_search import Search, SearchConfig
from xwsat.python_search.bitsets import bit_indices, letter_bitsets, members, to_bitset
from xwsat.python_search.symmetry import transpose_pair
from xwsat.restarts import luby
from xwsat.words import build_wordlist

COMPLETE = ["csp", "letters", "fragments"]
ALL = [*COMPLETE, "balanced"]


def problem_of(grid: str, words: list[str], allow_repeats: bool = False) -> FillProblem:
    wordlist = build_wordlist({w: (50, None) for w in words}, source="inline")
    return build_problem(parse_grid(grid), wordlist, allow_repeats=allow_repeats).problem


def solve(problem: FillProblem, variant: str, seed: int = 0, time_limit: float | None = 20):
    return from_spec(variant).solve(problem, Limits(time_limit=time_limit, seed=seed)
    )


def random_instance(rng: random.Random) -> FillProblem:
    """A tiny grid (with some blocks) and a random word list over a 3-letter alphabet."""
    height, width = rng.choice([(2, 3), (3, 3), (3, 4)])
    rows = ["".join("#" if rng.random() < 0.15 else "." for _ in range(width))
            for _ in range(height)]
    words = {"".join(rng.choice("ABC") for _ in range(n)) for n in range(2, 5)
             for _ in range(rng.randint(2, 7))}
    return problem_of("\n".join(rows), sorted(words), allow_repeats=rng.random() < 0.3)


@functools.cache
def small_instances(seed: int, count: int) -> list[tuple[FillProblem, int]]:
    """``count`` random instances small enough to count by brute force, with their counts."""
    rng = random.Random(seed)
    cases: list[tuple[FillProblem, int]] = []
    while len(cases) < count:
        try:
            problem = random_instance(rng)
        except XwsatError:
            continue
        if np.prod([float(len(c)) for c in problem.candidates]) > 20_000:
            continue
        cases.append((problem, count_fills(problem)))
    return cases


@pytest.mark.parametrize("variant", ALL)
def test_verdicts_agree_with_brute_force(variant: str) -> None:
    for problem, expected in small_instances(7, 40):
        outcome = solve(problem, variant)
        if outcome.status is Status.FILLED:
            assert valid(problem, outcome.fill)
            assert expected > 0
        elif variant == "balanced":
            assert outcome.status is Status.UNKNOWN
        else:
            assert outcome.status is Status.UNFILLABLE, outcome.message
            assert expected == 0
        if expected > 0 and variant != "balanced":
            assert outcome.status is Status.FILLED


@pytest.mark.parametrize("variant", COMPLETE)
def test_unfillable_square_is_proved(variant: str) -> None:
    # a 3x3 square needs three distinct across and down words; only two words fit
    problem = problem_of("...\n...\n...", ["ABC", "BCA", "CAB", "AAB"])
    assert count_fills(problem) == 0
    outcome = solve(problem, variant)
    assert outcome.status is Status.UNFILLABLE
    assert outcome.evidence is not None
    assert outcome.evidence.method == "native exhaustive search"
    assert "nodes" in outcome.evidence.detail


def test_repeats_rule_decides_the_verdict() -> None:
    words = ["ABC", "BCA", "CAB"]
    assert solve(problem_of("...\n...\n...", words), "csp").status is Status.UNFILLABLE
    allowed = problem_of("...\n...\n...", words, allow_repeats=True)
    outcome = solve(allowed, "csp")
    assert outcome.status is Status.FILLED and valid(allowed, outcome.fill)


def test_balanced_never_says_unfillable() -> None:
    problem = problem_of("...\n...\n...", ["ABC", "BCA", "CAB", "AAB"])
    outcome = solve(problem, "balanced")
    assert outcome.status is Status.UNKNOWN
    assert "incomplete" in outcome.message


@pytest.mark.parametrize("variant", ALL)
def test_same_seed_same_fill(variant: str) -> None:
    words = [a + b + c for a in "ABCD" for b in "ABCD" for c in "ABCD"]
    problem = propagate(problem_of("...\n...\n...", words)).problem
    first = solve(problem, variant, seed=3)
    assert first.status is Status.FILLED and valid(problem, first.fill)
    assert solve(problem, variant, seed=3).fill == first.fill
    assert solve(problem, variant, seed=0).fill == solve(problem, variant, seed=0).fill


def test_time_limit_returns_unknown_with_stats() -> None:
    words = [a + b + c for a in "ABCD" for b in "ABCD" for c in "ABCD"]
    outcome = solve(problem_of("...\n...\n...", words), "csp", time_limit=1e-9)
    assert outcome.status is Status.UNKNOWN
    assert "time limit" in outcome.message
    assert "backjumps" in outcome.stats.extra


def test_stats_report_search_work() -> None:
    problem = problem_of("...\n...\n...", ["ABC", "BCA", "CAB", "AAB"])
    stats = solve(problem, "fragments").stats
    assert stats.nodes > 0 and stats.conflicts > 0
    for key in ("backjumps", "pruned", "accelerator_hits"):
        assert key in stats.extra
    assert stats.solve_s >= 0
    # the model's size, as every back-end reports its own: a word variable per slot, a
    # constraint per crossing (3 across x 3 down)
    assert (stats.variables, stats.constraints) == (6, 9)


def test_given_letters_are_kept() -> None:
    problem = problem_of("C..\n...\n...", [a + b + c for a in "ABC" for b in "ABC" for c in "ABC"])
    outcome = solve(problem, "csp")
    assert outcome.status is Status.FILLED and valid(problem, outcome.fill)


def test_unknown_variant_is_a_one_line_error() -> None:
    with pytest.raises(XwsatError, match="unknown native variant"):
        from_spec("nope")
    assert from_spec(None).variant == "csp"


def test_static_is_fragments_without_the_planner() -> None:
    """The baseline that shows what the planner buys differs from it in the plan alone."""
    from dataclasses import replace

    from xwsat.python_search import VARIANTS

    assert VARIANTS["fragments"].planner and not VARIANTS["static"].planner
    assert replace(VARIANTS["static"], planner=True) == VARIANTS["fragments"]


def test_luby_sequence() -> None:
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


CONFIGS = {
    "words": SearchConfig(score_weight=3.0),
    "words-no-symmetry": SearchConfig(symmetry=False),
    "letters-no-symmetry": SearchConfig(letter_above=0, symmetry=False),
    "restarts": SearchConfig(restart_base=1, score_weight=3.0),
    "letters-restarts": SearchConfig(letter_above=0, restart_base=1),
}


@pytest.mark.parametrize("name", CONFIGS)
def test_search_configs_agree_with_brute_force(name: str) -> None:
    """Word decisions, symmetry breaking off, and restarts: verdicts still equal brute force."""
    for problem, expected in small_instances(11, 20):
        result = Search(problem, default_plan(problem), CONFIGS[name], seed=1).run(
            time.perf_counter() + 20
        )
        assert result.status == ("filled" if expected else "unfillable")
        if expected:
            fill = tuple(int(problem.candidates[s][k]) for s, k in enumerate(result.choice))
            assert valid(problem, fill)


def test_transposed_square_is_detected() -> None:
    words = [a + b + c for a in "ABC" for b in "ABC" for c in "ABC"]
    pair = transpose_pair(problem_of("...\n...\n...", words))
    assert pair == (1, 3)  # cell (0, 1) and its mirror (1, 0)
    assert transpose_pair(problem_of("...\n...", words + ["AB", "BA"])) is None
    assert transpose_pair(problem_of("A..\n...\n...", words)) is not None
    assert transpose_pair(problem_of(".A.\n...\n...", words)) is None  # given letter off-mirror


def test_symmetry_breaking_keeps_fills() -> None:
    words = [a + b + c for a in "ABC" for b in "ABC" for c in "ABC"]
    problem = problem_of("...\n...\n...", words)
    result = Search(problem, default_plan(problem), SearchConfig()).run()
    fill = tuple(int(problem.candidates[s][k]) for s, k in enumerate(result.choice))
    assert result.status == "filled" and valid(problem, fill)


def test_missing_scores_are_handled() -> None:
    words = [a + b + c for a in "ABC" for b in "ABC" for c in "ABC"]
    problem = replace(problem_of("...\n...\n...", words), scores=())
    outcome = solve(problem, "csp")
    assert outcome.status is Status.FILLED and valid(problem, outcome.fill)


def test_bitset_helpers_round_trip() -> None:
    flags = np.array([True, False, False, True] + [False] * 60 + [True])
    bits = to_bitset(flags)
    assert bits == (1 | 1 << 3 | 1 << 64)
    assert bit_indices(bits, len(flags)).tolist() == [0, 3, 64]
    assert members(bits) == [0, 3, 64]
    assert bit_indices(0, 0).tolist() == []
    assert letter_bitsets(np.array([2, 0, 2], dtype=np.uint8), 3) == [0b010, 0, 0b101]
