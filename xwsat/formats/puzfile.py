"""Across Lite ``.puz`` files through ``puzpy`` (checksums, layout and encoding are its job).

A ``.puz`` grid holds one byte per cell in ISO-8859-1 (version 1.3), so English and Spanish
(Ñ) fit and Cyrillic does not: writing such a fill is refused with a clear message. On read,
blocks come from the solution, given letters from the fill string (the letters already in the
grid), and the solution is kept unless it is scrambled (locked).
"""

from __future__ import annotations

from xwsat.errors import XwsatError
from xwsat.formats.puzzle import Puzzle, make_grid
from xwsat.grid import BLOCK, EMPTY

_PUZ_EMPTY = "-"


def read_puz(data: bytes, source: str) -> Puzzle:
    """Parse a .puz file: pattern, given letters, solution (if unlocked) and clues."""
    import puz

    try:
        p = puz.load(data)
    except (puz.PuzzleFormatError, UnicodeDecodeError, ValueError, IndexError) as exc:
        why = str(exc).split(". ")[0].rstrip(".")  # puzpy adds advice meant for its API users
        raise XwsatError(f"{source}: not a valid .puz file ({why})") from None
    except Exception as exc:  # puzpy raises struct.error and friends on truncated files
        raise XwsatError(f"{source}: not a valid .puz file ({type(exc).__name__})") from None
    width, height = p.width, p.height
    if width < 1 or height < 1 or len(p.solution) != width * height:
        raise XwsatError(f"{source}: damaged .puz file (grid size)")
    black = p.blacksquare()
    pattern, solution = [], []
    for r in range(height):
        prow, srow = [], []
        for c in range(width):
            sol = p.solution[r * width + c]
            fill = p.fill[r * width + c] if len(p.fill) == width * height else _PUZ_EMPTY
            if sol == black:
                prow.append(BLOCK)
                srow.append(BLOCK)
                continue
            prow.append(fill.upper() if fill.isalpha() else EMPTY)
            srow.append(sol.upper() if sol.isalpha() else EMPTY)
        pattern.append(prow)
        solution.append(srow)
    grid = make_grid(pattern, source)
    locked = p.is_solution_locked()
    sol_grid = None if locked else make_grid(solution, source)
    puzzle = Puzzle(grid, sol_grid, {}, p.title or "", p.author or "")
    slots = sorted(puzzle.slots, key=lambda s: (s.number, s.direction))
    if len(p.clues) != len(slots):
        raise XwsatError(f"{source}: {len(p.clues)} clues for {len(slots)} slots")
    clues = {s.name: text for s, text in zip(slots, p.clues) if text}
    return Puzzle(grid, sol_grid, clues, puzzle.title, puzzle.author)


def write_puz(puzzle: Puzzle) -> bytes:
    """The puzzle as .puz bytes; needs a full solution whose letters fit ISO-8859-1."""
    import puz

    if puzzle.solution is None or any(EMPTY in row for row in puzzle.solution.rows):
        raise XwsatError(".puz needs a complete solution (every white cell filled)")
    p = puz.Puzzle()
    outside = sorted(ch for ch in puzzle.letters() if not _fits(ch, p.encoding))
    if outside:
        raise XwsatError(
            f".puz cells are one byte ({p.encoding}); these letters do not fit: "
            f"{' '.join(outside)}; write .ipuz instead")
    p.width, p.height = puzzle.pattern.width, puzzle.pattern.height
    p.title = puzzle.title or "Crossword"
    p.author = puzzle.author
    p.solution = "".join(ch if ch != BLOCK else "." for row in puzzle.solution.rows for ch in row)
    p.fill = "".join(
        "." if ch == BLOCK else (_PUZ_EMPTY if ch == EMPTY else ch)
        for row in puzzle.pattern.rows for ch in row
    )
    slots = sorted(puzzle.slots, key=lambda s: (s.number, s.direction))
    p.clues = [puzzle.clues.get(s.name, "") for s in slots]
    for text in [p.title, p.author, *p.clues]:
        if not _fits(text, p.encoding):
            raise XwsatError(f".puz text is {p.encoding}; this does not fit: {text[:40]!r}")
    try:
        return p.tobytes()
    except ValueError as exc:
        raise XwsatError(f"cannot write .puz: {exc}") from None


def _fits(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True
