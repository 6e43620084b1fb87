"""``xwsat fill``: fill every slot with distinct dictionary words, or say why not.

Constructor options: ``--lock 1A=WORD`` (repeatable) fixes entries, ``--region r1,c1-r2,c2``
refills a rectangle of a filled grid, ``--optimize`` maximises the total word score, and ``--out``
writes the puzzle in the format of its extension (.txt .json .ipuz .puz .svg .html).
"""

from __future__ import annotations

import shlex
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from xwsat.commands.common import (
    check_outputs,
    clear_status_line,
    command_started,
    compile_first,
    fill_options,
    limited,
    load_inputs,
    print_record,
    status_line,
    time_left,
    write_atomic,
)
from xwsat.commands.options import (
    ForceOpt,
    GridArg,
    JsonOpt,
    LockOpt,
    Rules,
    Search,
    Words,
    grouped,
)
from xwsat.errors import XwsatError
from xwsat.formats import Puzzle, check_format, read_puzzle, render_puzzle
from xwsat.formats.html import unchecked_note
from xwsat.formats.puzfile import lost_text_note, refuse_wide_letters
from xwsat.grid import BLOCK, EMPTY, Grid, extract_slots
from xwsat.lock import apply_locks, parse_region, region_grid, with_words
from xwsat.outcome import Status
from xwsat.pipeline import FillResult, fill_grid
from xwsat.verdict_text import as_json, describe
from xwsat.words import WordList, normalize_word

if TYPE_CHECKING:  # CP-SAT's optimiser is imported only with --optimize
    from xwsat.optimize import Optimized

OutOpt = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write the puzzle here; the extension picks the format: .txt .json "
    ".ipuz .puz .svg .html (a solving page).")]
OptimizeOpt = Annotated[bool, typer.Option(
    "--optimize", help="After a first fill, maximise the total word score (CP-SAT) for the rest "
    "of --time-limit; report the weakest entries.")]
RegionOpt = Annotated[str, typer.Option(
    "--region", help="Refill only rows/columns R1,C1-R2,C2 (1-based) of a filled grid; the "
    "rest stays as it is.")]


def _prepare(grid_path: Path, words_options: Words, min_length: int, locks: list[str],
             region: str, out: Path | None) -> tuple[Grid, WordList, Puzzle]:
    """The grid to fill and the word list, after --region and --lock, and the input as a
    puzzle (its clues and credits go to the output; read now, not after the search)."""
    grid, words = load_inputs(grid_path, words_options)
    puzzle = read_puzzle(grid_path)
    fold_yo = words_options.fold_yo
    refuse_wide_letters(out, words.alphabet.letters)
    if region:
        area = parse_region(region)
        fold = lambda ch: normalize_word(ch, fold_yo=fold_yo)  # noqa: E731
        start = (puzzle.solution or puzzle.pattern).map_letters(fold)
        pattern = puzzle.pattern.map_letters(fold) if puzzle.solution is not None else None
        grid, fixed = region_grid(start, area, pattern, min_length)
        words = with_words(words, ["".join(grid.cell(c) for c in s.cells) for s in fixed])
    known = set(words.alphabet.letters)
    grid, words, placed = apply_locks(grid, words, locks, min_length, fold_yo)
    refuse_wide_letters(out, "".join(placed.values()))  # a locked word may bring its own
    _note_foreign_letters(grid, placed, known, min_length)
    if out is not None and out.suffix.lower() == ".puz":
        covered = {cell for slot in extract_slots(grid, min_length) for cell in slot.cells}
        bare = [i for i in range(grid.height * grid.width)
                if grid.is_white(i) and i not in covered and grid.cell(i) == EMPTY]
        if bare:  # said before the search, not after it
            row, col = divmod(bare[0], grid.width)
            raise XwsatError(f"{out}: .puz needs every white cell filled, and the cell at row "
                             f"{row + 1}, column {col + 1} is in no slot of {min_length}+ "
                             "letters; write .ipuz or .json instead")
    return grid, words, puzzle


def _note_foreign_letters(grid: Grid, placed: dict[str, str], known: set[str],
                          min_length: int) -> None:
    """Say when a locked word puts a letter no dictionary word has where another entry crosses
    it: that entry cannot be filled, and a mistyped script (Latin with -d ru) would otherwise
    read as a plain "unfillable"."""
    slots = extract_slots(grid, min_length)
    entries = Counter(cell for slot in slots for cell in slot.cells)
    crossed = {cell for cell, count in entries.items() if count > 1}
    for slot in slots:
        if slot.name not in placed:
            continue
        new = sorted({grid.cell(c) for c in slot.cells if c in crossed} - known)
        if new:
            typer.echo(f"note: --lock {slot.name}={placed[slot.name]} puts letters no dictionary "
                       f"word has ({''.join(new)}) where other entries cross it", err=True)


def _probe_hint(grid: Path, words: Words, rules: Rules) -> str:
    """The command that shows where an undecided grid is hard, with this run's word options."""
    parts = ["xwsat", "plan", str(grid), "--dict", str(words.dictionary)]
    if words.min_score:
        parts += ["--min-score", str(words.min_score)]
    if words.alphabet:
        parts += ["--alphabet", words.alphabet]
    if words.fold_yo:
        parts.append("--fold-yo")
    if rules.allow_repeats:
        parts.append("--allow-repeats")
    if rules.min_length != Rules().min_length:
        parts += ["--min-length", str(rules.min_length)]
    return "where it is hard: " + shlex.join([*parts, "--probe", "5"])


def _puzzle(result: FillResult, given: Puzzle, stem: str) -> Puzzle:
    """The puzzle to write: blank pattern (blocks only), the verified fill, and clues: where
    the input was a puzzle whose answer there is unchanged (``--region`` keeps most), its own
    clue, else the dictionary's. The input's title, author, copyright and notes are kept."""
    built = result.built
    blank = Grid(tuple("".join(BLOCK if ch == BLOCK else EMPTY for ch in row)
                       for row in built.grid.rows))
    before = {slot.name: (given.answer(slot), given.clues.get(slot.name))
              for slot in extract_slots(given.solution or given.pattern,
                                        min(s.length for s in built.slots))}
    clues = {}
    if result.outcome.fill is not None:
        for slot, word in zip(built.slots, result.outcome.fill):
            answer, own = before.get(slot.name, (None, None))
            clue = own if own and answer == built.words.words[int(word)] else \
                built.words.clues.get(int(word))
            if clue:
                clues[slot.name] = clue
    return Puzzle(blank, result.filled, clues, given.title or stem, given.author,
                  min(s.length for s in built.slots), given.copyright, given.notes,
                  given.circles)


def _optimize_lines(best: Optimized, result: FillResult) -> list[str]:
    from xwsat.optimize import weakest_entries

    assert result.outcome.fill is not None
    state = "optimal" if best.optimal else f"best found, bound {best.bound}"
    if best.interrupted:
        state += ", interrupted"
    steps = "improvement" if best.improvements == 1 else "improvements"
    lines = [f"total score {best.total} ({state}; first fill {best.start_total}, "
             f"{best.improvements} {steps}, {best.rounds} neighbourhoods in "
             f"{best.seconds:.1f} s)", "weakest entries:"]
    lines += [f"  {name:>5} {word} ({score})"
              for name, word, score in weakest_entries(result.built, result.outcome.fill)]
    return lines


@grouped
def fill(
    grid: GridArg,
    words: Words,
    search: Search,
    rules: Rules,
    json_out: JsonOpt = False,
    out: OutOpt = None,
    optimize: OptimizeOpt = False,
    lock: LockOpt = None,
    region: RegionOpt = "",
    force: ForceOpt = False,
) -> None:
    """Fill every slot with distinct dictionary words (exit 0), or say why not (1 unfillable,
    3 undecided)."""
    check_format(out)
    check_outputs([out], [grid, words.dictionary], force)
    compile_first([search.backend])
    started = command_started()
    best: Optimized | None = None
    with limited(search.time_limit, search.memory_mb):
        target, word_list, source = _prepare(grid, words, rules.min_length, list(lock or []),
                                             region, out)
        result = fill_grid(target, word_list, fill_options(search, rules, started), status_line)
        clear_status_line()
        if optimize and result.filled is not None:
            from xwsat.optimize import optimized_result

            left = time_left(search.time_limit, started)
            result, best = optimized_result(result, rules.allow_repeats, rules.min_length, left,
                                            search.seed, status_line)
            clear_status_line()
    data = None
    if out is not None and result.filled is not None:
        puzzle = _puzzle(result, source, grid.stem)
        data = render_puzzle(puzzle, out,
                             words.dictionary if words.dictionary in ("ru", "es") else "en")
        if out.suffix.lower() == ".html" and (note := unchecked_note(puzzle)):
            typer.echo(note, err=True)
        if note := lost_text_note(out, [*puzzle.clues.values(), puzzle.title, puzzle.author]):
            typer.echo(note, err=True)
    if json_out:
        record = as_json(result)
        if best is not None and result.outcome.fill is not None:
            from xwsat.optimize import weakest_entries

            record["optimize"] = {
                "total_score": best.total, "bound": best.bound, "optimal": best.optimal,
                "start_score": best.start_total, "improvements": best.improvements,
                "rounds": best.rounds, "seconds": round(best.seconds, 2),
                "interrupted": best.interrupted,
                "weakest": [{"slot": n, "word": w, "score": s}
                            for n, w, s in weakest_entries(result.built, result.outcome.fill)],
            }
        print_record(record)
    else:
        typer.echo(describe(result, "fill"))
        if result.outcome.status is Status.UNKNOWN and not region and not lock:
            typer.echo(_probe_hint(grid, words, rules))
        if best is not None and result.outcome.fill is not None:
            typer.echo("\n".join(_optimize_lines(best, result)))
    if data is not None and out is not None:
        write_atomic(out, data)
    raise typer.Exit(result.outcome.status.exit_code)


def register(app: typer.Typer) -> None:
    app.command("fill")(fill)
