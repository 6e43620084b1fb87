"""Python ints as bitsets: candidate sets whose AND, OR and popcount run in C, not per element."""

from __future__ import annotations

import numpy as np


def to_bitset(flags: np.ndarray) -> int:
    """A bool array as an int whose bit i is ``flags[i]``."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


def bit_indices(bits: int, size: int) -> np.ndarray:
    """Indices of the set bits of ``bits`` (below ``size``), ascending, as int64."""
    raw = np.frombuffer(bits.to_bytes((size + 7) // 8 or 1, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little"))


def members(bits: int) -> list[int]:
    """Indices of the set bits of a sparse bitset (letters of a letter set, say)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def letter_bitsets(col: np.ndarray, alphabet: int) -> list[int]:
    """For each letter a, the bitset of rows k with ``col[k] == a`` (0 when none)."""
    onehot = col[:, None] == np.arange(alphabet, dtype=col.dtype)[None, :]
    packed = np.ascontiguousarray(np.packbits(onehot, axis=0, bitorder="little").T)
    return [int.from_bytes(packed[a].tobytes(), "little") for a in range(alphabet)]
