"""Time the line automaton's build for each line length, and its last step (the rows made
unique) both ways: numpy's ``unique`` by rows and the one-key-per-row way the build uses.

    python scripts/automaton_build_time.py 15 21
"""

from __future__ import annotations

import sys
import time

import numpy as np

from xwsat.generate.automaton import _unique_rows, build_line_automaton
from xwsat.words import load_words


def main(lengths: list[int]) -> None:
    words = load_words("en")
    for length in lengths:
        started = time.perf_counter()
        automaton = build_line_automaton(words, length, 3)
        built = time.perf_counter() - started
        rows = np.concatenate(automaton.layers)
        started = time.perf_counter()
        by_numpy = np.unique(rows, axis=0)
        numpy_s = time.perf_counter() - started
        started = time.perf_counter()
        by_key = _unique_rows(rows, automaton.n_states, automaton.block + 1)
        key_s = time.perf_counter() - started
        assert np.array_equal(by_numpy, by_key)
        print(f"| {length} | {len(rows):,} | {built:.2f} s | {numpy_s:.2f} s | {key_s:.2f} s |")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [15, 21])
