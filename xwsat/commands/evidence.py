"""``xwsat encode`` and ``xwsat count``: export the encodings, count the fills."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from xwsat.commands.common import (
    AlphabetOpt,
    DictOpt,
    FoldOpt,
    GridArg,
    LengthOpt,
    RepeatsOpt,
    ScoreOpt,
    check_min_length,
    check_writable,
    fail,
    load_inputs,
    write_atomic,
)
from xwsat.errors import XwsatError
from xwsat.problem import build_problem

FormatOpt = Annotated[str, typer.Option(
    "--format", "-f", help="dimacs (CNF), xcsp3 (XML), or cpsat (model proto; binary if .pb).")]
ExportOutOpt = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write here (default: standard output).")]
PruneOpt = Annotated[bool, typer.Option(
    "--prune", help="Export after arc consistency (smaller; the default is the raw problem).")]


def encode(
    grid: GridArg,
    dictionary: DictOpt = "en",
    fmt: FormatOpt = "dimacs",
    out: ExportOutOpt = None,
    prune: PruneOpt = False,
    allow_repeats: RepeatsOpt = False,
    min_score: ScoreOpt = 0,
    min_length: LengthOpt = 2,
    alphabet: AlphabetOpt = "",
    fold_yo: FoldOpt = False,
) -> None:
    """Export the fill problem for external solvers (specs in encodings/)."""
    from xwsat.evidence.export import FORMATS, export_problem

    try:
        if fmt not in FORMATS:
            raise XwsatError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
        check_min_length(min_length)
        check_writable(out)
        grid_value, words = load_inputs(grid, dictionary, min_score, alphabet, fold_yo)
        built = build_problem(grid_value, words, min_length, allow_repeats)
        binary = fmt == "cpsat" and out is not None and out.suffix == ".pb"
        result = export_problem(built, fmt, prune, str(grid), binary)
        if out is None:
            sys.stdout.buffer.write(result.data)
            sys.stdout.flush()
        else:
            write_atomic(out, result.data)
    except XwsatError as exc:
        raise fail(str(exc)) from None
    typer.echo(f"{'wrote ' + str(out) if out else 'exported'}: {result.summary}", err=True)


def register(app: typer.Typer) -> None:
    app.command("encode")(encode)
