"""A certificate of the no-repeat count: slots that need more different words than the word
list has for them, checked by counting again, with no solver and no proof file.

``xwsat.hall`` finds such slots on the unpruned problem (the grid's given letters, nothing
inferred). A DRAT proof of the same fact is a pigeonhole refutation, which grows exponentially
with the slots (twelve slots and eleven words: 56,109 proof lines; twenty-four: out of reach),
while the count is checked in one pass over the word list: each named slot's pattern read from
the grid, the words of the list that match it, and the number of those words against the
number of slots. Anyone can redo it by hand; ``count.txt`` lists what to count.
"""

from __future__ import annotations

from xwsat.grid import Grid
from xwsat.problem import Built, build_problem
from xwsat.words import build_wordlist

COUNT_FORMAT = "xwsat-count/1"
COUNT_FILE = "count.txt"


def patterns_of(built: Built) -> dict[str, str]:
    """Every slot's name and its pattern as the grid shows it ('.' for an open cell)."""
    return {slot.name: "".join(built.grid.cell(c) for c in slot.cells) for slot in built.slots}


def slot_patterns(grid: Grid, words: tuple[str, ...], alphabet: str, min_length: int,
                  allow_repeats: bool) -> dict[str, str]:
    """``patterns_of`` the grid read again from a certificate's files."""
    wordlist = build_wordlist({w: (50, None) for w in words}, alphabet, source="certificate")
    return patterns_of(build_problem(grid, wordlist, min_length, allow_repeats))


def matching_words(pattern: str, words: tuple[str, ...]) -> list[str]:
    """The words of ``pattern``'s length that agree with each of its given letters."""
    return [w for w in words if len(w) == len(pattern)
            and all(p == "." or p == ch for p, ch in zip(pattern, w))]


def count_check(patterns: dict[str, str], words: tuple[str, ...], allow_repeats: bool,
                names: list[str]) -> tuple[bool, str]:
    """Whether the slots ``names`` have fewer matching words between them than their number
    (so no fill gives each a different word), and the sentence that says what was counted."""
    if allow_repeats:
        return False, "repeated words are allowed, so a count proves nothing"
    if not names or len(set(names)) != len(names):
        return False, "the certificate names no slots, or a slot twice"
    unknown = [name for name in names if name not in patterns]
    if unknown:
        return False, f"the grid has no slot {unknown[0]!r}"
    fit: set[str] = set()
    for name in names:
        fit.update(matching_words(patterns[name], words))
    said = f"{len(names)} slots, and only {len(fit)} words of the list fit any of them"
    if len(fit) >= len(names):
        return False, f"{len(names)} slots, and {len(fit)} words fit them: the count fails"
    return True, said


def count_text(built: Built, names: list[str]) -> str:
    """``count.txt``: each named slot, its pattern and the words that fit it."""
    patterns = patterns_of(built)
    fit: set[str] = set()
    lines = ["# each slot below must take a different word; together they fit fewer words",
             "# than there are slots (the words that fit each slot follow its pattern)"]
    for name in names:
        words = matching_words(patterns[name], built.words.words)
        fit.update(words)
        lines.append(f"{name} {patterns[name]}: {' '.join(words)}")
    lines.append(f"# {len(names)} slots, {len(fit)} different words")
    return "\n".join(lines) + "\n"
