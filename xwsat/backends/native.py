"""Native back-end: xwsat's own backtracking filler (seeds 000/001/002), no solver library.

Variants: ``native`` = ``native:csp`` (maintained arc consistency on candidate bitsets,
most-constrained slot, least-constraining word weighted by word score, letter decisions on small
grids, transposition symmetry breaking, conflict-directed backjumping with pruning; complete),
``native:letters`` (letter decisions everywhere),
``native:fragments`` (the planner's order with fragments, templates, backjumping and accelerators;
complete), ``native:static`` (the same without the planner's features: longest-first
order, no fragments, no accelerators) and ``native:balanced`` (fragments plus dynamic difficulty
balancing; incomplete, so it never answers UNFILLABLE). See ``xwsat.search.engine``.
"""

from __future__ import annotations

import time
from typing import ClassVar

from xwsat.backends.base import Evidence, Limits, Outcome, Stats, Status, fill_from_choice
from xwsat.errors import XwsatError
from xwsat.planner import Plan, default_plan, make_plan
from xwsat.problem import FillProblem
from xwsat.search import VARIANTS, Search, SearchConfig

DEFAULT_VARIANT = "csp"


class NativeBackend:
    """Run one native search variant within the time limit; UNKNOWN keeps its statistics."""

    name: ClassVar[str] = "native"

    def __init__(self, variant: str = DEFAULT_VARIANT) -> None:
        self.variant = variant
        self.config: SearchConfig = VARIANTS[variant]

    @staticmethod
    def available() -> bool:
        return True  # numpy only

    def solve(self, problem: FillProblem, plan: Plan, limits: Limits) -> Outcome:
        started = time.perf_counter()
        label = f"{self.name}:{self.variant}"
        if self.variant == "static":
            plan = default_plan(problem)  # planner features off: longest first, nothing else
        elif not self.config.dynamic_order and plan.source != "fragments":
            plan = make_plan(problem, limits.seed)
        deadline = started + limits.time_limit if limits.time_limit else None
        search = Search(problem, plan, self.config, limits.seed)  # set-up counts as build time
        planned = time.perf_counter()
        result = search.run(deadline)
        stats = Stats(
            build_s=planned - started,
            solve_s=result.seconds,
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
            },
        )
        if result.status == "filled":
            assert result.choice is not None
            return Outcome(Status.FILLED, label, fill_from_choice(problem, result.choice), stats)
        if result.status == "unfillable":
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
        if result.status == "exhausted":
            return Outcome(
                Status.UNKNOWN,
                label,
                stats=stats,
                message=f"incomplete search ({self.variant}) exhausted after {result.nodes} nodes;"
                " no verdict",
            )
        return Outcome(
            Status.UNKNOWN, label, stats=stats,
            message=f"time limit reached after {result.nodes} nodes",
        )


def make_native(sub: str | None) -> NativeBackend:
    """The native back-end for ``native`` / ``native:VARIANT``."""
    variant = sub or DEFAULT_VARIANT
    if variant not in VARIANTS:
        raise XwsatError(
            f"unknown native variant {variant!r}; choose one of {', '.join(VARIANTS)}"
        )
    return NativeBackend(variant)
