"""Puzzle files: read patterns from text, JSON, .ipuz and .puz; write text, JSON, .ipuz, .puz,
SVG and a solving HTML page. The format is chosen by the file's extension, in one place here.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.formats.across_lite import puz_text, read_puz, write_puz
from xwsat.formats.html import write_html
from xwsat.formats.ipuzfile import read_ipuz, write_ipuz
from xwsat.formats.jsonfile import read_json, write_json
from xwsat.formats.puzzle import Puzzle, numbering
from xwsat.formats.svg import render_svg
from xwsat.grid import BLOCK, EMPTY, Grid, parse_grid
from xwsat.words import GZIP_MAGIC, clean_clue, decode_text, gunzip, read_bytes

__all__ = ["Puzzle", "check_format", "numbering", "puzzle_from_bytes", "read_grid", "read_puzzle",
           "render_puzzle",
           "render_rows", "render_svg",
           "WRITABLE", "write_html", "write_ipuz", "write_json", "write_puz"]

WRITABLE = (".txt", ".json", ".ipuz", ".puz", ".svg", ".html")


def _extension(path: Path) -> str:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes[-1:] == [".gz"]:
        suffixes = suffixes[:-1]
    return suffixes[-1] if suffixes else ""


_STREAMS: dict[str, Puzzle] = {}  # puzzles read from a pipe, which can be read only once


def read_puzzle(path: Path) -> Puzzle:
    """Read a puzzle file by extension: .ipuz, .puz, .json; anything else is the text grid.

    A file whose structure the reader did not expect (a number where rows should be, nesting
    deeper than any puzzle) is bad input, said in one line, whatever the reader tripped on. A
    pipe (``<(...)``, ``/dev/stdin``) is read once per process and remembered, since a command
    reads its grid more than once (the pattern, then the clues)."""
    if path.exists() and not path.is_file() and not path.is_dir():
        key = str(path)
        if key not in _STREAMS:
            _STREAMS[key] = _read_puzzle(path)
        return _STREAMS[key]
    return _read_puzzle(path)


# A puzzle file is kilobytes (a 50x50 grid with long clues, a few hundred): anything past this
# is not one, and reading hundreds of MB of it would outlast the time and memory limits.
MAX_PUZZLE_BYTES = 64 << 20
NOT_A_PUZZLE = "not a puzzle"  # what a file past it is told


def _read_puzzle(path: Path) -> Puzzle:
    if _extension(path) == ".puz":
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_PUZZLE_BYTES + 1)
        except OSError as exc:
            raise XwsatError(f"{path}: cannot read ({exc.strerror})") from None
        if len(data) > MAX_PUZZLE_BYTES:
            raise XwsatError(f"{path}: larger than {MAX_PUZZLE_BYTES >> 20} MiB; {NOT_A_PUZZLE}")
    else:
        try:
            data = read_bytes(path, MAX_PUZZLE_BYTES, NOT_A_PUZZLE)
        except XwsatError:  # "a binary file": an Across Lite puzzle under another name?
            with contextlib.suppress(OSError), path.open("rb") as handle:
                _refuse_misnamed_puz(handle.read(14), str(path))
            raise
    return puzzle_from_bytes(data, str(path), MAX_PUZZLE_BYTES)


def _refuse_misnamed_puz(head: bytes, name: str) -> None:
    if head[2:14] == b"ACROSS&DOWN\x00":
        raise XwsatError(f"{name}: looks like an Across Lite puzzle; name it .puz")


# Files a user may have at hand that hold no readable grid: xwsat's own pictures and pages
# (written, never read back as input) and images; read as text they would be a confusing grid.
NOT_READ = frozenset({".svg", ".html", ".htm", ".png", ".jpg", ".jpeg", ".gif", ".pdf"})


def puzzle_from_bytes(data: bytes, name: str, most: int = MAX_PUZZLE_BYTES) -> Puzzle:
    """A puzzle from a file's bytes (unpacked to at most ``most``), its format chosen by
    ``name``'s extension (a file the workbench was sent: read as a file would be, never
    through a path)."""
    ext = _extension(Path(name))
    if ext in NOT_READ:
        raise XwsatError(f"{name}: xwsat does not read {ext} files; give the grid as text "
                         "(.txt), .ipuz, .puz or .json")
    try:
        if ext == ".puz":
            if data[:2] == GZIP_MAGIC:  # a .puz.gz, read as the other formats' .gz are
                data = gunzip(data, name, most, NOT_A_PUZZLE)
            return _placed_clues(read_puz(data, name))
        if ext not in (".ipuz", ".json"):
            _refuse_misnamed_puz(data[:14], name)
        text = decode_text(data, name, most, NOT_A_PUZZLE)
        if ext not in (".ipuz", ".json") and text.lstrip()[:1] in ("{", "["):
            raise XwsatError(f"{name}: looks like JSON, not a text grid; name an ipuz file "
                             ".ipuz and an xwsat puzzle .json")
        if ext == ".ipuz":
            return _placed_clues(read_ipuz(text, name))
        if ext == ".json":
            return _placed_clues(read_json(text, name))
        return Puzzle(parse_grid(text, name))
    except RecursionError:
        raise XwsatError(f"{name}: nested too deeply to be a puzzle") from None
    except (TypeError, AttributeError, KeyError, IndexError, ValueError) as exc:
        kind = {".ipuz": "ipuz", ".json": "JSON", ".puz": ".puz"}.get(ext, "grid")
        raise XwsatError(f"{name}: malformed {kind} puzzle ({type(exc).__name__}: {exc})"
                         ) from None


def _placed_clues(puzzle: Puzzle) -> Puzzle:
    """The puzzle without the clues of entries its grid does not have (a file edited by hand, a
    clue numbered past the grid), said in ``dropped``: every command then reads the same clues,
    and none writes a clue that no entry would read back."""
    names = {slot.name for slot in puzzle.slots}
    stray = sorted((k for k in puzzle.clues if k not in names), key=_clue_order)
    if not stray:
        return puzzle
    shown = ", ".join(stray[:5]) + (", ..." if len(stray) > 5 else "")
    return replace(puzzle, clues={k: v for k, v in puzzle.clues.items() if k in names},
                   dropped=(*puzzle.dropped, f"clues for entries the grid does not have: "
                            f"{len(stray)} ({shown}), dropped"))


def _clue_order(name: str) -> tuple[str, int, str]:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (name[-1:], int(digits) if digits else 0, name)


def read_grid(path: Path | str) -> Grid:
    """The pattern (blocks, empty cells, given letters) of any readable puzzle file."""
    return read_puzzle(Path(path)).pattern


def check_format(path: Path | None) -> None:
    """Refuse an output format xwsat cannot write, before any work starts."""
    if path is None:
        return
    if path.suffix.lower() == ".gz":  # read gzipped, never written so: the name would lie
        raise XwsatError(f"{path}: xwsat writes no compressed files; drop the .gz")
    ext = _extension(path) or ".txt"
    if ext not in WRITABLE:
        raise XwsatError(f"{path}: unknown output format {ext!r}; use one of "
                         f"{', '.join(WRITABLE)}")


def render_rows(path: Path, rows: tuple[str, ...], clues: dict[str, str], min_length: int,
                title: str, blank: bool = False) -> str | bytes:
    """A filled grid given as rows (generated or laid out), as ``path``'s format; ``blank``
    writes the pattern without its letters."""
    pattern = Grid(tuple("".join(BLOCK if ch == BLOCK else EMPTY for ch in row) for row in rows))
    if (_extension(path) or ".txt") == ".txt":
        return (pattern if blank else Grid(rows)).to_text()
    puzzle = Puzzle(pattern, None if blank else Grid(rows), clues, title, "xwsat", min_length)
    return render_puzzle(puzzle, path)


def render_puzzle(puzzle: Puzzle, path: Path | str, lang: str | None = None) -> str | bytes:
    """The bytes or text to write for ``path``'s extension (.txt when there is none); ``lang``
    names an .html page's language (None: read off its letters).

    A format xwsat also reads is read back before it is returned: a file that would not read
    back as the same grid and clues is never written (readers and writers agree).
    """
    ext = _extension(Path(path)) or ".txt"
    puzzle = replace(puzzle, title=clean_clue(puzzle.title) or "",
                     author=clean_clue(puzzle.author) or "",
                     copyright=clean_clue(puzzle.copyright) or "",
                     clues={k: c for k, v in puzzle.clues.items() if (c := clean_clue(v))})
    shown = puzzle.solution or puzzle.pattern
    if ext == ".txt":
        return _read_back(shown.to_text(), ext, Puzzle(shown), path)
    if ext == ".json":
        return _read_back(write_json(puzzle), ext, puzzle, path)
    if ext == ".ipuz":
        return _read_back(write_ipuz(puzzle), ext, puzzle, path)
    if ext == ".puz":
        try:
            data = write_puz(puzzle)
        except XwsatError as error:  # said with the file it is about
            raise XwsatError(f"{path}: {error}") from None
        return _read_back(data, ext, puzzle, path)
    if ext == ".svg":
        return render_svg(shown, puzzle.numbering(), title=puzzle.title, circles=puzzle.circles)
    if ext == ".html":
        return write_html(puzzle, lang)
    raise XwsatError(f"{path}: unknown output format {ext!r}; use one of {', '.join(WRITABLE)}")


def _kept_clues(puzzle: Puzzle, ext: str) -> dict[str, str]:
    """The clues as a file of this kind keeps them (a .puz: in its own text, ``puz_text``)."""
    texts = {k: puz_text(v) if ext == ".puz" else v for k, v in puzzle.clues.items()}
    return {k: v for k, v in texts.items() if v}


def _read_back(data: str | bytes, ext: str, puzzle: Puzzle, path: Path | str) -> str | bytes:
    """``data`` if it parses back to ``puzzle``'s grid, solution and clues, else an error."""
    source = f"{path} (as written)"
    try:
        if ext == ".puz":
            assert isinstance(data, bytes)
            back = read_puz(data, source)
        elif ext == ".ipuz":
            back = read_ipuz(str(data), source)
        elif ext == ".json":
            back = read_json(str(data), source)
        else:
            back = Puzzle(parse_grid(str(data), source))
    except XwsatError as exc:
        raise XwsatError(f"{path}: refusing to write a file xwsat cannot read back ({exc})"
                         ) from None
    entries = [(s.name, s.cells) for s in puzzle.slots]  # the clues' places, not only names
    same = (back.pattern.rows == puzzle.pattern.rows
            and (ext == ".txt" or [(s.name, s.cells) for s in back.slots] == entries)
            and (back.solution.rows if back.solution else None)
            == (puzzle.solution.rows if puzzle.solution else None)
            and back.circles == puzzle.circles
            and (ext != ".json" or (back.locked, back.bans, back.word_list)
                 == (puzzle.locked, puzzle.bans, puzzle.word_list))
            and {k: v for k, v in back.clues.items() if v} == _kept_clues(puzzle, ext))
    if not same:
        raise XwsatError(f"{path}: refusing to write: the {ext} file would not read back as "
                         "the same grid and clues")
    return data
