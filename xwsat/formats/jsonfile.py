"""xwsat's own JSON puzzle file: rows of text plus one record per entry, easy for scripts.

Reading also accepts the output of ``xwsat fill --json`` (its ``grid`` is taken as the pattern).
"""

from __future__ import annotations

import json
from typing import Any

from xwsat.errors import XwsatError
from xwsat.formats.puzzle import Puzzle
from xwsat.grid import BLOCK, EMPTY, Grid, check_size, parse_grid

FORMAT = "xwsat-puzzle"
MAX_LIST_NAME = 200  # the name of the list a puzzle was made with (a file's name)
MAX_BANS = 1000  # the words a puzzle bans (the workbench's own limit is lower)
MAX_WORD = 100  # letters of a banned word, for a file edited by hand


def write_json(puzzle: Puzzle) -> str:
    entries = []
    for slot in puzzle.slots:
        entries.append({
            "slot": slot.name, "number": slot.number,
            "direction": "across" if slot.direction == "A" else "down",
            "row": slot.row, "col": slot.col, "length": slot.length,
            "answer": puzzle.answer(slot), "clue": puzzle.clues.get(slot.name, ""),
            **({"locked": True} if slot.name in puzzle.locked else {}),
        })
    data: dict[str, Any] = {
        "format": FORMAT, "version": 1, "title": puzzle.title, "author": puzzle.author,
        "copyright": puzzle.copyright, "notes": puzzle.notes, "min_length": puzzle.min_length,
        "circles": sorted(puzzle.circles),
        "width": puzzle.pattern.width, "height": puzzle.pattern.height,
        "pattern": list(puzzle.pattern.rows),
        "solution": list(puzzle.solution.rows) if puzzle.solution else None,
        "entries": entries,
        **({"bans": list(puzzle.bans)} if puzzle.bans else {}),
        **({"word_list": {"name": puzzle.word_list[0], "min_score": puzzle.word_list[1]}}
           if puzzle.word_list else {}),
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _rows_text(rows: list[str], source: str, name: str) -> str:
    """The rows as one grid text, each row one line: a row holding a line break (once read as
    two rows) is refused, and so is a grid too large, before the text is built."""
    check_size(len(rows), max(map(len, rows)), source)
    for number, row in enumerate(rows, start=1):
        if "\n" in row or "\r" in row:
            raise XwsatError(f"{source}: row {number} of '{name}' holds a line break; give "
                             "each row as its own string")
    return "\n".join(rows)


def _check_agrees(pattern: Grid, solution: Grid, source: str) -> None:
    """The solution has the pattern's shape, blocks and given letters: a file edited by hand
    that breaks this would be read one way by one command and another way by the next."""
    if (solution.width, solution.height) != (pattern.width, pattern.height):
        raise XwsatError(f"{source}: the solution is {solution.width}x{solution.height}, the "
                         f"pattern {pattern.width}x{pattern.height}")
    for cell in range(pattern.width * pattern.height):
        want, got = pattern.cell(cell), solution.cell(cell)
        if (want == BLOCK) != (got == BLOCK) or (want not in (BLOCK, EMPTY) and want != got):
            r, c = divmod(cell, pattern.width)
            raise XwsatError(f"{source}: the solution does not match the pattern at row {r + 1}, "
                             f"column {c + 1} ({want!r} in the pattern, {got!r} in the solution)")


def read_json(text: str, source: str) -> Puzzle:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise XwsatError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise XwsatError(f"{source}: JSON puzzle must be an object")
    rows = data.get("pattern", data.get("grid"))
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise XwsatError(f"{source}: JSON puzzle needs 'pattern' (or 'grid'): a list of rows")
    pattern = parse_grid(_rows_text(rows, source, "pattern"), source)
    solution: Grid | None = None
    raw_solution = data.get("solution")
    if raw_solution is not None:
        if not isinstance(raw_solution, list) or not all(isinstance(r, str)
                                                         for r in raw_solution):
            raise XwsatError(f"{source}: 'solution' must be a list of rows (text)")
        solution = parse_grid(_rows_text(raw_solution, source, "solution"),
                              source + " (solution)")
        _check_agrees(pattern, solution, source)
    entries = data.get("entries") or []
    if not isinstance(entries, list):
        raise XwsatError(f"{source}: 'entries' must be a list")
    clues = {
        str(e.get("slot")): str(e.get("clue"))
        for e in entries if isinstance(e, dict) and e.get("clue")
    }
    circles = data.get("circles") or []
    cells = pattern.width * pattern.height
    if not isinstance(circles, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < cells for i in circles):
        raise XwsatError(f"{source}: 'circles' must list cell numbers (row-major, from 0)")
    min_length = data.get("min_length", 2)
    if not isinstance(min_length, int) or isinstance(min_length, bool) or \
            not 1 <= min_length <= max(2, pattern.width, pattern.height):
        raise XwsatError(f"{source}: 'min_length' must be a whole number of letters")
    locked = frozenset(str(e.get("slot")) for e in entries
                       if isinstance(e, dict) and e.get("locked") is True)
    bans = data.get("bans") or []
    if not isinstance(bans, list) or len(bans) > MAX_BANS or not all(
            isinstance(w, str) and 0 < len(w) <= MAX_WORD for w in bans):
        raise XwsatError(f"{source}: 'bans' must list at most {MAX_BANS} words (the words "
                         "banned for this puzzle)")
    return Puzzle(pattern, solution, clues, str(data.get("title") or ""),
                  str(data.get("author") or ""), min_length,
                  str(data.get("copyright") or ""), str(data.get("notes") or ""),
                  frozenset(circles), locked, tuple(dict.fromkeys(bans)),
                  _word_list(data.get("word_list")))


def _word_list(value: Any) -> tuple[str, int] | None:
    """The list a puzzle was made with, (name, minimum score), or None when not said or not
    readable (a record only: no command needs it to read the puzzle)."""
    name = value.get("name") if isinstance(value, dict) else None
    score = value.get("min_score", 0) if isinstance(value, dict) else None
    if (not isinstance(name, str) or not 0 < len(name) <= MAX_LIST_NAME
            or not isinstance(score, int) or isinstance(score, bool) or not 0 <= score <= 100):
        return None
    return name, score
