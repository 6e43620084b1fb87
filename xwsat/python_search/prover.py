"""Region-first proving: search the stacks of long slots and the whole grid in turn.

A stack region (``xwsat.python_search.regions``) is a relaxation of the grid, so a region with no
fill proves the grid has none, with a small certificate; a region's complete search can end sooner
than the whole grid's (measured: it did on one grid, and cost more than it saved on three others,
see docs/hard-grids.md, so ``auto`` races the plain letter search by default). The prover keeps one
resumable search per region plus one on the whole grid (the complete fallback, and the only one
whose fill is a fill of the grid) and gives them time slices in turn, doubling the slice each round
(a fair share for regions whose proof is long, without knowing which those are); the whole grid gets
as much time per round as all the regions together, so the prover is at most about twice as slow as
the whole-grid search alone when no region decides. A region found fillable is dropped: it proves
nothing. Searches decide letters (binary branching on one cell), which refutes faster than word
decisions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from xwsat.outcome import Status
from xwsat.planner import default_plan
from xwsat.problem import FillProblem
from xwsat.propagate import propagate
from xwsat.python_search.engine import Search, SearchConfig, SearchResult
from xwsat.python_search.regions import Region, regions

FIRST_SLICE_S = 0.25
MAX_REGIONS = 10
MAX_REGION_CELLS = 120


@dataclass
class Task:
    """One search of the round-robin: a region (or the whole grid when ``region`` is None)."""

    search: Search
    region: Region | None


@dataclass(frozen=True)
class Proof:
    """What the prover ended with: a verdict or UNKNOWN (the deadline), the whole grid's
    search result (its choice when filled) and, for a region proof, the region and its nodes."""

    status: Status
    result: SearchResult
    region: Region | None = None
    region_nodes: int = 0
    regions_tried: int = 0
    regions_filled: int = 0


def prove(problem: FillProblem, config: SearchConfig, deadline: float | None, seed: int = 0,
          progress=None) -> Proof:
    """Round-robin over the top stack regions and the whole grid until one decides."""
    whole = Search(problem, default_plan(problem), config, seed, progress)
    tasks = []
    for region in regions(problem)[:MAX_REGIONS]:
        if region.cells > MAX_REGION_CELLS:
            continue
        pruned = propagate(region.problem)
        if pruned.wiped is not None:
            return Proof(Status.UNFILLABLE, whole.result, region, 0, len(tasks))
        sub = pruned.problem
        tasks.append(Task(Search(sub, default_plan(sub), replace(config, symmetry=False),
                                 seed), region))
    tried = len(tasks)
    tasks.append(Task(whole, None))  # last in each round: the regions are the cheap proofs
    filled = 0
    slice_s = FIRST_SLICE_S
    while True:
        for task in list(tasks):
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                return Proof(Status.UNKNOWN, whole.result, regions_tried=tried,
                             regions_filled=filled)
            # the whole grid gets as much time per round as all the regions together
            share = slice_s * max(1, len(tasks) - 1) if task.region is None else slice_s
            until = now + share if deadline is None else min(deadline, now + share)
            result = task.search.run(until)
            if task.region is None and result.status.definitive:
                return Proof(result.status, result, regions_tried=tried, regions_filled=filled)
            if result.status is Status.UNFILLABLE:
                return Proof(Status.UNFILLABLE, whole.result, task.region, result.nodes, tried,
                             filled)
            if result.status is Status.FILLED:
                filled += 1
                tasks.remove(task)
        slice_s *= 2
