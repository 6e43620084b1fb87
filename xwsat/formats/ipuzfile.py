"""ipuz (http://ipuz.org/v2) crosswords, validated by the ``ipuz`` library on read and write.

ipuz is JSON and Unicode, so every alphabet (Cyrillic, Ñ) round-trips. Given letters are
``{"cell": N, "value": "A"}`` cells of ``puzzle``; the fill is ``solution``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from xwsat.errors import XwsatError
from xwsat.formats.puzzle import Puzzle, make_grid, numbering, upper_letter
from xwsat.grid import BLOCK, EMPTY, Grid, check_size, extract_slots

VERSION = "http://ipuz.org/v2"
KIND = "http://ipuz.org/crossword#1"
_DIRECTIONS = {"across": "A", "down": "D"}


def _letter(value: Any, source: str, where: str) -> str:
    # NFC: an editor that writes Ñ as N and a combining tilde means the one letter Ñ
    text = unicodedata.normalize("NFC", str(value).strip())
    if len(text) == 1 and text.isalpha():
        return upper_letter(text, source, where)
    text = text.upper()
    if len(text) != 1 or not text.isalpha():
        raise XwsatError(f"{source}: {where}: {value!r} is not one letter (rebus cells are not "
                         "supported)")
    return text


_DIMENSIONS = re.compile(r'"dimensions"\s*:\s*(\{[^{}]{0,200}\})')


def declared_size(text: str, source: str) -> None:
    """Refuse a grid too large from the ``dimensions`` its text declares, before the whole
    file is parsed and validated (3000x3000 once took seconds and 200 MB to refuse)."""
    found = _DIMENSIONS.search(text, 0, 1 << 16) or _DIMENSIONS.search(text)
    if found is None:
        return
    try:
        size = json.loads(found.group(1))
        check_size(int(size["height"]), int(size["width"]), source)
    except (ValueError, KeyError, TypeError):
        return  # malformed: the full validation says so


def _check_shape(text: str, source: str) -> None:
    """Refuse a puzzle grid larger than its declared dimensions before the ipuz library
    validates every cell of it (a 5x5 declared over 6000x5000 cells took 16 s to refuse)."""
    try:
        data = json.loads(text)
        width, height = int(data["dimensions"]["width"]), int(data["dimensions"]["height"])
        cells = data["puzzle"]
    except (ValueError, KeyError, TypeError):
        return  # JSONP, or malformed: the full reading says so
    if not isinstance(cells, list) or len(cells) != height or any(
            not isinstance(row, list) or len(row) != width for row in cells):
        raise XwsatError(f"{source}: the puzzle grid is not {width}x{height} as declared")


# what an ipuz crossword may hold that xwsat has no place for: said when read, not lost silently
_NOT_KEPT = ("intro", "explanation", "publisher", "publication", "date", "editor", "difficulty",
             "url", "annotation", "enumerations", "fakeclues", "saved")


def read_ipuz(text: str, source: str) -> Puzzle:
    """Parse and validate an ipuz crossword: pattern, given letters, solution and clues."""
    import ipuz

    declared_size(text, source)
    _check_shape(text, source)
    try:
        data = ipuz.read(text)
    except ipuz.IPUZException as exc:
        raise XwsatError(f"{source}: not a valid ipuz file ({exc})") from None
    if not any(str(k).startswith("http://ipuz.org/crossword") for k in data.get("kind", [])):
        raise XwsatError(f"{source}: the ipuz kind is {data.get('kind')}, not a crossword")
    try:
        width, height = int(data["dimensions"]["width"]), int(data["dimensions"]["height"])
        cells = data["puzzle"]
    except (KeyError, TypeError, ValueError):
        raise XwsatError(f"{source}: ipuz crossword without dimensions or puzzle") from None
    block = data.get("block", "#")
    if len(cells) != height or any(len(row) != width for row in cells):
        raise XwsatError(f"{source}: the puzzle grid is not {width}x{height} as declared")
    pattern, circles, labels, shaded = [], set(), {}, 0
    for r, row in enumerate(cells):
        out = []
        for c, cell in enumerate(row):
            style = cell.get("style") if isinstance(cell, dict) else None
            if isinstance(style, dict) and style.get("barred"):
                raise XwsatError(f"{source}: row {r + 1}, column {c + 1} has bars; xwsat reads "
                                 "grids whose entries end at blocks, not barred grids")
            if isinstance(style, dict) and style.get("shapebg") == "circle":
                circles.add(r * width + c)
            elif isinstance(style, dict) and (style.get("color") or style.get("highlight")):
                shaded += 1
            value = cell.get("value") if isinstance(cell, dict) else None
            label = cell.get("cell") if isinstance(cell, dict) else cell
            if cell is None or label == block or str(label) == block:
                out.append(BLOCK)
                continue
            if isinstance(label, str) and label.strip().isdigit():  # "1" in some tools' files
                label = int(label)
            if isinstance(label, int) and not isinstance(label, bool) and label > 0:
                labels[r * width + c] = label
            if value not in (None, "", 0):
                out.append(_letter(value, source, f"row {r + 1}, column {c + 1}"))
            else:
                out.append(EMPTY)
        pattern.append(out)
    solution = None
    on_blocks = holes = rebus = 0  # solution letters on blocks, blocks on open cells: said
    raw_solution = data.get("solution")
    if isinstance(raw_solution, list):
        if len(raw_solution) != height or any(
            not isinstance(row, list) or len(row) != width for row in raw_solution
        ):
            raise XwsatError(f"{source}: the solution grid is not {width}x{height} as declared")
        grid = []
        for r, row in enumerate(raw_solution):
            out = []
            for c, cell in enumerate(row):
                value = cell.get("value") if isinstance(cell, dict) else cell
                if pattern[r][c] == BLOCK:
                    out.append(BLOCK)
                    if isinstance(value, str) and value.strip().isalpha():
                        on_blocks += 1
                elif value in (None, "", 0, block):
                    out.append(EMPTY)
                    holes += value == block
                else:
                    text = unicodedata.normalize("NFC", str(value).strip())
                    if len(text) > 1 and text.isalpha():  # a rebus: kept as a .puz reader keeps it
                        rebus += 1
                        text = text[0]
                    out.append(_letter(text, source, f"solution row {r + 1}, column {c + 1}"))
            grid.append(out)
        for r, row in enumerate(pattern):
            for c, ch in enumerate(row):
                if ch in (BLOCK, EMPTY) or grid[r][c] == ch:
                    continue
                if grid[r][c] != EMPTY:
                    raise XwsatError(f"{source}: row {r + 1}, column {c + 1}: the given letter "
                                     f"{ch!r} is not the solution's {grid[r][c]!r}")
                grid[r][c] = ch  # a given letter is the solution's letter there
        if any(ch.isalpha() for row in grid for ch in row):
            solution = make_grid(grid, source)
    grid = make_grid(pattern, source)
    shortest = _numbered_from(grid, labels)
    own = labels and numbering(grid, shortest) != labels  # the file numbers its cells its way
    place = _placer(grid, labels) if own else None
    clues: dict[str, str] = {}
    unplaced = 0
    for key, entries in (data.get("clues") or {}).items():
        direction = _DIRECTIONS.get(str(key).split(":")[0].strip().lower())
        if direction is None or not isinstance(entries, list):
            continue
        bare = [e for e in entries if isinstance(e, str)]
        if bare and len(bare) == len(entries):  # clue texts alone: the entries in order
            names = [sl.name for sl in extract_slots(grid, shortest) if sl.direction == direction]
            if len(names) == len(bare):
                clues.update((n, t) for n, t in zip(names, bare, strict=True) if t.strip())
            else:
                unplaced += len(bare)
            continue
        for entry in entries:
            number, clue = _clue(entry)
            if number is None or not clue:
                unplaced += isinstance(entry, str) and bool(entry.strip())
                continue
            name = f"{number}{direction}" if place is None else place(number, direction)
            if name is None:
                unplaced += 1
            else:
                clues[name] = clue
    dropped = [*((f"solution letters on the puzzle's blocks: {on_blocks}, dropped",)
                 if on_blocks else ()),
               *((f"solution blocks on the puzzle's open cells: {holes}, left empty",)
                 if holes else ())]
    if rebus:
        dropped.append(f"rebus cells (several letters in one square): {rebus}, only their "
                       "first letter kept")
    if own:
        dropped.append("its clue numbers do not follow standard numbering: each clue is put on "
                       "the entry starting at the cell its number labels, and numbered again")
    if unplaced:
        dropped.append(f"clues with no entry to go to: {unplaced}, dropped")
    if shaded:
        dropped.append(f"shaded cells: {shaded}, kept as plain cells")
    if extra := [k for k in _NOT_KEPT if data.get(k)]:
        dropped.append(f"fields xwsat does not keep: {', '.join(extra)}")
    return Puzzle(grid, solution, clues,
                  str(data.get("title") or ""), str(data.get("author") or ""),
                  min_length=shortest,
                  copyright=str(data.get("copyright") or ""), notes=str(data.get("notes") or ""),
                  circles=frozenset(circles), dropped=tuple(dropped))


def _placer(grid: Grid, labels: dict[int, int]) -> Callable[[int, str], str | None]:
    """For a file whose cell labels are not standard numbering: the name (standard numbering)
    of the entry in a direction that starts at the cell a clue number labels, or None."""
    cell_of = {number: cell for cell, number in labels.items()}
    starts = {(sl.cells[0], sl.direction): sl.name for sl in extract_slots(grid, 2)}

    def place(number: int, direction: str) -> str | None:
        cell = cell_of.get(number)
        return None if cell is None else starts.get((cell, direction))

    return place


def _numbered_from(grid: Grid, labels: dict[int, int]) -> int:
    """The shortest slot the file's clue numbers were made with: ipuz has no field for it, but
    a grid numbered with 3-letter slots (2-letter runs unclued) numbers its cells differently,
    and its clues' numbers follow that numbering. 2 when no standard numbering matches."""
    if labels:
        for shortest in (2, *range(3, max(grid.width, grid.height) + 1), 1):
            if numbering(grid, shortest) == labels:
                return shortest
    return 2


def _clue(entry: Any) -> tuple[int | None, str]:
    """ipuz clues come as [number, text] or {"number": .., "clue": ..} (a bare string, the
    clue text alone, is placed by its order in ``read_ipuz``)."""
    if isinstance(entry, list) and len(entry) >= 2:
        number, text = entry[0], entry[1]
    elif isinstance(entry, dict):
        number, text = entry.get("number"), entry.get("clue", "")
    else:
        return None, ""
    try:
        return int(number), str(text)
    except (TypeError, ValueError):
        return None, ""


LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # ipuz's default charset
RUSSIAN = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
GREEK = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"


def _charset(letters: set[str]) -> str | None:
    """The letters a solver should let the user type, when the puzzle needs more than ipuz's
    default A-Z: the Russian alphabet for Cyrillic, the Greek for Greek, A-Z otherwise, plus
    every letter used (a whole alphabet first, so the set does not list the answer's letters)."""
    if letters <= set(LATIN):
        return None
    base = (RUSSIAN if any("\u0400" <= ch <= "\u04ff" for ch in letters) else
            GREEK if any("\u0370" <= ch <= "\u03ff" for ch in letters) else LATIN)
    return base + "".join(sorted(letters - set(base)))


def write_ipuz(puzzle: Puzzle) -> str:
    """The puzzle as validated ipuz v2 JSON (UTF-8, letters as they are)."""
    import ipuz

    pattern = puzzle.pattern
    numbers = puzzle.numbering()
    cells: list[list[Any]] = []
    for r, row in enumerate(pattern.rows):
        out: list[Any] = []
        for c, ch in enumerate(row):
            label = numbers.get(r * pattern.width + c, 0)
            circled = r * pattern.width + c in puzzle.circles
            if ch == BLOCK:
                out.append(BLOCK)
            elif ch == EMPTY and not circled:
                out.append(label)
            else:
                out.append({"cell": label, **({"value": ch} if ch != EMPTY else {}),
                            **({"style": {"shapebg": "circle"}} if circled else {})})
        cells.append(out)
    data: dict[str, Any] = {
        "version": VERSION,
        "kind": [KIND],
        "origin": "xwsat",
        "title": puzzle.title or "Crossword",
        "author": puzzle.author,
        "dimensions": {"width": pattern.width, "height": pattern.height},
        "block": BLOCK,
        "empty": 0,
        "puzzle": cells,
        "clues": {
            title: [[s.number, puzzle.clues.get(s.name, "")]
                    for s in puzzle.slots if s.direction == d]
            for d, title in (("A", "Across"), ("D", "Down"))
        },
    }
    for key in ("copyright", "notes"):
        if getattr(puzzle, key):
            data[key] = getattr(puzzle, key)
    charset = _charset(puzzle.letters())
    if charset is not None:
        data["charset"] = charset
    if puzzle.solution is not None:
        data["solution"] = [
            [BLOCK if ch == BLOCK else (None if ch == EMPTY else ch) for ch in row]
            for row in puzzle.solution.rows
        ]
    text = ipuz.write(data)
    return json.dumps(json.loads(text), ensure_ascii=False) + "\n"
