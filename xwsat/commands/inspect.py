"""``xwsat info`` and ``xwsat plan``: look at a grid and the planner's analysis, no search."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from xwsat.commands.common import (
    AlphabetOpt,
    DictOpt,
    FoldOpt,
    ForceOpt,
    GridArg,
    JsonOpt,
    LengthOpt,
    RepeatsOpt,
    ScoreOpt,
    SeedOpt,
    check_min_length,
    check_outputs,
    fail,
    load_inputs,
    write_atomic,
)
from xwsat.errors import XwsatError
from xwsat.info import grid_info
from xwsat.plan_view import plan_report
from xwsat.problem import build_problem


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
        check_min_length(min_length)
        grid_value, words = load_inputs(grid, dictionary, min_score, alphabet, fold_yo)
        report = grid_info(grid_value, words, min_length, allow_repeats)
    except XwsatError as exc:
        raise fail(str(exc)) from None
    if json_out:
        typer.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        typer.echo(report.as_text())


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
    png: Annotated[Path | None, typer.Option("--png", help="The same picture as PNG.")] = None,
    force: ForceOpt = False,
) -> None:
    """The fragment planner's analysis: fill order, fragments, accelerators, difficulty."""
    try:
        check_min_length(min_length)
        check_outputs([svg, png], [grid, dictionary], force)
        grid_value, words = load_inputs(grid, dictionary, min_score, alphabet, fold_yo)
        report = plan_report(build_problem(grid_value, words, min_length, allow_repeats), seed)
        if svg is not None:
            write_atomic(svg, report.as_svg())
        if png is not None:
            write_atomic(png, report.as_png())
    except XwsatError as exc:
        raise fail(str(exc)) from None
    if json_out:
        typer.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        typer.echo(report.as_text())


def register(app: typer.Typer) -> None:
    app.command("info")(info)
    app.command("plan")(plan)
