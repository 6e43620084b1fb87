"""The puzzle being built, and the one reducer that edits it.

Every edit is an action (a small dict the page sends); ``reduce(document, action)`` returns the
next document or raises ``XwsatError`` with a sentence for the page. The history of actions is
the undo stack (``xwsat.workbench.session``), as in Crosshare's builder: nothing else changes the
document. Locked entries are kept by their first cell and direction, so numbering may shift
around them; an edit that would cut or stretch a locked entry is refused.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from typing import Any

from xwsat.errors import XwsatError
from xwsat.formats import Puzzle
from xwsat.grid import BLOCK, EMPTY, Grid, Slot, extract_slots
from xwsat.pattern_stats import SYMMETRIES, partners
from xwsat.words import normalize_word

MIN_SIDE, MAX_SIDE = 3, 25
META = ("title", "author", "copyright", "notes")
MAX_TEXT = 2000  # characters in a clue or a credit


@dataclass(frozen=True)
class Lock:
    """A locked entry: its first cell, its direction ("A" or "D") and its word."""

    cell: int
    direction: str
    word: str


@dataclass(frozen=True)
class Document:
    """Rows of the grid ('#' block, '.' empty, a letter), locked entries, clues by slot name,
    the puzzle's credits, and its circled cells (a theme's marking, kept from an opened file
    to the saved one)."""

    rows: tuple[str, ...]
    locks: tuple[Lock, ...] = ()
    clues: tuple[tuple[str, str], ...] = ()
    title: str = ""
    author: str = ""
    copyright: str = ""
    notes: str = ""
    circles: tuple[int, ...] = ()

    @property
    def grid(self) -> Grid:
        return Grid(self.rows)

    @property
    def clue_map(self) -> dict[str, str]:
        return dict(self.clues)

    def locked_cells(self) -> set[int]:
        return {c for _, cells in self.locked_slots() for c in cells}

    def locked_slots(self) -> list[tuple[Lock, tuple[int, ...]]]:
        """Each lock with the cells of its entry."""
        width = len(self.rows[0])
        step = {"A": 1, "D": width}
        return [(lock, tuple(lock.cell + i * step[lock.direction]
                             for i in range(len(lock.word)))) for lock in self.locks]

    def puzzle(self) -> Puzzle:
        """The document as a puzzle file holds it: the blank pattern, the letters as the
        solution when every white cell has one, clues and credits."""
        grid = self.grid
        cells = "".join(self.rows)
        full = EMPTY not in cells and cells.strip(BLOCK) != ""  # all blocks: nothing to solve
        pattern = Grid(tuple("".join(BLOCK if ch == BLOCK else EMPTY for ch in row)
                             for row in self.rows)) if full else grid
        names = {(s.cells[0], s.direction): s.name for s in extract_slots(grid, 2)}
        locked = frozenset(names[(lock.cell, lock.direction)] for lock in self.locks)
        circled = frozenset(c for c in self.circles if grid.cell(c) != BLOCK)  # a block has none
        return Puzzle(pattern, grid if full else None, self.clue_map, self.title, self.author,
                      2, self.copyright, self.notes, circles=circled, locked=locked)


def too_large(width: int, height: int) -> str:
    """The refusal of a grid outside the workbench's sizes."""
    said = (f"the grid is {width}x{height}; the workbench takes {MIN_SIDE}x{MIN_SIDE} to "
            f"{MAX_SIDE}x{MAX_SIDE}")
    if height > 4 * MAX_SIDE and width <= 40:  # many short lines: a word list, most likely
        said += " (a word list? Upload it with Upload list…)"
    return said


def blank(width: int, height: int) -> Document:
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise XwsatError(f"a grid is {MIN_SIDE} to {MAX_SIDE} cells a side; "
                         f"{width}x{height} asked")
    return Document(tuple(EMPTY * width for _ in range(height)))


def from_puzzle(puzzle: Puzzle) -> Document:
    """A document from an opened puzzle file (its solution's letters when it has one)."""
    grid = puzzle.solution or puzzle.pattern
    if not (MIN_SIDE <= grid.width <= MAX_SIDE and MIN_SIDE <= grid.height <= MAX_SIDE):
        raise XwsatError(too_large(grid.width, grid.height))
    locks = tuple(Lock(slot.cells[0], slot.direction, word) for slot in extract_slots(grid, 2)
                  if slot.name in puzzle.locked
                  and EMPTY not in (word := "".join(grid.cell(c) for c in slot.cells)))
    return Document(grid.rows, locks, tuple(sorted(puzzle.clues.items())), puzzle.title,
                    puzzle.author, puzzle.copyright, puzzle.notes, tuple(sorted(puzzle.circles)))


def slot_named(grid: Grid, name: str) -> Slot:
    for slot in extract_slots(grid, 2):
        if slot.name == name:
            return slot
    raise XwsatError(f"the grid has no entry {name}")


def _cell(doc: Document, action: dict[str, Any]) -> int:
    cell = action.get("cell")
    size = len(doc.rows) * len(doc.rows[0])
    if not isinstance(cell, int) or isinstance(cell, bool) or not 0 <= cell < size:
        raise XwsatError(f"no cell {cell!r} in a grid of {size} cells")
    return cell


def _letter(text: Any) -> str:
    """One letter, normalised as dictionaries are; '' clears."""
    if text in ("", None, EMPTY):
        return EMPTY
    letter = normalize_word(str(text))
    if len(letter) != 1 or not letter.isalpha():
        raise XwsatError(f"{text!r} is not one letter")
    return letter


def _set(doc: Document, cells: dict[int, str]) -> Document:
    width = len(doc.rows[0])
    rows = [list(row) for row in doc.rows]
    for cell, ch in cells.items():
        rows[cell // width][cell % width] = ch
    return replace(doc, rows=tuple("".join(r) for r in rows))


def _check_locks(doc: Document) -> None:
    """Every lock still names a whole entry with its letters."""
    slots = {(s.cells[0], s.direction): s for s in extract_slots(doc.grid, 2)}
    for lock, cells in doc.locked_slots():
        slot = slots.get((lock.cell, lock.direction))
        if slot is None or slot.cells != cells:
            raise XwsatError(f"that would change the locked entry {lock.word}; unlock it first")


def _block(doc: Document, action: dict[str, Any]) -> Document:
    cell = _cell(doc, action)
    symmetry = action.get("symmetry", "rotational")
    if symmetry not in SYMMETRIES:
        raise XwsatError(f"symmetry is one of {', '.join(SYMMETRIES)}")
    grid = doc.grid
    make = grid.cell(cell) != BLOCK
    cells = (cell, *partners(cell, grid.height, grid.width, symmetry))
    locked = doc.locked_cells()
    if any(c in locked for c in cells):
        raise XwsatError("that cell is in a locked entry; unlock it first")
    changed = _set(doc, {c: BLOCK if make else EMPTY for c in cells})
    _check_locks(changed)
    return changed


def _pattern(doc: Document, rows: Any) -> Document:
    """The document with the blocks of ``rows`` (a suggested pattern): a block where it has
    '#', none elsewhere; letters stay, and none may fall under a block."""
    grid = doc.grid
    if (not isinstance(rows, list) or len(rows) != grid.height
            or any(not isinstance(r, str) or len(r) != grid.width for r in rows)):
        raise XwsatError(f"a pattern is {grid.height} rows of {grid.width} cells")
    cells = {}
    for cell, ch in enumerate("".join(rows)):
        now = grid.cell(cell)
        if ch == BLOCK and now != BLOCK:
            if now != EMPTY:
                raise XwsatError("the pattern puts a block on a letter")
            cells[cell] = BLOCK
        elif ch != BLOCK and now == BLOCK:
            cells[cell] = EMPTY
    changed = _set(doc, cells)
    _check_locks(changed)
    # The suggestion was searched with every entry of 3 or more typed letters taken as a theme
    # entry, kept as ``--lock`` keeps it (a word the list lacks included): so it is locked here,
    # or the fill the suggestion promised would not be the autofill's.
    locked = {(lk.cell, lk.direction) for lk in changed.locks}
    for slot in extract_slots(changed.grid, 2):
        if (slot.length >= 3 and (slot.cells[0], slot.direction) not in locked
                and all(changed.grid.cell(c) not in (EMPTY, BLOCK) for c in slot.cells)):
            changed = _lock(changed, {"slot": slot.name})
    return changed


def _letters(doc: Document, cells: dict[int, str]) -> Document:
    locked = doc.locked_cells()
    grid = doc.grid
    for cell, ch in cells.items():
        if grid.cell(cell) == BLOCK:
            raise XwsatError("a block holds no letter")
        if cell in locked and grid.cell(cell) != ch:
            raise XwsatError("that cell is in a locked entry; unlock it first")
    return _set(doc, cells)


def _lock(doc: Document, action: dict[str, Any]) -> Document:
    slot = slot_named(doc.grid, str(action.get("slot", "")))
    raw = action.get("word")
    word = normalize_word(str(raw)) if raw else "".join(doc.grid.cell(c) for c in slot.cells)
    if EMPTY in word:
        raise XwsatError(f"{slot.name} is not complete; type its letters or give the word")
    if not word.isalpha():
        raise XwsatError(f"{raw!r} is not a word: a locked entry holds letters only")
    if len(word) != slot.length:
        raise XwsatError(f"{slot.name} has {slot.length} cells; {raw!r} does not fit")
    others = {c for lock, cells in doc.locked_slots()
              if (lock.cell, lock.direction) != (slot.cells[0], slot.direction) for c in cells}
    grid = doc.grid
    for cell, ch in zip(slot.cells, word):
        if cell in others and grid.cell(cell) != ch:
            raise XwsatError(f"{word} crosses a locked entry at a different letter")
    kept = tuple(lk for lk in doc.locks if (lk.cell, lk.direction) !=
                 (slot.cells[0], slot.direction))
    placed = _set(doc, dict(zip(slot.cells, word)))
    return replace(placed, locks=(*kept, Lock(slot.cells[0], slot.direction, word)))


def _unlock(doc: Document, action: dict[str, Any]) -> Document:
    slot = slot_named(doc.grid, str(action.get("slot", "")))
    kept = tuple(lk for lk in doc.locks if (lk.cell, lk.direction) !=
                 (slot.cells[0], slot.direction))
    if len(kept) == len(doc.locks):
        raise XwsatError(f"{slot.name} is not locked")
    return replace(doc, locks=kept)


def _text(value: Any, what: str) -> str:
    if value is not None and not isinstance(value, str):
        raise XwsatError(f"{what}: the text is not a string")
    text = value or ""
    if len(text) > MAX_TEXT:
        raise XwsatError(f"{what}: at most {MAX_TEXT:,} characters ({len(text):,} given); the "
                         "text kept is the one before")
    return text


def restored(saved: Any) -> Document:
    """A document the page kept in the browser (``view``'s ``doc``), checked as every edit
    is: the page reloaded or the server restarted, and the constructor's work comes back."""
    if not isinstance(saved, dict):
        raise XwsatError("restore: the saved grid is not a JSON object")
    rows = saved.get("rows")
    if (not isinstance(rows, list) or not rows or any(not isinstance(r, str) for r in rows)
            or len({len(r) for r in rows}) != 1):
        raise XwsatError("restore: the saved grid has no rows of equal length")
    doc = blank(len(rows[0]), len(rows))
    doc = _set(doc, {i: BLOCK if ch == BLOCK else _letter(ch)
                     for i, ch in enumerate("".join(rows)) if ch != EMPTY})
    # The grid is the constructor's work: a part the server refuses (a lock, a clue, a text
    # over the length the page lets through unchecked) is left out or cut, never the grid.
    for lock in saved.get("locks") or []:
        cells = lock.get("cells") if isinstance(lock, dict) else None
        if (not isinstance(cells, list) or len(cells) < 2
                or not all(isinstance(c, int) and not isinstance(c, bool) for c in cells)):
            continue
        direction = "A" if cells[1] - cells[0] == 1 else "D"
        slot = next((s for s in extract_slots(doc.grid, 2)
                     if s.cells[0] == cells[0] and s.direction == direction), None)
        if slot is not None:
            with contextlib.suppress(XwsatError):
                doc = _lock(doc, {"slot": slot.name, "word": lock.get("word")})
    clues = saved.get("clues") or {}
    for name, text in (clues.items() if isinstance(clues, dict) else ()):
        with contextlib.suppress(XwsatError):
            doc = reduce(doc, {"type": "clue", "slot": name, "text": _cut(text)})
    for field in META:
        doc = replace(doc, **{field: _cut(saved.get(field))})
    circles = saved.get("circles") or []
    size = len(rows) * len(rows[0])
    return replace(doc, circles=tuple(sorted({c for c in circles if isinstance(c, int)
                                              and not isinstance(c, bool) and 0 <= c < size}))
                   if isinstance(circles, list) else ())


def _cut(value: Any) -> str:
    """A kept text as restoring takes it: at most ``MAX_TEXT`` characters."""
    return value[:MAX_TEXT] if isinstance(value, str) else ""


def _clues_follow(before: Document, after: Document) -> Document:
    """``after`` with each clue moved to its entry's new number: a block renumbers the grid,
    and a clue is written for an entry, not a number (locks are kept by cell for the same
    reason). An entry cut in two keeps its clue on the part that holds most of its cells; an
    entry that is gone takes its clue with it."""
    if not before.clues or after.rows == before.rows:
        return after
    old = {s.name: s for s in extract_slots(before.grid, 2)}
    new = extract_slots(after.grid, 2)
    moved: dict[str, str] = {}
    for name, text in before.clues:
        slot = old.get(name)
        if slot is None:
            continue
        kept = set(slot.cells)
        shared = [(len(kept & set(s.cells)), s.name) for s in new
                  if s.direction == slot.direction and s.name not in moved]
        most, target = max(shared, default=(0, ""))
        if most:
            moved[target] = text
    return replace(after, clues=tuple(sorted(moved.items())))


def reduce(doc: Document, action: dict[str, Any]) -> Document:
    """The document after ``action``; a bad action is an ``XwsatError``, never a change."""
    kind = action.get("type")
    if kind == "new":
        width, height = action.get("width"), action.get("height")
        if width is None or height is None or isinstance(width, bool) or \
                isinstance(height, bool):
            raise XwsatError("a new grid needs its width and height")
        if not isinstance(width, int) or not isinstance(height, int):  # 2.5, or a text
            raise XwsatError(f"a grid is {MIN_SIDE} to {MAX_SIDE} whole cells a side; "
                             f"{width}x{height} asked")
        return blank(width, height)
    if kind == "block":
        return _clues_follow(doc, _block(doc, action))
    if kind == "pattern":
        return _clues_follow(doc, _pattern(doc, action.get("rows")))
    if kind == "letter":
        return _letters(doc, {_cell(doc, action): _letter(action.get("letter"))})
    if kind == "letters":
        cells = action.get("cells")
        if not isinstance(cells, dict):
            raise XwsatError("letters: give cells as {cell: letter}")
        return _letters(doc, {_cell(doc, {"cell": int(k) if str(k).isdigit() else k}):
                              _letter(v) for k, v in cells.items()})
    if kind == "restore":
        return restored(action.get("doc"))
    if kind == "lock":
        return _lock(doc, action)
    if kind == "unlock":
        return _unlock(doc, action)
    if kind == "clue":
        name = str(action.get("slot", ""))
        slot_named(doc.grid, name)
        clues = dict(doc.clues)
        clues[name] = _text(action.get("text"), f"the clue of {name}")
        return replace(doc, clues=tuple(sorted((k, v) for k, v in clues.items() if v)))
    if kind == "meta":
        field = action.get("field")
        if field not in META:
            raise XwsatError(f"meta: the field is one of {', '.join(META)}")
        return replace(doc, **{field: _text(action.get("value"), f"the {field}")})
    raise XwsatError(f"unknown action {kind!r}")
