"""Other fills: K verified fills that differ pairwise in at least D entries, best first, and
refills of a region that differ from what is there now.

Each new fill comes from the ordinary search (``pipeline.fill_grid``, so the compiled search,
its limits and the independent verifier) with words taken out of chosen slots: for every fill
it must differ from, that fill's words leave D of its slots, so the new fill differs from it in
those D entries at least. The slots are chosen weakest entry first (ties, and the whole order
for a region refill, by the seed), so alternatives tend to replace the entries a constructor
likes least and ``--seed`` gives other refills. When the search proves a choice has no fill,
the next D slots are tried. When every choice is refuted, CP-SAT takes the question exactly
("differs from each earlier fill in at least D of these slots", a sum of reified
inequalities over the word variables of ``encode.cpsat_tables``): it finds the fill or proves
there is none. A fill not found within the limits is said to be missing, never made up.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from xwsat.errors import XwsatError
from xwsat.grid import EMPTY, Grid, extract_slots
from xwsat.guard import Tick, interruption
from xwsat.outcome import Evidence, Outcome, Status, Stop, stopped
from xwsat.pipeline import FillOptions, FillResult, fill_grid, verified
from xwsat.problem import Built, build_problem
from xwsat.words import WordList

Entries = tuple[str, ...]  # one word per slot, in the problem's slot order
# With a seed other than 0, a region refill is first sought among a share SAMPLE of each open
# slot's words, drawn from the seed, for at most SAMPLE_S seconds: the compiled letter search
# does not draw on the seed, so without this two seeds often gave the same refill.
SAMPLE = 0.5
SAMPLE_S = 2.0
# When a first choice of slots to change is refuted, the grid is searched once without the
# differing rule, for at most PLAIN_FACTOR times that refutation's time (PLAIN_MIN_S at least)
PLAIN_FACTOR = 2.0
PLAIN_MIN_S = 1.0


@dataclass(frozen=True)
class Quality:
    """How constructors rank fills: the lowest score used (higher is better), then fewest
    entries at that score, then the highest total."""

    lowest: int
    at_lowest: int
    total: int
    counted: int  # the entries ranked: the search's, not the locked or kept ones

    def key(self) -> tuple[int, int, int]:
        return (-self.lowest, self.at_lowest, -self.total)


def quality(result: FillResult) -> Quality:
    """The quality of a filled result's words, as ``--optimize`` counts it: the entries the
    grid gives whole (locked, or kept outside a region) are the constructor's, not counted
    (a locked word the list lacks has only a stand-in score)."""
    assert result.outcome.fill is not None
    return quality_of(result.built, result.outcome.fill)


def quality_of(built: Built, fill: Sequence[int]) -> Quality:
    """The quality of a fill of ``built`` (word ids by slot), as ``quality`` counts it."""
    from xwsat.quality.levels import exempt_slots

    exempt = exempt_slots(built)
    scores = [int(built.words.scores[w]) for s, w in enumerate(fill) if s not in exempt]
    if not scores:  # every entry given: nothing of the search's to rank
        return Quality(100, 0, 0, 0)
    lowest = min(scores)
    return Quality(lowest, scores.count(lowest), sum(scores), len(scores))


def entries(result: FillResult) -> Entries:
    assert result.outcome.fill is not None
    return words_of(result.built, result.outcome.fill)


def words_of(built: Built, fill: Sequence[int]) -> Entries:
    """A fill's word per slot, from its word indices."""
    words = built.words.words
    return tuple(words[w] for w in fill)


def differences(first: Entries, second: Entries, slots: Sequence[int] | None = None) -> int:
    """In how many slots (of ``slots``, default all) two fills have different words."""
    chosen = range(len(first)) if slots is None else slots
    return sum(first[s] != second[s] for s in chosen)


@dataclass(frozen=True)
class Alternatives:
    """The verified fills found, best first; ``last`` is the search that ended the hunt (its
    status says why there are fewer than asked: undecided, or proven none)."""

    found: tuple[FillResult, ...]
    last: FillResult
    proven_none: bool = False  # no further fill exists (complete only for D = 1, one fill)
    none_at_all: bool = False  # nor any fill, the ones to differ from included: ``last`` says why
    absent: tuple[str, ...] = ()  # the entries to differ from that the list lacks ("18A WORD")

    @property
    def best(self) -> FillResult:
        return self.found[0] if self.found else self.last

    @property
    def status(self) -> Status:
        """Filled when a fill was found; unfillable only when proven; else the last search's
        own word (undecided, or an error), a refuted choice of slots being undecided."""
        if self.found:
            return Status.FILLED
        if self.proven_none:
            return Status.UNFILLABLE
        last = self.last.outcome.status
        return Status.UNKNOWN if last is Status.UNFILLABLE else last

    def text(self, count: int, differ: int, region: bool) -> str:
        """The fills found, best first, each with its quality, and the shortfall if any."""
        from xwsat.verdict_text import describe

        if not self.found and not region:  # the grid itself has no fill: the usual report
            return describe(self.last, "fill")
        parts = []
        if count > 1 and len(self.found) > 1:  # found one after another, shown ranked
            parts += [f"{len(self.found)} fills, best first; the time under each is its own "
                      "search's, not the time since the start", ""]
        for i, result in enumerate(self.found, 1):
            head = f"fill {i} of {count}: " if count > 1 else ""
            parts += [head + quality_line(result), describe(result, "fill"), ""]
        if line := shortfall(self, count, differ, region):
            parts.append(line)
        return "\n".join(parts).rstrip("\n")


def open_slots(grid: Grid, min_length: int) -> list[int]:
    """The slots whose letters the grid does not all give (the ones a fill chooses)."""
    return [i for i, slot in enumerate(extract_slots(grid, min_length))
            if any(grid.cell(c) == EMPTY for c in slot.cells)]


def find_alternatives(grid: Grid, words: WordList, options: FillOptions, count: int,
                      differ: int, seconds: Callable[[], float], on_tick: Tick | None = None,
                      earlier: Sequence[Entries] = (), among: Sequence[int] | None = None,
                      by_seed: bool = False) -> Alternatives:
    """Up to ``count`` fills of ``grid`` differing from each other and from each of ``earlier``
    in at least ``differ`` of the slots ``among`` (default: every slot the grid leaves open).

    ``seconds()`` is the time left for the next search. ``by_seed``: choose the slots to change
    in an order drawn from the seed alone (a region refill), else weakest entry first."""
    slots = list(among) if among is not None else open_slots(grid, options.min_length)
    if not slots:
        raise XwsatError("every entry's letters are given: there is nothing to change")
    if differ > len(slots):
        raise XwsatError(f"--differ {differ}: only {len(slots)} entries can change here")
    rng = random.Random(options.seed)
    index = {w: i for i, w in enumerate(words.words)}
    orders = [_order(words, index, fill, slots, rng, by_seed) for fill in earlier]
    before = list(earlier)
    found: list[FillResult] = []
    attempt = 0
    sampled = by_seed and options.seed != 0 and bool(before)
    checked = False  # whether the grid without the differing rule was searched
    named = [slot.name for slot in extract_slots(grid, options.min_length)]
    absent = tuple(f"{named[s]} {fill[s]}" for fill in earlier for s in slots
                   if fill[s] not in index)

    def none_at_all(refuted: FillResult) -> Alternatives:
        return Alternatives((), refuted, True, none_at_all=True, absent=absent)

    while True:
        exclude, windows = _exclusions(index, before, orders, differ, attempt)
        if sampled:
            exclude += _sample(grid, words, slots, options)
        t_try = time.perf_counter()
        try:
            if attempt < windows:
                budget = min(seconds(), SAMPLE_S) if sampled else seconds()
                result = fill_grid(grid, words, replace(options, time_limit=budget,
                                                        exclude=tuple(exclude)), on_tick)
            else:  # every choice of slots refuted: the exact question to CP-SAT
                result = exact_alternative(grid, words, options, before, differ, slots,
                                           seconds())
        except KeyboardInterrupt as exc:  # Ctrl-C or a limit: the fills found stand (none:
            stop, message = interruption(exc)  # said as undecided, as a plain fill says it)
            built = found[-1].built if found else build_problem(
                grid, words, options.min_length, options.allow_repeats, options.max_shared)
            result = FillResult(stopped("alternatives", stop, message), built)
        status = result.outcome.status
        if sampled and status is not Status.FILLED and result.outcome.stop is not \
                Stop.INTERRUPTED:
            sampled = False  # the drawn share of the words has no refill (in time): all of them
            continue
        if status is Status.FILLED:
            new = entries(result)
            if any(differences(new, fill, slots) < differ for fill in before):
                raise AssertionError("an alternative fill repeats an earlier one")
            found.append(result)
            if len(found) == count:
                break
            before.append(new)
            orders.append(_order(words, index, new, slots, rng, by_seed))
            attempt = 0
        elif status is Status.UNFILLABLE and not exclude and before and not found:
            return none_at_all(result)  # nothing was taken out: the grid has no fill at all
        elif status is Status.UNFILLABLE and before and attempt < windows:
            if attempt == 0 and not found and not checked:
                checked = True
                try:
                    plain = _plain(grid, words, options, seconds,
                                   time.perf_counter() - t_try, on_tick)
                except KeyboardInterrupt as exc:  # a stop here: undecided, as above
                    result = FillResult(stopped("alternatives", *interruption(exc)),
                                        result.built)
                    status = result.outcome.status
                    break
                if plain is not None:
                    return none_at_all(plain)
            attempt += 1  # this choice of slots has no fill: change others
        else:
            break
    ranked = sorted(found, key=lambda r: quality(r).key())
    proven = len(found) < count and status is Status.UNFILLABLE
    if proven and not found and earlier and seconds() > 0:
        # the fills to differ from may be no fills at all (a ban, a kept entry no word fits):
        # then the grid's own refutation names the cause, which the differing rule would take
        plain = fill_grid(grid, words, replace(options, time_limit=seconds()), on_tick)
        if plain.outcome.status is Status.UNFILLABLE:
            return none_at_all(plain)
    return Alternatives(tuple(ranked), result, proven)


def _plain(grid: Grid, words: WordList, options: FillOptions, seconds: Callable[[], float],
           refuted_in: float, on_tick: Tick | None) -> FillResult | None:
    """The grid's own refutation, when a first choice of slots to change was refuted: with
    the fills to differ from allowed again, is there any fill? Searched for at most twice as
    long as that refutation took (1 s at least), so a grid with fills loses little; None
    unless proven unfillable. A region whose entries below ``--min-score`` had to go has
    its answer in seconds instead of every choice of slots refuted in turn."""
    budget = min(seconds(), max(PLAIN_MIN_S, PLAIN_FACTOR * refuted_in))
    if budget <= 0:
        return None
    result = fill_grid(grid, words, replace(options, time_limit=budget, exclude=()), on_tick)
    return result if result.outcome.status is Status.UNFILLABLE else None


def _sample(grid: Grid, words: WordList, slots: list[int],
            options: FillOptions) -> list[tuple[int, int]]:
    """(slot, word id) pairs leaving out, in each of ``slots``, a share ``1 - SAMPLE`` of the
    words of its length, drawn from the seed: the same corner refilled under another seed
    starts from other words."""
    draw = np.random.default_rng(options.seed)
    pairs: list[tuple[int, int]] = []
    lengths = [s.length for s in extract_slots(grid, options.min_length)]
    for s in slots:
        ids = words.ids_of_length(lengths[s])
        dropped = ids[draw.random(len(ids)) >= SAMPLE]
        pairs += [(s, int(w)) for w in dropped.tolist()]
    return pairs


def _order(words: WordList, index: dict[str, int], fill: Entries, slots: list[int],
           rng: random.Random, by_seed: bool) -> list[int]:
    """The order in which a fill's slots are made to change: an entry outside the list first
    (an open slot takes a list word, so it changes anyway), then weakest first, ties drawn
    from the seed; or by the seed alone."""
    draw = {s: rng.random() for s in slots}
    if by_seed:
        return sorted(slots, key=lambda s: (fill[s] in index, draw[s]))

    def score(s: int) -> int:
        at = index.get(fill[s])
        return -1 if at is None else int(words.scores[at])

    return sorted(slots, key=lambda s: (score(s), draw[s]))


def _exclusions(index: dict[str, int], before: list[Entries], orders: list[list[int]],
                differ: int, attempt: int) -> tuple[list[tuple[int, int]], int]:
    """The (slot, word id) pairs to take out so a fill differs from each of ``before`` in
    ``differ`` slots: the ``attempt``-th window of ``differ`` slots of each fill's order; and
    how many windows there are."""
    pairs: list[tuple[int, int]] = []
    windows = 1
    for fill, order in zip(before, orders):
        windows = max(windows, -(-len(order) // differ))
        start = (attempt * differ) % max(1, len(order))
        chosen = (order[start:] + order[:start])[:differ]
        pairs += [(s, index[fill[s]]) for s in chosen if fill[s] in index]
    return pairs, windows


def shortfall(found: Alternatives, count: int, differ: int, region: bool) -> str | None:
    """Why fewer fills than asked came back, in a line; None when all did."""
    if len(found.found) >= count:
        return None
    what = "refill of the region" if region else "fill"
    n = len(found.found) + 1
    ask = f"{what} {n} of {count}" if count > 1 else f"another {what}"
    entries_word = "entry" if differ == 1 else "entries"
    if found.none_at_all:
        last = found.last.outcome
        why = f"{last.method}: {last.evidence.detail}" if last.evidence else last.method
        if found.absent:  # they could not be kept: below --min-score, banned, or unlisted
            shown = ", ".join(found.absent[:3]) + (
                f" and {len(found.absent) - 3} more" if len(found.absent) > 3 else "")
            there = "there now" if region else "in the fills to differ from"
            return f"UNFILLABLE: no {what} at all from the word list, which lacks {shown} " \
                f"{there} ({why})"
        kept = "the entries there now" if region else "the fills to differ from"
        return f"UNFILLABLE: no {what} at all, {kept} included ({why})"
    if found.proven_none:
        than = "the current one" if region and n == 1 else \
            "the current one and the refills above" if region else "the fills above"
        head = "UNFILLABLE" if not found.found else f"{ask}: none exists"
        last = found.last.outcome
        # the proof's own words: a ban, a lock or a kept entry no word fits is named there,
        # where the differing rule alone would take the blame
        why = f": {last.evidence.detail}" if last.evidence and last.evidence.detail else ""
        return (f"{head}: no {what} differs from {than} in at least {differ} {entries_word} "
                f"(proven by {last.method}{why})")
    return f"{ask}: not found within the limits ({found.last.outcome.message or 'undecided'})"


def quality_line(result: FillResult) -> str:
    q = quality(result)
    if not q.at_lowest:
        return "every entry given"
    counted = q.counted < len(result.built.slots)
    return (f"lowest score {q.lowest} ({q.at_lowest} "
            f"{'entry' if q.at_lowest == 1 else 'entries'}), total {q.total}"
            f"{' (locked and kept entries not counted)' if counted else ''}")


def record(found: Alternatives, count: int, differ: int, region: bool) -> dict:
    """The alternatives in a ``--json`` record: every fill, best first, with its quality and
    how many entries it changes from each of the others."""
    fills = [entries(r) for r in found.found]
    return {
        "count": count, "differ": differ, "found": len(fills),
        "missing": shortfall(found, count, differ, region),
        "fills": [{"grid": list(r.filled.rows) if r.filled is not None else None,
                   **quality(r).__dict__,
                   "differences": [differences(fill, other) for other in fills]}
                  for r, fill in zip(found.found, fills)],
    }


def exact_alternative(grid: Grid, words: WordList, options: FillOptions,
                      before: Sequence[Entries], differ: int, slots: Sequence[int],
                      seconds: float) -> FillResult:
    """A fill differing from each of ``before`` in at least ``differ`` of ``slots``, found or
    refuted by CP-SAT on the table model with those sums as constraints (complete: its
    INFEASIBLE means no such fill exists; the fill it finds is verified independently)."""
    from ortools.sat.python import cp_model

    from xwsat.cpsat_thread import solve_stoppable
    from xwsat.encode.cpsat_tables import encode_cpsat
    from xwsat.propagate import propagate

    started = time.perf_counter()
    built = build_problem(grid, words, options.min_length, options.allow_repeats,
                          options.max_shared)
    propagated = propagate(built.problem)
    evidence = Evidence("cpsat", f"CP-SAT proved that no fill differs from each earlier one "
                        f"in {differ} of these entries (not an independent certificate)")
    if propagated.wiped is not None:
        return FillResult(Outcome(Status.UNFILLABLE, "propagate", evidence=evidence), built)
    problem = propagated.problem
    encoded = encode_cpsat(problem)
    model = encoded.model
    index = {w: i for i, w in enumerate(words.words)}
    for fill in before:
        changed = []
        for s in slots:
            at = index.get(fill[s])
            if at is None or at not in set(problem.candidates[s].tolist()):
                changed.append(1)  # this slot cannot keep that word
                continue
            flag = model.new_bool_var(f"changed{s}")
            model.add(encoded.words[s] != at).only_enforce_if(flag)
            changed.append(flag)
        model.add(sum(changed) >= differ)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.05, seconds)
    solver.parameters.random_seed = options.seed
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False  # Ctrl-C reaches the main thread
    why: list[Stop] = []  # what stopped it: Ctrl-C, or the command's time or memory limit
    code, interrupted = solve_stoppable(solver, model, why=why)
    times = {"solve_s": time.perf_counter() - started}
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        fill = tuple(int(solver.value(w)) for w in encoded.words)
        return verified(built, Outcome(Status.FILLED, "cpsat", fill), options, times)
    if code == cp_model.INFEASIBLE and not interrupted:
        return FillResult(Outcome(Status.UNFILLABLE, "cpsat", evidence=evidence), built,
                          times=times)
    stop = why[0] if why else Stop.TIME
    said = {Stop.INTERRUPTED: "interrupted", Stop.MEMORY: "memory limit reached"}
    return FillResult(stopped("cpsat", stop, said.get(stop, "time limit reached")), built,
                      times=times)
