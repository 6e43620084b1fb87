"""The compiled search writing a DRUP proof against the certificate CNF (encodings/cnf.md).

Each time a positive decision "cell c holds a" fails under the positive decisions above it, the
kernel writes the lemma (not d1 or ... or not dk or not y[c,a]); a failure at the root is the
empty clause. Each lemma is RUP for the same reason as in ``xwsat.evidence.drup_search``: unit
propagation on the support encoding with the cell at-least-one clauses is arc consistency on the
letters model, the negative decisions above are units of earlier lemmas, and the restart nogoods
the kernel propagates are earlier lemmas themselves. The proof is checked by a DRUP checker; a wrong
lemma can only make that check fail.
"""

from __future__ import annotations

import time

import numpy as np

from xwsat.encode.cnf import CNF
from xwsat.evidence.proof_run import ProofRun
from xwsat.outcome import Status
from xwsat.problem import FillProblem


def _write(out, proof: np.ndarray) -> int:
    """DRUP text for 0-terminated lemmas; the number of lines written."""
    if not len(proof):
        return 0
    out.write(_lines(proof))
    return int(np.count_nonzero(proof == 0))


def _lines(proof: np.ndarray) -> str:
    ends = np.flatnonzero(proof == 0)
    starts = np.concatenate([[0], ends[:-1] + 1])
    values = proof.tolist()
    return "".join(" ".join(map(str, values[a:b + 1])) + "\n" for a, b in zip(starts, ends))


def choice_of(problem: FillProblem, fill: tuple[int, ...]) -> list[int]:
    """Candidate index per slot of a fill given as word ids."""
    return [int(np.flatnonzero(problem.candidates[s] == w)[0]) for s, w in enumerate(fill)]


def search_with_proof(problem: FillProblem, cnf: CNF, proof_path: str,
                      time_limit: float | None, seed: int = 0) -> ProofRun:
    """Run the compiled search with proof logging: UNFILLABLE (proof complete), FILLED
    (candidate index per slot) or UNKNOWN (time)."""
    from xwsat.compiled_search import aot
    from xwsat.compiled_search import state as mstate  # the kernel's codes and state
    from xwsat.compiled_search.model import build_model, slot_rows, word_of_row

    start = time.perf_counter()
    deadline = start + time_limit if time_limit else None
    model, initial = build_model(problem)
    state = mstate.new_state(model, initial, seed, yvar=cnf.y_var)
    run = aot.runner()
    code, budget, lines = mstate.BUDGET, 256, 0
    with open(proof_path, "w", encoding="ascii") as out:
        while code == mstate.BUDGET:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            code = run(model, state, budget)
            used = int(state.sc[mstate.PROOF])
            lines += _write(out, state.proof[:used])
            state.sc[mstate.PROOF] = 0
    stats = {"decisions": int(state.sc[mstate.NODES]), "failures": int(state.sc[mstate.FAILS]),
             "restarts": int(state.sc[mstate.RESTARTS])}
    times = {"solve_s": time.perf_counter() - start}
    if code == mstate.UNSAT:
        return ProofRun(Status.UNFILLABLE, None, lines, stats, times)
    if code == mstate.SAT:
        fill = tuple(word_of_row(model, s, int(slot_rows(model, state.ct, s)[0]))
                     for s in range(problem.n_slots))
        return ProofRun(Status.FILLED, choice_of(problem, fill), lines, stats, times)
    return ProofRun(Status.UNKNOWN, None, lines, stats, times)
