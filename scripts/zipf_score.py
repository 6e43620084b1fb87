"""The Spanish and Russian lists' score: a word's wordfreq zipf value mapped linearly onto
0-100 (zipf 1 -> 0, 7 -> 100), never below FLOOR, so that a word the sources vouch for but
rarely see still counts. (The English list scores by crossword levels instead: en_levels.py.)"""

from __future__ import annotations

FLOOR = 10


def score(zipf: float) -> int:
    """A zipf value (about 1 rare .. 7 the commonest words) as a 0-100 score."""
    return max(FLOOR, min(100, round((zipf - 1.0) / 6.0 * 100)))
