"""The background searches of a page, each run in a child process (``xwsat.workbench.jobs``).

Each function takes library values and returns (and reports as it goes, through
``guard.report_partial``) plain dicts for the page: the child can be killed at any moment,
and what it said last is what the page shows.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from xwsat import guard
from xwsat.alternatives import differences, find_alternatives, open_slots, words_of
from xwsat.candidates import decide_candidates
from xwsat.grid import EMPTY, Grid
from xwsat.outcome import Status
from xwsat.pipeline import FillOptions, FillResult, fill_grid
from xwsat.problem import Built, build_problem, fill_letters
from xwsat.quality.levels import exempt_slots, fill_level
from xwsat.verify import check_fill
from xwsat.words import WordList
from xwsat.workbench import quality

VERDICT = {Status.FILLED: "fillable", Status.UNFILLABLE: "unfillable",
           Status.UNKNOWN: "unknown", Status.ERROR: "error"}


def core_of(built: Built, time_limit: float) -> dict[str, Any]:
    """A small set of slots that cannot be filled together (``slot_core.smallest``), as slot
    names and their cells."""
    from xwsat.evidence.slot_core import smallest

    kept, minimal = smallest(built.problem, max(0.2, time_limit))
    slots = [built.slots[s] for s in kept]
    return {"core": [s.name for s in slots],
            "core_cells": sorted({c for s in slots for c in s.cells}), "minimal": minimal}


def decide(grid: Grid, words: WordList, options: FillOptions, explain_s: float
           ) -> dict[str, Any]:
    """Fillable, unfillable (with its core) or not yet known, within ``options.time_limit``."""
    result = fill_grid(grid, words, options)
    outcome = result.outcome
    seconds = round(sum(result.times.values()), 2)
    answer: dict[str, Any] = {"status": VERDICT[outcome.status], "method": outcome.method,
                              "seconds": seconds}
    if outcome.status is Status.FILLED and not result.verified:
        answer["status"] = "error"
    if outcome.status is Status.UNFILLABLE and outcome.evidence is not None:
        answer["why"] = (outcome.evidence.detail if outcome.method in ("propagate", "matching")
                         else f"proven by the search ({outcome.method}, {seconds} s)")
        guard.report_partial(answer)
        answer.update(core_of(result.built, explain_s))
    elif outcome.status is Status.UNKNOWN:
        answer["why"] = f"undecided within {options.time_limit:.0f} s"
    elif outcome.message:
        answer["why"] = outcome.message
    return answer


def _fill_answer(built: Built, reached: quality.Reached, improving: bool) -> dict[str, Any]:
    """The fill as the page shows it: the letters of the cells the search filled, its score
    level and whether that level is proven the highest."""
    fill = reached.fill
    letters = fill_letters(built, fill)
    return {"status": "improving" if improving else "filled",
            "letters": {str(k): v for k, v in letters.items() if built.grid.cell(k) == EMPTY},
            "total": quality.total(built, fill), "optimal": reached.optimal,
            "level": reached.level, "proven": reached.proven, "why_not": reached.why_not,
            "weakest": [{"slot": n, "word": w, "score": s}
                        for n, w, s in quality.weakest(built, fill)]}


def fill_again(grid: Grid, words: WordList, letters: Any) -> dict[str, Any] | None:
    """A suggested fill a reloaded page kept (its letters by cell), as autofill reported it,
    when it still fills every open cell of ``grid`` with words of ``words`` (checked by
    ``check_fill``, which trusts nothing here); None otherwise. Its level, total and weakest
    entries are computed again; what the page cannot show true (a proven level) is left out."""
    size = grid.width * grid.height
    empty = {i for i in range(size) if grid.cell(i) == EMPTY}
    if not isinstance(letters, dict) or len(letters) > size:
        return None
    try:
        cells = {int(k): v for k, v in letters.items()}
    except (TypeError, ValueError):
        return None
    if not all(isinstance(v, str) and len(v) == 1 and 0 <= k < size for k, v in cells.items()):
        return None
    # an entry accepted from it already stands in the grid: those letters are the grid's now
    cells = {k: v for k, v in cells.items() if grid.cell(k) != v}
    if set(cells) != empty:
        return None
    filled = grid.with_letters(cells)
    built = build_problem(grid, words)
    offered = {words.words[i]: i for n in {s.length for s in built.slots}  # not the banned
               for i in words.ids_of_length(n).tolist()}
    if check_fill(grid.rows, filled.rows, offered):
        return None
    fill = tuple(offered["".join(filled.cell(c) for c in slot.cells)] for slot in built.slots)
    reached = quality.Reached(fill, fill_level(built, fill, exempt_slots(built)))
    return {**_fill_answer(built, reached, False), "first_s": None, "kept": True}


def _refill(grid: Grid, words: WordList, options: FillOptions, current: tuple[str, ...]
            ) -> FillResult:
    """A fill of a selection that changes at least one of its entries, as ``fill --region``
    does (``xwsat.alternatives``): the one that is there is no suggestion."""
    deadline = time.monotonic() + options.time_limit
    found = find_alternatives(grid, words, options, 1, 1,
                              lambda: max(0.1, deadline - time.monotonic()), None, [current],
                              open_slots(grid, options.min_length), by_seed=True)
    return found.best


def autofill(grid: Grid, words: WordList, options: FillOptions, improve_s: float,
             explain_s: float = 0.0, current: tuple[str, ...] | None = None
             ) -> dict[str, Any]:
    """A first verified fill as fast as the search finds it, then better ones while
    ``improve_s`` lasts (the ladder: the highest score level, then the fewest entries at it);
    every fill reported is verified (``fill_grid``, the ladder's searches, ``check_fill``)."""
    started = time.monotonic()
    first_s: list[float] = []  # when the page got its first fill

    def show(result: FillResult) -> None:
        """The search's own fill, at once: the lift then reworks its weakest entries."""
        assert result.outcome.fill is not None
        built = result.built
        fill = result.outcome.fill
        first_s.append(round(time.monotonic() - started, 2))
        reached = quality.Reached(fill, fill_level(built, fill, exempt_slots(built)))
        guard.report_partial({**_fill_answer(built, reached, True), "first_s": first_s[0]})

    result = (fill_grid(grid, words, options, on_first=show) if current is None else
              _refill(grid, words, options, current))
    outcome = result.outcome
    if outcome.status is not Status.FILLED or outcome.fill is None or not result.verified:
        answer = {"status": VERDICT[outcome.status], "method": outcome.method}
        if outcome.evidence is not None:
            answer["why"] = f"{outcome.evidence.method}: {outcome.evidence.detail}"
            if explain_s > 0 and outcome.status is Status.UNFILLABLE:  # the grid's verdict too
                guard.report_partial(dict(answer))
                answer.update(core_of(result.built, explain_s))
        elif outcome.status is Status.UNKNOWN:
            answer["why"] = f"no fill found within {options.time_limit:.0f} s"
        return answer
    exempt = exempt_slots(result.built)
    start = quality.Reached(outcome.fill, fill_level(result.built, outcome.fill, exempt))
    first = _fill_answer(result.built, start, improve_s > 0.5)
    first["first_s"] = first_s[0] if first_s else round(time.monotonic() - started, 2)
    guard.report_partial(first)
    best = start
    if improve_s > 0.5:
        def same(reached: quality.Reached) -> bool:  # a better fill that undoes the refill
            return current is not None and differences(
                words_of(result.built, reached.fill), current,
                open_slots(grid, options.min_length)) == 0

        def better(reached: quality.Reached) -> None:
            if not same(reached):
                guard.report_partial({**_fill_answer(result.built, reached, True),
                                      "first_s": first["first_s"]})

        best = quality.improve(result, options, improve_s, better)
        if same(best):
            best = start
    final = _fill_answer(result.built, best, False)
    final["first_s"] = first["first_s"]
    return final


def candidates(grid: Grid, words: WordList, slot: str, options: FillOptions,
               time_limit: float, shown: int) -> dict[str, Any]:
    """The slot's candidates, decided best first; the list is reported after each word."""
    def report(found: list) -> None:
        guard.report_partial({"slot": slot, "total": len(found),
                              "candidates": [c.as_dict() for c in found[:shown]]})

    found = decide_candidates(grid, words, slot, options, time_limit, shown, on_change=report)
    return {"slot": slot, "total": len(found), "done": True,
            "candidates": [c.as_dict() for c in found[:shown]]}


def certificate(grid: Grid, words: WordList, options: FillOptions, folder: str,
                rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """Write and check a certificate of unfillability in a new folder under ``folder``;
    ``rules``: the question's options, recorded for ``check-proof`` (``Session._question``)."""
    from xwsat.evidence.certificate import certify

    built = build_problem(grid, words, options.min_length, options.allow_repeats)
    directory = Path(tempfile.mkdtemp(dir=folder)) / "certificate"
    run = certify(built, directory, "workbench grid", options.time_limit or 60.0,
                  rules=rules, seed=options.seed)
    return {"status": VERDICT[run.outcome.status], "checked": run.checked,
            "directory": str(directory),
            "files": sorted(p.name for p in directory.iterdir()) if directory.exists() else []}


def patterns(grid: Grid, words: WordList, count: int, seed: int, time_limit: float,
             try_limit: float) -> dict[str, Any]:
    """Fillable block patterns around the grid's theme letters (``pattern_suggest``), each
    with its verified fill; the list is reported as each one is found."""
    from xwsat.pattern_suggest import suggest_patterns

    def shown(found: list) -> list[dict[str, Any]]:
        return [{"pattern": list(f.pattern.rows), "fill": list(f.fill.rows),
                 "words": f.stats.words, "blocks": f.stats.blocks,
                 "cheaters": len(f.stats.cheaters), "seconds": f.seconds} for f in found]

    report = suggest_patterns(
        grid, words, count, seed, time_limit, try_limit=try_limit,
        say=lambda m: guard.report_partial({"status": "searching", "said": m}),
        on_found=lambda found: guard.report_partial({"status": "searching", "said": "",
                                                     "suggestions": shown(found)}))
    return {"status": "done", "suggestions": shown(report.suggestions), "tried": report.tried,
            "unfillable": report.unfillable, "undecided": report.undecided,
            "entries": list(report.entries)}
