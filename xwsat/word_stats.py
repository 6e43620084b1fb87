"""Dictionary facts and export: what a word list holds (sizes by length, alphabet, score spread,
clues) and the plain ``WORD;SCORE;CLUE`` text of any list, embedded or not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from xwsat.words import WordList

SCORE_BANDS = ((0, 9), (10, 19), (20, 29), (30, 39), (40, 49), (50, 59), (60, 69), (70, 79),
               (80, 89), (90, 100))


@dataclass(frozen=True)
class DictInfo:
    """Summary of a word list (all plain values, ready for a table or JSON)."""

    source: str
    words: int
    alphabet: str
    by_length: dict[int, int]
    score_min: int
    score_median: float
    score_mean: float
    score_max: int
    score_bands: dict[str, int]
    clues: int
    shortest: int
    longest: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source, "words": self.words, "alphabet": self.alphabet,
            "alphabet_size": len(self.alphabet),
            "by_length": {str(k): v for k, v in self.by_length.items()},
            "scores": {"min": self.score_min, "median": self.score_median,
                       "mean": self.score_mean, "max": self.score_max,
                       "bands": self.score_bands},
            "clues": self.clues,
        }


def dict_info(words: WordList) -> DictInfo:
    """Sizes by length, alphabet and score spread of ``words``."""
    scores = words.scores.astype(np.int64)
    bands = {f"{lo}-{hi}": int(((scores >= lo) & (scores <= hi)).sum()) for lo, hi in SCORE_BANDS}
    lengths = words.lengths()
    return DictInfo(
        source=words.source, words=len(words), alphabet=words.alphabet.letters,
        by_length=lengths, score_min=int(scores.min()), score_median=float(np.median(scores)),
        score_mean=round(float(scores.mean()), 1), score_max=int(scores.max()),
        score_bands=bands, clues=len(words.clues),
        shortest=min(lengths), longest=max(lengths),
    )


def format_info(info: DictInfo) -> str:
    """The human-readable report of ``xwsat dict info``."""
    lines = [
        f"dictionary: {info.source}",
        f"words:      {info.words:,} (lengths {info.shortest}-{info.longest}), "
        f"{info.clues:,} with clues",
        f"alphabet:   {len(info.alphabet)} letters  {info.alphabet}",
        f"scores:     min {info.score_min}, median {info.score_median:g}, "
        f"mean {info.score_mean:g}, max {info.score_max}",
        "",
        "length   words",
    ]
    lines += [f"{length:>6}  {count:>6}" for length, count in info.by_length.items()]
    lines += ["", " score   words"]
    widest = max(info.score_bands.values()) or 1
    lines += [f"{band:>6}  {count:>6}  {'#' * round(40 * count / widest)}"
              for band, count in info.score_bands.items()]
    return "\n".join(lines)


def export_lines(words: WordList) -> list[str]:
    """``WORD;SCORE`` or ``WORD;SCORE;CLUE`` per word, sorted by word (reloads to the same list)."""
    lines = []
    for i in sorted(range(len(words)), key=words.words.__getitem__):
        clue = words.clues.get(i)
        line = f"{words.words[i]};{int(words.scores[i])}"
        if clue:
            line += ";" + " ".join(clue.split())
        lines.append(line)
    return lines
