"""Luby's restart sequence, shared by the searches that restart on it."""

from __future__ import annotations


def luby(i: int) -> int:
    """The i-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ...: restart lengths
    within a constant factor of the best for any run-time distribution (Luby et al. 1993)."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if i == (1 << k) - 1:
        return 1 << (k - 1)
    return luby(i - (1 << (k - 1)) + 1)
