"""Across Lite ``.puz`` files through ``puzpy`` (checksums, layout and encoding are its job).

A ``.puz`` grid holds one byte per cell in ISO-8859-1 (version 1.3), so English and Spanish
(Ñ) fit and Cyrillic does not: writing such a fill is refused with a clear message (before any
search, by the commands). Clue text is fitted to the same encoding (``fitted_text``). On read,
blocks come from the solution, given letters from the fill string (the letters already in the
grid) where they agree with the solution (a letter that does not is a solver's wrong guess, not
part of the puzzle), and the solution is kept unless it is scrambled (locked).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.formats.markup import markup_count, plain_text
from xwsat.formats.puzzle import Puzzle, make_grid, upper_letter
from xwsat.grid import BLOCK, EMPTY, Grid, check_size, extract_slots

_PUZ_EMPTY = "-"


def read_puz(data: bytes, source: str) -> Puzzle:
    """Parse a .puz file: pattern, given letters, solution (if unlocked) and clues."""
    import puz

    magic = data.find(b"ACROSS&DOWN\x00")  # the header: width and height 0x2A past the magic
    if magic >= 2 and len(data) > magic + 0x2B:
        check_size(data[magic + 0x2B], data[magic + 0x2A], source)
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
    locked = p.is_solution_locked()
    pattern, solution = [], []
    unlettered = 0  # solution cells holding a digit or symbol, which a grid cannot hold
    for r in range(height):
        prow, srow = [], []
        for c in range(width):
            sol = p.solution[r * width + c]
            fill = p.fill[r * width + c] if len(p.fill) == width * height else _PUZ_EMPTY
            if sol == black:
                prow.append(BLOCK)
                srow.append(BLOCK)
                continue
            where = f"row {r + 1}, column {c + 1}"
            given = fill.isalpha() and (locked or not sol.isalpha() or fill.upper() == sol.upper())
            prow.append(upper_letter(fill, source, where) if given else EMPTY)
            srow.append(upper_letter(sol, source, where) if sol.isalpha() else EMPTY)
            unlettered += not sol.isalpha() and sol != _PUZ_EMPTY
        pattern.append(prow)
        solution.append(srow)
    grid = make_grid(pattern, source)
    sol_grid = None if locked else make_grid(solution, source)
    slots = sorted(Puzzle(grid).slots, key=lambda s: (s.number, s.direction))
    if len(p.clues) != len(slots):
        raise XwsatError(f"{source}: {len(p.clues)} clues for {len(slots)} slots")
    clues = {s.name: text for s, text in zip(slots, p.clues) if text}
    circles = frozenset(p.markup().get_markup_squares(puz.GridMarkup.Circled))
    dropped = []
    if p.has_rebus() and (rebus := [i for i in p.rebus().get_rebus_squares()
                                    if 0 <= i < width * height and p.solution[i] != black]):
        dropped.append(f"rebus cells (several letters in one square): {len(rebus)}, only "
                       "their first letter kept")
    if locked:
        dropped.append("its solution is scrambled (locked with a key), so no solution is kept")
    elif unlettered:
        dropped.append(f"solution cells with a digit or symbol instead of a letter: "
                       f"{unlettered}, left empty")
    return Puzzle(grid, sol_grid, clues, p.title or "", p.author or "",
                  copyright=p.copyright or "", notes=p.notes or "", circles=circles,
                  dropped=tuple(dropped))


def _first_empty(grid: Grid, min_length: int) -> str:
    """Why a grid with an empty square cannot be a .puz, naming the square; one in no entry
    (a white square boxed in by blocks) cannot be filled at all, so that is said too."""
    cell = "".join(grid.rows).index(EMPTY)
    row, col = divmod(cell, grid.width)
    said = f".puz needs every white square filled, and row {row + 1}, column {col + 1} is empty"
    if not any(cell in slot.cells for slot in extract_slots(grid, min_length)):
        said += " and in no entry: make it a block, or save .ipuz or .json"
    return said


def write_puz(puzzle: Puzzle) -> bytes:
    """The puzzle as .puz bytes; needs a full solution whose letters fit ISO-8859-1."""
    import puz

    if all(set(row) == {BLOCK} for row in puzzle.pattern.rows):
        raise XwsatError(".puz needs a grid with white squares, and every square is a block")
    grid = puzzle.solution or puzzle.pattern
    if EMPTY in "".join(grid.rows):
        raise XwsatError(_first_empty(grid, puzzle.min_length))
    refuse_short_runs(puzzle.pattern, puzzle.min_length)
    p = puz.Puzzle()
    outside = _wide(puzzle.letters(), p.encoding)
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
    p.clues = [puz_text(puzzle.clues.get(s.name, ""), p.encoding) for s in slots]
    p.title, p.author = puz_text(p.title, p.encoding), puz_text(p.author or "", p.encoding)
    p.copyright, p.notes = (puz_text(puzzle.copyright, p.encoding),
                            puz_text(puzzle.notes, p.encoding))
    if puzzle.circles:  # the GEXT section
        p.markup().set_markup_squares(sorted(puzzle.circles), puz.GridMarkup.Circled)
    try:
        return p.tobytes()
    except ValueError as exc:
        raise XwsatError(f"cannot write .puz: {exc}") from None


_TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
                             "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2032": "'",
                             "\u2033": '"', "\u2013": "-", "\u2014": "--", "\u2212": "-",
                             "\u2026": "...", "\u2022": "*", "\u2009": " ", "\u202f": " "})


def lost_text_note(path: Path | str, texts: Iterable[str | None]) -> str | None:
    """Said when a .puz cannot hold some clue (or title) text: characters outside its one-byte
    encoding become '?' (``fitted_text``), which the file keeps silently; and when a .puz or
    the solving page spells out an .ipuz clue's markup as plain text."""
    ext = Path(path).suffix.lower()
    if ext not in (".puz", ".html"):
        return None
    texts = [text for text in texts if text]
    said = []
    if ext == ".puz":
        plain = [plain_text(text) for text in texts]
        lost = sum(1 for text in plain if fitted_text(text).count("?") > text.count("?"))
        if lost:
            texts_word = "text uses" if lost == 1 else "texts use"
            said.append(f"{lost} clue, title, credit or note {texts_word} characters a .puz "
                        "cannot hold (ISO-8859-1); they read '?' there (.ipuz and .json keep "
                        "them)")
    marked = markup_count(texts)
    if marked:
        texts_word = "text has" if marked == 1 else "texts have"
        said.append(f"{marked} clue, title, credit or note {texts_word} HTML markup (<i>, "
                    f"&amp;...), written as plain text in the {ext} (.ipuz and .json keep it)")
    return f"note: {path}: " + "; ".join(said) if said else None


def puz_text(value: str, encoding: str = "ISO-8859-1") -> str:
    """A text as a .puz holds it: no markup, no NUL (a NUL ends a .puz string, so the rest
    would shift), in the file's one-byte encoding."""
    return fitted_text(plain_text(value).replace("\x00", ""), encoding)


def puzzle_texts(puzzle: Puzzle) -> list[str]:
    """Every text of a puzzle a .puz keeps: clues, title, author, copyright and notes."""
    return [*puzzle.clues.values(), puzzle.title, puzzle.author, puzzle.copyright,
            puzzle.notes]


def fitted_text(text: str, encoding: str = "ISO-8859-1") -> str:
    """Clue, title or author text in the file's one-byte encoding: typographic quotes, dashes
    and ellipses spelt in ASCII, accents outside it dropped (NFKD), anything else '?'. A .puz
    holds nothing more; .ipuz and .json keep the text as it is."""
    if _fits(text, encoding):
        return text
    import unicodedata

    out = []
    for ch in text.translate(_TYPOGRAPHY):
        if not _fits(ch, encoding):
            base = "".join(c for c in unicodedata.normalize("NFKD", ch)
                           if not unicodedata.combining(c))
            ch = base if base and _fits(base, encoding) else "?"
        out.append(ch)
    return "".join(out)


def refuse_short_runs(pattern: Grid, min_length: int) -> None:
    """.puz numbers and clues every run of two or more letters: a puzzle made with a longer
    shortest slot, whose shorter runs are unclued, has no .puz form."""
    if min_length > 2 and len(extract_slots(pattern, 2)) != len(extract_slots(pattern,
                                                                              min_length)):
        raise XwsatError(f".puz clues every run of 2 or more letters, and this grid has runs "
                         f"shorter than its shortest entry ({min_length} letters); write .ipuz "
                         "or .json instead")


def refuse_wide_letters(path: Path | None, letters: Iterable[str],
                        whose: str = "these letters", advice: str = "") -> None:
    """Before any search: refuse a .puz output some of whose letters (``whose``: where they
    come from, since the fill has none yet) are not one ISO-8859-1 byte, rather than find the
    answer and then fail to write it."""
    if path is None or path.suffix.lower() != ".puz":
        return
    wide = _wide(letters, "ISO-8859-1")
    if wide:
        raise XwsatError(f"{path}: .puz cells are one ISO-8859-1 byte; {whose} do not "
                         f"fit: {' '.join(wide[:12])}{' ...' if len(wide) > 12 else ''}; write "
                         f".ipuz instead{advice}")


def _wide(letters: Iterable[str], encoding: str) -> list[str]:
    """The letters a .puz cell (one byte of ``encoding``) cannot hold, sorted, each once."""
    return sorted({ch for ch in letters if not _fits(ch, encoding)})


def _fits(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True
