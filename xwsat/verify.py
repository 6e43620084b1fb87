"""Independent fill checker: re-reads the grid itself and trusts nothing a solver produced.

It shares no code with slot extraction, encodings or back-ends on purpose: a bug there cannot
hide here. A fill passes when blocks and given letters are kept, every run of ``min_length`` or
more white cells is a dictionary word, crossings agree (one letter per cell, by construction of
the filled rows), no word repeats unless repeats are allowed, and, when a most is given, no two
entries share a run of more letters than that.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Sequence


def _runs(rows: Sequence[str], min_length: int) -> list[tuple[str, int, int, str]]:
    """(direction, row, col, text) of every maximal non-block run in ``rows``."""
    found = []
    height, width = len(rows), len(rows[0])
    columns = ["".join(rows[r][c] for r in range(height)) for c in range(width)]
    for direction, lines in (("across", rows), ("down", columns)):
        for i, line in enumerate(lines):
            j = 0
            for piece in line.split("#"):
                if len(piece) >= min_length:
                    r, c = (i, j) if direction == "across" else (j, i)
                    found.append((direction, r, c, piece))
                j += len(piece) + 1
    return found


def check_fill(
    pattern: Sequence[str],
    filled: Sequence[str],
    dictionary: Container[str],
    allow_repeats: bool = False,
    min_length: int = 2,
    placed: Container[str] = frozenset(),
    max_shared: int = 0,
) -> list[str]:
    """Every problem found with ``filled`` as a fill of ``pattern``; an empty list means valid.

    ``placed``: the constructor's own entries outside the dictionary (``--lock``, a region's
    fixed entries), accepted only where ``pattern`` gives every letter of the run.
    ``max_shared``: when positive, the longest run of letters two entries may have in common."""
    problems: list[str] = []
    if len(pattern) != len(filled) or any(len(a) != len(b) for a, b in zip(pattern, filled)):
        return ["the filled grid does not have the pattern's shape"]
    for r, (want, got) in enumerate(zip(pattern, filled)):
        for c, (p, f) in enumerate(zip(want, got)):
            where = f"row {r + 1}, column {c + 1}"
            if (p == "#") != (f == "#"):
                problems.append(f"{where}: block changed")
            elif p not in "#." and p != f:
                problems.append(f"{where}: given letter {p} replaced by {f}")
    runs = _runs(filled, min_length)
    given = {(d, r, c): text for d, r, c, text in _runs(pattern, min_length)}
    for direction, r, c, text in runs:
        if not text.isalpha():
            problems.append(f"{direction} at row {r + 1}, column {c + 1}: {text!r} is incomplete")
        elif text not in dictionary and not (text in placed
                                             and given.get((direction, r, c)) == text):
            problems.append(f"{direction} at row {r + 1}, column {c + 1}: {text} is not a word")
    if not allow_repeats:
        counts = Counter(text for _, _, _, text in runs)
        problems.extend(f"{word} appears {n} times" for word, n in sorted(counts.items()) if n > 1)
    if max_shared > 0:
        texts = [text for _, _, _, text in runs if text.isalpha()]
        problems.extend(_shared_runs(texts, max_shared))
    return problems


def _shared_runs(texts: list[str], most: int) -> list[str]:
    """Each pair of entries with a common run of more than ``most`` letters, checked pair by
    pair on the strings (slow and plain on purpose)."""
    found = []
    for i, first in enumerate(texts):
        for second in texts[i + 1:]:
            for start in range(len(first) - most):
                piece = first[start:start + most + 1]
                if piece in second:
                    found.append(f"{first} and {second} share {piece} (more than {most} "
                                 "letters)")
                    break
    return found
