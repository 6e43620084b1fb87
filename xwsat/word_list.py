"""The loaded dictionary's types, ``Alphabet`` and ``WordList``: a leaf, so the loader
(``words``) and its on-disk cache (``wordcache``) share them without importing each other."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from xwsat.errors import XwsatError

MAX_ALPHABET = 64  # letter sets are uint64 bitmasks


@dataclass(frozen=True)
class Alphabet:
    """An ordered set of letters; a letter's code is its index (fits a uint64 bitmask)."""

    letters: str

    def __post_init__(self) -> None:
        if len(self.letters) > MAX_ALPHABET:
            raise XwsatError(
                f"the alphabet has {len(self.letters)} letters; "
                f"at most {MAX_ALPHABET} are supported"
            )

    @property
    def size(self) -> int:
        return len(self.letters)

    @property
    def full_mask(self) -> int:
        return (1 << self.size) - 1

    def code(self, letter: str) -> int:
        index = self.letters.find(letter)
        if index < 0:
            raise XwsatError(f"letter {letter!r} is not in the dictionary's alphabet")
        return index

    def encode(self, words: list[str], length: int) -> np.ndarray:
        """Letter codes of equal-length words as an (n, length) uint8 array, vectorised."""
        if not words:
            return np.zeros((0, length), dtype=np.uint8)
        points = np.frombuffer("".join(words).encode("utf-32-le"), dtype=np.uint32)
        table = np.array([ord(ch) for ch in self.letters], dtype=np.uint32)
        order = np.argsort(table)
        codes = order[np.searchsorted(table[order], points)]
        return codes.astype(np.uint8).reshape(len(words), length)


@dataclass(frozen=True)
class WordList:
    """A normalised dictionary: words, scores 0-100, optional clues, ids bucketed by length."""

    alphabet: Alphabet
    words: tuple[str, ...]
    scores: np.ndarray
    clues: dict[int, str] = field(default_factory=dict)
    source: str = ""
    by_length: dict[int, np.ndarray] = field(default_factory=dict)
    codes: dict[int, np.ndarray] = field(default_factory=dict)
    skipped: int = 0  # lines read but left out: not a word, or letters outside the alphabet
    first_skipped: str = ""  # the first of them, as a note shows it: "line 12: 'NEW YORK'"
    dashed: int = 0  # lines holding " - " read as one word (a description after a hyphen?)
    first_dashed: str = ""  # "line 3: 'trifle - a dessert' read as TRIFLEADESSERT"
    # the constructor's entries that are not dictionary words (``xwsat.lock``): a slot may take
    # one only where the grid gives all its letters
    placed_only: frozenset[str] = frozenset()
    # the words left out before any use: those scored below ``min_score``, and ``banned``
    # (so that a slot no word fits can be said to be the cut's doing, not the list's)
    min_score: int = 0
    banned: frozenset[str] = frozenset()

    def __len__(self) -> int:
        return len(self.words)

    def ids_of_length(self, length: int) -> np.ndarray:
        return self.by_length.get(length, np.zeros(0, dtype=np.int32))

    def codes_of_length(self, length: int) -> np.ndarray:
        return self.codes.get(length, np.zeros((0, length), dtype=np.uint8))

    def lengths(self) -> dict[int, int]:
        return {length: len(ids) for length, ids in sorted(self.by_length.items())}
