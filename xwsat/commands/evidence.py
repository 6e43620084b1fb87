"""``xwsat encode``, ``count`` and ``check-proof``: export the encodings, count the fills,
re-check a certificate."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from xwsat.commands.common import (
    budget,
    check_outputs,
    clear_status_line,
    compile_first,
    limited,
    load_grid,
    load_inputs,
    note_left_out,
    print_record,
    quiet_progress,
    status_line,
    write_atomic,
)
from xwsat.commands.options import (
    ForceOpt,
    GridArg,
    JsonOpt,
    MemoryOpt,
    QuietOpt,
    Rules,
    TimeOpt,
    Words,
    check_memory_limit,
    check_min_length,
    check_time_limit,
    grouped,
)
from xwsat.errors import XwsatError
from xwsat.exit_codes import ExitCode
from xwsat.problem import build_problem

FormatOpt = Annotated[str, typer.Option(
    "--format", "-f", help="dimacs (CNF), xcsp3 (XML, word variables), xcsp3-cells (XML, letters"
    " only: what ACE solves best), or cpsat (model proto; binary if .pb).")]
ExportOutOpt = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write here (default, or '-': standard output).")]
MapOpt = Annotated[Path | None, typer.Option(
    "--map", help="Also write a legend: what each variable and value means (to read a "
    "solver's model back into a fill).")]
PruneOpt = Annotated[bool, typer.Option(
    "--prune", help="Export after arc consistency (smaller; the default is the raw problem).")]


@grouped
def encode(
    grid: GridArg,
    words: Words,
    rules: Rules,
    fmt: FormatOpt = "dimacs",
    out: ExportOutOpt = None,
    prune: PruneOpt = False,
    legend_out: MapOpt = None,
    force: ForceOpt = False,
    time_limit: TimeOpt = 600.0,
    memory_limit: MemoryOpt = 0,
) -> None:
    """Export the fill problem for external solvers (specs in encodings/). Exit 3 (nothing
    written) when the encoding takes longer than --time-limit."""
    from xwsat.encode.solver_files import FORMATS, export_problem

    if fmt not in FORMATS:
        raise XwsatError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    check_time_limit(time_limit)
    check_memory_limit(memory_limit)
    if out is not None and str(out) == "-":  # as dict export: "-" is standard output
        out = None
    check_outputs([out, legend_out], [grid, *words.paths], force)
    with limited(time_limit, memory_limit or None):
        grid_value, word_list = load_inputs(grid, words)
        built = build_problem(grid_value, word_list, rules.min_length, rules.allow_repeats)
        binary = fmt == "cpsat" and out is not None and out.suffix.lower() == ".pb"
        result = export_problem(built, fmt, prune, str(grid), binary, legend_out is not None)
    if out is None:
        sys.stdout.buffer.write(result.data)
        sys.stdout.flush()
    else:
        write_atomic(out, result.data)
    if legend_out is not None:
        write_atomic(legend_out, result.legend)
    typer.echo(f"{'wrote ' + str(out) if out else 'exported'}: {result.summary}", err=True)


LimitOpt = Annotated[int, typer.Option("--limit", help="Stop counting at N fills (0 = count all).")]
CountMethodOpt = Annotated[str, typer.Option(
    "--method", help="auto, rows (blank rectangles), search (MAC leaves) or cpsat.")]


@grouped
def count(
    grid: GridArg,
    words: Words,
    rules: Rules,
    limit: LimitOpt = 0,
    method: CountMethodOpt = "auto",
    time_limit: TimeOpt = 60.0,
    memory_limit: MemoryOpt = 0,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Count the fills exactly (or up to --limit), respecting the repeat rule. Exit 0 when the
    count is exact or the limit was reached, 3 when the time ran out first."""
    from xwsat.evidence.count import count_fills

    quiet_progress(quiet)
    if limit < 0:
        raise XwsatError("--limit must be zero (count all) or positive")
    check_time_limit(time_limit)
    check_memory_limit(memory_limit)
    with limited(time_limit, memory_limit or None):
        grid_value, word_list = load_inputs(grid, words)
        built = build_problem(grid_value, word_list, rules.min_length, rules.allow_repeats)
        result = count_fills(built, limit or None, budget(time_limit).for_child(), status_line,
                             rules.min_length, method)
        clear_status_line()
    reached = bool(limit and result.count >= limit)
    if json_out:  # "status" as every --json record has it: "unknown" when a stop cut it short
        print_record({"status": "counted" if result.exact or reached else "unknown",
                      "count": result.count, "exact": result.exact, "reason": result.reason,
                      **({"stop": result.stop} if result.stop else {}),
                      "seconds": round(result.seconds, 3), "method": result.method})
    else:
        kind = "exactly" if result.exact else "at least"
        noun = "fill" if result.count == 1 else "fills"
        typer.echo(f"{kind} {result.count:,} {noun} ({result.reason}; {result.method}, "
                   f"{result.seconds:.2f} s)")
    raise typer.Exit(ExitCode.OK if result.exact or reached else ExitCode.UNDECIDED)


DirArg = Annotated[Path, typer.Argument(help="A certificate folder (prove --certificate).")]
EngineOpt = Annotated[str, typer.Option(
    "--engine", help="Who checks the proof: auto (xwsat's trail checker), trail, dratify (its "
    "native engine when installed), native or python (dratify's engines).")]
CheckGridOpt = Annotated[Path | None, typer.Option(
    "--grid", help="Your grid: the certificate must be about it (default: the folder's copy).")]
CheckDictOpt = Annotated[list[str] | None, typer.Option(
    "--dict", "-d", help="Your dictionary ('en', 'ru', 'es' or a file, FILE:HIGH or "
    "FILE:LOW-HIGH for its score scale; repeat to stack lists, as given to prove): the "
    "certificate must be about it (default: the folder's copy of the word list).")]
CheckMinOpt = Annotated[int | None, typer.Option(
    "--min-length", help="Your shortest slot: the certificate must be about it (default: the "
    "certificate's own rule, said in the verdict when it is not 2).")]
CheckRepeatsOpt = Annotated[bool | None, typer.Option(
    "--allow-repeats/--no-repeats", help="Your rule on repeated words: the certificate must be "
    "about it (default: the certificate's own rule).")]
CHECK_EXIT = {"verified": ExitCode.UNFILLABLE, "rejected": ExitCode.ERROR,
              "undecided": ExitCode.UNDECIDED}


def check_proof(directory: DirArg, grid: CheckGridOpt = None, dictionary: CheckDictOpt = None,
                engine: EngineOpt = "auto", time_limit: TimeOpt = 600.0,
                min_length: CheckMinOpt = None, allow_repeats: CheckRepeatsOpt = None,
                memory_limit: MemoryOpt = 0, quiet: QuietOpt = False) -> None:
    """Re-check a certificate: rebuild the formula from the grid and dictionary, compare it with
    the folder's, and check the proof against it (--engine); or, for a certificate of the
    no-repeat count, count the words that fit its slots again. Exit 1 when the certificate
    holds (the grid is unfillable), 4 when it does not, 3 when the time ran out."""
    from xwsat.evidence.drat_check import ENGINES, checker_engine
    from xwsat.evidence.recheck import Rejected, read_manifest, recheck

    quiet_progress(quiet)
    if engine not in ENGINES:
        raise XwsatError(f"--engine must be one of {', '.join(ENGINES)}")
    checker_engine(engine)  # a checker that is not installed is refused before any work
    check_time_limit(time_limit)
    check_memory_limit(memory_limit)
    if min_length is not None:
        check_min_length(min_length)
    compile_first([], checker=engine)
    with limited(time_limit, memory_limit or None):
        try:
            rules = read_manifest(directory).get("rules") or {}
        except Rejected as exc:
            typer.echo(f"NOT VERIFIED: {exc}")
            raise typer.Exit(CHECK_EXIT["rejected"]) from None
        if not isinstance(rules, dict):
            rules = {}  # the check rejects it; the user's words are read with the defaults
        fold_yo = rules.get("fold_yo") is True
        user_grid = load_grid(grid, fold_yo) if grid is not None else None
        user_words, filters = None, []
        if dictionary:
            user_words, filters = _read_as_certified(dictionary, rules, fold_yo)
        if user_words == ():  # the certificate's filters leave nothing of the user's list
            typer.echo("NOT VERIFIED: the certificate's rules (" + "; ".join(filters)
                       + ") leave none of your words: it is not about your word list")
            raise typer.Exit(CHECK_EXIT["rejected"])
        lines, verdict = recheck(directory, engine, budget(time_limit).for_child(), status_line,
                                 user_grid, user_words, filters, min_length, allow_repeats)
        clear_status_line()
    typer.echo("\n".join(lines))
    raise typer.Exit(CHECK_EXIT[verdict])


def _read_as_certified(dictionaries: list[str], rules: dict, fold_yo: bool
                       ) -> tuple[tuple[str, ...], list[str]]:
    """The user's word lists, stacked and scaled as ``prove`` reads them, with the filters the
    certificate's question names, and those filters in words with how many of the user's words
    they leave out: the verdict is about the filtered list and must say so. The list's own
    alphabet is never a filter: a word with another letter makes the list another one."""
    from xwsat.evidence.recheck import banned_words, word_filters
    from xwsat.word_stack import stacked_words

    score, declared, _, filters = word_filters(rules)
    try:
        read, _ = stacked_words(dictionaries, score, declared, fold_yo, banned_words(rules))
    except XwsatError:
        stacked_words(dictionaries)  # read as they are: a bad file is bad input (exit 2)
        return (), filters or [f"a minimum score of {score}"]  # else the certificate's filters
    note_left_out(read, declared is not None)
    words = read.words
    if filters:
        everything = len(stacked_words(dictionaries)[0].words)
        filters.append(f"your {everything:,} words are {len(words):,} under these rules")
    return words, filters


def register(app: typer.Typer) -> None:
    app.command("encode")(encode)
    app.command("count")(count)
    app.command("check-proof")(check_proof)
