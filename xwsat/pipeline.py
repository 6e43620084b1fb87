"""Fill a grid or prove it unfillable: build, propagate, plan, solve (isolated), verify.

This is the library entry point the CLI calls; it prints nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from xwsat.backends.registry import make_backend, resolve, runs_compiled_search, shares_nogoods
from xwsat.errors import XwsatError
from xwsat.grid import Grid
from xwsat.guard import Tick
from xwsat.no_repeat import HallSet, hall_set
from xwsat.outcome import Evidence, Limits, Outcome, Stats, Status, Stop
from xwsat.portfolio import first_look, run_portfolio, steps_counted
from xwsat.problem import Built, FillProblem, build_problem, fill_letters
from xwsat.propagate import propagate
from xwsat.verify import check_fill
from xwsat.words import WordList


@dataclass(frozen=True)
class FillOptions:
    """What the user asked for; validated before any work starts."""

    backend: str = "auto"
    time_limit: float | None = 60.0
    memory_mb: int | None = None
    seed: int = 0
    allow_repeats: bool = False
    min_length: int = 2
    max_shared: int = 0  # the shared-substring rule (``xwsat.substrings``); 0: off
    exclude: tuple[tuple[int, int], ...] = ()  # (slot, word id) pairs this search may not use
    # a fill a constructor would keep: a short first try on the list's upper score levels
    # (``xwsat.quality.upper``: a fill there is a fill of the whole list with better words; a
    # failure there proves nothing), then the lift of the fill's weakest entries
    # (``xwsat.quality.lift``)
    upper_first: bool = True
    # a race whose winner is the racer that decided after the fewest decisions
    # (``xwsat.step_clock``), so the same seed gives the same fill under any load
    in_step: bool = False


@dataclass(frozen=True)
class FillResult:
    """The outcome, the filled grid (verified) when there is one, and where the time went."""

    outcome: Outcome
    built: Built
    filled: Grid | None = None
    verified: bool = False
    times: dict[str, float] = field(default_factory=dict)


def without(problem: FillProblem, exclude: tuple[tuple[int, int], ...]) -> FillProblem:
    """``problem`` with each (slot, word id) of ``exclude`` taken out of the slot's candidates
    (how a search is made to find another fill)."""
    banned: dict[int, list[int]] = {}
    for slot, word in exclude:
        banned.setdefault(slot, []).append(word)
    keep = [np.ones(len(c), dtype=bool) if s not in banned else ~np.isin(c, banned[s])
            for s, c in enumerate(problem.candidates)]
    return problem.with_candidates([np.flatnonzero(k) for k in keep], problem.cell_masks)


def explain_wipeout(built: Built, slot: int, reason: str) -> str:
    """A sentence on why a slot has no candidate, in the most trivial terms that hold."""
    info = built.slots[slot]
    if len(built.words.ids_of_length(info.length)) == 0:
        n = info.length
        return f"slot {info.name} has length {n}: no {n}-letter word in the dictionary"
    given = {c: built.grid.cell(c) for c in info.cells if built.grid.cell(c) != "."}
    pattern = "".join(given.get(c, ".") for c in info.cells)
    if given and len(built.problem.candidates[slot]) == 0:
        if "." not in pattern:  # typed whole: a theme entry of the constructor's, most likely
            return f"slot {info.name}: {pattern} is not in the dictionary"
        return no_word_matches(built.words, info.name, pattern)
    return f"slot {info.name} ({pattern}): {reason}"


def no_word_matches(words: WordList, name: str, pattern: str) -> str:
    """"slot 28D: no dictionary word matches F...U", saying what the list was cut by when it
    was (a minimum score; banned words, named when one of them would match)."""
    def fits(word: str) -> bool:
        return len(word) == len(pattern) and all(p in (".", c) for p, c in zip(pattern, word))

    which = f"no word scored {words.min_score} or more" if words.min_score else \
        "no dictionary word"
    said = f"slot {name}: {which} matches {pattern}"
    if banned := sorted(w for w in words.banned if fits(w)):
        said += f" but the banned {', '.join(banned[:3])}{', ...' if len(banned) > 3 else ''}"
    return said


def explain_hall(built: Built, found: HallSet, pruned: bool) -> str:
    """A sentence naming the slots the no-repeat rule cannot fill, and their words."""
    names = ", ".join(built.problem.slot_names[s] for s in found.slots)
    shown = [built.words.words[w] for w in found.words[:12]]
    words = ", ".join(shown) + (", ..." if len(found.words) > len(shown) else "")
    where = " after arc consistency" if pruned else ""
    fit = "1 word fits" if len(found.words) == 1 else f"{len(found.words)} words fit"
    return (f"the {len(found.slots)} slots {names} (length {found.length}) must each take a "
            f"different word, and{where} only {fit} any of them"
            + (f": {words}" if found.words else ""))


def fill_grid(
    grid: Grid, words: WordList, options: FillOptions, on_tick: Tick | None = None,
    on_first: Callable[[FillResult], None] | None = None,
) -> FillResult:
    """Fill ``grid`` from ``words``; every FILLED result returned here has passed ``check_fill``.
    ``on_first`` hears the search's own fill, verified, before the lift reworks it."""
    t0 = time.perf_counter()
    built = build_problem(grid, words, options.min_length, options.allow_repeats,
                          options.max_shared)
    if options.exclude:
        built = replace(built, problem=without(built.problem, options.exclude))
    return solve_built(built, options, on_tick, t0, on_first)


def solve_built(built: Built, options: FillOptions, on_tick: Tick | None = None,
                t0: float | None = None,
                on_first: Callable[[FillResult], None] | None = None) -> FillResult:
    """Decide ``built.problem`` (which may hold fewer candidates than its word list, as at a
    score level of ``xwsat.quality``); a fill is checked against the whole word list. The time
    limit counts from ``t0`` (default now)."""
    t1 = time.perf_counter()
    t0 = t1 if t0 is None else t0
    propagated = propagate(built.problem)
    t2 = time.perf_counter()
    times = {"build_s": t1 - t0, "propagate_s": t2 - t1}
    if propagated.wiped is not None:
        why = explain_wipeout(built, propagated.wiped, propagated.reason)
        outcome = Outcome(
            Status.UNFILLABLE,
            "propagate",
            stats=Stats(solve_s=t2 - t1, extra={"revisions": propagated.revisions}),
            evidence=Evidence("arc consistency", why, slots=(propagated.wiped,)),
        )
        return FillResult(outcome, built, times=times)
    problem = propagated.problem
    found = propagated.hall
    if found is not None:
        pruned = hall_set(built.problem) is None
        outcome = Outcome(
            Status.UNFILLABLE,
            "matching",
            stats=Stats(solve_s=time.perf_counter() - t2,
                        extra={"revisions": propagated.revisions}),
            evidence=Evidence("the no-repeat rule, counted (Hall's theorem)",
                              explain_hall(built, found, pruned), slots=found.slots),
        )
        times["solve_s"] = time.perf_counter() - t2
        return FillResult(outcome, built, times=times)
    searched_by_mac = False  # the compiled search is a racer: the lift may rework its fill
    if all(len(c) == 1 for c in problem.candidates) and not problem.max_shared:
        fill = tuple(int(c[0]) for c in problem.candidates)
        outcome = Outcome(Status.FILLED, "propagate", fill,
                          Stats(solve_s=t2 - t1, extra={"revisions": propagated.revisions}))
    else:
        staged = resolve(options.backend, problem.n_slots)
        searched_by_mac = runs_compiled_search(staged)
        if options.in_step and len(staged) > 1 and not steps_counted(staged):
            names = ", ".join(spec for spec, _ in staged)
            raise XwsatError(f"--deterministic keeps a race of the compiled searches in step; "
                             f"{options.backend} races {names} here")
        for spec, _ in staged:
            traits = make_backend(spec).traits
            if problem.max_shared and not traits.substrings:
                raise XwsatError(f"back-end {spec!r} does not enforce --max-shared-substring; "
                                 "use auto, mac, cpsat or sat")
            most = traits.max_letters
            if most is not None and problem.alphabet_size > most:
                raise XwsatError(f"back-end {spec!r} takes at most {most} letters; this "
                                 f"dictionary's alphabet has {problem.alphabet_size}")
        left = options.time_limit  # counted from the call: building and propagating spent some
        if left:  # (0: no limit)
            left = max(0.1, left - (time.perf_counter() - t0))
        limits = Limits(left, options.memory_mb, options.seed,
                        threads=1 if len(staged) > 1 else 2)
        outcome = None
        if options.upper_first:
            from xwsat.quality.upper import upper_look

            outcome = upper_look(built, problem, staged, limits, options.in_step)
            if outcome is None and left:
                limits = replace(limits, time_limit=max(
                    0.1, options.time_limit - (time.perf_counter() - t0)))
        in_step = options.in_step and len(staged) > 1
        if outcome is None and not in_step:  # (a first look stops on the clock)
            outcome = first_look(staged, problem, limits, options.backend)
        if outcome is None:
            if left:
                left = max(0.1, options.time_limit - (time.perf_counter() - t0))
            outcome = run_portfolio(staged, problem, replace(limits, time_limit=left), on_tick,
                                    share=shares_nogoods(options.backend), label=options.backend,
                                    in_step=in_step)
    times["solve_s"] = time.perf_counter() - t2
    if outcome.status is Status.UNFILLABLE and outcome.evidence and problem.max_shared:
        most = problem.max_shared
        rule = f"no two entries sharing more than {most} letter{'s' if most > 1 else ''}"
        outcome = replace(outcome, evidence=replace(  # the verdict is under the rule only
            outcome.evidence, detail=f"{outcome.evidence.detail} (with {rule})"))
    if outcome.status is not Status.FILLED:
        return FillResult(outcome, built, times=times)
    if options.upper_first and searched_by_mac:
        from xwsat.quality.lift import lifted

        if on_first is not None:  # a page shows this fill while the lift works on it
            early = verified(built, outcome, options, dict(times))
            if early.verified:
                on_first(early)
        outcome = lifted(built, problem, outcome, options, t0, on_tick)
        if "lift" in outcome.stats.extra:
            times["lift_s"] = outcome.stats.extra["lift"]["seconds"]
    return verified(built, outcome, options, times)


def verified(built: Built, outcome: Outcome, options: FillOptions,
             times: dict[str, float]) -> FillResult:
    """Check a fill independently; a fill that fails is an ERROR, never reported as a fill."""
    assert outcome.fill is not None
    filled = built.grid.with_letters(fill_letters(built, outcome.fill))
    placed = built.words.placed_only
    dictionary = frozenset(built.words.words) - placed
    problems = check_fill(built.grid.rows, filled.rows, dictionary, options.allow_repeats,
                          options.min_length, placed, options.max_shared)
    if problems:
        bad = replace(outcome, status=Status.ERROR, fill=None, stop=Stop.FAILED,
                      message="fill failed verification: " + "; ".join(problems[:3]))
        return FillResult(bad, built, times=times)
    return FillResult(outcome, built, filled, True, times)
