"""``xwsat fill``: fill every slot with distinct dictionary words, or say why not.

Constructor options: ``--lock 1A=WORD`` (repeatable) fixes entries, ``--region r1,c1-r2,c2``
refills a rectangle of a filled grid, ``--optimize`` maximises the total word score, and ``--out``
writes the puzzle in the format of its extension (.txt .json .ipuz .puz .svg .html).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from xwsat.commands import common
from xwsat.commands.common import (
    EXIT,
    AlphabetOpt,
    BackendOpt,
    FoldOpt,
    ForceOpt,
    JsonOpt,
    LengthOpt,
    MemoryOpt,
    RepeatsOpt,
    ScoreOpt,
    SeedOpt,
    TimeOpt,
    check_outputs,
    clear_status_line,
    fail,
    load_inputs,
    search_options,
    status_line,
    write_atomic,
)
from xwsat.errors import XwsatError
from xwsat.formats import Puzzle, check_format, read_puzzle, render_puzzle
from xwsat.grid import BLOCK, EMPTY, Grid
from xwsat.lock import apply_locks, parse_region, region_grid, with_words
from xwsat.optimize import Optimized, optimized_result, weakest_entries
from xwsat.pipeline import FillOptions, FillResult
from xwsat.verdict_text import as_json, describe
from xwsat.words import WordList, normalize_word

GridArg = Annotated[Path, typer.Argument(
    help="Grid file: text ('.' empty, '#' block, letters given), .ipuz, .puz or .json.")]
DictOpt = Annotated[str, typer.Option(
    "--dict", "-d", help="'en', 'ru', 'es' (embedded) or a word-list file.")]
OutOpt = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write the puzzle here; the extension picks the format: .txt .json "
    ".ipuz .puz .svg .html (a solving page).")]
OptimizeOpt = Annotated[bool, typer.Option(
    "--optimize", help="After a first fill, maximise the total word score (CP-SAT) for the rest "
    "of --time-limit; report the weakest entries.")]
LockOpt = Annotated[list[str] | None, typer.Option(
    "--lock", help="Fix an entry, e.g. --lock 1A=OCEAN (repeatable; words outside the "
    "dictionary are allowed).")]
RegionOpt = Annotated[str, typer.Option(
    "--region", help="Refill only rows/columns R1,C1-R2,C2 (1-based) of a filled grid; the "
    "rest stays as it is.")]


def _check_out(out: Path | None, inputs: list[Path | str | None], force: bool) -> None:
    check_format(out)
    check_outputs([out], inputs, force)


def _prepare(grid_path: Path, dictionary: str, min_score: int, alphabet: str, fold_yo: bool,
             min_length: int, locks: list[str], region: str,
             out: Path | None) -> tuple[Grid, WordList]:
    """The grid to fill and the word list, after --region and --lock."""
    grid, words = load_inputs(grid_path, dictionary, min_score, alphabet, fold_yo)
    if out is not None and out.suffix.lower() == ".puz":
        wide = [ch for ch in words.alphabet.letters if len(ch.encode("latin-1", "replace")) != 1
                or ch.encode("latin-1", "replace") == b"?"]
        if wide:
            raise XwsatError(f"{out}: .puz cells are one ISO-8859-1 byte and the dictionary's "
                             f"alphabet has {''.join(wide[:12])}...; write .ipuz instead")
    if region:
        area = parse_region(region)
        puzzle = read_puzzle(grid_path)
        fold = lambda ch: normalize_word(ch, fold_yo=fold_yo)  # noqa: E731
        start = (puzzle.solution or puzzle.pattern).map_letters(fold)
        pattern = puzzle.pattern.map_letters(fold) if puzzle.solution is not None else None
        grid, fixed = region_grid(start, area, pattern, min_length)
        words = with_words(words, ["".join(grid.cell(c) for c in s.cells) for s in fixed])
    grid, words, _ = apply_locks(grid, words, locks, min_length, fold_yo)
    return grid, words


def _puzzle(result: FillResult, title: str) -> Puzzle:
    """The puzzle to write: blank pattern (blocks only), the verified fill, dictionary clues."""
    built = result.built
    blank = Grid(tuple("".join(BLOCK if ch == BLOCK else EMPTY for ch in row)
                       for row in built.grid.rows))
    clues = {}
    if result.outcome.fill is not None:
        for slot, word in zip(built.slots, result.outcome.fill):
            clue = built.words.clues.get(int(word))
            if clue:
                clues[slot.name] = clue
    return Puzzle(blank, result.filled, clues, title, min_length=min(s.length
                                                                      for s in built.slots))


def _optimize_lines(best: Optimized, result: FillResult) -> list[str]:
    assert result.outcome.fill is not None
    state = "optimal" if best.optimal else f"best found, bound {best.bound}"
    if best.interrupted:
        state += ", interrupted"
    lines = [f"total score {best.total} ({state}; first fill {best.start_total}, "
             f"{best.improvements} improvements, {best.rounds} neighbourhoods in "
             f"{best.seconds:.1f} s)", "weakest entries:"]
    lines += [f"  {name:>5} {word} ({score})"
              for name, word, score in weakest_entries(result.built, result.outcome.fill)]
    return lines


def fill(
    grid: GridArg,
    dictionary: DictOpt = "en",
    backend: BackendOpt = "auto",
    time_limit: TimeOpt = 60.0,
    seed: SeedOpt = 0,
    allow_repeats: RepeatsOpt = False,
    min_score: ScoreOpt = 0,
    min_length: LengthOpt = 2,
    memory_limit: MemoryOpt = 0,
    alphabet: AlphabetOpt = "",
    fold_yo: FoldOpt = False,
    json_out: JsonOpt = False,
    out: OutOpt = None,
    optimize: OptimizeOpt = False,
    lock: LockOpt = None,
    region: RegionOpt = "",
    force: ForceOpt = False,
) -> None:
    """Fill every slot with distinct dictionary words (exit 0), or say why not (1 unfillable,
    3 undecided)."""
    started = time.monotonic()
    best: Optimized | None = None
    try:
        options: FillOptions = search_options(backend, time_limit, seed, allow_repeats,
                                              min_length, memory_limit)
        _check_out(out, [grid, dictionary], force)
        target, words = _prepare(grid, dictionary, min_score, alphabet, fold_yo, min_length,
                                 list(lock or []), region, out)
        result = common.fill_grid(target, words, options, status_line)  # the commands' one seam
        clear_status_line()
        if optimize and result.filled is not None:
            left = max(1.0, time_limit - (time.monotonic() - started))
            result, best = optimized_result(result, allow_repeats, min_length, left, seed,
                                            status_line)
            clear_status_line()
        data = None
        if out is not None and result.filled is not None:
            data = render_puzzle(_puzzle(result, grid.stem), out,
                                 dictionary if dictionary in ("ru", "es") else "en")
    except XwsatError as exc:
        clear_status_line()
        raise fail(str(exc)) from None
    if json_out:
        record = as_json(result)
        if best is not None and result.outcome.fill is not None:
            record["optimize"] = {
                "total_score": best.total, "bound": best.bound, "optimal": best.optimal,
                "start_score": best.start_total, "improvements": best.improvements,
                "rounds": best.rounds, "seconds": round(best.seconds, 2),
                "interrupted": best.interrupted,
                "weakest": [{"slot": n, "word": w, "score": s}
                            for n, w, s in weakest_entries(result.built, result.outcome.fill)],
            }
        typer.echo(json.dumps(record, indent=2, ensure_ascii=False))
    else:
        typer.echo(describe(result, "fill"))
        if best is not None and result.outcome.fill is not None:
            typer.echo("\n".join(_optimize_lines(best, result)))
    if data is not None and out is not None:
        try:
            write_atomic(out, data)
        except XwsatError as exc:
            raise fail(str(exc)) from None
    raise typer.Exit(EXIT[result.outcome.status])


def register(app: typer.Typer) -> None:
    app.command("fill")(fill)
