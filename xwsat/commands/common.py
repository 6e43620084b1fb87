"""What every command shares: option types, loading inputs, atomic writes, one-line errors."""

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
from xwsat.formats import read_grid
from xwsat.grid import Grid
from xwsat.pipeline import FillOptions, FillResult, fill_grid
from xwsat.verdict_text import as_json, describe
from xwsat.words import WordList, load_words, normalize_word

EXIT = {Status.FILLED: 0, Status.UNFILLABLE: 1, Status.UNKNOWN: 3, Status.ERROR: 4}

GridArg = Annotated[Path, typer.Argument(help="Grid file: '.' empty, '#' block, letters given.")]
DictOpt = Annotated[str, typer.Option("--dict", "-d", help="'en' (embedded) or a word-list file.")]
BackendOpt = Annotated[str, typer.Option(
    "--backend", "-b",
    help="auto, auto:POLICY, mac, native, native:VARIANT, sat, sat:SOLVER, cpsat, ace.")]
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
ForceOpt = Annotated[bool, typer.Option(
    "--force", help="Replace output files that already exist (an input is never replaced).")]


def fail(message: str) -> typer.Exit:
    """Print a one-line error and return the exit (code 2) for the caller to raise."""
    typer.echo(f"xwsat: error: {message}", err=True)
    return typer.Exit(2)


def load_grid(grid_path: Path, fold_yo: bool) -> Grid:
    """Read a grid (text, .json, .ipuz, .puz by extension), letters normalised like words."""
    grid = read_grid(grid_path)
    return grid.map_letters(lambda ch: normalize_word(ch, fold_yo=fold_yo))


def load_inputs(grid_path: Path, dictionary: str, min_score: int, alphabet: str | None,
                fold_yo: bool) -> tuple[Grid, WordList]:
    """Read the grid and the dictionary, with the grid's letters normalised like the words."""
    if not 0 <= min_score <= 100:
        raise XwsatError("--min-score must be between 0 and 100")
    grid = load_grid(grid_path, fold_yo)
    words = load_words(dictionary, min_score, alphabet or None, fold_yo=fold_yo)
    return grid, words


def check_time_limit(time_limit: float) -> None:
    if not 0 < time_limit <= 7 * 24 * 3600:  # also refuses NaN
        raise XwsatError("--time-limit must be a positive number of seconds (at most a week)")


def check_seed(seed: int) -> None:
    if seed < 0:
        raise XwsatError("--seed must be zero or positive")


def check_min_length(min_length: int) -> None:
    if not 1 <= min_length <= 100:
        raise XwsatError("--min-length must be between 1 and 100")


def search_options(backend: str, time_limit: float, seed: int, allow_repeats: bool,
                   min_length: int, memory_limit: int) -> FillOptions:
    """Validate the search options before any work starts."""
    check_time_limit(time_limit)
    check_seed(seed)
    check_min_length(min_length)
    if memory_limit < 0:
        raise XwsatError("--memory-limit must be zero (none) or a number of MiB")
    if 0 < memory_limit < 512:
        raise XwsatError("--memory-limit below 512 MiB cannot hold a solver and its dictionary")
    return FillOptions(validate_spec(backend), time_limit, memory_limit or None, seed,
                       allow_repeats, min_length)


def status_line(elapsed: float, busy: str) -> None:
    """A live one-line progress report on a terminal (nothing when piped)."""
    if sys.stderr.isatty():
        sys.stderr.write(f"\r\x1b[2K[xwsat] {elapsed:6.1f} s  solving with {busy}  (Ctrl-C stops)")
        sys.stderr.flush()


def clear_status_line() -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[2K")


def check_writable(path: Path | None) -> None:
    """Refuse an output path whose folder is missing, or that is a folder, before any work."""
    if path is None:
        return
    if not (path.parent if str(path.parent) else Path(".")).is_dir():
        raise XwsatError(f"{path}: directory {path.parent} does not exist")
    if path.is_dir():
        raise XwsatError(f"{path}: is a directory; give a file name to write")
    folder = path.parent if str(path.parent) else Path(".")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise XwsatError(f"{path}: cannot write in {folder} (permission denied)")


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (links and relative spellings included)."""
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def check_outputs(outputs: list[Path | None], inputs: list[Path | str | None],
                  force: bool = False) -> None:
    """Before any work: each output can be written, is none of the inputs and none of the other
    outputs, and replaces an existing file only with --force (xwsat never rewrites a file it
    did not create in this run unless asked to)."""
    given = [o for o in outputs if o is not None]
    sources = [Path(i) for i in inputs if i is not None and Path(i).exists()]
    for number, path in enumerate(given):
        check_writable(path)
        for source in sources:
            if same_file(path, source):
                raise XwsatError(f"{path}: is also an input of this command; write the output "
                                 "elsewhere")
        if any(same_file(path, other) for other in given[:number]):
            raise XwsatError(f"{path}: named as two outputs")
        if path.exists() and not force:
            raise XwsatError(f"{path}: exists; add --force to replace it")


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write via a temporary file and rename, so a failure never leaves half a file."""
    check_writable(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        handle, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.")
    except OSError as exc:
        raise XwsatError(f"{path}: cannot write ({exc.strerror})") from None
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(handle, 0o666 & ~umask)  # mkstemp's 0600 would hide the output from others
        if isinstance(data, bytes):
            with os.fdopen(handle, "wb") as out:
                out.write(data)
        else:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise XwsatError(f"{path}: cannot write ({exc.strerror})") from None


def run_search(question: str, grid_path: Path, dictionary: str, options: FillOptions,
               min_score: int, alphabet: str, fold_yo: bool,
               out: Path | None) -> FillResult:
    """Load, search, verify (inside fill_grid) and write the witness; errors become XwsatError."""
    check_writable(out)
    grid, words = load_inputs(grid_path, dictionary, min_score, alphabet, fold_yo)
    result = fill_grid(grid, words, options, status_line)
    clear_status_line()
    if out is not None and result.filled is not None:
        write_atomic(out, result.filled.to_text())
    return result


def print_result(result: FillResult, question: str, as_machine: bool) -> None:
    if as_machine:
        typer.echo(json.dumps(as_json(result), indent=2, ensure_ascii=False))
    else:
        typer.echo(describe(result, question))
