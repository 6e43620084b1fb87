"""Cross-check a verdict with a second, independent method on the *unpruned* problem.

The second method shares neither the first one's solver nor xwsat's arc consistency (the pruning
every back-end run starts from). After a verdict of the native search family (native back-end,
propagation, the certificate's tree search, which share the native search state): ACE, the Java
CP solver bundled with pycsp3, on the XCSP3 export, or CP-SAT when ACE is missing. After a SAT or
CP-SAT verdict: the native exhaustive search. Without java, the compiled ``mac`` search and the
Python native search check each other. A fill it finds is verified independently; a
disagreement is reported loudly and the command exits 4.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from xwsat.backends.base import Evidence, Limits, Outcome, Status
from xwsat.encode.xcsp3 import cells_solution, cells_xcsp3
from xwsat.evidence.ace import ace_available, run_ace
from xwsat.planner import default_plan
from xwsat.problem import Built, fill_letters
from xwsat.runner import Tick, run_portfolio
from xwsat.verify import check_fill

CPSAT_NOTE = ("CP-SAT's INFEASIBLE is agreement, not a certificate: its proof log relies on "
              "clauses it assumes, so it is not independently checkable")


@dataclass(frozen=True)
class CrossCheck:
    """``agree`` True/False, or None when the second method did not decide in time."""

    method: str
    status: Status
    agree: bool | None
    detail: str


def second_method(first: str) -> str:
    """The native search after SAT or CP-SAT; otherwise ACE. Without java: after the compiled
    search the Python one, after the Python search family the compiled one (they share no
    search code), CP-SAT when numba is missing too."""
    if first.startswith(("cpsat", "sat", "certificate:cdcl")):
        return "native"
    if ace_available():
        return "ace"
    if first.startswith(("mac", "certificate:mac")):
        return "native"
    from xwsat.backends.mac import MacBackend

    return "mac" if MacBackend.available() else "cpsat"


def _ace_outcome(built: Built, time_limit: float) -> Outcome:
    """ACE on the letters-only XCSP3 export of the unpruned problem, as an Outcome.

    The letters model, not the word model: ACE decides far more from it (results/hard.md)."""
    problem = built.problem
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "grid.xml"
        path.write_text(cells_xcsp3(problem), encoding="utf-8")
        result = run_ace(path, time_limit)
    if result.verdict == "sat":
        fill = cells_solution(problem, result.values)
        if -1 in fill:
            return Outcome(Status.ERROR, "ace", message="ACE's letters spell no candidate word")
        return Outcome(Status.FILLED, "ace", fill)
    if result.verdict == "unsat":
        return Outcome(Status.UNFILLABLE, "ace",
                       evidence=Evidence("ace", "ACE (XCSP3 letters model) explored the whole"
                                         " space"))
    return Outcome(Status.UNKNOWN, "ace", message=f"ACE undecided in {result.seconds:.1f} s")


def cross_check(built: Built, verdict: Status, first: str, time_limit: float,
                min_length: int = 2, on_tick: Tick | None = None) -> CrossCheck:
    """Decide the unpruned problem again with the second method and compare."""
    method = second_method(first)
    problem = built.problem
    if any(len(c) == 0 for c in problem.candidates):
        empty = next(s for s, c in enumerate(problem.candidates) if len(c) == 0)
        name = problem.slot_names[empty]
        agree = verdict is Status.UNFILLABLE
        return CrossCheck("candidate count", Status.UNFILLABLE, agree,
                          f"slot {name} has no candidate word at all (counted from the "
                          "dictionary, no solver needed)")
    if method == "ace":
        outcome = _ace_outcome(built, time_limit)
    else:
        limits = Limits(time_limit, None, 0, threads=2)
        outcome = run_portfolio([method], problem, default_plan(problem), limits, on_tick)
    if outcome.status is Status.FILLED and outcome.fill is not None:
        filled = built.grid.with_letters(fill_letters(built, outcome.fill))
        problems = check_fill(built.grid.rows, filled.rows, frozenset(built.words.words),
                              problem.allow_repeats, min_length)
        if problems:
            return CrossCheck(outcome.backend, Status.ERROR, False,
                              "its fill failed verification: " + "; ".join(problems[:2]))
        detail = "found a fill that passes the independent checker:\n" + filled.to_text()
    elif outcome.status is Status.UNFILLABLE:
        detail = CPSAT_NOTE if outcome.backend.startswith("cpsat") else (
            outcome.evidence.detail if outcome.evidence else "unfillable")
    else:
        return CrossCheck(outcome.backend, outcome.status, None,
                          outcome.message or "undecided within the time limit")
    return CrossCheck(outcome.backend, outcome.status, outcome.status is verdict, detail)
