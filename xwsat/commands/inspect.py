"""``xwsat info`` and ``xwsat plan``: look at a grid and the planner's analysis, no search."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from xwsat.commands.common import check_outputs, limited, load_inputs, write_atomic
from xwsat.commands.options import (
    ForceOpt,
    GridArg,
    JsonOpt,
    Rules,
    SeedOpt,
    TimeOpt,
    Words,
    check_seed,
    check_time_limit,
    grouped,
)
from xwsat.errors import XwsatError
from xwsat.info import grid_info
from xwsat.plan_view import plan_report
from xwsat.problem import build_problem


@grouped
def info(grid: GridArg, words: Words, rules: Rules, json_out: JsonOpt = False,
         time_limit: TimeOpt = 60.0) -> None:
    """Slots, lengths, crossings, and candidates per slot before and after pruning."""
    check_time_limit(time_limit)
    with limited(time_limit):
        grid_value, word_list = load_inputs(grid, words)
        report = grid_info(grid_value, word_list, rules.min_length, rules.allow_repeats)
    if json_out:
        typer.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        typer.echo(report.as_text())


@grouped
def plan(
    grid: GridArg,
    words: Words,
    rules: Rules,
    seed: SeedOpt = 0,
    json_out: JsonOpt = False,
    svg: Annotated[Path | None, typer.Option("--svg", help="Draw the plan on the grid.")] = None,
    png: Annotated[Path | None, typer.Option("--png", help="The same picture as PNG.")] = None,
    time_limit: TimeOpt = 60.0,
    force: ForceOpt = False,
) -> None:
    """The fragment planner's analysis: fill order, fragments, accelerators, difficulty."""
    check_seed(seed)
    check_time_limit(time_limit)
    check_outputs([svg, png], [grid, words.dictionary], force)
    for path, suffix in ((svg, ".svg"), (png, ".png")):
        if path is not None and path.suffix.lower() != suffix:
            raise XwsatError(f"{path}: --{suffix[1:]} writes a {suffix} file; name it so")
    with limited(time_limit):
        grid_value, word_list = load_inputs(grid, words)
        report = plan_report(build_problem(grid_value, word_list, rules.min_length,
                                           rules.allow_repeats), seed)
        if svg is not None:
            write_atomic(svg, report.as_svg())
        if png is not None:
            write_atomic(png, report.as_png())
    if json_out:
        typer.echo(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
    else:
        typer.echo(report.as_text())


def register(app: typer.Typer) -> None:
    app.command("info")(info)
    app.command("plan")(plan)
