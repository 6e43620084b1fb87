"""Write a generated or free-form puzzle to a file chosen by extension.

``.txt`` (or no extension) is the text grid, written here. ``.puz``, ``.ipuz``, ``.json``,
``.svg`` and ``.html`` go through ``xwsat.formats`` (the one place that knows file formats),
given the solution, the blank pattern and the clues by slot name ("1A", "3D").
"""

from __future__ import annotations

from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.grid import Grid

TEXT = ("", ".txt")


def check_extension(path: Path | None) -> None:
    """Refuse an output format we cannot write before any search starts."""
    if path is None or path.suffix.lower() in TEXT:
        return
    try:
        from xwsat.formats import WRITABLE
    except ImportError:
        WRITABLE = TEXT
    if path.suffix.lower() not in WRITABLE:
        raise XwsatError(f"{path}: unknown output format {path.suffix!r}; use one of "
                         f"{', '.join(x for x in WRITABLE if x)}")


def render_file(path: Path, rows: tuple[str, ...], clues: dict[str, str], min_length: int,
                title: str, blank: bool = False) -> str | bytes:
    """The bytes or text for ``path``; ``blank`` writes the pattern without letters."""
    pattern = Grid(tuple("".join("#" if ch == "#" else "." for ch in row) for row in rows))
    if path.suffix.lower() in TEXT:
        return (pattern if blank else Grid(rows)).to_text()
    try:
        from xwsat.formats import Puzzle, render_puzzle
    except ImportError:
        raise XwsatError(f"{path}: only .txt output is available (xwsat.formats is missing)"
                         ) from None
    puzzle = Puzzle(pattern, None if blank else Grid(rows), clues, title, "xwsat",
                    min_length)
    return render_puzzle(puzzle, path)
