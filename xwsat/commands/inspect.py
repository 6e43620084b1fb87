"""``xwsat info`` and ``xwsat plan``: look at a grid and the planner's analysis, no search."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from xwsat.commands.common import (
    budget,
    check_outputs,
    compile_first,
    limited,
    load_inputs,
    print_record,
    write_atomic,
)
from xwsat.commands.options import (
    ForceOpt,
    GridArg,
    JsonOpt,
    MemoryOpt,
    Rules,
    SeedOpt,
    TimeOpt,
    Words,
    check_memory_limit,
    check_seed,
    check_time_limit,
    grouped,
)
from xwsat.errors import XwsatError
from xwsat.exit_codes import ExitCode
from xwsat.guard import GRACE_S, PNG_RESERVE_S, SVG_RESERVE_S
from xwsat.info import grid_info
from xwsat.plan_view import plan_report
from xwsat.problem import build_problem


@grouped
def info(grid: GridArg, words: Words, rules: Rules, json_out: JsonOpt = False,
         time_limit: TimeOpt = 60.0, memory_limit: MemoryOpt = 0) -> None:
    """Slots, lengths, crossings, and candidates per slot before and after pruning."""
    check_time_limit(time_limit)
    check_memory_limit(memory_limit)
    with limited(time_limit, memory_limit or None):
        grid_value, word_list = load_inputs(grid, words)
        report = grid_info(grid_value, word_list, rules.min_length, rules.allow_repeats)
    if json_out:
        print_record(report.as_dict())
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
    memory_limit: MemoryOpt = 0,
    force: ForceOpt = False,
    probe_s: Annotated[float | None, typer.Option(
        "--probe", metavar="SECONDS",
        help="Also find where the grid is hard: the slots touching each window of the grid, "
             "decided alone by the compiled search for SECONDS each; the time left, up to "
             "--time-limit, goes to the hardest windows.",
    )] = None,
) -> None:
    """The fragment planner's analysis: fill order, fragments, accelerators, difficulty."""
    check_seed(seed)
    check_time_limit(time_limit)
    check_memory_limit(memory_limit)
    if probe_s is not None and not (0 < probe_s <= time_limit):
        raise XwsatError(f"--probe {probe_s:g}: give the seconds per window, more than 0 "
                         f"and at most --time-limit ({time_limit:g})")
    check_outputs([svg, png], [grid, *words.paths], force)
    for path, suffix in ((svg, ".svg"), (png, ".png")):
        if path is not None and path.suffix.lower() != suffix:
            raise XwsatError(f"{path}: --{suffix[1:]} writes a {suffix} file; name it so")
    if probe_s is not None:
        compile_first(["mac"])  # once, before the clock starts
    with limited(time_limit, memory_limit or None):
        grid_value, word_list = load_inputs(grid, words)
        built = build_problem(grid_value, word_list, rules.min_length, rules.allow_repeats)
        report = plan_report(built, seed)
        found = None
        if probe_s is not None:
            from xwsat.probe import probe

            drawing = (PNG_RESERVE_S if png else 0.0) + (SVG_RESERVE_S if svg else 0.0)
            found = probe(built.problem, len(grid_value.rows), grid_value.width, probe_s, seed,
                          time.monotonic() + budget(time_limit).with_margin(GRACE_S + drawing))
            report = replace(report, marked=tuple((w.top, w.left, w.size)
                                                  for w in found.hardest()))
        if svg is not None:
            write_atomic(svg, report.as_svg())
        if png is not None:
            write_atomic(png, report.as_png())
    names = built.problem.slot_names
    if json_out:
        shown = report.as_dict()
        if found is not None:
            shown["probe"] = found.as_dict(names)
            # a stopped probe says why, as every stopped --json record does
            shown["stop"] = (("interrupted" if found.interrupted else "time")
                             if found.cut_short else None)
        print_record(shown)
    else:
        typer.echo(report.as_text())
        if found is not None:
            typer.echo("\n" + found.as_text(names))
    if found is not None and found.cut_short:
        raise typer.Exit(ExitCode.UNDECIDED)  # the probe stopped short (time limit, Ctrl-C)


def register(app: typer.Typer) -> None:
    app.command("info")(info)
    app.command("plan")(plan)
