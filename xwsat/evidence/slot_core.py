"""A certificate's formula over only the slots a refutation needs.

Checking a proof costs about the size of its formula for each lemma (dratify re-derives the
branch's arc consistency through every support clause), and writing and parsing the formula cost
as much again. The constraints of a subset of the slots are a relaxation of the grid: every fill
of the grid satisfies them, so if they alone have no solution, neither has the grid. The
refutation usually involves far fewer slots than the grid has (results/evidence/README.md):
``shrink`` finds such a subset by refuting, keeping only the slots where the search failed, and
refuting again until nothing more drops out; it keeps the set whose proof should check fastest
(fewest failures times clauses, the whole grid included). The subset is named in the
certificate; a re-check rebuilds the formula of those slots from the grid and words itself, so
any subset a manifest names can only make a proof fail to check, never make a false claim pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from xwsat.evidence.explain import sub_problem
from xwsat.problem import FillProblem

if TYPE_CHECKING:
    from collections.abc import Sequence

FAILED_WEIGHT = 1.5  # a slot's weight starts at 1 (plus a tie-break below 1e-3), +1 a failure
SEEDS_TRIED = 3  # per set of slots: the certificate's proof uses the seed that fails least


def restricted(problem: FillProblem, slots: Sequence[int],
               givens: dict[int, int] | None = None) -> FillProblem:
    """The constraints of ``slots`` only: their candidates, their cells (renumbered in order),
    the no-repeat rule among them; a cell in none of them is left out. ``givens`` (dense cell
    -> letter code) places letters first (``explain.sub_problem``)."""
    if not givens and len(slots) == problem.n_slots and list(slots) == list(
            range(problem.n_slots)):
        return problem
    sub = sub_problem(problem, list(slots), givens or {})
    used = np.unique(np.concatenate(sub.slot_cells)) if slots else np.zeros(0, np.int32)
    renumber = np.full(problem.n_cells, -1, dtype=np.int32)
    renumber[used] = np.arange(len(used), dtype=np.int32)
    return replace(sub, cell_ids=sub.cell_ids[used], cell_masks=sub.cell_masks[used],
                   slot_cells=tuple(renumber[cells] for cells in sub.slot_cells))


def _refuted(problem: FillProblem, deadline: float, seed: int) -> tuple[list[int], int] | None:
    """The slots where the compiled letter search failed while refuting ``problem``, and how
    many failures it took; None when it found a fill or ran out of time."""
    from xwsat.compiled_search import inprocess
    from xwsat.compiled_search import state as mstate

    code, st = inprocess.search(problem, deadline, seed)
    if code != mstate.UNSAT:
        return None
    return np.flatnonzero(st.weight > FAILED_WEIGHT).tolist(), int(st.sc[mstate.FAILS])


def formula_weight(problem: FillProblem, slots: Sequence[int]) -> int:
    """About the number of clauses of the slots' formula: one per letter of each candidate."""
    return sum(len(problem.candidates[s]) * len(problem.slot_cells[s]) for s in slots)


def shrink(problem: FillProblem, time_limit: float, seed: int = 0) -> list[int]:
    """The slots of ``shrink_with_seed`` with one seed."""
    return shrink_with_seed(problem, time_limit, seed, 1)[0]


def refute_in_turn(problem: FillProblem, seeds: Sequence[int],
                   deadline: float) -> list[tuple[list[int], int] | None]:
    """``_refuted`` with each seed, one after the other (a ``Refuter``)."""
    return [_refuted(problem, deadline, seed) for seed in seeds]


#: Refutes one problem with each of the seeds by a deadline: each one's failed slots and
#: failures, or None (a fill, or out of time).
Refuter = Callable[[FillProblem, "Sequence[int]", float], "list[tuple[list[int], int] | None]"]


def shrink_with_seed(problem: FillProblem, time_limit: float, seed: int = 0,
                     tries: int = SEEDS_TRIED,
                     refute: Refuter = refute_in_turn) -> tuple[list[int], int]:
    """Slots whose constraints alone have no solution, chosen to make the proof cheap to check,
    and the seed whose search refutes them in the fewest failures (the proof's lemmas): each
    refutation keeps the slots where the search failed, until nothing drops out (or time runs
    out); of the sets refuted on the way, the one with the fewest failures times clauses
    (a proof's lemma count times the cost of checking one) wins. All the slots when the first
    refutation does not finish or the grid has a fill.

    Each set is refuted with ``tries`` seeds (``seed`` and the next ones; ``refute`` runs them,
    in turn or at once): on the hard 15x15 grids the failures vary by up to 2.5x from seed to
    seed, the search takes a second where the check takes a minute, and the proof must be
    searched with the seed that chose its set (another seed on a set chosen for one seed's
    short refutation is rarely shorter).

    A smaller set is not always cheaper: the search may need more failures to refute it alone
    (results/evidence/README.md)."""
    deadline = time.monotonic() + time_limit
    seeds = [(seed + k) % (1 << 31) for k in range(tries)]
    kept = list(range(problem.n_slots))
    first = _best(refute(problem, seeds, deadline), seeds)
    if first is None:
        return kept, seed
    failed, fails, chosen = first
    best, best_cost, best_seed = kept, fails * formula_weight(problem, kept), chosen
    while failed and len(failed) < len(kept):  # else: a wipe-out at the root, or a fixpoint
        narrower = [kept[i] for i in failed]
        again = _best(refute(restricted(problem, narrower), seeds, deadline), seeds)
        if again is None:
            break  # the failing slots alone have a fill, or time ran out
        kept, (failed, fails, chosen) = narrower, again
        cost = fails * formula_weight(problem, kept)
        if cost < best_cost:
            best, best_cost, best_seed = kept, cost, chosen
    return best, best_seed


def _best(refuted: list[tuple[list[int], int] | None],
          seeds: list[int]) -> tuple[list[int], int, int] | None:
    """The refutation with the fewest failures, with its seed; None when no seed's search
    refuted the set (a fill, or out of time: seeds stopped once another answered count so)."""
    if not any(got is not None for got in refuted):
        return None
    fails, seed, failed = min((got[1], seed, got[0]) for got, seed in zip(refuted, seeds)
                              if got is not None)
    return failed, fails, seed
