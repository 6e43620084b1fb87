"""The best fill at the level reached, by the measure constructors use: fewest entries at the
lowest score used, then the highest total.

Both go into one objective: each counted entry is worth its score, plus ``big`` when it scores
above the level, with ``big`` larger than any total, so one entry fewer at the level outweighs
any total. The bound says how few entries at the level any fill can have: a slot whose
candidates all sit at the level is one of them, and when the next level is proven to have no
fill, at least one entry is. The search stops the moment its fill meets the bound.

Two engines maximise it: branch and bound in the compiled search (``branch_bound``, the one
used) and CP-SAT's neighbourhoods (``xwsat.optimize``); ``engine="both"`` runs the first for
``BNB_SHARE`` of the time, then the second from its fill. Measured from the same start
(results/quality/README.md, "Two engines"), CP-SAT alone left 1.5-9.3x as many entries at the
level as the branch and bound on nine of ten grids (as many on the tenth), and "both" did not
beat the branch and bound alone."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from xwsat.optimize import Optimized, Progress, Valuation, optimize_fill
from xwsat.problem import Built
from xwsat.propagate import propagate
from xwsat.quality.branch_bound import branch_and_bound
from xwsat.quality.levels import at_level, fill_scores

ENGINES = ("bnb", "cpsat", "both")
BNB_SHARE = 0.7  # engine "both": of the time, for the branch and bound before CP-SAT polishes


@dataclass(frozen=True)
class Best:
    """The best fill found at ``level``, how many counted entries sit there and the fewest
    possible (proven), its total score and, at that count, the highest possible."""

    fill: tuple[int, ...]
    level: int
    at_level: int
    fewest: int
    total: int
    total_bound: int | None  # None when a fill with fewer entries at the level may exist
    optimal: bool
    search: Optimized


def _worth(built: Built, level: int, exempt: frozenset[int]) -> tuple[Valuation, int]:
    """The valuation, and its ``big``: more than any fill's total score."""
    scores = built.words.scores.astype(np.int64)
    big = int(scores.max(initial=0)) * len(built.slots) + 1
    return Valuation(scores + big * (scores > level), exempt), big


def _one_at_level_bound(value: Valuation, candidates: tuple[np.ndarray, ...], level: int,
                        scores: np.ndarray) -> int | None:
    """The best worth when at least one counted entry sits at ``level``, or None if no slot
    can take a word there."""
    best_each = [int(value.of(s, c).max()) for s, c in enumerate(candidates)]
    losses = [best_each[s] - int(value.of(s, c[scores[c] <= level]).max())
              for s, c in enumerate(candidates)
              if s not in value.exempt and (scores[c] <= level).any()]
    return sum(best_each) - min(losses) if losses else None


def _polished(first: Optimized, then: Optimized) -> Optimized:
    """The branch and bound's result, then CP-SAT's neighbourhoods from its fill, as one."""
    return replace(then, bound=min(first.bound, then.bound),
                   optimal=then.optimal or then.total >= first.bound,
                   improvements=first.improvements + then.improvements,
                   seconds=first.seconds + then.seconds, start_total=first.start_total,
                   decisions=first.decisions)


def best_at_level(built: Built, start: tuple[int, ...], level: int, exempt: frozenset[int],
                  proven: bool, time_limit: float, seed: int = 0,
                  progress: Progress | None = None, engine: str = "bnb") -> Best:
    """Improve ``start`` (a fill at ``level``) for ``time_limit`` seconds; ``proven``: the
    next level is known to have no fill. ``engine``: "bnb", "cpsat" or "both" (see above)."""
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r}: one of {', '.join(ENGINES)}")
    started = time.perf_counter()
    value, big = _worth(built, level, exempt)
    within = at_level(built.problem, level, exempt)
    pruned = propagate(within)
    within = pruned.problem if pruned.wiped is None else within
    bound = (_one_at_level_bound(value, within.candidates, level, built.words.scores)
             if proven else None)
    left = max(0.1, time_limit - (time.perf_counter() - started))
    if engine == "cpsat":
        found = optimize_fill(built, start, left, seed, progress=progress, value=value,
                              within=within, bound=bound)
    else:
        found = branch_and_bound(within, value, start,
                                 left * (BNB_SHARE if engine == "both" else 1.0), seed, bound,
                                 progress=progress)
        left = time_limit - (time.perf_counter() - started)
        if engine == "both" and not found.optimal and not found.interrupted and left > 0.2:
            found = _polished(found, optimize_fill(built, found.fill, left, seed,
                                                   progress=progress, value=value,
                                                   within=within, bound=bound))
    counted = len(built.slots) - len(exempt)
    entries = fill_scores(built, found.fill, exempt)
    at = sum(1 for score in entries if score <= level)
    above_most = found.bound // big
    fewest = max(counted - above_most, 1 if proven else 0)
    total = sum(entries)
    total_bound = found.bound - big * above_most if counted - above_most == at else None
    return Best(found.fill, level, at, min(fewest, at), total, total_bound, found.optimal,
                found)
