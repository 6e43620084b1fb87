"""The compiled letter search run inside this process, for analyses that decide many small
parts of a grid one after another (the certificate's slot shrink, the region probe), where a
child process per part would cost more than most parts take."""

from __future__ import annotations

import time

from xwsat.compiled_search import aot
from xwsat.compiled_search import state as mstate
from xwsat.compiled_search.model import Model, build_model
from xwsat.compiled_search.state import State
from xwsat.problem import FillProblem

SLICE = 2_000  # decisions between two looks at the clock (well under 0.1 s)


def start(problem: FillProblem, seed: int) -> tuple[Model, State]:
    """A search of ``problem`` not yet run: its model and fresh state."""
    model, first = build_model(problem)
    return model, mstate.new_state(model, first, seed)


def advance(model: Model, st: State, deadline: float) -> int:
    """Go on with a search until a verdict or until ``deadline`` (``time.monotonic``) passes:
    ``state.SAT``, ``state.UNSAT`` or ``state.BUDGET`` (time ran out; call again to resume)."""
    run, code = aot.runner(), mstate.BUDGET
    while code == mstate.BUDGET and time.monotonic() < deadline:
        code = run(model, st, SLICE)
    return code


def search(problem: FillProblem, deadline: float, seed: int) -> tuple[int, State]:
    """A whole search until ``deadline``: the code (as ``advance``) and the final state, whose
    counters and weights say where the search failed."""
    model, st = start(problem, seed)
    return advance(model, st, deadline), st
