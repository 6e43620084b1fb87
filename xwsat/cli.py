"""The command line: thin commands that parse options, call the library, and print.

Exit codes: 0 filled (or fillable), 1 proven unfillable, 2 bad input or usage, 3 undecided within
the limits, 4 internal error (a back-end failed or a fill failed verification).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from xwsat.backends.base import Status
from xwsat.backends.registry import validate_spec
from xwsat.errors import XwsatError
from xwsat.fill import FillOptions, FillResult, fill_grid
from xwsat.grid import Grid, parse_grid
from xwsat.info import grid_info
from xwsat.plan_report import plan_report
from xwsat.problem import build_problem
from xwsat.report import as_json, describe
from xwsat.words import WordList, load_words, normalize_word, read_text_file

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Fill crossword grids, or prove them unfillable, with real solvers.")
EXIT = {Status.FILLED: 0, Status.UNFILLABLE: 1, Status.UNKNOWN: 3, Status.ERROR: 4}

GridArg = Annotated[Path, typer.Argument(help="Grid file: '.' empty, '#' block, letters given.")]
DictOpt = Annotated[str, typer.Option("--dict", "-d", help="'en' (embedded) or a word-list file.")]
BackendOpt = Annotated[str, typer.Option(
    "--backend", "-b", help="auto, cpsat, sat, sat:SOLVER, native, native:VARIANT.")]
TimeOpt = Annotated[float, typer.Option("--time-limit", "-t", help="Seconds of wall clock.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed for every random choice.")]
RepeatsOpt = Annotated[bool, typer.Option("--allow-repeats", help="Let a word fill two slots.")]
ScoreOpt = Annotated[int, typer.Option("--min-score", help="Drop words scored below this (0-100).")]
LengthOpt = Annotated[int, typer.Option("--min-length", help="Shortest run that is a slot.")]
MemoryOpt = Annotated[int, typer.Option(
    "--memory-limit", help="MiB per solver process (0 = none).")]
AlphabetOpt = Annotated[str, typer.Option("--alphabet", help="Declare the alphabet's letters.")]
FoldOpt = Annotated[bool, typer.Option("--fold-yo", help="Fold Ё into Е (Russian).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print a machine-readable result.")]
OutOpt = Annotated[Path | None, typer.Option("--out", "-o", help="Write the filled grid here.")]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"xwsat: error: {message}", err=True)
    return typer.Exit(2)


def _load(grid_path: Path, dictionary: str, min_score: int, alphabet: str | None,
          fold_yo: bool) -> tuple[Grid, WordList]:
    if not 0 <= min_score <= 100:
        raise XwsatError("--min-score must be between 0 and 100")
    grid = parse_grid(read_text_file(grid_path), str(grid_path))
    words = load_words(dictionary, min_score, alphabet or None, fold_yo=fold_yo)
    return grid.map_letters(lambda ch: normalize_word(ch, fold_yo=fold_yo)), words


def _options(backend: str, time_limit: float, seed: int, allow_repeats: bool, min_length: int,
             memory_limit: int) -> FillOptions:
    if not 0 < time_limit <= 7 * 24 * 3600:
        raise XwsatError("--time-limit must be a positive number of seconds (at most a week)")
    if seed < 0:
        raise XwsatError("--seed must be zero or positive")
    if not 1 <= min_length <= 100:
        raise XwsatError("--min-length must be between 1 and 100")
    if memory_limit < 0:
        raise XwsatError("--memory-limit must be zero (none) or a number of MiB")
    if 0 < memory_limit < 512:
        raise XwsatError("--memory-limit below 512 MiB cannot hold a solver and its dictionary")
    return FillOptions(validate_spec(backend), time_limit, memory_limit or None, seed,
                       allow_repeats, min_length)


def _status_line(elapsed: float, busy: str) -> None:
    if sys.stderr.isatty():
        sys.stderr.write(f"\r\x1b[2K[xwsat] {elapsed:6.1f} s  solving with {busy}  (Ctrl-C stops)")
        sys.stderr.flush()


def _check_writable(path: Path | None) -> None:
    """Refuse an output path whose folder is missing before any search starts."""
    if path is not None and not (path.parent if str(path.parent) else Path(".")).is_dir():
        raise XwsatError(f"{path}: directory {path.parent} does not exist")


def _write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a failure never leaves half a file."""
    _check_writable(path)
    directory = path.parent if str(path.parent) else Path(".")
    handle, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise XwsatError(f"{path}: cannot write ({exc.strerror})") from None


def _run(question: str, grid_path: Path, dictionary: str, backend: str, time_limit: float,
         seed: int, allow_repeats: bool, min_score: int, min_length: int, memory_limit: int,
         alphabet: str, fold_yo: bool, as_machine: bool, out: Path | None) -> None:
    try:
        options = _options(backend, time_limit, seed, allow_repeats, min_length, memory_limit)
        _check_writable(out)
        grid, words = _load(grid_path, dictionary, min_score, alphabet, fold_yo)
        result: FillResult = fill_grid(grid, words, options, _status_line)
        if sys.stderr.isatty():
            sys.stderr.write("\r\x1b[2K")
        if out is not None and result.filled is not None:
            _write_atomic(out, result.filled.to_text())
    except XwsatError as exc:
        raise _fail(str(exc)) from None
    if as_machine:
        typer.echo(json.dumps(as_json(result), indent=2, ensure_ascii=False))
    else:
        typer.echo(describe(result, question))
    raise typer.Exit(EXIT[result.outcome.status])


def _search_command(question: str, doc: str) -> None:
    """Register ``fill`` or ``prove``: the same search and options, asked two ways."""

    def command(
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
    ) -> None:
        _run(question, grid, dictionary, backend, time_limit, seed, allow_repeats, min_score,
             min_length, memory_limit, alphabet, fold_yo, json_out, out)

    command.__doc__ = doc
    app.command(question)(command)


_search_command("fill", "Fill every slot with distinct dictionary words (exit 0), or say why not"
                        " (1 unfillable, 3 undecided).")
_search_command("prove", "Decide whether the grid can be filled at all: 0 fillable (--out writes"
                         " the witness), 1 unfillable, 3 undecided.")


@app.command()
def info(
    grid: GridArg,
    dictionary: DictOpt = "en",
    allow_repeats: RepeatsOpt = False,
    min_score: ScoreOpt = 0,
    min_length: LengthOpt = 2,
    alphabet: AlphabetOpt = "",
    fold_yo: FoldOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Slots, lengths, crossings, and candidates per slot before and after pruning."""
    try:
        if not 1 <= min_length <= 100:
            raise XwsatError("--min-length must be between 1 and 100")
        grid_value, words = _load(grid, dictionary, min_score, alphabet, fold_yo)
        report = grid_info(grid_value, words, min_length, allow_repeats)
    except XwsatError as exc:
        raise _fail(str(exc)) from None
    if json_out:
        typer.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        typer.echo(report.as_text())


@app.command()
def plan(
    grid: GridArg,
    dictionary: DictOpt = "en",
    seed: SeedOpt = 0,
    allow_repeats: RepeatsOpt = False,
    min_score: ScoreOpt = 0,
    min_length: LengthOpt = 2,
    alphabet: AlphabetOpt = "",
    fold_yo: FoldOpt = False,
    json_out: JsonOpt = False,
    svg: Annotated[Path | None, typer.Option("--svg", help="Draw the plan on the grid.")] = None,
) -> None:
    """The fragment planner's analysis: fill order, fragments, accelerators, difficulty."""
    try:
        if not 1 <= min_length <= 100:
            raise XwsatError("--min-length must be between 1 and 100")
        _check_writable(svg)
        grid_value, words = _load(grid, dictionary, min_score, alphabet, fold_yo)
        report = plan_report(build_problem(grid_value, words, min_length, allow_repeats), seed)
        if svg is not None:
            _write_atomic(svg, report.as_svg())
    except XwsatError as exc:
        raise _fail(str(exc)) from None
    if json_out:
        typer.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        typer.echo(report.as_text())


def main() -> None:
    """Entry point: usage errors are one line and exit 2; a bug is one line and exit 4."""
    if len(sys.argv) == 1:
        sys.argv.append("--help")
    try:
        code = app(standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("xwsat: interrupted", err=True)
        code = 130
    except Exception as exc:
        if getattr(exc, "exit_code", None) == 2 and hasattr(exc, "format_message"):
            # Typer's (vendored click's) usage errors: one line, like every other bad input.
            message = " ".join(exc.format_message().split())
            typer.echo(f"xwsat: error: {message} (see 'xwsat --help')", err=True)
            code = 2
        else:  # a bug: say so in one line, never with a verdict's exit code
            typer.echo(f"xwsat: internal error: {type(exc).__name__}: {exc}", err=True)
            code = 4
    sys.exit(code if isinstance(code, int) else 0)
