"""``xwsat fill``: fill every slot with distinct dictionary words, or say why not."""

from __future__ import annotations

import typer

from xwsat.commands.common import (
    EXIT,
    AlphabetOpt,
    BackendOpt,
    DictOpt,
    FoldOpt,
    GridArg,
    JsonOpt,
    LengthOpt,
    MemoryOpt,
    OutOpt,
    RepeatsOpt,
    ScoreOpt,
    SeedOpt,
    TimeOpt,
    fail,
    print_result,
    run_search,
    search_options,
)
from xwsat.errors import XwsatError


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
) -> None:
    """Fill every slot with distinct dictionary words (exit 0), or say why not (1 unfillable,
    3 undecided)."""
    try:
        options = search_options(backend, time_limit, seed, allow_repeats, min_length,
                                 memory_limit)
        result = run_search("fill", grid, dictionary, options, min_score, alphabet, fold_yo, out)
    except XwsatError as exc:
        raise fail(str(exc)) from None
    print_result(result, "fill", json_out)
    raise typer.Exit(EXIT[result.outcome.status])


def register(app: typer.Typer) -> None:
    app.command("fill")(fill)
