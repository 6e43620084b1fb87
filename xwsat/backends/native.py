"""Native back-end: xwsat's own backtracking filler, no solver library.

Variants: ``native`` = ``native:csp`` (maintained arc consistency on candidate bitsets,
most-constrained slot, least-constraining word weighted by word score, letter decisions on small
grids, transposition symmetry breaking, conflict-directed backjumping with pruning; complete),
``native:letters`` (letter decisions everywhere), ``native:prove`` (stack regions first),
``native:fragments`` (the planner's order with fragments, templates, backjumping and accelerators;
complete), ``native:static`` (the same without the planner's features: longest-first
order, no fragments, no accelerators) and ``native:balanced`` (fragments plus dynamic difficulty
balancing; incomplete, so it never answers UNFILLABLE). See ``xwsat.python_search.engine``.
"""

from __future__ import annotations

import time
from typing import ClassVar

from xwsat.backends.base import Traits, fill_from_choice
from xwsat.errors import XwsatError
from xwsat.outcome import Evidence, Limits, Outcome, Progress, Stats, Status, Stop, stopped
from xwsat.planner import default_plan, make_plan
from xwsat.problem import FillProblem
from xwsat.python_search import VARIANTS, Search, SearchConfig
from xwsat.python_search.engine import SearchResult
from xwsat.python_search.estimate import progress_text
from xwsat.python_search.prover import Proof, prove

DEFAULT_VARIANT = "csp"
# the registry's ``native:VARIANT`` names; the static baseline and the incomplete balancing are
# for research, runnable by name but not listed (docs/hard-grids.md, results/planner/)
EXPERIMENTAL: tuple[str, ...] = ("static", "balanced")
LISTED = tuple(v for v in VARIANTS if v not in EXPERIMENTAL)


class NativeBackend:
    """Run one native search variant within the time limit; UNKNOWN keeps its statistics."""

    name: ClassVar[str] = "native"

    def __init__(self, variant: str = DEFAULT_VARIANT) -> None:
        self.variant = variant
        self.config: SearchConfig = VARIANTS[variant]
        # its certificates come from the Python MAC search, which shares this search's state
        self.traits = Traits("native", complete=not self.config.balance, proof="search")

    @staticmethod
    def available() -> bool:
        return True  # numpy only

    def solve(self, problem: FillProblem, limits: Limits,
              progress: Progress | None = None) -> Outcome:
        started = time.perf_counter()
        label = f"{self.name}:{self.variant}"
        plan = make_plan(problem, limits.seed) if self.config.planner else default_plan(problem)
        deadline = started + limits.time_limit if limits.time_limit else None
        report = None
        if progress is not None:
            sink = progress

            def report(result: SearchResult, log10_nodes: float | None) -> None:
                sink(progress_text(result.nodes, result.seconds, log10_nodes))

        proof = None
        if self.config.regions:
            planned = started
            proof = prove(problem, self.config, deadline, limits.seed, report)
            result = proof.result
        else:
            search = Search(problem, plan, self.config, limits.seed, report)  # set-up: build
            planned = time.perf_counter()
            result = search.run(deadline)
        if proof is not None:
            result.extra.update(regions_tried=proof.regions_tried,
                                regions_filled=proof.regions_filled)
            if proof.region is not None:
                return Outcome(Status.UNFILLABLE, label,
                               stats=self._stats(problem, result, 0.0, started),
                               evidence=region_evidence(proof))
        stats = self._stats(problem, result, planned - started, started)
        return self._outcome(problem, label, result, stats)

    def _stats(self, problem: FillProblem, result: SearchResult, build_s: float,
               started: float) -> Stats:
        # the model searched: a word variable per slot, a constraint per crossing (every variant,
        # the letter decisions of native:letters included, works on the slots' candidate sets)
        return Stats(
            build_s=build_s,
            solve_s=result.seconds or time.perf_counter() - started - build_s,
            variables=problem.n_slots,
            constraints=len(problem.crossings()),
            conflicts=result.conflicts,
            nodes=result.nodes,
            extra={
                "variant": self.variant,
                "backjumps": result.backjumps,
                "longest_jump": result.longest_jump,
                "pruned": result.pruned,
                "accelerator_hits": result.accelerator_hits,
                "balanced_cuts": result.balanced_cuts,
                "letter_nodes": result.letter_nodes,
                "restarts": result.restarts,
                "revisions": result.revisions,
                **result.extra,
            },
        )

    def _outcome(self, problem: FillProblem, label: str, result: SearchResult,
                 stats: Stats) -> Outcome:
        if result.status is Status.FILLED:
            assert result.choice is not None
            return Outcome(Status.FILLED, label, fill_from_choice(problem, result.choice), stats)
        if result.status is Status.UNFILLABLE:
            return Outcome(
                Status.UNFILLABLE,
                label,
                stats=stats,
                evidence=Evidence(
                    "native exhaustive search",
                    f"complete search with conflict-directed backjumping exhausted after "
                    f"{result.nodes} nodes and {result.conflicts} conflicts",
                ),
            )
        if result.stop is Stop.EXHAUSTED:
            return stopped(label, Stop.EXHAUSTED, f"incomplete search ({self.variant}) "
                           f"exhausted after {result.nodes} nodes; no verdict", stats)
        return stopped(label, Stop.TIME, f"time limit reached after {result.nodes} nodes", stats)


def region_evidence(proof: Proof) -> Evidence:
    """The certificate of a region proof: the rectangle, its slots and the search's size."""
    region = proof.region
    assert region is not None
    how = (f"its complete search exhausted after {proof.region_nodes} nodes"
           if proof.region_nodes else "arc consistency empties a slot")
    return Evidence(
        "unfillable region (relaxation), native exhaustive search",
        f"the {region.name} ({region.cells} cells, {region.problem.n_slots} slots, those leaving "
        f"it cut to their letters inside) has no fill: {how}; every fill of the grid would fill "
        f"it, so none exists",
        slots=region.slots,
    )


def from_spec(sub: str | None) -> NativeBackend:
    """The native back-end for ``native`` / ``native:VARIANT``."""
    variant = sub or DEFAULT_VARIANT
    if variant not in VARIANTS:
        raise XwsatError(
            f"unknown native variant {variant!r}; choose one of {', '.join(LISTED)} "
            f"(experimental: {', '.join(EXPERIMENTAL)})"
        )
    return NativeBackend(variant)
