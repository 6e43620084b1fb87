"""Minimal explanations of unfillability: a set of slots (and given letters) that cannot be
filled together, while every proper subset can.

Each slot's constraints (its "some word" clause and its support clauses, encodings/cnf.md) are
guarded by a selector; so is each pre-placed letter (as a unit clause on its cell). The solver
refutes the formula under all selectors as assumptions and returns a core; deletion-based
minimisation then drops one member at a time, keeping the solver's smaller core whenever the rest
is still unsatisfiable (clause-set refinement). Cell, word and no-repeat clauses are not guarded:
an unselected slot's word variables can all be false, so they bind nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np

from xwsat.encode.cnf import encode_cnf
from xwsat.grid import Grid
from xwsat.guard import CHILD_REPORT_S, Budget, Tick, run_function
from xwsat.outcome import Status, Stop
from xwsat.problem import Built, FillProblem, build_problem
from xwsat.propagate import propagate

EXPLAIN_SOLVER = "cadical195"
SEARCH_MAX_SLOTS = 24  # up to this many slots the MAC search is the oracle (else CDCL cores)
CONFLICT_BUDGET = 200_000  # per minimisation call; an undecided call keeps the member


@dataclass
class Explanation:
    """A core of slots (indices into ``built.slots``) and given cells; ``minimal`` when every
    member was shown necessary; ``sentence`` for the trivial cases."""

    slots: tuple[int, ...]
    givens: tuple[int, ...] = ()  # grid cell ids of pre-placed letters in the core
    minimal: bool = False
    sentence: str = ""
    method: str = ""
    calls: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def blank_of(grid: Grid) -> Grid:
    """The grid with its given letters removed (they become selectable constraints)."""
    return Grid(tuple("".join("#" if ch == "#" else "." for ch in row) for row in grid.rows))


def guarded_clauses(built: Built, blank: Built) -> tuple[list[list[int]], list[int], list[int]]:
    """Clauses with selectors: returns (clauses, slot selectors, given-letter selectors)."""
    problem = blank.problem
    cnf = encode_cnf(problem, repeats=True)
    clauses: list[list[int]] = []
    # unguarded: cell at-most-one, word -> letter, no-repeat (all blocks of encode_cnf)
    for block in cnf.blocks:
        clauses.extend(block.tolist())
    top = cnf.n_vars
    slot_sel = list(range(top + 1, top + problem.n_slots + 1))
    top += problem.n_slots
    for s, cells in enumerate(problem.slot_cells):
        sel = slot_sel[s]
        xs = cnf.x_vars(s, len(problem.candidates[s]))
        clauses.append([-sel, *xs.tolist()])
        letters = problem.letters[s].astype(np.int64)
        for pos, cell in enumerate(cells.tolist()):
            column = letters[:, pos]
            for a in range(problem.alphabet_size):
                y = int(cnf.y_var[cell, a])
                if y == 0:
                    continue
                support = xs[column == a].tolist()
                clauses.append([-sel, -y, *support])  # empty support: the letter is ruled out
    given_sel: list[int] = []
    given = built.grid.given_letters()
    dense = {int(c): i for i, c in enumerate(problem.cell_ids)}
    alphabet = built.words.alphabet
    givens = sorted(c for c in given if c in dense)
    for cell in givens:
        top += 1
        given_sel.append(top)
        clauses.append([-top, int(cnf.y_var[dense[cell], alphabet.code(given[cell])])])
    return clauses, slot_sel, given_sel


def sub_problem(blank: FillProblem, slots: list[int], givens: dict[int, int]) -> FillProblem:
    """Only ``slots`` of the blank problem, with the given letters ``givens`` (dense cell ->
    letter code) placed: the oracle's question "can these be filled together?"."""
    masks = blank.cell_masks.copy()
    for cell, letter in givens.items():
        masks[cell] = np.uint64(1 << letter)
    keep_c, keep_l, keep_s = [], [], []
    for s in slots:
        ok = np.ones(len(blank.candidates[s]), dtype=bool)
        for pos, cell in enumerate(blank.slot_cells[s].tolist()):
            if cell in givens:
                ok &= blank.letters[s][:, pos] == givens[cell]
        keep_c.append(blank.candidates[s][ok])
        keep_l.append(blank.letters[s][ok])
        keep_s.append(blank.scores[s][ok] if blank.scores else np.zeros(int(ok.sum()), np.int16))
    return replace(blank, slot_cells=tuple(blank.slot_cells[s] for s in slots),
                   slot_names=tuple(blank.slot_names[s] for s in slots),
                   candidates=tuple(keep_c), letters=tuple(keep_l), scores=tuple(keep_s),
                   cell_masks=masks)


def explain_isolated(built: Built, time_limit: float, min_length: int = 2,
                     on_tick: Tick | None = None) -> Explanation | None:
    """``explain`` in a child process, killed at the time limit (the core found by then is
    returned, marked not minimal; None when not even the first refutation finished). Ctrl-C
    (or a termination signal) stops it and goes on as ``KeyboardInterrupt``: the command was
    interrupted, not out of time."""
    own = Budget.from_now(time_limit).with_margin(CHILD_REPORT_S)  # it returns its core first
    run = run_function(explain, (built, own, min_length),
                       time_limit, "minimising the explanation", on_tick)
    if run.stop is Stop.INTERRUPTED:
        raise KeyboardInterrupt
    return run.value if run.ok else None


def explain(built: Built, time_limit: float = 60.0, min_length: int = 2,
            oracle: str = "auto") -> Explanation:
    """A minimal unsatisfiable set of slots and given letters for an unfillable grid.

    Trivial wipe-outs (a slot with no candidate at all) explain themselves in words; otherwise
    the selector core is minimised until the time limit (``minimal`` says whether it finished).
    """
    from pysat.solvers import Solver

    from xwsat.pipeline import explain_wipeout

    start = time.monotonic()
    deadline = start + time_limit
    empty = [s for s, c in enumerate(built.problem.candidates) if len(c) == 0]
    if empty:
        s = empty[0]
        given_cells = tuple(c for c in built.slots[s].cells if built.grid.cell(c) != ".")
        return Explanation((s,), given_cells, True, explain_wipeout(built, s, "no candidate"),
                           "no candidate", seconds=time.monotonic() - start)
    counted = _explain_by_count(built, start)
    if counted is not None:
        return counted
    blank = build_problem(blank_of(built.grid), built.words, min_length,
                          built.problem.allow_repeats)
    if oracle == "search" or (oracle == "auto" and built.problem.n_slots <= SEARCH_MAX_SLOTS):
        return _explain_by_search(built, blank, start, deadline)
    clauses, slot_sel, given_sel = guarded_clauses(built, blank)
    selectors = slot_sel + given_sel
    owner = {v: ("slot", i) for i, v in enumerate(slot_sel)}
    owner.update({v: ("given", i) for i, v in enumerate(given_sel)})
    in_slots = set(blank.problem.cell_ids.tolist())
    givens = sorted(c for c in built.grid.given_letters() if c in in_slots)
    calls = 0
    with Solver(name=EXPLAIN_SOLVER, bootstrap_with=clauses) as solver:
        calls += 1
        if solver.solve(assumptions=selectors):
            raise ValueError("the grid is fillable: there is nothing to explain")
        core = sorted(set(solver.get_core() or selectors))
        minimal = True
        i = 0
        while i < len(core):
            if time.monotonic() > deadline:
                minimal = False
                break
            trial = core[:i] + core[i + 1:]
            solver.conf_budget(CONFLICT_BUDGET)
            calls += 1
            status = solver.solve_limited(assumptions=trial)
            if status is False:  # still unsatisfiable without core[i]: keep the smaller core
                smaller = set(solver.get_core() or trial)
                core = [v for v in core if v in smaller]
                # core[i] is gone; the members before i stay necessary, so i stays
            else:  # satisfiable (or undecided: kept, and the core may not be minimal)
                if status is None:
                    minimal = False
                i += 1
    slots = tuple(sorted(owner[v][1] for v in core if owner[v][0] == "slot"))
    given_cells = tuple(givens[owner[v][1]] for v in core if owner[v][0] == "given")
    return Explanation(slots, tuple(sorted(given_cells)), minimal,
                       _wipeout_sentence(built, slots),
                       "selector core, deletion-based minimisation", calls,
                       time.monotonic() - start)


def _explain_by_count(built: Built, start: float) -> Explanation | None:
    """Slots of one length with fewer candidate words between them than their number
    (``xwsat.no_repeat``), dropped one at a time while the count still fails. Only when no two of
    them cross and none has a given letter: any fewer of them then have a word each (Hall's
    theorem) and nothing else ties them, so the set is minimal; otherwise (None) a smaller set
    might still fail through a crossing or a letter (three 3-letter words for a 3x3 square:
    two crossing slots that would repeat a word), which the searches below find."""
    from xwsat.no_repeat import hall_set
    from xwsat.pipeline import explain_hall

    problem = built.problem
    found = hall_set(problem)
    if found is None:
        return None
    kept = list(found.slots)
    i = 0
    while i < len(kept):
        trial = kept[:i] + kept[i + 1:]
        smaller = hall_set(sub_problem(problem, trial, {}))
        if smaller is not None:
            kept = [trial[s] for s in smaller.slots]
            found = replace(smaller, slots=tuple(kept))
            i = 0
        else:
            i += 1
    cells = [int(c) for s in kept for c in problem.slot_cells[s]]
    given = any(built.grid.cell(c) != "." for s in kept for c in built.slots[s].cells)
    if given or len(set(cells)) != len(cells):
        return None
    return Explanation(tuple(kept), (), True, explain_hall(built, found, False),
                       "the no-repeat count (Hall's theorem)", seconds=time.monotonic() - start)


def _explain_by_search(built: Built, blank: Built, start: float,
                       deadline: float) -> Explanation:
    """Deletion-based minimisation with the MAC search as the oracle (small grids, where it
    decides a subset in far fewer steps than CDCL)."""
    from xwsat.evidence.drup_search import decide

    dense = {int(c): i for i, c in enumerate(blank.problem.cell_ids)}
    alphabet = built.words.alphabet
    givens = {c: ch for c, ch in built.grid.given_letters().items() if c in dense}
    members = [("slot", s) for s in range(blank.problem.n_slots)] + \
        [("given", c) for c in sorted(givens)]

    def unsat(chosen: list[tuple[str, int]]) -> bool | None:
        slots = [m for kind, m in chosen if kind == "slot"]
        placed = {dense[m]: alphabet.code(givens[m]) for kind, m in chosen if kind == "given"}
        verdict = decide(sub_problem(blank.problem, slots, placed), deadline)
        return None if verdict is Status.UNKNOWN else verdict is Status.UNFILLABLE

    calls, minimal, i = 1, True, 0
    if unsat(members) is not True:
        raise ValueError("the grid is fillable (or undecided): there is nothing to explain")
    while i < len(members):
        if time.monotonic() > deadline:
            minimal = False
            break
        calls += 1
        verdict = unsat(members[:i] + members[i + 1:])
        if verdict is True:
            del members[i]
        else:
            minimal &= verdict is not None
            i += 1
    slots = tuple(m for kind, m in members if kind == "slot")
    given_cells = tuple(m for kind, m in members if kind == "given")
    return Explanation(slots, given_cells, minimal, _wipeout_sentence(built, slots),
                       "deletion-based minimisation, MAC search as the oracle", calls,
                       time.monotonic() - start)


def _wipeout_sentence(built: Built, core: tuple[int, ...]) -> str:
    """The arc-consistency reason, when the slot it empties is one of the core's (otherwise
    it names a slot outside the core, which reads as a contradiction)."""
    from xwsat.pipeline import explain_wipeout

    wiped = propagate(built.problem)
    if wiped.wiped is None or wiped.wiped not in core:
        return ""
    return "arc consistency alone proves it: " + explain_wipeout(built, wiped.wiped, wiped.reason)


def describe_core(built: Built, expl: Explanation) -> list[str]:
    """One line per member of the core: slot name, length, pattern and candidate count."""
    lines = []
    for s in expl.slots:
        slot = built.slots[s]
        pattern = "".join(built.grid.cell(c) for c in slot.cells)
        lines.append(f"{slot.name:>5}  length {slot.length:2d}  {pattern}  "
                     f"{len(built.problem.candidates[s])} candidates")
    for cell in expl.givens:
        r, c = divmod(cell, built.grid.width)
        lines.append(f"given  {built.grid.cell(cell)} at row {r + 1}, column {c + 1}")
    return lines


def core_picture(built: Built, expl: Explanation) -> str:
    """The grid as text: '*' a cell of a core slot, '.' another white cell, '#' a block; given
    letters in the core upper case, others lower case."""
    cells = {c for s in expl.slots for c in built.slots[s].cells}
    givens = set(expl.givens)
    rows = []
    for r, row in enumerate(built.grid.rows):
        out = []
        for c, ch in enumerate(row):
            cell = r * built.grid.width + c
            if ch == "#":
                out.append("#")
            elif ch != ".":
                out.append(ch.upper() if cell in givens else ch.lower())
            else:
                out.append("*" if cell in cells else ".")
        rows.append(" ".join(out))
    return "\n".join(rows)
