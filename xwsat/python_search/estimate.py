"""How big is the whole search tree? An online estimate from the search's own dead ends.

Knuth (1975): a random root-to-leaf probe with branching factors b1, b2, ..., bd estimates the
tree's node count as 1 + b1 + b1 b2 + ... + b1...bd. A depth-first search does not probe at
random, so each dead end it meets is weighted by the chance a random probe would reach it,
1 / (b1...bd): the weighted backtrack estimator of Kilby, Slaney, Thiebaux and Walsh (AAAI 2006).
Everything is kept in logs (the products overflow a float on 15x15 grids). Divided by the node
rate it gives the time a full enumeration would take, shown while a native search runs (the fragment
filler's "estimate of full-enumeration time").
"""

from __future__ import annotations

import math


def _logaddexp(a: float, b: float) -> float:
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    hi, lo = (a, b) if a > b else (b, a)
    return hi + math.log1p(math.exp(lo - hi))


class TreeEstimate:
    """Running weighted Knuth estimate of the search tree's node count."""

    def __init__(self) -> None:
        self.log_weighted = -math.inf  # log sum of p(leaf) * size(leaf)
        self.log_weights = -math.inf  # log sum of p(leaf)
        self.leaves = 0

    def leaf(self, branching: list[int]) -> None:
        """A dead end reached through decisions with these branching factors (root first)."""
        log_p = 0.0
        log_size = 0.0  # log of 1 + b1 + b1 b2 + ...
        prefix = 0.0
        for b in branching:
            step = math.log(max(1, b))
            prefix += step
            log_p -= step
            log_size = _logaddexp(log_size, prefix)
        self.log_weighted = _logaddexp(self.log_weighted, log_p + log_size)
        self.log_weights = _logaddexp(self.log_weights, log_p)
        self.leaves += 1

    def log10_nodes(self) -> float | None:
        """log10 of the estimated node count (None before the first dead end)."""
        if not self.leaves:
            return None
        return (self.log_weighted - self.log_weights) / math.log(10)


def describe_seconds(log10_seconds: float) -> str:
    """A duration given as its log10, in the largest sensible unit (years beyond a year)."""
    if log10_seconds > 300:
        return "forever"
    seconds = 10.0 ** log10_seconds
    for unit, size in (("years", 31_557_600.0), ("days", 86_400.0), ("h", 3600.0),
                       ("min", 60.0)):
        if seconds >= size:
            value = seconds / size
            return f"{value:.1e} {unit}" if value >= 1e4 else f"{value:.0f} {unit}"
    return f"{seconds:.0f} s"


def progress_text(nodes: int, elapsed: float, log10_nodes: float | None) -> str:
    """``12,345 nodes, 850/s, full enumeration ~3e5 years`` (no estimate before a dead end)."""
    rate = nodes / elapsed if elapsed > 0 else 0.0
    text = f"{nodes:,} nodes, {rate:.0f}/s"
    if log10_nodes is not None and rate > 0:
        text += f", full enumeration ~{describe_seconds(log10_nodes - math.log10(rate))}"
    return text
