"""Could a numpy-free, pure-Python search beat Qxw's whole process on the small 5x5s?

A letters MAC search on Python integers as bitsets (a live-word set per slot, a letter set per
cell, the no-repeat rule on singletons), no imports beyond the standard library, run by a bare
interpreter. It prints the verdict, decisions and failures, and the setup and search times:

    python results/latency/pure_python_probe.py grids/small/open5.txt grids/small/words5_sub10.txt
"""

from __future__ import annotations

import argparse
import sys
import time


def read(grid_path: str, dict_path: str) -> tuple[list[str], list[str]]:
    with open(grid_path, encoding="utf-8") as grid_file:
        rows = [line.strip() for line in grid_file if line.strip()]
    with open(dict_path, encoding="utf-8") as word_file:
        words = sorted({w.strip().upper() for w in word_file if w.strip().isalpha()})
    return rows, words


def slots_of(rows: list[str]) -> list[list[tuple[int, int]]]:
    height, width = len(rows), len(rows[0])
    slots = []
    for r in range(height):
        c = 0
        for piece in rows[r].split("#"):
            if len(piece) >= 2:
                slots.append([(r, c + i) for i in range(len(piece))])
            c += len(piece) + 1
    for c in range(width):
        r = 0
        for piece in "".join(rows[i][c] for i in range(height)).split("#"):
            if len(piece) >= 2:
                slots.append([(r + i, c) for i in range(len(piece))])
            r += len(piece) + 1
    return slots


class Search:
    def __init__(self, rows: list[str], words: list[str]) -> None:
        slots = slots_of(rows)
        self.alphabet = sorted({ch for w in words for ch in w})
        index = {ch: i for i, ch in enumerate(self.alphabet)}
        self.by_length: dict[int, list[str]] = {}
        for w in words:
            self.by_length.setdefault(len(w), []).append(w)
        self.masks = {}  # length -> position -> letter -> words with that letter there
        for length, group in self.by_length.items():
            table = [[0] * len(self.alphabet) for _ in range(length)]
            for i, w in enumerate(group):
                for p, ch in enumerate(w):
                    table[p][index[ch]] |= 1 << i
            self.masks[length] = table
        cells = sorted({cell for slot in slots for cell in slot})
        number = {cell: i for i, cell in enumerate(cells)}
        self.slot_cells = [[number[cell] for cell in slot] for slot in slots]
        self.length = [len(slot) for slot in slots]
        self.crossing: list[list[int]] = [[] for _ in cells]
        for s, members in enumerate(self.slot_cells):
            for c in members:
                self.crossing[c].append(s)
        full = (1 << len(self.alphabet)) - 1
        self.live = [(1 << len(self.by_length.get(n, []))) - 1 for n in self.length]
        self.dom = [full] * len(cells)
        for (r, c), i in number.items():
            if rows[r][c] not in "#.":
                self.dom[i] = 1 << index[rows[r][c]] if rows[r][c] in index else 0
        self.unions: dict[tuple[int, int, int], int] = {}
        self.decisions = self.failures = 0

    def union(self, length: int, position: int, letters: int) -> int:
        key = (length, position, letters)
        found = self.unions.get(key)
        if found is None:
            found, rest, table = 0, letters, self.masks[length][position]
            while rest:
                low = rest & -rest
                found |= table[low.bit_length() - 1]
                rest ^= low
            self.unions[key] = found
        return found

    def propagate(self, live: list[int], dom: list[int], queue: list[int]) -> bool:
        queued = set(queue)
        while queue:
            s = queue.pop()
            queued.discard(s)
            length, cells = self.length[s], self.slot_cells[s]
            words = live[s]
            for p, c in enumerate(cells):
                words &= self.union(length, p, dom[c])
            if not words:
                return False
            if words != live[s]:
                live[s] = words
                if words & (words - 1) == 0:  # one word left: no other slot may take it
                    for t in range(len(live)):
                        if t != s and self.length[t] == length and live[t] & words:
                            live[t] &= ~words
                            if not live[t]:
                                return False
                            if t not in queued:
                                queue.append(t)
                                queued.add(t)
            for p, c in enumerate(cells):
                old, kept, rest, table = dom[c], 0, dom[c], self.masks[length][p]
                while rest:
                    low = rest & -rest
                    if words & table[low.bit_length() - 1]:
                        kept |= low
                    rest ^= low
                if kept != old:
                    if not kept:
                        return False
                    dom[c] = kept
                    for t in self.crossing[c]:
                        if t != s and t not in queued:
                            queue.append(t)
                            queued.add(t)
        return True

    def search(self, live: list[int], dom: list[int]) -> list[int] | None:
        best, size = -1, 1 << 30
        for c, letters in enumerate(dom):
            n = letters.bit_count()
            if 1 < n < size:
                best, size = c, n
        if best < 0:
            return live
        rest = dom[best]
        while rest:
            low = rest & -rest
            rest ^= low
            self.decisions += 1
            live2, dom2 = live[:], dom[:]
            dom2[best] = low
            if self.propagate(live2, dom2, list(self.crossing[best])):
                found = self.search(live2, dom2)
                if found is not None:
                    return found
            else:
                self.failures += 1
        return None


def main(grid_path: str, dict_path: str) -> None:
    started = time.perf_counter()
    search = Search(*read(grid_path, dict_path))
    ready = time.perf_counter()
    live, dom = search.live[:], search.dom[:]
    found = search.search(live, dom) if search.propagate(live, dom, list(range(len(live)))) \
        else None
    done = time.perf_counter()
    print(f"{'filled' if found else 'unfillable'}: {search.decisions} decisions, "
          f"{search.failures} failures; setup {ready - started:.3f} s, "
          f"search {done - ready:.3f} s")
    if found:
        print(" ".join(search.by_length[search.length[s]][words.bit_length() - 1]
                       for s, words in enumerate(found)))
    sys.exit(0 if found else 1)  # xwsat's exit codes: 0 filled, 1 unfillable


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grid", help="a text grid ('.' empty, '#' block)")
    parser.add_argument("words", help="a plain-text word list, one word a line")
    args = parser.parse_args()
    try:
        main(args.grid, args.words)
    except (OSError, UnicodeDecodeError, IndexError) as exc:
        parser.exit(2, f"pure_python_probe: {exc}\n")
