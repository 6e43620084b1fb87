"""Constructor's constraints before a fill: locked entries (``1A=WORD``) and region fills.

A locked entry is placed in the grid as given letters, and its word joins the word list when the
dictionary lacks it (a theme entry), marked as the constructor's (``WordList.placed_only``): the
problem offers it only to slots whose letters are all given as it, and the independent verifier
accepts it only there, so with repeats allowed it cannot fill other slots too. A region fill
keeps every letter outside a rectangle and refills the inside; the fixed entries that lie wholly
outside it join the word list the same way, since the constructor has already chosen them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from xwsat.errors import XwsatError
from xwsat.grid import BLOCK, EMPTY, Grid, Slot, extract_slots, slot_range
from xwsat.words import DEFAULT_SCORE, WordList, build_wordlist, normalize_word

if TYPE_CHECKING:
    from xwsat.formats.puzzle import Puzzle

_LOCK = re.compile(r"^\s*(\d+)\s*-?\s*(A|D|ACROSS|DOWN)\s*=\s*(.+?)\s*$", re.IGNORECASE)
_REGION = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*-\s*(\d+)\s*,\s*(\d+)\s*$")


@dataclass(frozen=True)
class Region:
    """An inclusive rectangle of cells, 1-based as the user writes it (``r1,c1-r2,c2``)."""

    top: int
    left: int
    bottom: int
    right: int

    def contains(self, row: int, col: int) -> bool:
        """``row``/``col`` are 0-based grid coordinates."""
        return self.top - 1 <= row <= self.bottom - 1 and self.left - 1 <= col <= self.right - 1


def parse_lock(text: str) -> tuple[str, str]:
    """``"1A=WORD"`` (or ``"12 down = word"``) -> ("1A", "WORD" as typed)."""
    match = _LOCK.match(text)
    if not match:
        raise XwsatError(f"--lock {text!r}: write it as NUMBER+A|D=WORD, e.g. 1A=OCEAN")
    number, direction, word = match.groups()
    return f"{int(number)}{direction[0].upper()}", word


def parse_region(text: str) -> Region:
    """``"r1,c1-r2,c2"`` (1-based, inclusive) -> Region."""
    match = _REGION.match(text)
    if not match:
        raise XwsatError(f"--region {text!r}: write it as ROW1,COL1-ROW2,COL2, e.g. 1,1-5,5")
    top, left, bottom, right = (int(g) for g in match.groups())
    if top < 1 or left < 1 or bottom < top or right < left:
        raise XwsatError(f"--region {text!r}: rows and columns start at 1, top-left first")
    return Region(top, left, bottom, right)


def _normalise(word: str, words: WordList, fold_yo: bool) -> str:
    plain = normalize_word(word, fold_yo=fold_yo)
    if set(plain) <= set(words.alphabet.letters):
        return plain
    return normalize_word(word, fold_accents=True, fold_yo=fold_yo)


def apply_locks(grid: Grid, words: WordList, locks: list[str], min_length: int = 2,
                fold_yo: bool = False, banned: Sequence[str] = ()
                ) -> tuple[Grid, WordList, dict[str, str]]:
    """Place each locked word in its slot; returns the grid, the word list with any new locked
    words, and the locks as slot name -> word. A word both locked and ``banned`` (``--ban``)
    is a contradiction the user must settle, not one option silently beating the other."""
    if not locks:
        return grid, words, {}
    refused = {_normalise(w, words, fold_yo) for w in banned}  # as the bans were applied
    slots = {s.name: s for s in extract_slots(grid, min_length)}
    letters: dict[int, str] = {}
    placed: dict[str, str] = {}
    for text in locks:
        name, raw = parse_lock(text)
        slot = slots.get(name)
        if slot is None:
            raise XwsatError(f"--lock {text!r}: the grid has no slot {name} (its slots: "
                             f"{slot_range(tuple(slots.values()))})")
        if name in placed:
            raise XwsatError(f"--lock {text!r}: slot {name} is locked twice (also to "
                             f"{placed[name]}); keep one of the two")
        if any(ch in raw for ch in ".?_"):
            raise XwsatError(f"--lock {text!r}: a locked entry is a whole word, and {raw!r} "
                             "leaves cells open; give every letter")
        word = _normalise(raw, words, fold_yo)
        if not word.isalpha():
            raise XwsatError(f"--lock {text!r}: {raw!r} is not a word of letters")
        if word in refused:
            raise XwsatError(f"--lock {text!r}: {word} is also banned (--ban {word}); keep "
                             "one of the two")
        if len(word) != slot.length:
            raise XwsatError(f"--lock {text!r}: slot {name} has {slot.length} cells, "
                             f"{word} has {len(word)} letters")
        for cell, ch in zip(slot.cells, word):
            before = letters.get(cell) or (grid.cell(cell) if grid.cell(cell) != EMPTY else None)
            if before is not None and before != ch:
                r, c = divmod(cell, grid.width)
                raise XwsatError(f"--lock {text!r}: row {r + 1}, column {c + 1} is already "
                                 f"{before}, not {ch}")
            letters[cell] = ch
        placed[name] = word
    placed_grid = replace(grid.with_letters(letters), locked=grid.locked | frozenset(letters))
    return placed_grid, with_words(words, placed.values()), placed


def with_words(words: WordList, extra: object) -> WordList:
    """The word list plus ``extra`` words (default score) it lacks; the same list if none.

    Letters the dictionary never uses (a theme entry's X in a list without one) extend its
    alphabet after the existing letters, so the existing letter codes stay the same.
    """
    known = set(words.words)
    missing = sorted({w for w in extra if w not in known})  # type: ignore[attr-defined]
    if not missing:
        return words
    letters = words.alphabet.letters
    letters += "".join(sorted({ch for w in missing for ch in w} - set(letters)))
    entries: dict[str, tuple[int, str | None]] = {
        w: (int(s), words.clues.get(i)) for i, (w, s) in enumerate(zip(words.words, words.scores))
    }
    for w in missing:
        entries[w] = (DEFAULT_SCORE, None)
    grown = build_wordlist(entries, letters, words.source + f" + {len(missing)} locked")
    return replace(grown, placed_only=words.placed_only | frozenset(missing),
                   min_score=words.min_score, banned=words.banned)


def region_grid(start: Grid, region: Region, pattern: Grid | None = None,
                min_length: int = 2) -> tuple[Grid, list[Slot]]:
    """The grid to fill: letters kept outside ``region``, cleared inside (except the pattern's
    given letters); returns it and the slots wholly outside the region (fixed entries)."""
    if region.bottom > start.height or region.right > start.width:
        raise XwsatError(f"--region reaches row {region.bottom}, column {region.right}; the grid "
                         f"has {start.height} rows and {start.width} columns")
    rows = []
    for r, row in enumerate(start.rows):
        out = []
        for c, ch in enumerate(row):
            if ch == BLOCK:
                out.append(BLOCK)
            elif region.contains(r, c):
                given = pattern.rows[r][c] if pattern is not None else EMPTY
                out.append(given if given not in (BLOCK, EMPTY) else EMPTY)
            elif ch == EMPTY:
                raise XwsatError(f"--region: row {r + 1}, column {c + 1} lies outside the region "
                                 "and is empty; give a filled grid or widen the region")
            else:
                out.append(ch)
        rows.append("".join(out))
    grid = Grid(tuple(rows))
    fixed = [s for s in extract_slots(grid, min_length)
             if not any(region.contains(*divmod(c, grid.width)) for c in s.cells)]
    return grid, fixed


def without_words(words: WordList, banned: object) -> WordList:
    """The word list with ``banned`` words offered to no slot (a word banned for this puzzle,
    or the entries of a fill the constructor asked to replace); word ids stay the same."""
    wanted = set(banned)  # type: ignore[call-overload]
    by_length, codes = dict(words.by_length), dict(words.codes)
    for length in {len(w) for w in wanted} & set(words.by_length):  # only these lengths' words
        ids = words.by_length[length]
        keep = np.fromiter((words.words[i] not in wanted for i in ids.tolist()), dtype=bool,
                           count=len(ids))
        if not keep.all():
            by_length[length], codes[length] = ids[keep], words.codes[length][keep]
    if all(by_length[n] is words.by_length[n] for n in by_length):
        return words
    return replace(words, by_length=by_length, codes=codes)


def refuse_banned_entries(grid: Grid, banned: list[str], min_length: int, fold_yo: bool,
                          region: bool = False) -> None:
    """Refuse a --ban of a word the grid already holds as a whole entry: the fill would keep it
    (outside --region) or could not exist, and either way the user meant something else."""
    refused = {normalize_word(w, fold_yo=fold_yo) for w in banned}
    if not refused:
        return
    for slot in extract_slots(grid, min_length):
        word = "".join(grid.cell(c) for c in slot.cells)
        if word in refused:
            where = "outside --region" if region else "in the grid"
            raise XwsatError(f"--ban {word}: {slot.name} {where} already holds it; "
                             + ("widen --region over it or drop the ban" if region
                                else "clear that entry or drop the ban"))


def file_locks(puzzle: Puzzle, locks: list[str], min_length: int) -> list[str]:
    """The entries a .json puzzle marks locked (the workbench's locks), as ``--lock`` entries,
    where their word is whole and no ``--lock`` of the command names the slot."""
    if not puzzle.locked:
        return []
    named = {entry.split("=", 1)[0].strip().upper() for entry in locks}
    names = {s.cells: s.name for s in extract_slots(puzzle.pattern, min_length)}
    kept = []
    for slot in puzzle.slots:
        word = puzzle.answer(slot) or "".join(puzzle.pattern.cell(c) for c in slot.cells)
        name = names.get(slot.cells)
        if slot.name in puzzle.locked and name and name not in named and EMPTY not in word:
            kept.append(f"{name}={word}")
    return kept
