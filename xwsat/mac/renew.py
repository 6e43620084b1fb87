"""``mac:renew``'s schedule: the plain letter search, interleaved with short fresh probes.

A fresh search under a new seed escapes the heavy tail of a search whose first weights led it
astray (results/hard/tails_s36/), but a refutation needs weights that have settled on the
grid's hard core, so starting over at each epoch makes refutations 2-3x longer
(results/hard/renew/). Here the letter search keeps running with its own weights for most of
the decisions and, between its turns, a probe (weights 1, a new seeded tie-break) runs for
``unit x luby(k)`` decisions; the two trade what they prove both ways (nogoods, and letters
removed at the root as nogoods of one literal). Turns are counted in decisions, so a seed gives
the same run under any load. Either search's verdict stands: a nogood is a consequence of the
problem alone.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from xwsat.mac import share
from xwsat.mac import state as mstate
from xwsat.mac.model import Model, Start
from xwsat.mac.state import State
from xwsat.restarts import luby

MAIN_SHARE = 2  # the letter search's turn: this many times the probe's that follows it


class Renewal:
    """Which of the two searches runs next, for at most how many decisions."""

    def __init__(self, model: Model, start: Start, main: State, unit: int,
                 probe_seed: Callable[[int], int]) -> None:
        self.model, self.start, self.main = model, start, main
        self.unit, self.probe_seed = unit, probe_seed
        self.probe: State | None = None
        self.probes = 0  # finished
        self.probe_from = 0  # the probe's first nogood of its own (after what it was given)
        self.main_end = int(main.sc[mstate.NODES]) + MAIN_SHARE * unit * luby(1)
        self.done = np.zeros(3, dtype=np.int64)  # finished probes: nodes, failures, restarts

    def next_run(self) -> tuple[State, int]:
        """The state to run now and the most decisions it may take before the next turn."""
        if self.probe is None:
            left = self.main_end - int(self.main.sc[mstate.NODES])
            if left > 0:
                return self.main, left
            self.probe = mstate.new_state(self.model, self.start, self.probe_seed(self.probes))
            share.absorb(self.probe, share.learned(self.main, self.start.dom))
            self.probe_from = int(self.probe.sc[mstate.NG])
        length = self.unit * luby(self.probes + 1)
        left = length - int(self.probe.sc[mstate.NODES])
        if left > 0:
            return self.probe, left
        self._end_probe(length)
        return self.main, self.main_end - int(self.main.sc[mstate.NODES])

    def _end_probe(self, length: int) -> None:
        probe = self.probe
        assert probe is not None
        found = np.concatenate([share.root_removals(probe, self.start.dom),
                                share.recorded(probe, self.probe_from, len(probe.ng_var))])
        share.absorb(self.main, found)
        self.done += [int(probe.sc[mstate.NODES]), int(probe.sc[mstate.FAILS]),
                      int(probe.sc[mstate.RESTARTS])]
        self.probe = None
        self.probes += 1
        self.main_end = (int(self.main.sc[mstate.NODES])
                         + MAIN_SHARE * self.unit * luby(self.probes + 1))

    def totals(self) -> tuple[int, int, int]:
        """Decisions, failures and restarts of both searches so far."""
        runs = [self.main] + ([self.probe] if self.probe is not None else [])
        nodes, fails, restarts = (int(v) for v in self.done)
        for st in runs:
            nodes += int(st.sc[mstate.NODES])
            fails += int(st.sc[mstate.FAILS])
            restarts += int(st.sc[mstate.RESTARTS])
        return nodes, fails, restarts
