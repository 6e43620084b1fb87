"""The free-form placer's method (ARCHITECTURE.md): place words one at a time, alternating
across and down, each at its best-scoring valid position (the other direction when its turn's
has none; the words left out tried again while any finds a place); repeat over random word
orders and keep the best board.

Position score, as in the source: a point for a valid position, ten per crossing, one more when the
word keeps off the border. After the first word a position must cross a placed word (the source
"only places a word if some position scores"). Valid means on the board, agreeing at shared cells,
touching other words only at crossings, with empty cells before and after the word.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from xwsat.freeform.layout import ACROSS, DOWN, Entry, Layout, Placement

Progress = Callable[[str], None]


class _Board:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.letters: dict[tuple[int, int], str] = {}
        self.across: set[tuple[int, int]] = set()
        self.down: set[tuple[int, int]] = set()

    def score(self, word: str, row: int, col: int, direction: str, first: bool) -> int:
        """The placer's score of a position, or -1 when the position is invalid."""
        dr, dc = (0, 1) if direction == ACROSS else (1, 0)
        n = len(word)
        if row + dr * (n - 1) >= self.height or col + dc * (n - 1) >= self.width:
            return -1
        if (row - dr, col - dc) in self.letters or (row + dr * n, col + dc * n) in self.letters:
            return -1
        same = self.across if direction == ACROSS else self.down
        crossings = 0
        for i, ch in enumerate(word):
            cell = (row + dr * i, col + dc * i)
            have = self.letters.get(cell)
            if have is not None:
                if have != ch or cell in same:
                    return -1
                crossings += 1
            elif (cell[0] + dc, cell[1] + dr) in self.letters or \
                    (cell[0] - dc, cell[1] - dr) in self.letters:
                return -1
        if not first and crossings == 0:
            return -1
        inside = row > 0 and col > 0 and row + dr * (n - 1) < self.height - 1 and \
            col + dc * (n - 1) < self.width - 1
        return 1 + 10 * crossings + (1 if inside else 0)

    def place(self, word: str, row: int, col: int, direction: str) -> None:
        dr, dc = (0, 1) if direction == ACROSS else (1, 0)
        same = self.across if direction == ACROSS else self.down
        for i, ch in enumerate(word):
            cell = (row + dr * i, col + dc * i)
            self.letters[cell] = ch
            same.add(cell)


def one_board(entries: list[Entry], order: list[int], width: int,
              height: int, more: bool = True) -> tuple[list[Placement], int]:
    """One greedy board for one word order: (placements, total score).

    As the source places them, alternating across and down; two additions, since a word left
    out for want of a place in one direction often fits the other, and a word left out early
    often fits once later words are down: a word with no place in its turn's direction goes
    the other way, and the words left out are tried again, pass after pass, while any of them
    finds a place (measured in ``results/freeform/``). ``more`` False: the source's board alone
    (a word skipped in its turn's direction stays out, and the turn passes all the same)."""
    board = _Board(width, height)
    placed: list[Placement] = []
    total = 0
    direction = ACROSS
    waiting = list(order)
    while waiting:
        left_out = []
        for index in waiting:
            word = entries[index].word
            best, where, way = -1, None, direction
            turns = (direction, DOWN if direction == ACROSS else ACROSS) if more else (direction,)
            for turn in turns:
                for row in range(height):
                    for col in range(width):
                        s = board.score(word, row, col, turn, not placed)
                        if s > best:
                            best, where, way = s, (row, col), turn
                if where is not None:
                    break
            if where is None:
                left_out.append(index)
                if not more:
                    direction = DOWN if direction == ACROSS else ACROSS
                continue
            board.place(word, *where, way)
            placed.append(Placement(index, where[0], where[1], way))
            total += best
            direction = DOWN if way == ACROSS else ACROSS
        if len(left_out) == len(waiting) or not more:
            break
        waiting = left_out
    return placed, total


def greedy_layout(entries: list[Entry], width: int, height: int, boards: int = 100,
                  seed: int = 0, deadline: float | None = None,
                  stop: threading.Event | None = None,
                  progress: Progress = lambda _: None,
                  more: bool = True) -> tuple[Layout, dict[str, float | int]]:
    """The best of ``boards`` random orders (fewer if the deadline or Ctrl-C comes first);
    ``more``: with the two additions to the source's board (``one_board``)."""
    rng = random.Random(seed)
    best: tuple[int, int, list[Placement]] = (-1, -1, [])
    tried = 0
    started = time.monotonic()
    try:
        for tried in range(1, boards + 1):
            order = list(range(len(entries)))
            rng.shuffle(order)
            placed, score = one_board(entries, order, width, height, more)
            if (len(placed), score) > best[:2]:
                best = (len(placed), score, placed)
                progress(f"board {tried}: {len(placed)} of {len(entries)} words, score {score}")
            if (deadline is not None and time.monotonic() >= deadline) or (stop and
                                                                          stop.is_set()):
                break
    except KeyboardInterrupt:
        if stop is not None:
            stop.set()    # Ctrl-C ends the whole run, not just this phase
    stats = {"boards": tried, "score": best[1], "solve_s": round(time.monotonic() - started, 3)}
    return Layout(width, height, tuple(entries), tuple(best[2])), stats
