"""Hard-grid machinery: stack regions are sound relaxations, the region prover agrees with brute
force, searches resume after a pause, the tree-size estimate is exact on uniform trees, and the
``auto`` policies are valid names."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from oracle import brute_fills

from xwsat.backends.registry import (
    AUTO_POLICIES,
    EXPERIMENTAL_POLICIES,
    LARGE_SLOTS,
    resolve,
    validate_spec,
)
from xwsat.errors import XwsatError
from xwsat.grid import parse_grid
from xwsat.outcome import Status, Stop
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.planner import default_plan
from xwsat.problem import build_problem
from xwsat.propagate import propagate
from xwsat.python_search import VARIANTS, Search
from xwsat.python_search.estimate import TreeEstimate, describe_seconds, progress_text
from xwsat.python_search.prover import prove
from xwsat.python_search.regions import distinct_rows, project, regions
from xwsat.words import build_wordlist

GRID = ".....\n.....\n.....\n#...#"


def random_words(seed: int) -> list[str]:
    rng = random.Random(seed)
    return sorted({"".join(rng.choice("ABC") for _ in range(n))
                   for n in (3, 4, 5) for _ in range(9 if n == 5 else 12)})


def problem_of(text: str, words: list[str]):
    built = build_problem(parse_grid(text), build_wordlist({w: (50, None) for w in words}))
    return built, propagate(built.problem)


def test_distinct_rows_equals_numpy_unique() -> None:
    rng = np.random.default_rng(3)
    for width in (1, 4, 14):
        rows = rng.integers(0, 26, (300, width)).astype(np.uint8)
        rows = np.vstack([rows, rows[:40]])
        assert np.array_equal(distinct_rows(rows, 26), np.unique(rows, axis=0))


@pytest.mark.parametrize("seed", [0, 2, 5])
def test_every_fill_of_the_grid_fills_each_region(seed: int) -> None:
    """The relaxation is sound: a grid fill, cut to a region, is one of the region's fills."""
    words = random_words(seed)
    fills = brute_fills(GRID, words, False)
    built, _ = problem_of(GRID, words)
    problem = built.problem
    found = regions(problem)
    assert found  # a 3-row open stack has regions
    width = len(GRID.split()[0])
    for region in found:
        sub = region.problem
        for fill in fills:
            letters = [fill[cid // width][cid % width] for cid in sub.cell_ids.tolist()]
            for s, cells in enumerate(sub.slot_cells):
                code = [built.words.alphabet.code(letters[c]) for c in cells.tolist()]
                assert (sub.letters[s] == np.array(code, dtype=np.uint8)).all(axis=1).any()


def test_region_of_the_whole_grid_is_the_grid() -> None:
    built, _ = problem_of(GRID, random_words(0))
    problem = built.problem
    sub, slots = project(problem, np.ones(problem.n_cells, dtype=bool))
    assert slots == tuple(range(problem.n_slots))
    for a, b in zip(sub.candidates, problem.candidates):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("seed", range(0, 24, 3))
def test_prover_verdict_matches_brute_force(seed: int) -> None:
    words = random_words(seed)
    expected = brute_fills(GRID, words, False)
    _, propagated = problem_of(GRID, words)
    if propagated.wiped is not None:
        assert not expected
        return
    proof = prove(propagated.problem, VARIANTS["letters"], time.perf_counter() + 20)
    assert proof.status == ("filled" if expected else "unfillable")


def test_a_region_alone_can_prove_the_grid_unfillable() -> None:
    """Seed 1: the top three rows already have no fill; the certificate names that region."""
    words = random_words(1)
    assert not brute_fills(GRID, words, False)
    grid = parse_grid(GRID)
    result = fill_grid(grid, build_wordlist({w: (50, None) for w in words}),
                       FillOptions(backend="native:prove", time_limit=20))
    assert result.outcome.status is Status.UNFILLABLE
    evidence = result.outcome.evidence
    assert evidence is not None and evidence.method.startswith("unfillable region")
    assert "rows 1-3" in evidence.detail and evidence.slots


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_paused_search_resumes_to_the_same_verdict(seed: int) -> None:
    words = random_words(seed)
    _, propagated = problem_of(GRID, words)
    if propagated.wiped is not None:
        pytest.skip("decided by propagation")
    problem = propagated.problem
    whole = Search(problem, default_plan(problem), VARIANTS["letters"]).run()
    paused = Search(problem, default_plan(problem), VARIANTS["letters"])
    result = paused.run(time.perf_counter() - 1)  # already past: pauses at once
    calls = 1
    while result.stop is Stop.TIME:
        result = paused.run(time.perf_counter() + 1e-4)
        calls += 1
    assert result.status == whole.status
    assert calls > 1


def test_tree_estimate_is_exact_on_a_uniform_tree() -> None:
    tree = TreeEstimate()
    assert tree.log10_nodes() is None
    for _ in range(5):
        tree.leaf([3, 3, 3])
    assert 10 ** tree.log10_nodes() == pytest.approx(1 + 3 + 9 + 27)


def test_progress_text_names_nodes_rate_and_enumeration_time() -> None:
    text = progress_text(1000, 2.0, 6.0)  # 1e6 nodes at 500/s: 2000 s
    assert text.startswith("1,000 nodes, 500/s") and "33 min" in text
    assert describe_seconds(12) .endswith("years")
    assert "full enumeration" not in progress_text(10, 1.0, None)


def test_auto_policies_are_valid_and_unknown_ones_refused() -> None:
    for name in [*AUTO_POLICIES, *EXPERIMENTAL_POLICIES]:
        assert validate_spec(f"auto:{name}") == f"auto:{name}"
    assert validate_spec("auto") == "auto"
    with pytest.raises(XwsatError, match="unknown auto policy"):
        validate_spec("auto:nonsense")


def test_plain_auto_races_the_phase_saving_search_on_large_grids_only() -> None:
    small, large = resolve("auto", LARGE_SLOTS - 1), resolve("auto", LARGE_SLOTS)
    assert [s for s, _ in small] == ["mac:words", "mac:renew"]
    assert [s for s, _ in large] == ["mac:phase", "mac"]
    assert resolve("auto") == small  # size unknown: the default
    assert resolve("auto:letters", 500) == resolve("auto:letters")  # a named policy is kept


def test_staged_auto_policy_fills_and_verifies() -> None:
    words = random_words(0)
    expected = brute_fills(GRID, words, False)
    grid = parse_grid(GRID)
    wl = build_wordlist({w: (50, None) for w in words})
    for policy in ("auto", "auto:staged", "auto:regions"):
        result = fill_grid(grid, wl, FillOptions(backend=policy, time_limit=20))
        assert result.outcome.status is (Status.FILLED if expected else Status.UNFILLABLE)
        if expected:
            assert result.verified and result.filled.rows in expected




def test_the_product_s_policies_are_the_ones_auto_runs() -> None:
    assert set(AUTO_POLICIES) == {"default", "renew", "phase"}
    assert not set(AUTO_POLICIES) & set(EXPERIMENTAL_POLICIES)


def test_backend_help_names_every_experimental_variant_and_policy() -> None:
    from xwsat.backends.registry import experimental_specs
    from xwsat.commands.options import BackendOpt

    text = BackendOpt.__metadata__[0].help
    experimental = text.partition("Experimental")[2]
    for spec in [*experimental_specs(), *(f"auto:{p}" for p in EXPERIMENTAL_POLICIES)]:
        assert spec in experimental, spec
