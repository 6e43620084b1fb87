"""``xwsat freeform``: lay out a free-form crossword from a word list with clues."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from xwsat import guard
from xwsat.commands.common import (
    answer_fields,
    budget,
    check_outputs,
    limited,
    print_record,
    unwritten,
    write_board,
)
from xwsat.commands.generate import parse_size
from xwsat.commands.options import (
    ForceOpt,
    JsonOpt,
    MemoryOpt,
    OutOpt,
    QuietOpt,
    SeedOpt,
    TimeOpt,
    check_memory_limit,
    check_seed,
    check_time_limit,
)
from xwsat.errors import XwsatError
from xwsat.exit_codes import ExitCode
from xwsat.formats import check_format, render_rows
from xwsat.formats.across_lite import refuse_wide_letters
from xwsat.freeform.layout import ACROSS, load_entries
from xwsat.freeform.placer import FreeformResult, UnderWay, default_size, freeform
from xwsat.outcome import Status, Stop

WordsArg = Annotated[Path, typer.Argument(
    help="Word list: WORD;SCORE;CLUE or 'word — description' lines.")]
SizeOpt = Annotated[str, typer.Option("--size", "-s", help="Board WxH (default: from the words).")]
MethodOpt = Annotated[str, typer.Option(
    "--method", "-m", help="cpsat (optimise from the greedy board), greedy, or source (the "
    "source article's greedy alone, for comparison).")]
BoardsOpt = Annotated[int, typer.Option(
    "--boards", help="Greedy: random word orders to try (best kept).")]


def describe(result: FreeformResult) -> str:
    layout = result.layout
    total = len(layout.entries)
    if result.outcome.status is Status.UNKNOWN:
        return f"UNDECIDED: {result.outcome.message} ({result.elapsed:.2f} s)"
    lines = [f"PLACED {len(layout.placed)} of {result.total} words by {result.method} in "
             f"{result.elapsed:.2f} s ({layout.width}x{layout.height}, {layout.crossings()} "
             f"crossings, {'verified' if result.verified else 'NOT VERIFIED'})"]
    lines += [f"note: {n}" for n in result.notes]
    lines += ["", *(" ".join(row) for row in layout.rows()), ""]
    numbered = layout.numbered()
    for direction, title in ((ACROSS, "Across"), ("down", "Down")):
        lines.append(f"{title}:")
        lines += [f"  {n:>3}. {layout.entries[p.entry].clue or NO_CLUE} "
                  f"({len(layout.entries[p.entry].word)})"
                  for n, p in numbered if p.direction == direction]
    left = [layout.entries[i].word for i in sorted(set(range(total)) -
                                                   {p.entry for p in layout.placed})]
    if left + result.skipped:
        lines.append("Not placed: " + ", ".join(left + result.skipped))
    return "\n".join(lines)


def clues_by_slot(result: FreeformResult) -> dict[str, str]:
    """Clue text by slot name ("1A", "3D"), for puzzle files."""
    layout = result.layout
    return {f"{n}{'A' if p.direction == ACROSS else 'D'}": layout.entries[p.entry].clue
            for n, p in layout.numbered()}


def as_json(result: FreeformResult) -> dict[str, Any]:
    layout = result.layout
    placed_ids = {p.entry for p in layout.placed}
    return {
        "status": "placed" if result.verified else "error", "method": result.method,
        "verified": result.verified,
        "width": layout.width, "height": layout.height, "words": result.total,
        "placed_count": len(layout.placed), "crossings": layout.crossings(),
        "grid": list(layout.rows()),
        "placed": [{"number": n, "word": layout.entries[p.entry].word, "row": p.row,
                    "col": p.col, "direction": p.direction,
                    "clue": layout.entries[p.entry].clue} for n, p in layout.numbered()],
        "not_placed": [e.word for i, e in enumerate(layout.entries) if i not in placed_ids]
        + result.skipped,
        "notes": result.notes, "elapsed_s": round(result.elapsed, 3), "stats": result.stats,
    }


MAX_SIDE = 40
NO_CLUE = "(no clue)"  # shown for a word the list gives no clue for


def _place(words: Path, size: str, time_limit: float, method: str, seed: int, boards: int,
           out: Path | None, quiet: bool, started: float, stop: threading.Event,
           under_way: list[UnderWay], notes: list[str]) -> FreeformResult:
    """Read the words, size the board and place them (``notes`` gets what the reading says;
    ``under_way`` the placement, for a stop midway)."""
    entries, read_notes = load_entries(words)
    notes += read_notes
    refuse_wide_letters(out, "".join(entry.word for entry in entries))
    if size:
        width, height = parse_size(size)
        if not (2 <= width <= MAX_SIDE and 2 <= height <= MAX_SIDE):
            raise XwsatError(f"--size must be WxH with sides from 2 to {MAX_SIDE}")
    else:
        width, height = default_size(entries)
        if max(width, height) > MAX_SIDE:
            notes.append(f"{len(entries)} words would need a {width}x{height} board; "
                         f"using the largest, {MAX_SIDE}x{MAX_SIDE}")
            width, height = min(width, MAX_SIDE), min(height, MAX_SIDE)

    def progress(message: str) -> None:
        if not quiet:
            sys.stderr.write(f"[xwsat] {time.monotonic() - started:6.1f} s  {message}\n")

    left = budget(time_limit).for_child()
    return freeform(entries, width, height, method, left, seed, boards,
                    progress, stop, crop=not size, under_way=under_way)


def freeform_command(
    words: WordsArg,
    size: SizeOpt = "",
    time_limit: TimeOpt = 30.0,
    memory_limit: MemoryOpt = 0,
    method: MethodOpt = "cpsat",
    seed: SeedOpt = 0,
    boards: BoardsOpt = 100,
    out: OutOpt = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    force: ForceOpt = False,
) -> None:
    """Place as many words as possible across and down, each crossing another, touching only at
    crossings; print the grid and the numbered clues (exit 0; 4 if verification failed)."""
    started = time.monotonic()
    check_time_limit(time_limit)
    check_memory_limit(memory_limit)
    check_seed(seed)
    if not 1 <= boards <= 1_000_000:
        raise XwsatError("--boards must be between 1 and 1000000")
    check_outputs([out], [words], force)
    check_format(out)
    stop, under_way = threading.Event(), []
    notes: list[str] = []
    ended: Stop | None = None  # how a stop midway ended the placement
    try:
        with limited(time_limit, memory_limit or None):
            result = _place(words, size, time_limit, method, seed, boards, out, quiet, started,
                            stop, under_way, notes)
    except KeyboardInterrupt as exc:  # Ctrl-C, or a limit in a later step: the board found
        if not under_way:  # so far is printed and written, not lost
            raise
        ended, message = guard.interruption(exc)
        result = under_way[0].finish(interrupted=ended is Stop.INTERRUPTED)
        if ended is not Stop.INTERRUPTED and result.verified:
            result.notes.append(f"{message} before the placement ended: the best board found "
                                "until then")
    if stop.is_set() or guard.user_stopped():  # Ctrl-C, caught by the placement itself
        ended = Stop.INTERRUPTED
    result.notes[:0] = notes
    not_written = None
    if out is not None and result.verified:
        clues = clues_by_slot(result)
        not_written = write_board(out, render_rows(out, result.layout.rows(), clues, 2,
                                                   f"Free-form crossword ({words.name})"),
                                  clues.values(), len(clues))
    wrote = out is not None and result.verified and not not_written
    if json_out:
        print_record(as_json(result) | {"stop": ended.value if ended is not None else None}
                     | answer_fields(out, wrote, not_written))
    else:
        typer.echo(describe(result))
        if wrote:
            typer.echo(f"wrote {out}")
    if not_written:
        raise unwritten(not_written)
    # Ctrl-C ends a command as stopped (exit 3), with the board it has printed and written
    raise typer.Exit(ExitCode.UNDECIDED if ended is Stop.INTERRUPTED
                     else result.status.exit_code)


def register(app: typer.Typer) -> None:
    app.command("freeform")(freeform_command)
