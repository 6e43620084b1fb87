"""Minimal explanations of unfillability: a set of slots (and given letters) that cannot be
filled together, while every proper subset can.

``explain`` returns one such core; ``xwsat.evidence.cores`` gives it anytime (a first core at
once, then smaller ones), with a MAC search as the oracle. The ``cdcl`` oracle here is the other
route: each slot's constraints (its "some word" clause and its support clauses,
encodings/cnf.md) are guarded by a selector; so is each pre-placed letter (as a unit clause on
its cell). The solver refutes the formula under all selectors as assumptions and returns a core;
deletion-based minimisation then drops one member at a time, keeping the solver's smaller core
whenever the rest is still unsatisfiable (clause-set refinement). Cell, word and no-repeat
clauses are not guarded: an unselected slot's word variables can all be false, so they bind
nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from xwsat.encode.cnf import encode_cnf
from xwsat.grid import Grid
from xwsat.problem import Built, FillProblem, build_problem, dictionary_words
from xwsat.propagate import Propagated, propagate

EXPLAIN_SOLVER = "cadical195"
CONFLICT_BUDGET = 200_000  # per minimisation call; an undecided call keeps the member


@dataclass(frozen=True)
class Explanation:
    """A core of slots (indices into ``built.slots``) and given cells that cannot be filled
    together; ``minimal`` when every member was shown necessary; ``sentence`` for the trivial
    cases; ``proof`` says how the core is known to be unfillable, ``stopped`` why the search
    for a smaller one ended early (the time limit, Ctrl-C), if it did."""

    slots: tuple[int, ...]
    givens: tuple[int, ...] = ()  # grid cell ids of pre-placed letters in the core
    minimal: bool = False
    sentence: str = ""
    method: str = ""
    calls: int = 0
    seconds: float = 0.0  # since the explanation started
    proof: str = ""
    necessary: int = 0  # members shown necessary so far (all of them when minimal)
    stopped: str = ""

    @property
    def size(self) -> int:
        return len(self.slots) + len(self.givens)


def blank_of(grid: Grid) -> Grid:
    """The grid with its given letters removed (they become selectable constraints)."""
    return Grid(tuple("".join("#" if ch == "#" else "." for ch in row) for row in grid.rows))


def blank_problem(built: Built, min_length: int = 2) -> FillProblem:
    """The problem of the grid without its given letters, whose slots are ``built``'s. A
    constructor's entry that is no dictionary word (``WordList.placed_only``, a locked theme
    entry) stays a candidate of the slots the grid spells it in, and of no other: with their
    letters given, those slots have the same candidates as in ``built``."""
    grid = built.grid
    if not grid.given_letters():
        return built.problem
    words = built.words
    if not words.placed_only:
        return build_problem(blank_of(grid), words, min_length,
                             built.problem.allow_repeats).problem
    blank = build_problem(blank_of(grid), replace(words, placed_only=frozenset()), min_length,
                          built.problem.allow_repeats).problem
    placed = np.array(sorted(i for i, w in enumerate(words.words) if w in words.placed_only))
    keep_c, keep_l, keep_s = [], [], []
    for s, slot in enumerate(built.slots):
        spelled = "".join(grid.cell(c) for c in slot.cells)
        ids = blank.candidates[s]
        ok = ~np.isin(ids, placed) | np.array([words.words[i] == spelled for i in ids.tolist()],
                                              dtype=bool).reshape(-1)
        keep_c.append(ids[ok])
        keep_l.append(blank.letters[s][ok])
        keep_s.append(blank.scores[s][ok])
    return replace(blank, candidates=tuple(keep_c), letters=tuple(keep_l), scores=tuple(keep_s))


def guarded_clauses(built: Built, problem: FillProblem
                    ) -> tuple[list[list[int]], list[int], list[int]]:
    """Clauses of the blank ``problem`` with selectors: returns (clauses, slot selectors,
    given-letter selectors)."""
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
    dense = {int(c): i for i, c in enumerate(problem.cell_ids)}
    for cell, code in given_codes(built, problem).items():
        top += 1
        given_sel.append(top)
        clauses.append([-top, int(cnf.y_var[dense[cell], code])])
    return clauses, slot_sel, given_sel


def given_codes(built: Built, problem: FillProblem) -> dict[int, int]:
    """Grid cell id -> letter code of each given letter in a slot, in cell order."""
    given = built.grid.given_letters()
    in_slots = set(problem.cell_ids.tolist())
    alphabet = built.words.alphabet
    return {c: alphabet.code(given[c]) for c in sorted(given) if c in in_slots}


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


def trivial_core(built: Built, start: float) -> Explanation | None:
    """A slot no word fits (minimal, said in words), or the slots the no-repeat count
    refutes (``xwsat.no_repeat``; minimal when ``_count_core`` can tell), else None."""
    from xwsat.pipeline import explain_wipeout, no_word_matches

    empty = [s for s, c in enumerate(built.problem.candidates) if len(c) == 0]
    if empty:
        s = empty[0]
        given_cells = _needed_letters(built, s)
        slot = built.slots[s]
        said = explain_wipeout(built, s, "no candidate")
        if len(given_cells) < sum(built.grid.cell(c) != "." for c in slot.cells):
            pattern = "".join(built.grid.cell(c) if c in given_cells else "." for c in slot.cells)
            said = no_word_matches(built.words, slot.name, pattern)
        return Explanation((s,), given_cells, True, said,
                           "no candidate", seconds=time.monotonic() - start,
                           proof="the word list: no word fits it",
                           necessary=1 + len(given_cells))
    return _count_core(built, start)


def _needed_letters(built: Built, s: int) -> tuple[int, ...]:
    """The given letters of slot s, which no word fits, that no word fits without either:
    each is left out in turn and stays out when still no word of the list fits the rest
    (so each one kept is necessary: the core is minimal)."""
    slot, words = built.slots[s], built.words
    _, codes = dictionary_words(words)(slot.length)  # a constructor's entry fits no open slot
    kept = [(p, c, words.alphabet.code(built.grid.cell(c))) for p, c in enumerate(slot.cells)
            if built.grid.cell(c) != "."]
    for member in list(kept):
        rest = [g for g in kept if g != member]
        fits = np.ones(len(codes), dtype=bool)
        for p, _, letter in rest:
            fits &= codes[:, p] == letter
        if not fits.any():
            kept = rest
    return tuple(c for _, c, _ in kept)


def explain_by_cdcl(built: Built, time_limit: float, min_length: int) -> Explanation:
    """Selector cores of a CDCL solver, minimised by deletion (clause-set refinement)."""
    from pysat.solvers import Solver

    start = time.monotonic()
    deadline = start + time_limit
    blank = blank_problem(built, min_length)
    clauses, slot_sel, given_sel = guarded_clauses(built, blank)
    selectors = slot_sel + given_sel
    owner = {v: ("slot", i) for i, v in enumerate(slot_sel)}
    owner.update({v: ("given", i) for i, v in enumerate(given_sel)})
    givens = list(given_codes(built, blank))
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
                       wipeout_sentence(built, slots),
                       "selector core, deletion-based minimisation", calls,
                       time.monotonic() - start, proof=f"refuted by {EXPLAIN_SOLVER}",
                       necessary=len(core) if minimal else 0)


def _count_core(built: Built, start: float) -> Explanation | None:
    """Slots of one length with fewer candidate words between them than their number
    (``xwsat.no_repeat``), dropped one at a time while the count still fails. Minimal when no two
    of them cross and none has a given letter: any fewer of them then have a word each
    (Hall's theorem) and nothing else ties them; otherwise a smaller set might still fail
    through a crossing or a letter (three 3-letter words for a 3x3 square: two crossing slots
    that would repeat a word), which the searches find from it."""
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
    givens = tuple(sorted({c for s in kept for c in built.slots[s].cells
                           if built.grid.cell(c) != "."}))
    minimal = not givens and len(set(cells)) == len(cells)
    return Explanation(tuple(kept), givens, minimal, explain_hall(built, found, False),
                       "the no-repeat count (Hall's theorem)", seconds=time.monotonic() - start,
                       proof="the no-repeat count: fewer words fit these slots than there "
                       "are slots", necessary=len(kept) if minimal else 0)


def wipeout_sentence(built: Built, core: tuple[int, ...],
                     wiped: Propagated | None = None) -> str:
    """The arc-consistency reason, when the slot it empties is one of the core's (otherwise
    it names a slot outside the core, which reads as a contradiction).
    ``wiped``: ``propagate(built.problem)`` when the caller has it already."""
    from xwsat.pipeline import explain_wipeout

    wiped = wiped if wiped is not None else propagate(built.problem)
    if wiped.wiped is None or wiped.wiped not in core:
        return ""
    return "arc consistency alone proves it: " + explain_wipeout(built, wiped.wiped, wiped.reason)


def describe_core(built: Built, expl: Explanation) -> list[str]:
    """One line per member of the core: slot name, length, pattern (the given letters of the
    core; others are free) and candidate count (when all of the slot's given letters are in the
    core, else its count would be of another pattern)."""
    lines = []
    core_givens = set(expl.givens)
    for s in expl.slots:
        slot = built.slots[s]
        letters = [built.grid.cell(c) for c in slot.cells]
        pattern = "".join(ch if c in core_givens else "." for c, ch in zip(slot.cells, letters))
        whole = all(ch == "." or c in core_givens for c, ch in zip(slot.cells, letters))
        count = f"  {len(built.problem.candidates[s])} candidates" if whole else ""
        lines.append(f"{slot.name:>5}  length {slot.length:2d}  {pattern}{count}")
    for cell in expl.givens:
        r, c = divmod(cell, built.grid.width)
        label = f"{built.grid.given_kind(cell):<6}"  # "given " or "locked": one column either way
        lines.append(f"{label} {built.grid.cell(cell)} at row {r + 1}, column {c + 1}")
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
