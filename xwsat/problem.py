"""FillProblem: everything a solver ever sees, built once from a grid and a word list.

Slots are lists of dense cell indices; candidates are global word ids with their letter codes;
cell masks are the letters still allowed in each cell (uint64 bitmasks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from xwsat.errors import XwsatError
from xwsat.grid import Grid, Slot, extract_slots
from xwsat.words import WordList


@dataclass(frozen=True)
class FillProblem:
    """Slots, crossings and per-slot candidates; immutable, derived copies via ``replace``."""

    alphabet_size: int
    cell_ids: np.ndarray  # grid cell id of each dense cell (int32)
    slot_cells: tuple[np.ndarray, ...]  # dense cell indices of each slot (int32)
    slot_names: tuple[str, ...]  # "1A", "3D", ... for messages
    candidates: tuple[np.ndarray, ...]  # global word ids per slot (int32)
    letters: tuple[np.ndarray, ...]  # (n_candidates, length) uint8 letter codes per slot
    cell_masks: np.ndarray  # allowed letters per dense cell (uint64 bitmask)
    allow_repeats: bool = False
    scores: tuple[np.ndarray, ...] = ()  # word score 0-100 per candidate (int16), for value order
    max_shared: int = 0  # when positive: no two entries share a run longer than this

    @property
    def n_slots(self) -> int:
        return len(self.slot_cells)

    @property
    def n_cells(self) -> int:
        return len(self.cell_ids)

    def slot_length(self, slot: int) -> int:
        return len(self.slot_cells[slot])

    def domain_sizes(self) -> np.ndarray:
        return np.array([len(c) for c in self.candidates], dtype=np.int64)

    def cell_slots(self) -> list[list[tuple[int, int]]]:
        """For each dense cell, the (slot, position) pairs that cover it."""
        covers: list[list[tuple[int, int]]] = [[] for _ in range(self.n_cells)]
        for slot, cells in enumerate(self.slot_cells):
            for pos, cell in enumerate(cells):
                covers[int(cell)].append((slot, pos))
        return covers

    def crossings(self) -> list[tuple[int, int, int, int]]:
        """Every crossing as (slot_a, pos_a, slot_b, pos_b) with slot_a < slot_b."""
        result = []
        for pairs in self.cell_slots():
            for i in range(len(pairs)):
                for j in range(i + 1, len(pairs)):
                    (a, pa), (b, pb) = sorted((pairs[i], pairs[j]))
                    result.append((a, pa, b, pb))
        return result

    def neighbours(self) -> list[set[int]]:
        """Slots that share a cell with each slot."""
        result: list[set[int]] = [set() for _ in range(self.n_slots)]
        for a, _, b, _ in self.crossings():
            result[a].add(b)
            result[b].add(a)
        return result

    def repeat_groups(self) -> dict[int, list[tuple[int, int]]]:
        """Word ids that are candidates of two or more slots -> [(slot, candidate index)].

        Empty when repeats are allowed: these are the pairs the no-repeat rule must separate.
        """
        if self.allow_repeats or self.n_slots < 2:
            return {}
        slots = np.concatenate(
            [np.full(len(c), s, dtype=np.int64) for s, c in enumerate(self.candidates)]
        )
        index = np.concatenate([np.arange(len(c), dtype=np.int64) for c in self.candidates])
        words = np.concatenate(self.candidates).astype(np.int64)
        order = np.argsort(words, kind="stable")
        words, slots, index = words[order], slots[order], index[order]
        boundaries = np.flatnonzero(np.diff(words)) + 1
        groups: dict[int, list[tuple[int, int]]] = {}
        for start, end in zip(
            np.concatenate([[0], boundaries]), np.concatenate([boundaries, [len(words)]])
        ):
            if end - start > 1:
                groups[int(words[start])] = list(
                    zip(slots[start:end].tolist(), index[start:end].tolist())
                )
        return groups

    def with_candidates(self, keep: list[np.ndarray], cell_masks: np.ndarray) -> FillProblem:
        """A copy restricted to the kept candidate indices per slot, with new cell masks."""
        def kept(arrays: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
            # a slot that kept every row shares its arrays (the index is always increasing)
            return tuple(a if len(k) == len(a) else a[k] for a, k in zip(arrays, keep))

        return replace(self, candidates=kept(self.candidates), letters=kept(self.letters),
                       scores=kept(self.scores), cell_masks=cell_masks)


@dataclass(frozen=True)
class Built:
    """The problem with the grid-side facts the edges need (slots, for naming and output)."""

    problem: FillProblem
    slots: tuple[Slot, ...]
    grid: Grid
    words: WordList


def build_problem(
    grid: Grid, words: WordList, min_length: int = 2, allow_repeats: bool = False,
    max_shared: int = 0,
) -> Built:
    """Turn a grid and a word list into a FillProblem (candidates filtered by given letters);
    ``max_shared``: the shared-substring rule's most (``xwsat.substrings``), 0 for none."""
    slots = extract_slots(grid, min_length)
    if not slots:
        raise XwsatError(f"the grid has no slots (no run of {min_length} or more white cells)")
    given = grid.given_letters()
    alphabet = words.alphabet
    in_slots = {c for s in slots for c in s.cells}
    for cell, letter in given.items():
        if letter not in alphabet.letters and cell in in_slots:  # (one in no entry just stays)
            r, c = divmod(cell, grid.width)
            raise XwsatError(
                f"letter {letter!r} at row {r + 1}, column {c + 1} is not in the dictionary's "
                f"alphabet ({alphabet.letters})"
            )
    cell_ids = np.array(sorted(in_slots), dtype=np.int32)
    dense = {int(c): i for i, c in enumerate(cell_ids)}
    masks = np.full(len(cell_ids), alphabet.full_mask, dtype=np.uint64)
    for cell, letter in given.items():
        if cell in dense:
            masks[dense[cell]] = np.uint64(1 << alphabet.code(letter))
    slot_cells, candidates, letters = [], [], []
    dictionary_only = dictionary_words(words)
    for slot in slots:
        ids, codes = dictionary_only(slot.length)
        slot_cells.append(np.array([dense[c] for c in slot.cells], dtype=np.int32))
        placed = [(pos, cell) for pos, cell in enumerate(slot.cells) if cell in given]
        if len(placed) == slot.length:  # every letter given: the constructor's entry may stand
            ids, codes = words.ids_of_length(slot.length), words.codes_of_length(slot.length)
        if not placed:  # the same arrays for every open slot of this length
            candidates.append(ids)
            letters.append(codes)
            continue
        keep = np.ones(len(ids), dtype=bool)
        for pos, cell in placed:
            keep &= codes[:, pos] == alphabet.code(given[cell])
        candidates.append(ids[keep])
        letters.append(codes[keep])
    if max_shared:
        _refuse_given_sharing(slots, given, max_shared)
    problem = FillProblem(
        alphabet_size=alphabet.size,
        cell_ids=cell_ids,
        slot_cells=tuple(slot_cells),
        slot_names=tuple(s.name for s in slots),
        candidates=tuple(candidates),
        letters=tuple(letters),
        cell_masks=masks,
        allow_repeats=allow_repeats,
        scores=tuple(words.scores[c] for c in candidates),
        max_shared=max_shared,
    )
    return Built(problem, slots, grid, words)


def _refuse_given_sharing(slots: list[Slot], given: dict[int, str], most: int) -> None:
    """Two entries the grid gives whole (locked, or kept outside a region) that share more
    than ``most`` letters in a row break the rule before any search: said, with the pair."""
    from xwsat.pattern_stats import longest_shared

    whole = [(s.name, "".join(given[c] for c in s.cells)) for s in slots
             if all(c in given for c in s.cells)]
    for i, (a, first) in enumerate(whole):
        for b, second in whole[i + 1:]:
            piece = longest_shared(first, second)
            if len(piece) > most:
                raise XwsatError(
                    f"{a} {first} and {b} {second}, both given whole (typed, locked or kept "
                    f"outside the region), share {piece}: more than the {most} letters "
                    "--max-shared-substring allows; raise it, or change one of them")


def dictionary_words(words: WordList) -> Callable[[int], tuple[np.ndarray, np.ndarray]]:
    """Per length, the word ids and codes without the constructor's non-dictionary entries
    (``WordList.placed_only``), computed once per length so open slots still share them."""
    cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def of_length(length: int) -> tuple[np.ndarray, np.ndarray]:
        if length not in cache:
            ids, codes = words.ids_of_length(length), words.codes_of_length(length)
            if words.placed_only:
                keep = np.array([words.words[i] not in words.placed_only for i in ids.tolist()],
                                dtype=bool)
                if not keep.all():
                    ids, codes = ids[keep], codes[keep]
            cache[length] = (ids, codes)
        return cache[length]

    return of_length


def fill_letters(built: Built, fill: tuple[int, ...]) -> dict[int, str]:
    """Grid cell id -> letter for a fill given as one word id per slot."""
    letters: dict[int, str] = {}
    for slot, word_id in zip(built.slots, fill):
        for cell, ch in zip(slot.cells, built.words.words[word_id]):
            letters[cell] = ch
    return letters
