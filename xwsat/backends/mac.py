"""``mac`` back-end: the compiled letters-model MAC search (``xwsat.compiled_search``) for hard
grids.

Built for hard grids, where the Python search decides too few nodes a second: compact
tables, dom/wdeg, restarts with nogoods, compiled by numba (the first run compiles, later runs
load the cache). Complete: an exhausted search is an UNFILLABLE verdict, named as such; it shares
no code with the Python search, which is what ``--cross-check`` relies on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from xwsat.backends.base import Traits
from xwsat.errors import XwsatError
from xwsat.outcome import Evidence, Limits, Outcome, Progress, Stats, Status, Stop, stopped
from xwsat.problem import FillProblem
from xwsat.restarts import luby

if TYPE_CHECKING:
    from xwsat.compiled_search.share import Endpoint
    from xwsat.compiled_search.state import State
    from xwsat.step_clock import StepEndpoint

# mac:planned's first weight of a slot: 1 + this x its placement-difficulty rank in [0, 1]
# (docs/hard-grids.md: with its ties broken by the seed, as many 21x21 fills as weights 1
# on the tuning grids, one more on the held-out ones; a comparison variant, not in auto)
PLANNED_WEIGHT = 2.0
SLICE_S = 0.2  # hand control back to Python about this often (clock, progress)
# mac:reseed: a fresh search (new tie-break, weights 1, no nogoods; mac:renew keeps the
# nogoods and root removals, docs/hard-grids.md) after each epoch of
# RESEED_UNIT x luby(k) decisions. Counted in decisions, not seconds, so a seed gives the same
# epochs under any load. docs/hard-grids.md: the heavy-tailed instances were decided by
# some seeds within 330-18,000 failures (1,700-5,400 a second), by others not in 30 s.
RESEED_UNIT = 8_000
SHARE_MAX_LEN = 40  # nogoods of at most this many literals go to the other racers (a word
# decision search records 29-43 letters a nogood, a letter search 5-14: docs/hard-grids.md)


def _marker() -> Path:
    """A file that says "this kernel source was compiled by this numba" (only the solver's
    child imports numba)."""
    from xwsat.compiled_search.aot import compiled_marker

    here = Path(__file__).resolve().parent.parent / "mac"
    return compiled_marker(here, ("kernel.py", "model.py", "state.py"), "compiled")


def compiled() -> bool:
    """Whether the search was built for this source and numba: ahead of time, or jitted when the
    ahead-of-time build failed here (else the first run compiles, about 30 s)."""
    from xwsat.compiled_search import aot

    try:
        return aot.built() or (aot.failed() and _marker().exists())
    except OSError:
        return False


def ensure_compiled(say: Callable[[str], None]) -> bool:
    """Compile the search now if no earlier run has, telling ``say`` what happens (about every
    five seconds), so that no time limit pays for it. True when it compiled."""
    if not MacBackend.available() or compiled():
        return False
    import threading

    started = time.monotonic()
    done = threading.Event()
    say("compiling the letters search once (about 30 s; later runs load it in a few "
        "milliseconds)")

    def tell() -> None:
        while not done.wait(5.0):
            say(f"  still compiling ({time.monotonic() - started:.0f} s)")

    threading.Thread(target=tell, daemon=True).start()
    try:
        warm_up()
    finally:
        done.set()
    say(f"  compiled in {time.monotonic() - started:.1f} s")
    from xwsat.compiled_search import aot

    if aot.failed():
        say(f"  (the ahead-of-time build failed, see {aot.folder()}.failed; runs use the jitted "
            "search, about 0.35 s slower to start)")
    return True


def warm_up() -> None:
    """Compile the search now (a 2x2 grid), jitted then ahead of time
    (``xwsat.compiled_search.aot``), so later runs, and their time limits, do not pay."""
    import numpy as np

    from xwsat.compiled_search import kernel
    from xwsat.compiled_search.model import build_model
    from xwsat.problem import FillProblem

    letters = np.array([[0, 1], [2, 3]], dtype=np.uint8)
    problem = FillProblem(
        alphabet_size=4, cell_ids=np.arange(4, dtype=np.int32),
        slot_cells=(np.array([0, 1], np.int32), np.array([2, 3], np.int32),
                    np.array([0, 2], np.int32), np.array([1, 3], np.int32)),
        slot_names=("1A", "3A", "1D", "2D"),
        candidates=tuple(np.array([0, 1], np.int32) for _ in range(4)),
        letters=(letters,) * 4, cell_masks=np.full(4, 15, dtype=np.uint64),
        scores=tuple(np.zeros(2, np.int16) for _ in range(4)))
    model, start = build_model(problem)
    _forget_jit_cache(kernel)
    kernel.run(model, kernel.new_state(model, start, 0), 1 << 20)
    kernel.run(model, kernel.new_state(model, start, 0, yvar=np.ones((4, 4), np.int64)), 1 << 20)
    with suppress(OSError):
        marker = _marker()
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    from xwsat.compiled_search import aot

    if not aot.built():
        aot.build_or_record(model, kernel.new_state(model, start, 0))


def _forget_jit_cache(kernel) -> None:
    """Delete numba's cached machine code of the kernel before compiling it for a new marker.

    numba invalidates its cache only when the function's own file changes, but the kernel also
    bakes in constants from ``state.py`` and ``model.py``: after an edit there, the cached code
    would run with the old values. The marker covers all three files, so a new marker compiles
    from scratch."""
    with suppress(AttributeError, OSError):
        folder = Path(kernel.run._cache._cache_path)
        for path in folder.glob("kernel.*.nb[ic]"):
            path.unlink()


def add_planned_weights(problem: FillProblem, state: State) -> None:
    """Raise each slot's first dom/wdeg weight by ``PLANNED_WEIGHT`` x its placement-difficulty
    rank, so the search starts on the slots the planner finds hardest; tied slots are ranked by
    the state's seeded tie-break, so each seed is a search of its own."""
    from xwsat.planner import difficulty_ranks

    for s, rank in enumerate(difficulty_ranks(problem, state.weight.tolist())):
        state.weight[s] += PLANNED_WEIGHT * rank


class MacBackend:
    """Run the compiled search in slices until a verdict, the time limit or an abort."""

    name: ClassVar[str] = "mac"

    def __init__(self, words: bool = False, phase: bool = False, planned: bool = False,
                 reseed: bool = False, renew: bool = False) -> None:
        self.words = words  # decide whole words (fills large grids sooner) instead of letters
        self.phase = phase and not words  # letters, each cell trying its last letter first
        # letters, the slots' first dom/wdeg weights from the planner's placement difficulty
        self.planned = planned and not words and not self.phase
        # letters, started afresh with another seed at growing intervals (heavy tails)
        self.reseed = (reseed or renew) and not words and not self.phase and not self.planned
        # as reseed, each fresh search starting with what the earlier ones proved (their
        # nogoods and root removals), so no refutation work is lost at an epoch's end
        self.renew = renew and self.reseed
        self.label = ("mac:words" if words else "mac:phase" if self.phase
                      else "mac:planned" if self.planned
                      else "mac:renew" if self.renew
                      else "mac:reseed" if self.reseed else "mac")
        # a certificate for any variant comes from the letter-deciding search's DRUP proof;
        # a reseeding search starts new nogood stores at each epoch, so it does not trade them
        self.traits = Traits("mac", proof="mac", shares_nogoods=not self.reseed,
                             substrings=True, counts_steps=True)
        self.exchange: Endpoint | None = None  # set by a racing portfolio that shares nogoods
        self.step_clock: StepEndpoint | None = None  # set by a race kept in step
        self.kept: tuple | None = None  # the last search's (model, state, start), to hand over
        self.max_nodes: int | None = None  # stop after this many decisions (a budget that,
        # unlike seconds, gives the same search under any load)

    @staticmethod
    def available() -> bool:
        import importlib.util

        # find_spec, not an import: numba takes ~0.2 s to import and only the child needs it
        return importlib.util.find_spec("numba") is not None

    def solve(self, problem: FillProblem, limits: Limits,
              progress: Progress | None = None) -> Outcome:
        from xwsat.compiled_search import aot, share
        from xwsat.compiled_search import (
            state as mstate,  # the kernel's codes and state, without numba
        )
        from xwsat.compiled_search.model import build_model, read_fill

        started = time.perf_counter()
        deadline = started + limits.time_limit if limits.time_limit else None
        if progress is not None and not compiled():
            progress("compiling the search (first run only, about 30 s)")
        # mac:renew's first epoch is the plain letter search under the run's seed (no ``mac``
        # races it), so it goes on with the first look's search as ``mac`` would
        handed = _handed_over(problem, limits.seed, "mac" if self.renew else self.label)
        if handed is not None:
            model, state, start = handed
        else:
            model, start = build_model(problem,
                                       mirror=os.environ.get("XWSAT_SYMMETRY", "1") != "0")
            fresh = self.reseed and not self.renew
            seed = epoch_seed(limits.seed, 0) if fresh else limits.seed
            state = mstate.new_state(model, start, seed, words=self.words, phase=self.phase)
            if self.planned:
                add_planned_weights(problem, state)
        self.kept = (model, state, start)
        run = aot.runner()
        built = time.perf_counter()
        budget, code, last_report, rate = 16, mstate.BUDGET, built, 0.0
        seen, sent, taken = 0, 0, 0  # nogoods: looked at for sharing, sent, taken from others
        epoch, epoch_end, earlier = 0, _epoch_length(0), Earlier()
        while code == mstate.BUDGET:
            before = time.perf_counter()
            if deadline is not None and before >= deadline:
                break
            if rate > 0:  # about SLICE_S of decisions, less near the deadline
                span = SLICE_S if deadline is None else min(SLICE_S, (deadline - before) / 2)
                budget = max(1, min(1 << 20, int(rate * span)))
            if self.reseed:
                if state.sc[mstate.NODES] >= epoch_end:  # a fresh search under the next seed
                    earlier.add(state)
                    epoch += 1
                    epoch_end = _epoch_length(epoch)
                    proved = share.learned(state, start.dom) if self.renew else None
                    state = mstate.new_state(model, start, epoch_seed(limits.seed, epoch))
                    if proved is not None:
                        share.absorb(state, proved)
                    self.kept = (model, state, start)
                budget = min(budget, epoch_end - int(state.sc[mstate.NODES]))
            nodes = int(state.sc[mstate.NODES])
            if self.max_nodes is not None:
                if nodes >= self.max_nodes:
                    break
                budget = min(budget, self.max_nodes - nodes)
            code = run(model, state, budget)
            if self.step_clock is not None:
                self.step_clock.tick(earlier.nodes + int(state.sc[mstate.NODES]))
            if self.exchange is not None and code == mstate.BUDGET:
                mine = share.recorded(state, seen, SHARE_MAX_LEN)
                if self.exchange.publish(mine):
                    sent += share.count(mine)
                taken += share.absorb(state, self.exchange.collect())
                seen = int(state.sc[mstate.NG])
            spent = time.perf_counter() - before
            done = int(state.sc[mstate.NODES]) - nodes
            if done and spent > 0:
                rate = done / spent if rate == 0 else 0.5 * rate + 0.5 * done / spent
            if progress is not None and time.perf_counter() - last_report >= 1.0:
                last_report = time.perf_counter()
                progress(self._progress_text(state, last_report - built, earlier))
        sc = state.sc
        stats = Stats(
            build_s=built - started,
            solve_s=time.perf_counter() - built,
            variables=problem.n_cells,
            constraints=problem.n_slots,
            conflicts=earlier.fails + int(sc[mstate.FAILS]),
            nodes=earlier.nodes + int(sc[mstate.NODES]),
            extra={"restarts": earlier.restarts + int(sc[mstate.RESTARTS]),
                   "nogoods": int(sc[mstate.NG]),
                   "mirrored": bool(len(model.mirror_cell)),
                   **({"epochs": epoch + 1} if self.reseed else {}),
                   **({"nogoods_sent": sent, "nogoods_taken": taken}
                      if self.exchange is not None else {})},
        )
        if code == mstate.SAT:
            fill = read_fill(model, state.ct)
            if fill is None:
                return stopped(self.label, Stop.FAILED, "a slot has not exactly one row left in "
                               "a complete assignment", stats)
            return Outcome(Status.FILLED, self.label, fill, stats)
        if code == mstate.UNSAT:
            mirrored = ("; what it learned was also applied to the mirror image through "
                        "the grid's symmetry") if len(model.mirror_cell) else ""
            return Outcome(Status.UNFILLABLE, self.label, stats=stats, evidence=Evidence(
                "compiled MAC exhaustive search",
                f"maintained arc consistency on the letters model (compact tables, "
                f"{'whole-word' if self.words else 'letter'} decisions, restarts with nogoods) "
                f"exhausted the space after {stats.nodes} decisions and "
                f"{stats.conflicts} failures{_epoch_note(epoch, self.renew)}{mirrored}"))
        if self.max_nodes is not None and stats.nodes >= self.max_nodes:
            return stopped(self.label, Stop.EXHAUSTED,
                           f"decision budget of {self.max_nodes} spent", stats)
        return stopped(self.label, Stop.TIME, f"time limit reached after {stats.nodes} decisions",
                       stats)

    @staticmethod
    def _progress_text(state: State, elapsed: float, earlier: Earlier) -> str:
        from xwsat.compiled_search import state as mstate

        sc = state.sc
        nodes = earlier.nodes + int(sc[mstate.NODES])
        return (f"{nodes:,} decisions, {earlier.fails + int(sc[mstate.FAILS]):,} failures, "
                f"{earlier.restarts + int(sc[mstate.RESTARTS])} restarts, "
                f"{nodes / max(elapsed, 1e-9):,.0f}/s")


@dataclass
class Earlier:
    """The counts of a reseeding search's finished epochs."""

    nodes: int = 0
    fails: int = 0
    restarts: int = 0

    def add(self, state: State) -> None:
        from xwsat.compiled_search import state as mstate

        self.nodes += int(state.sc[mstate.NODES])
        self.fails += int(state.sc[mstate.FAILS])
        self.restarts += int(state.sc[mstate.RESTARTS])


def _epoch_length(epoch: int) -> int:
    return RESEED_UNIT * luby(epoch + 1)


def epoch_seed(seed: int, epoch: int) -> int:
    """The seed of a reseeding search's epoch: never the run's own seed, which the ``mac`` it
    races in ``auto:reseed`` starts from (``mac:renew``'s first epoch, raced against no
    ``mac``, is the run's seed)."""
    return (seed + (epoch + 1) * 0x9E3779B1) % (1 << 32)


def _epoch_note(epoch: int, renew: bool) -> str:
    if epoch == 0:
        return ""
    if renew:
        return (f" over {epoch + 1} searches in fresh orders, each starting from the nogoods "
                f"and root removals the earlier ones proved")
    return f" over {epoch + 1} fresh searches (the last, complete on its own, refuted it)"


_HANDOVER: dict[str, tuple] = {}  # a search begun in this process, for a forked racer to go on


def hand_over(problem: FillProblem, seed: int, label: str, kept: tuple | None) -> None:
    """Leave a search begun here (``MacBackend.kept``) to the racer of the same kind, problem
    and seed that a fork of this process starts next; ``None`` clears it."""
    _HANDOVER.clear()
    if kept is not None:
        _HANDOVER["search"] = (problem, seed, label, *kept)


def _handed_over(problem: FillProblem, seed: int, label: str) -> tuple | None:
    """The (model, state, start) handed over for exactly this problem object, seed and kind,
    taken once: the search then goes on where it stopped (the kernel's decisions do not depend
    on where its runs are cut), instead of starting again."""
    entry = _HANDOVER.pop("search", None)
    if entry is None or entry[0] is not problem or entry[1] != seed or entry[2] != label:
        return None
    return entry[3], entry[4], entry[5]


LISTED: tuple[str, ...] = ("words", "phase", "reseed", "renew")
# for research, runnable by name but not listed: no measured win (docs/hard-grids.md)
EXPERIMENTAL: tuple[str, ...] = ("planned",)


def from_spec(sub: str | None) -> MacBackend:
    """``mac`` (letter decisions: the refuter), ``mac:words`` (word decisions: the filler of
    15x15 grids), ``mac:phase`` (letter decisions with phase saving: the second filler of
    large grids), ``mac:planned`` (letter decisions, the planner's hardest slots weighted
    first: experimental, for comparison), ``mac:reseed`` (letter decisions, a fresh search
    under a new seed after each Luby epoch of decisions: for heavy-tailed grids) or
    ``mac:renew`` (as ``mac:reseed``, each new search keeping what the earlier ones proved: the
    letter racer of ``auto`` below LARGE_SLOTS slots)."""
    if sub not in (None, *LISTED, *EXPERIMENTAL):
        known = ", ".join(["mac", *(f"mac:{v}" for v in LISTED)])
        trials = ", ".join(f"mac:{v}" for v in EXPERIMENTAL)
        raise XwsatError(f"unknown mac variant {sub!r} (use one of {known}; experimental: "
                         f"{trials})")
    return MacBackend(words=sub == "words", phase=sub == "phase", planned=sub == "planned",
                      reseed=sub == "reseed", renew=sub == "renew")
