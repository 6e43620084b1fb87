"""``xwsat candidates GRID SLOT``: a slot's words ranked by score, each marked as keeping the
grid fillable, making it unfillable, or not yet known within the time limit."""

from __future__ import annotations

from typing import Annotated

import typer

from xwsat.candidates import FILLABLE, UNFILLABLE, Candidate, decide_candidates
from xwsat.commands.common import (
    budget,
    command_started,
    compile_first,
    fill_options,
    limited,
    load_inputs,
    print_record,
    with_file_bans,
    with_file_locks,
)
from xwsat.commands.options import GridArg, JsonOpt, LockOpt, Rules, Search, Words, grouped
from xwsat.errors import XwsatError
from xwsat.lock import apply_locks

SlotArg = Annotated[str, typer.Argument(help="The slot, e.g. 12A or 3D.")]
TopOpt = Annotated[int, typer.Option(
    "--top", help="Decide (and print) at most this many of the best-scored words.")]
MARKS = {FILLABLE: "fillable", UNFILLABLE: "unfillable", "unknown": "not yet known"}


def _lines(slot: str, found: list[Candidate], top: int, interrupted: bool) -> list[str]:
    fits = len(found)
    counts = {mark: sum(1 for c in found if c.verdict == mark) for mark in MARKS}
    fit = "word fits" if fits == 1 else "words fit"
    lines = [f"{slot}: {fits:,} {fit} its letters: "
             + ", ".join(f"{counts[mark]:,} {text}" for mark, text in MARKS.items())
             + ("; interrupted" if interrupted else "")]
    width = max((len(c.word) for c in found[:top]), default=4)
    lines += [f"  {c.word:<{width}} {c.score:>3}  {MARKS[c.verdict]}" + (f" ({c.how})"
                                                                          if c.how else "")
              for c in found[:top]]
    if fits > top:
        lines.append(f"  ... {fits - top:,} more (--top)")
    return lines


@grouped
def candidates(grid: GridArg, slot: SlotArg, words: Words, search: Search, rules: Rules,
               top: TopOpt = 20, lock: LockOpt = None, json_out: JsonOpt = False) -> None:
    """Rank a slot's candidate words by score and mark each fillable, unfillable or not yet
    known (decided best first by the search within --time-limit)."""
    if top < 1:
        raise XwsatError("--top must be at least 1")
    compile_first([search.backend])
    started = command_started()
    latest: list[Candidate] = []
    interrupted = False
    with limited(search.time_limit, search.memory_mb):
        locks = list(lock or [])
        words = with_file_bans(grid, words, rules.min_length, locks)
        with_file_locks(grid, locks, rules.min_length)
        target, word_list = load_inputs(grid, words)
        target, word_list, _ = apply_locks(target, word_list, locks,
                                           rules.min_length, words.fold_yo, words.ban)
        options = fill_options(search, rules, started)
        try:
            latest = decide_candidates(target, word_list, slot, options,
                                       budget(search.time_limit, started).for_child(), top,
                                       on_change=lambda found: latest.__setitem__(
                                           slice(None), found))
        except KeyboardInterrupt:  # Ctrl-C or the limit: the marks reached so far stand
            interrupted = True
    # the time limit reached inside the search leaves words of the top not yet known: that is
    # a stop before the answer too, so the exit says so as Ctrl-C's does
    open_marks = sum(1 for c in latest[:top] if c.verdict == "unknown")
    if json_out:
        print_record({"slot": slot.upper(), "interrupted": interrupted,
                      "undecided": open_marks, "fit": len(latest),
                      "candidates": [c.as_dict() for c in latest[:top]]})
    else:
        typer.echo("\n".join(_lines(slot.upper(), latest, top, interrupted)))
    raise typer.Exit(3 if interrupted or open_marks else 0)


def register(app: typer.Typer) -> None:
    app.command("candidates")(candidates)
