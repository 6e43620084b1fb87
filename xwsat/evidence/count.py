"""Count the fills of a grid, respecting the repeat rule; ``limit`` stops early (a lower bound,
said so).

Blank rectangles are counted row by row (the last row by bitset popcounts, not enumerated);
other grids by exhausting the MAC letter search (a leaf is one fill) or by CP-SAT's all-solutions
search on the table model (its AllDifferent is the no-repeat rule). Arc consistency runs first
(it removes no fill).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from xwsat.errors import XwsatError
from xwsat.evidence.running_count import Partial
from xwsat.guard import CHILD_REPORT_S, Budget, Finished, Tick, run_function
from xwsat.problem import Built, FillProblem
from xwsat.propagate import propagate
from xwsat.words import WordList


@dataclass(frozen=True)
class Count:
    """``count`` fills; ``exact`` unless the limit or the time ran out first."""

    count: int
    exact: bool
    reason: str
    seconds: float
    method: str
    stop: str | None = None  # why not exact: "limit" (--limit), "timeout", "interrupted", ...


def _enumerate(problem: FillProblem, limit: int | None, time_limit: float, workers: int) -> dict:
    """Child: enumerate with CP-SAT, counting in the callback."""
    from ortools.sat.python import cp_model

    from xwsat.encode.cpsat_tables import encode_cpsat

    model = encode_cpsat(problem)
    partial = Partial()

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.n = 0

        def on_solution_callback(self) -> None:
            self.n += 1
            partial.send(self.n)
            if limit is not None and self.n >= limit:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    counter = Counter()
    status = solver.solve(model.model, counter)
    name = solver.status_name(status)
    return {"n": counter.n, "status": name}


def is_blank_rectangle(built: Built, min_length: int) -> bool:
    grid = built.grid
    return (all(ch == "." for row in grid.rows for ch in row)
            and min(grid.height, grid.width) >= max(min_length, 2))


def count_rectangle(words: WordList, height: int, width: int, allow_repeats: bool,
                    limit: int | None, deadline: float) -> tuple[int, bool, str]:
    """Fills of a blank height x width rectangle, row by row.

    Rows are words of the longer length (the grid is transposed if need be: the count is the
    same). The first rows are enumerated depth first, each row's candidates being one AND of
    cached bitsets (row words whose letter in column j continues column j's prefix); the last
    row is counted, not enumerated: the popcount of that AND, less the repeats, which are
    checked one by one only when one is possible (two equal column prefixes, or rows and
    columns of the same length).
    """
    if width < height:
        height, width = width, height
    rows = [w for w in words.words if len(w) == width]
    cols = {w for w in words.words if len(w) == height}
    letters = words.alphabet.letters
    code = {ch: i for i, ch in enumerate(letters)}
    prefixes: dict[str, int] = {}  # column prefix -> mask of letters that continue it
    for col in cols:
        for k in range(height):
            prefixes[col[:k]] = prefixes.get(col[:k], 0) | 1 << code[col[k]]
    bits = [[0] * len(letters) for _ in range(width)]
    for i, w in enumerate(rows):
        for j, ch in enumerate(w):
            bits[j][code[ch]] |= 1 << i
    cache: dict[tuple[int, str], int] = {}

    def column_set(j: int, prefix: str) -> int:
        key = (j, prefix)
        got = cache.get(key)
        if got is None:
            mask, got, row = prefixes.get(prefix, 0), 0, bits[j]
            while mask:
                low = mask & -mask
                got |= row[low.bit_length() - 1]
                mask ^= low
            cache[key] = got
        return got

    total = 0
    nodes = 0
    chosen: list[int] = []
    same_length = height == width

    def candidates(cols_now: list[str]) -> int:
        cand = -1
        for j, prefix in enumerate(cols_now):
            cand &= column_set(j, prefix)
            if not cand:
                return 0
        return cand

    def last_row(cols_now: list[str], cand: int) -> int:
        if allow_repeats:
            return cand.bit_count()
        if not same_length and len(set(cols_now)) == width:
            for i in chosen:  # the last row may not repeat an earlier one
                cand &= ~(1 << i)
            return cand.bit_count()
        n = 0
        used = {rows[i] for i in chosen}
        while cand:
            low = cand & -cand
            cand ^= low
            w = rows[low.bit_length() - 1]
            columns = [p + ch for p, ch in zip(cols_now, w)]
            every = [*used, w, *columns]
            n += w not in used and len(set(every)) == len(every)
        return n

    partial = Partial()

    def extend(cols_now: list[str]) -> bool:
        nonlocal total, nodes
        nodes += 1
        if nodes % 256 == 0:
            if time.monotonic() > deadline:
                return False
            partial.send(total)
        cand = candidates(cols_now)
        if len(chosen) == height - 1:
            total += last_row(cols_now, cand)
            return limit is None or total < limit
        while cand:
            low = cand & -cand
            cand ^= low
            i = low.bit_length() - 1
            if not allow_repeats and i in chosen:
                continue
            chosen.append(i)
            ok = extend([p + ch for p, ch in zip(cols_now, rows[i])])
            chosen.pop()
            if not ok:
                return False
        return True

    complete = extend([""] * width)
    if limit is not None and total >= limit:
        return total, False, f"stopped on reaching the limit of {limit}"
    if not complete:
        return total, False, "time limit reached"
    return total, True, "every fill counted"


METHODS = ("auto", "rows", "search", "cpsat")


def _count_by_search(problem: FillProblem, limit: int | None, deadline: float) -> tuple:
    from xwsat.evidence.drup_search import count_leaves

    return count_leaves(problem, deadline, limit)


def count_fills(built: Built, limit: int | None = None, time_limit: float = 60.0,
                on_tick: Tick | None = None, min_length: int = 2,
                method: str = "auto") -> Count:
    """Count the fills of ``built`` (up to ``limit``) within ``time_limit`` seconds.

    ``rows`` (blank rectangles only, the default there): row by row with bitsets; ``search``
    (the default elsewhere): exhaust the MAC letter search, one leaf per fill; ``cpsat``:
    CP-SAT's all-solutions search on the table model.
    """
    start = time.monotonic()
    budget = Budget(time_limit, start)
    until = budget.stop_at(CHILD_REPORT_S)  # the child's own deadline: it reports
    if method not in METHODS:
        raise XwsatError(f"--method must be one of {', '.join(METHODS)}")
    blank = is_blank_rectangle(built, min_length)
    if method == "rows" and not blank:
        raise XwsatError("--method rows counts blank rectangles only (no blocks, no letters)")
    if method in ("auto", "rows") and blank:
        grid = built.grid
        args = (built.words, grid.height, grid.width, built.problem.allow_repeats, limit, until)
        run = run_function(count_rectangle, args, time_limit, "counting row by row", on_tick)
        seconds = time.monotonic() - start
        name = "row by row: first rows enumerated, the last one counted with bitsets"
        if not run.ok:
            return Count(run.partial or 0, False, run.message, seconds, name, _stop(run))
        n, exact, reason = run.value
        return Count(n, exact, reason, seconds, name,
                     None if exact else "limit" if "limit of" in reason else "timeout")
    propagated = propagate(built.problem)
    if propagated.wiped is not None:
        return Count(0, True, "arc consistency empties a slot", time.monotonic() - start,
                     "arc consistency")
    problem = propagated.problem
    found = propagated.hall
    if found is not None:  # every search would try the permutations (results/hard/repeats/)
        words = "1 different word" if len(found.words) == 1 else \
            f"{len(found.words)} different words"
        return Count(0, True, f"{len(found.slots)} slots of length {found.length} fit only "
                     f"{words} between them", time.monotonic() - start,
                     "the no-repeat count (Hall's theorem)")
    if method == "cpsat":
        name = "CP-SAT all-solutions search (tables + AllDifferent)"
        left = budget.with_margin(CHILD_REPORT_S)
        run = run_function(_enumerate, (problem, limit, left, 1), left + CHILD_REPORT_S,
                           "CP-SAT counting fills", on_tick)
    else:
        name = "exhaustive MAC letter search, one leaf per fill"
        run = run_function(_count_by_search, (problem, limit, until),
                           budget.with_margin(0.0),
                           "counting by search", on_tick)
    seconds = time.monotonic() - start
    if not run.ok:  # stopped: the count it had sent is still a lower bound
        return Count(run.partial or 0, False, run.message, seconds, name, _stop(run))
    if method == "cpsat":
        n, status = run.value["n"], run.value["status"]
        complete = status in ("OPTIMAL", "INFEASIBLE")
    else:
        n, complete, _ = run.value
    if limit is not None and n >= limit:
        return Count(n, False, f"stopped on reaching the limit of {limit}", seconds, name,
                     "limit")
    if complete:
        return Count(n, True, "every fill enumerated", seconds, name)
    return Count(n, False, "time limit reached", seconds, name, "timeout")


def _stop(run: Finished) -> str:
    """Why a counting child ended without its count: its stop, as the JSON records say it."""
    return run.stop.value if run.stop is not None else "error"
