"""Puzzle files: read patterns from text, JSON, .ipuz and .puz; write text, JSON, .ipuz, .puz,
SVG and a solving HTML page. The format is chosen by the file's extension, in one place here.
"""

from __future__ import annotations

from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.formats.html import write_html
from xwsat.formats.ipuzfile import read_ipuz, write_ipuz
from xwsat.formats.jsonfile import read_json, write_json
from xwsat.formats.puzfile import read_puz, write_puz
from xwsat.formats.puzzle import Puzzle, numbering
from xwsat.formats.svg import render_svg
from xwsat.grid import Grid, parse_grid
from xwsat.words import read_text_file

__all__ = ["Puzzle", "numbering", "read_grid", "read_puzzle", "render_puzzle", "render_svg",
           "WRITABLE", "write_html", "write_ipuz", "write_json", "write_puz"]

WRITABLE = (".txt", ".json", ".ipuz", ".puz", ".svg", ".html")


def _extension(path: Path) -> str:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes[-1:] == [".gz"]:
        suffixes = suffixes[:-1]
    return suffixes[-1] if suffixes else ""


def read_puzzle(path: Path) -> Puzzle:
    """Read a puzzle file by extension: .ipuz, .puz, .json; anything else is the text grid."""
    ext = _extension(path)
    if ext == ".puz":
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise XwsatError(f"{path}: cannot read ({exc.strerror})") from None
        return read_puz(data, str(path))
    text = read_text_file(path)
    if ext == ".ipuz":
        return read_ipuz(text, str(path))
    if ext == ".json":
        return read_json(text, str(path))
    return Puzzle(parse_grid(text, str(path)))


def read_grid(path: Path | str) -> Grid:
    """The pattern (blocks, empty cells, given letters) of any readable puzzle file."""
    return read_puzzle(Path(path)).pattern


def render_puzzle(puzzle: Puzzle, path: Path | str, lang: str = "en") -> str | bytes:
    """The bytes or text to write for ``path``'s extension (.txt when there is none)."""
    ext = _extension(Path(path)) or ".txt"
    shown = puzzle.solution or puzzle.pattern
    if ext == ".txt":
        return shown.to_text()
    if ext == ".json":
        return write_json(puzzle)
    if ext == ".ipuz":
        return write_ipuz(puzzle)
    if ext == ".puz":
        return write_puz(puzzle)
    if ext == ".svg":
        return render_svg(shown, puzzle.numbering(), title=puzzle.title)
    if ext == ".html":
        return write_html(puzzle, lang)
    raise XwsatError(f"{path}: unknown output format {ext!r}; use one of {', '.join(WRITABLE)}")
