"""A certificate of the no-repeat count: slots that need more different words than the word
list has for them, checked by counting again, with no solver and no proof file.

``xwsat.no_repeat`` finds such slots. A DRAT proof of the same fact is a pigeonhole refutation,
which grows exponentially with the slots (twelve slots and eleven words: 42,053-56,109 proof lines
on three lists; eighteen: no proof in 120 s), while the count is checked by reading each named
slot's pattern from the grid, fitting the words of the list to it, and counting those words
against the slots. When the count holds only after arc consistency, the check first redoes arc
consistency over the whole grid itself, on plain sets of words and letters (not xwsat's bitmask
propagation): a word stays while each of its letters is still possible in its cell, a cell
keeps the letters some remaining word of each of its slots puts there, and a slot left one
word takes it from the other slots of its length. ``count.txt`` lists the words to count: by
hand, it checks the count; only with the given-letters basis does it show why each word fits.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass

from xwsat.grid import Grid
from xwsat.no_repeat import HallSet, hall_set
from xwsat.problem import Built, FillProblem, build_problem
from xwsat.propagate import propagate
from xwsat.words import build_wordlist

COUNT_FORMAT = "xwsat-count/1"
COUNT_FILE = "count.txt"
GIVEN = "given letters"  # what the words that fit a slot are read from: the grid alone,
PRUNED = "arc consistency"  # or the grid and arc consistency redone


@dataclass(frozen=True)
class CountRefutation:
    """Slots the no-repeat count refutes, and what their words are read from (``after``)."""

    hall: HallSet
    after: str  # GIVEN or PRUNED


def count_refutation(problem: FillProblem) -> CountRefutation | None:
    """The count that refutes ``problem`` (unpruned), from its given letters if it can, else
    after arc consistency; None when it does not, or when a slot fits no word at all (arc
    consistency's own certificate says that plainly)."""
    if any(len(c) == 0 for c in problem.candidates):
        return None
    found = hall_set(problem)
    if found is not None:
        return CountRefutation(found, GIVEN)
    propagated = propagate(problem)
    return CountRefutation(propagated.hall, PRUNED) if propagated.hall is not None else None


class OutOfTime(Exception):
    """The check's own arc consistency ran past its deadline."""


def slots_of(built: Built) -> dict[str, tuple[int, ...]]:
    """Every slot's name and its cells (grid cell ids)."""
    return {slot.name: tuple(slot.cells) for slot in built.slots}


def fitting_words(grid: Grid, cells: dict[str, tuple[int, ...]], words: tuple[str, ...],
                  after: str, allow_repeats: bool, deadline: float | None = None,
                  placed_only: Collection[str] = ()) -> dict[str, set[str]]:
    """The words that fit each slot: matching the grid's given letters, and with ``PRUNED``
    left by arc consistency (raises ``OutOfTime`` past ``deadline``). A word of
    ``placed_only`` (a locked entry the list lacks) fits only a slot whose every letter the
    grid gives, as the formula offers it (``WordList.placed_only``)."""
    by_length: dict[int, list[str]] = {}
    for w in words:
        by_length.setdefault(len(w), []).append(w)
    given = {c: grid.cell(c) for slot in cells.values() for c in slot if grid.cell(c) != "."}
    fits: dict[str, set[str]] = {}
    for name, slot in cells.items():
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime
        whole = all(c in given for c in slot)
        fits[name] = {w for w in by_length.get(len(slot), [])
                      if all(given.get(c, ch) == ch for c, ch in zip(slot, w))
                      and (whole or w not in placed_only)}
    if after == PRUNED:
        _arc_consistency(cells, fits, allow_repeats, deadline)
    return fits


def _arc_consistency(cells: dict[str, tuple[int, ...]], fits: dict[str, set[str]],
                     allow_repeats: bool, deadline: float | None) -> None:
    possible: dict[int, set[str]] = {}  # a cell's letters; absent: not narrowed yet
    changed = True
    while changed:
        changed = False
        for name, slot in cells.items():
            if deadline is not None and time.monotonic() > deadline:
                raise OutOfTime
            keep = {w for w in fits[name]
                    if all(c not in possible or ch in possible[c] for c, ch in zip(slot, w))}
            if len(keep) != len(fits[name]):
                fits[name], changed = keep, True
            for p, c in enumerate(slot):
                here = {w[p] for w in keep}
                narrowed = here if c not in possible else possible[c] & here
                if c not in possible or narrowed != possible[c]:
                    possible[c], changed = narrowed, True
        if allow_repeats:
            continue
        for name, slot in cells.items():
            if len(fits[name]) != 1:
                continue
            (word,) = fits[name]
            for other, cells_of_other in cells.items():
                if other != name and len(cells_of_other) == len(slot) and word in fits[other]:
                    fits[other].discard(word)
                    changed = True


def count_check(fits: dict[str, set[str]], allow_repeats: bool,
                names: list[str]) -> tuple[bool, str]:
    """Whether the slots ``names`` have fewer fitting words between them than their number
    (so no fill gives each a different word), and the sentence that says what was counted."""
    if allow_repeats:
        return False, "repeated words are allowed, so a count proves nothing"
    if not names or len(set(names)) != len(names):
        return False, "the certificate names no slots, or a slot twice"
    unknown = [name for name in names if name not in fits]
    if unknown:
        return False, f"the grid has no slot {unknown[0]!r}"
    union = set().union(*(fits[name] for name in names))
    slots = f"{len(names)} slot{'s' if len(names) != 1 else ''}"
    if len(union) >= len(names):
        return False, f"{slots}, and {len(union)} words fit them: the count fails"
    fit = "no word of the list fits" if not union else (
        "only 1 word of the list fits" if len(union) == 1 else
        f"only {len(union)} words of the list fit")
    return True, f"{slots}, and {fit} any of them"


@dataclass(frozen=True)
class Counted:
    """What a check of a certificate's files found: the word list as xwsat rebuilds it, each
    slot's pattern and the words that fit it."""

    rebuilt: tuple[str, ...]
    patterns: dict[str, str]
    fits: dict[str, set[str]]

    def text(self, names: list[str], after: str) -> str:
        return count_text(names, self.fits, self.patterns, after)


def recount(grid: Grid, words: tuple[str, ...], alphabet: str, min_length: int,
            allow_repeats: bool, after: str, deadline: float | None = None,
            placed_only: Collection[str] = ()) -> Counted:
    """The check of a certificate's files: slots rebuilt from its grid, the words fitted."""
    wordlist = build_wordlist({w: (50, None) for w in words}, alphabet, source="certificate")
    built = build_problem(grid, wordlist, min_length, allow_repeats)
    fits = fitting_words(grid, slots_of(built), words, after, allow_repeats, deadline,
                         frozenset(placed_only))
    return Counted(wordlist.words, patterns_of(built), fits)


def patterns_of(built: Built) -> dict[str, str]:
    """Every slot's name and its pattern as the grid shows it ('.' for an open cell)."""
    return {slot.name: "".join(built.grid.cell(c) for c in slot.cells) for slot in built.slots}


def count_text(names: list[str], fits: dict[str, set[str]], patterns: dict[str, str],
               after: str) -> str:
    """``count.txt``: each named slot, its pattern and the words that fit it."""
    how = ("its pattern" if after == GIVEN else
           "its pattern, left by arc consistency over the whole grid, which this file does not "
           "show: xwsat check-proof redoes it")
    lines = ["# each slot below must take a different word; together they fit fewer words",
             f"# than there are slots (the words that fit each slot follow {how})"]
    lines += [f"{name} {patterns[name]}: {' '.join(sorted(fits[name]))}" for name in names]
    union = set().union(*(fits[name] for name in names))
    lines.append(f"# {len(names)} slot{'s' if len(names) != 1 else ''}, {len(union)} "
                 "different words")
    return "\n".join(lines) + "\n"
