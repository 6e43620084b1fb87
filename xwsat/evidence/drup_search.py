"""A tree search that writes its own DRUP proof against the `sat` CNF (encodings/cnf.md).

Maintained arc consistency with two-way branching on letters: at a node with decisions P the
search tries "cell c holds letter a" (the CNF's y[c,a]); when that branch fails it writes the
lemma (not P or not y[c,a]), forbids the letter and propagates; when the node itself fails it
writes (not P). Each lemma is RUP: unit propagation on the support encoding is exactly arc
consistency on the slot tables, and the earlier lemmas make the refuted siblings false, so unit
propagation under the lemma's negation meets the same wipe-out the search met. The root's failure
is the empty clause. The proof is checked like a solver's (by a DRUP checker), so a wrong lemma
can only make the check fail, never make a wrong certificate pass.

Crosswords are a case where a MAC tree search refutes small grids in far fewer steps than CDCL
(blank 5x5 grids: thousands of nodes where CaDiCaL needs tens of thousands of conflicts); this
gives that search a checkable proof. The search state is the native engine's (``SearchState``),
driven chronologically here, without its symmetry breaking (not expressible as RUP lemmas).
"""

from __future__ import annotations

import time

from xwsat.encode.cnf import CNF
from xwsat.evidence.proof_run import ProofRun
from xwsat.evidence.running_count import Partial
from xwsat.outcome import Status
from xwsat.problem import FillProblem
from xwsat.python_search.bitsets import members
from xwsat.python_search.state import SearchState

CLOCK_EVERY = 64


class ProofSearch:
    """Two-way letter branching with MAC; lemmas go to ``out`` as DRUP lines, and a node's
    lemma deletes the lemmas of its children, which it subsumes (a smaller database to check)."""

    def __init__(self, problem: FillProblem, cnf: CNF | None, out) -> None:
        self.state = SearchState(problem)
        self.cnf = cnf
        self.out = out
        self.lines = 0
        self.nodes = 0
        self.path: list[int] = []  # CNF literal of each decision level
        self.kids: list[list[list[int]]] = [[]]  # lemmas refuting each open node's children

    def emit(self, lits: list[int], delete: bool = False) -> None:
        if self.out is None:  # deciding only, no proof
            return
        text = " ".join(map(str, lits)) + " 0\n" if lits else "0\n"
        self.out.write("d " + text if delete else text)
        self.lines += 1

    def choose(self) -> tuple[int, int] | None:
        """(dense cell, letter) to branch on, or None when every slot has one candidate left."""
        state = self.state
        best, best_size = -1, 0
        for s in range(state.n_slots):
            size = state.size(s)
            if size > 1 and (best < 0 or size < best_size):
                best, best_size = s, size
        if best < 0:
            return None
        cells = state.cell_lists[best]
        pos = min((j for j in range(len(cells)) if state.masks[cells[j]] & (state.masks[cells[j]]
                                                                            - 1)),
                  key=lambda j: state.masks[cells[j]].bit_count())
        counts = state.letter_counts(best, pos)
        cell = cells[pos]
        letter = max(members(state.masks[cell]), key=lambda a: counts[a])
        return cell, letter

    def literal(self, cell: int, letter: int) -> int:
        return int(self.cnf.y_var[cell, letter]) if self.cnf is not None else 0

    def run(self, deadline: float | None) -> tuple[Status, list[int] | None]:
        """UNFILLABLE (proof complete), FILLED (candidate index per slot) or UNKNOWN (time)."""
        state = self.state
        if state.initialise() is not None:
            self.emit([])
            return Status.UNFILLABLE, None
        while True:
            self.nodes += 1
            if deadline is not None and self.nodes % CLOCK_EVERY == 0 \
                    and time.monotonic() > deadline:
                return Status.UNKNOWN, None
            choice = self.choose()
            if choice is None:
                return Status.FILLED, [state.dom[s].bit_length() - 1 for s in range(state.n_slots)]
            cell, letter = choice
            self.path.append(self.literal(cell, letter))
            self.kids.append([])
            if state.assign_letter(cell, letter) is None:
                continue
            if not self.backtrack():
                return Status.UNFILLABLE, None

    def backtrack(self) -> bool:
        """Refute the latest decision and forbid it one level up, as often as that fails;
        False when the root fails (the empty clause is written)."""
        state = self.state
        while True:
            refuted = self.path.pop()
            lemma = [-lit for lit in self.path] + [-refuted]
            self.emit(lemma)
            for subsumed in self.kids.pop():  # the new lemma subsumes its children's: drop them
                self.emit(subsumed, delete=True)
            self.kids[-1].append(lemma)
            cell, letter = -1 - state.decisions[-1][0], state.decisions[-1][1]
            state.undo_to_level(len(state.decisions))
            if state.forbid_letter(cell, letter, 0) is None:
                return True
            if not self.path:
                self.emit([])
                return False


def count_leaves(problem: FillProblem, deadline: float | None,
                 limit: int | None = None) -> tuple[int, bool, int]:
    """Count fills by exhausting the same search: (count, complete, nodes). Each leaf is one
    fill (every slot down to one word), and leaves differ in some decision, so none is counted
    twice; after a leaf the search backtracks as if it had failed."""
    search = ProofSearch(problem, None, None)
    state = search.state
    if state.initialise() is not None:
        return 0, True, 0
    found = 0
    partial = Partial()
    while True:
        search.nodes += 1
        if search.nodes % CLOCK_EVERY == 0:
            if deadline is not None and time.monotonic() > deadline:
                return found, False, search.nodes
            partial.send(found)
        choice = search.choose()
        if choice is None:
            found += 1
            if (limit is not None and found >= limit) or not search.path:
                return found, not search.path, search.nodes
            if not search.backtrack():
                return found, True, search.nodes
            continue
        cell, letter = choice
        search.path.append(0)
        search.kids.append([])
        if state.assign_letter(cell, letter) is not None and not search.backtrack():
            return found, True, search.nodes


def decide(problem: FillProblem, deadline: float | None) -> Status:
    """The verdict of the same search (UNKNOWN at the deadline), without writing a proof."""
    return ProofSearch(problem, None, None).run(deadline)[0]


def search_with_proof(problem: FillProblem, cnf: CNF, proof_path: str,
                      time_limit: float | None, seed: int = 0) -> ProofRun:
    """Run the proof search; the DRUP proof goes to ``proof_path`` (complete if UNFILLABLE)."""
    start = time.perf_counter()
    deadline = time.monotonic() + time_limit if time_limit else None
    with open(proof_path, "w", encoding="ascii") as out:
        search = ProofSearch(problem, cnf, out)
        status, choice = search.run(deadline)
    return ProofRun(status, choice, search.lines, {"nodes": search.nodes},
                    {"solve_s": time.perf_counter() - start})
