"""The solver route: one symbol variable per cell (letters plus block), one ``AddAutomaton`` per
row and column, and lazy cuts for the rules that are checked on whole grids.

Eager (in the model): every line is valid (words >= min length separated by blocks), given
letters and blocks, the block cap, symmetry, and theme entries (a placement literal per position).
Lazy (check each solution, add a cut, re-solve): white cells connected, and no repeated word.
A cut is exact, so an INFEASIBLE answer after cuts is still a proof that no grid exists.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field

from xwsat.cpsat_thread import solve_stoppable
from xwsat.generate.automaton import START, LineAutomaton
from xwsat.generate.lazy import lazy_cuts, run_literals
from xwsat.generate.spec import GenerateSpec
from xwsat.outcome import Stop
from xwsat.words import Alphabet

Progress = Callable[[str], None]


@dataclass
class SolveReport:
    """What a back-end found: rows (or None), whether absence is proven, and counters."""

    rows: tuple[str, ...] | None
    proven_none: bool = False
    stopped: str = ""                  # why it stopped without a verdict
    stats: dict[str, float | int] = field(default_factory=dict)


class CpsatGenerator:
    """Builds the model once; ``solve`` runs the lazy-cut loop within a deadline."""

    def __init__(self, spec: GenerateSpec, alphabet: Alphabet,
                 automata: dict[int, LineAutomaton], seed: int = 0, workers: int = 1) -> None:
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.spec, self.alphabet, self.seed, self.workers = spec, alphabet, seed, workers
        self.block = alphabet.size
        model = cp_model.CpModel()
        self.model = model
        n = spec.cells
        self.x = [model.NewIntVar(0, self.block, f"x{i}") for i in range(n)]
        self.b = [model.NewBoolVar(f"b{i}") for i in range(n)]
        for xi, bi in zip(self.x, self.b):
            model.Add(xi == self.block).OnlyEnforceIf(bi)
            model.Add(xi != self.block).OnlyEnforceIf(bi.Not())
        for cell, ch in spec.givens.items():
            model.Add(self.x[cell] == (self.block if ch == "#" else alphabet.code(ch)))
        if spec.max_blocks is not None:
            model.Add(sum(self.b) <= spec.max_blocks)
        for cell in range(n):
            other = spec.mirror_of(cell)
            if other is not None and other > cell:
                model.Add(self.b[cell] == self.b[other])
        transitions = 0
        for _, _, cells in spec.lines():
            auto = automata[len(cells)]
            model.AddAutomaton([self.x[c] for c in cells], START, list(auto.finals),
                               auto.transitions.tolist())
            transitions += len(auto.transitions)
        self._eq: dict[tuple[int, int], object] = {}
        for word in spec.theme:
            self._place_theme(word)
        self.stats: dict[str, float | int] = {"automaton_transitions": transitions, "cuts": 0,
                                              "solves": 0}

    def _is(self, cell: int, symbol: int):
        """A literal for ``x[cell] == symbol``, created on first use."""
        if symbol == self.block:
            return self.b[cell]
        key = (cell, symbol)
        lit = self._eq.get(key)
        if lit is None:
            lit = self.model.NewBoolVar(f"x{cell}={symbol}")
            self.model.Add(self.x[cell] == symbol).OnlyEnforceIf(lit)
            self.model.Add(self.x[cell] != symbol).OnlyEnforceIf(lit.Not())
            self._eq[key] = lit
        return lit

    def _lit(self, literal):
        cell, symbol, positive = literal
        lit = self._is(cell, symbol)
        return lit if positive else lit.Not()

    def _place_theme(self, word: str) -> None:
        codes = [self.alphabet.code(ch) for ch in word]
        options = []
        for _, _, cells in self.spec.lines():
            for start in range(len(cells) - len(word) + 1):
                lit = self.model.NewBoolVar(f"theme {word}@{cells[start]}")
                run = run_literals(cells[start:start + len(word)], codes, self.block,
                                   self.spec.width, self.spec.cells)
                for needed in run:
                    self.model.AddImplication(lit, self._lit(needed))
                options.append(lit)
        self.model.AddBoolOr(options)

    def _cut(self, rows: tuple[str, ...]) -> int:
        """Add cuts for every lazy rule the grid breaks; returns how many were added."""
        cuts = lazy_cuts(rows, self.alphabet.letters, self.spec.allow_repeats)
        for clause in cuts:
            self.model.AddBoolOr([self._lit(lit) for lit in clause])
        return len(cuts)

    def solve(self, deadline: float, stop: threading.Event, progress: Progress) -> SolveReport:
        started = time.monotonic()
        while True:
            left = deadline - time.monotonic()
            if stop.is_set():
                return self._report(None, stopped="interrupted")
            if left <= 0:
                return self._report(None, stopped="time limit reached")
            solver = self.cp.CpSolver()
            solver.parameters.max_time_in_seconds = left
            solver.parameters.num_workers = self.workers
            solver.parameters.random_seed = self.seed
            solver.parameters.catch_sigint_signal = False  # Ctrl-C is ours (StopSearch)
            # Measured (results/generate/): presolve, probing, symmetry detection and the LP
            # relaxation spend most of the time on the expanded automata (5x5: 52 s -> 12 s).
            solver.parameters.cp_model_presolve = False
            solver.parameters.cp_model_probing_level = 0
            solver.parameters.symmetry_level = 0
            solver.parameters.linearization_level = 0
            why: list[Stop] = []
            status, interrupted = solve_stoppable(solver, self.model, stop, why=why)
            if interrupted and why and why[0] is not Stop.INTERRUPTED:  # the command's limit
                return self._report(None, stopped="time limit reached" if why[0] is Stop.TIME
                                    else "memory limit reached")
            if interrupted:
                stop.set()
            self.stats["solves"] += 1
            if status is None:      # stopped before the solver produced a response
                return self._report(None, stopped="interrupted")
            with suppress(RuntimeError):
                self.stats["conflicts"] = self.stats.get("conflicts", 0) + solver.NumConflicts()
            if status == self.cp.INFEASIBLE:
                return self._report(None, proven=True)
            if status not in (self.cp.OPTIMAL, self.cp.FEASIBLE):
                why = "interrupted" if stop.is_set() else "time limit reached"
                return self._report(None, stopped=why)
            rows = self._rows(solver)
            added = self._cut(rows)
            if not added:
                self.stats["solve_s"] = round(time.monotonic() - started, 3)
                return self._report(rows)
            self.stats["cuts"] += added
            progress(f"solution {self.stats['solves']} broke a lazy rule: {added} cut(s) added")

    def _rows(self, solver) -> tuple[str, ...]:
        letters = self.alphabet.letters + "#"
        values = [letters[solver.Value(v)] for v in self.x]
        w = self.spec.width
        return tuple("".join(values[r * w:(r + 1) * w]) for r in range(self.spec.height))

    def _report(self, rows, proven: bool = False, stopped: str = "") -> SolveReport:
        return SolveReport(rows, proven, stopped, dict(self.stats))
