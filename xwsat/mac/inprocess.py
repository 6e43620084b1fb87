"""The compiled letter search run inside this process, for analyses that decide many small
parts of a grid one after another (the certificate's slot shrink, the region probe), where a
child process per part would cost more than most parts take."""

from __future__ import annotations

import time

from xwsat.mac import aot
from xwsat.mac import state as mstate
from xwsat.mac.model import build_model
from xwsat.mac.state import State
from xwsat.problem import FillProblem

SLICE = 2_000  # decisions between two looks at the clock (well under 0.1 s)


def search(problem: FillProblem, deadline: float, seed: int) -> tuple[int, State]:
    """Search until a verdict or until ``deadline`` (``time.monotonic``) passes: the code
    (``state.SAT``, ``state.UNSAT`` or ``state.BUDGET`` when time ran out) and the final state,
    whose counters and weights say where the search failed."""
    model, start = build_model(problem)
    st = mstate.new_state(model, start, seed)
    run, code = aot.runner(), mstate.BUDGET
    while code == mstate.BUDGET and time.monotonic() < deadline:
        code = run(model, st, SLICE)
    return code, st
