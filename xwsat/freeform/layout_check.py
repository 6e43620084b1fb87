"""Independent checker of a free-form layout: rebuilds the board from the placed words itself.

A layout passes when each placed word fits the board and agrees with every other at shared
cells, each input entry is placed at most once, every horizontal or vertical run of two or more
letters is exactly one placed word in that direction (so words touch only at crossings and never
run into each other), and the letters form one connected piece (so each word crosses another).
"""

from __future__ import annotations

from collections.abc import Sequence


def check_layout(width: int, height: int, words: Sequence[str],
                 placed: Sequence[tuple[int, int, int, str]]) -> list[str]:
    """``placed`` holds (entry index, row, col, 'across'|'down'); returns the problems found."""
    problems: list[str] = []
    board: dict[tuple[int, int], str] = {}
    starts: set[tuple[str, int, int, str]] = set()
    used: set[int] = set()
    for index, row, col, direction in placed:
        word = words[index]
        if index in used:
            problems.append(f"{word} is placed twice")
        used.add(index)
        dr, dc = (0, 1) if direction == "across" else (1, 0)
        if direction not in ("across", "down"):
            problems.append(f"{word}: unknown direction {direction!r}")
            continue
        end_r, end_c = row + dr * (len(word) - 1), col + dc * (len(word) - 1)
        if min(row, col) < 0 or end_r >= height or end_c >= width:
            problems.append(f"{word} at ({row}, {col}) {direction} leaves the board")
            continue
        for i, ch in enumerate(word):
            cell = (row + dr * i, col + dc * i)
            if board.setdefault(cell, ch) != ch:
                problems.append(f"{word} clashes at row {cell[0] + 1}, column {cell[1] + 1}")
        starts.add((direction, row, col, word))
    runs: set[tuple[str, int, int, str]] = set()
    for r in range(height):
        for c in range(width):
            if (r, c) not in board:
                continue
            for direction, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
                if (r - dr, c - dc) in board:
                    continue
                text = ""
                rr, cc = r, c
                while (rr, cc) in board:
                    text += board[(rr, cc)]
                    rr, cc = rr + dr, cc + dc
                if len(text) > 1:
                    runs.add((direction, r, c, text))
    for direction, r, c, text in sorted(runs - starts):
        problems.append(f"{direction} at row {r + 1}, column {c + 1} reads {text}, "
                        f"which is not a placed word")
    for _, r, c, text in sorted(starts - runs):
        problems.append(f"{text} at row {r + 1}, column {c + 1} runs into other letters")
    if board:
        todo = [next(iter(board))]
        seen = set(todo)
        while todo:
            r, c = todo.pop()
            for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if cell in board and cell not in seen:
                    seen.add(cell)
                    todo.append(cell)
        if len(seen) != len(board):
            problems.append("the placed words are not one connected puzzle")
    return problems
