"""Cross-check a verdict with a second, independent method on the *unpruned* problem.

The second method is a back-end of another family (``traits.family``): it shares neither the
first one's solver nor xwsat's arc consistency (the pruning every back-end run starts from).
After a CDCL or CP-SAT verdict the native exhaustive search decides again; after any other, ACE
(the Java CP solver bundled with pycsp3, on the letters-only XCSP3 model), then the compiled
``mac`` search, the Python native search, CP-SAT: the first of those that is installed and of
another family. A fill it finds is verified independently; a disagreement is reported loudly and
the command exits 4.
"""

from __future__ import annotations

from dataclasses import dataclass

from xwsat.backends.registry import installed, make_backend
from xwsat.guard import Tick
from xwsat.outcome import Limits, Status, Stop
from xwsat.portfolio import run_portfolio
from xwsat.problem import Built, fill_letters
from xwsat.verify import check_fill

CPSAT_NOTE = ("CP-SAT's INFEASIBLE is agreement, not a certificate: its proof log relies on "
              "clauses it assumes, so it is not independently checkable")
AFTER_SEARCH = ("ace", "mac", "native", "cpsat")  # second methods after a search verdict
AFTER_SOLVER = ("native", "mac", "ace")  # after a CDCL or CP-SAT verdict
# after the no-repeat count (``xwsat.no_repeat``): CP-SAT's AllDifferent decides a pigeonhole at
# once, where the letter and word searches try the permutations
AFTER_COUNT = ("cpsat", "sat", "ace")


@dataclass(frozen=True)
class CrossCheck:
    """``agree`` True/False, or None when the second method did not decide in time."""

    method: str
    status: Status
    agree: bool | None
    detail: str


def family_of(method: str) -> str:
    """The code family behind a verdict's method: a back-end's, or that of the searches xwsat's
    own steps share ("propagate" and the certificate's Python search are the native family)."""
    name = method.removeprefix("certificate:")
    aliases = {"propagate": "native", "search": "native", "cdcl": "cdcl", "matching": "count"}
    if name in aliases:
        return aliases[name]
    try:
        return make_backend(name).traits.family
    except Exception:  # noqa: BLE001 - an unknown method shares nothing we know of
        return name


def second_method(first: str) -> str:
    """The first installed back-end, in the order above, of a family other than ``first``'s."""
    family = family_of(first)
    order = (AFTER_COUNT if family == "count" else
             AFTER_SOLVER if family in ("cdcl", "cpsat") else AFTER_SEARCH)
    for spec in order:
        if installed(spec) and make_backend(spec).traits.family != family:
            return spec
    return "cpsat"


def cross_check(built: Built, verdict: Status, first: str, time_limit: float,
                min_length: int = 2, on_tick: Tick | None = None) -> CrossCheck:
    """Decide the unpruned problem again with the second method and compare."""
    problem = built.problem
    if any(len(c) == 0 for c in problem.candidates):
        empty = next(s for s, c in enumerate(problem.candidates) if len(c) == 0)
        name = problem.slot_names[empty]
        agree = verdict is Status.UNFILLABLE
        return CrossCheck("candidate count", Status.UNFILLABLE, agree,
                          f"slot {name} has no candidate word at all (counted from the "
                          "dictionary, no solver needed)")
    method = second_method(first)
    limits = Limits(time_limit, None, 0, threads=2)
    outcome = run_portfolio([(method, 0.0)], problem, limits, on_tick, label=method)
    if outcome.stop is Stop.INTERRUPTED:  # Ctrl-C: the command stops, it is not out of time
        raise KeyboardInterrupt
    if outcome.status is Status.FILLED and outcome.fill is not None:
        filled = built.grid.with_letters(fill_letters(built, outcome.fill))
        problems = check_fill(built.grid.rows, filled.rows, frozenset(built.words.words),
                              problem.allow_repeats, min_length)
        if problems:
            return CrossCheck(outcome.method, Status.ERROR, False,
                              "its fill failed verification: " + "; ".join(problems[:2]))
        detail = "found a fill that passes the independent checker:\n" + filled.to_text()
    elif outcome.status is Status.UNFILLABLE:
        detail = CPSAT_NOTE if family_of(outcome.method) == "cpsat" else (
            outcome.evidence.detail if outcome.evidence else "unfillable")
    else:
        return CrossCheck(outcome.method, outcome.status, None,
                          outcome.message or "undecided within the time limit")
    return CrossCheck(outcome.method, outcome.status, outcome.status is verdict, detail)
