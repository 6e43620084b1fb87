"""``xwsat convert``: one puzzle file to another format (text, JSON, .ipuz, .puz, SVG, HTML)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from xwsat.commands.common import check_outputs, note_left_out, write_atomic
from xwsat.commands.options import ForceOpt
from xwsat.errors import XwsatError
from xwsat.formats import WRITABLE, check_format, read_puzzle, render_puzzle
from xwsat.formats.across_lite import lost_text_note, puzzle_texts
from xwsat.formats.html import unchecked_note
from xwsat.grid import BLOCK, EMPTY, Grid
from xwsat.words import load_words


def _complete(grid: Grid) -> bool:
    """Every white cell holds a letter, and there is one (blocks alone are no solution)."""
    return (all(EMPTY not in row for row in grid.rows)
            and any(ch != BLOCK for row in grid.rows for ch in row))


def convert(
    source: Annotated[Path, typer.Argument(help="Puzzle file: text, .json, .ipuz or .puz.")],
    out: Annotated[Path, typer.Argument(
        help=f"Output file; its extension picks the format ({' '.join(WRITABLE)}).")],
    dictionary: Annotated[str, typer.Option(
        "--dict", "-d", help="Take missing clues from this dictionary ('en', 'ru', 'es' or a "
        "file).")] = "",
    title: Annotated[str, typer.Option("--title", help="Puzzle title.")] = "",
    force: ForceOpt = False,
) -> None:
    """Convert a puzzle between formats. A complete text grid is taken as the solution (with a
    blank pattern); clues come from the file, or from --dict for the entries without one."""
    if str(out) == "-":
        raise XwsatError("convert writes a file, not standard output: give its name (its "
                         f"extension picks the format: {' '.join(WRITABLE)})")
    check_format(out)
    check_outputs([out], [source, dictionary or None], force)
    words = load_words(dictionary) if dictionary else None
    if words is not None:
        note_left_out(words)
    puzzle = read_puzzle(source)
    for what in puzzle.dropped:
        typer.echo(f"note: {source}: {what}", err=True)
    if puzzle.solution is None and _complete(puzzle.pattern):
        blank = Grid(tuple("".join(BLOCK if ch == BLOCK else EMPTY for ch in row)
                           for row in puzzle.pattern.rows))
        puzzle = replace(puzzle, pattern=blank, solution=puzzle.pattern)
    clues = dict(puzzle.clues)
    if words is not None and puzzle.solution is not None:
        index = {w: i for i, w in enumerate(words.words)}
        for slot in puzzle.slots:
            answer = puzzle.answer(slot)
            if slot.name not in clues and answer in index:
                clue = words.clues.get(index[answer])
                if clue:
                    clues[slot.name] = clue
    # everything else the file said (author, copyright, notes, shortest entry) goes across
    puzzle = replace(puzzle, clues=clues, title=title or puzzle.title or source.stem)
    lang = dictionary if dictionary in ("en", "ru", "es") else None
    write_atomic(out, render_puzzle(puzzle, out, lang))
    if out.suffix.lower() == ".html" and (note := unchecked_note(puzzle)):
        typer.echo(note, err=True)
    if note := lost_text_note(out, puzzle_texts(puzzle)):
        typer.echo(note, err=True)
    kept, ext = len(clues), out.suffix.lower() or ".txt"
    if ext in (".txt", ".svg"):  # the grid alone: no clue, credit or note goes there
        left = [what for what, held in ((f"{len(clues)} clues", clues),
                                        ("the notes", puzzle.notes),
                                        ("the author", puzzle.author),
                                        ("the circles", ext == ".txt" and puzzle.circles)) if held]
        if left:
            typer.echo(f"note: {out}: a {ext} file holds the grid only; {', '.join(left)} not "
                       "written (.json, .ipuz, .puz and .html keep them)", err=True)
        kept = 0
    if puzzle.locked and ext != ".json":
        typer.echo(f"note: {out}: {len(puzzle.locked)} locked entries are not marked there "
                   "(.json keeps them)", err=True)
    typer.echo(f"wrote {out} ({puzzle.pattern.width}x{puzzle.pattern.height}, "
               f"{len(puzzle.slots)} entries, {kept} clues)")


def register(app: typer.Typer) -> None:
    app.command("convert")(convert)
