"""Anytime explanations: successive cores of an unfillable grid, the first at once and each
later one smaller, toward a minimal core.

A core is a set of members, slots and given letters, whose constraints alone cannot be
satisfied: the grid's other slots play no part in its unfillability. The first core is the one
the proof already narrowed to: a certificate's formula, the no-repeat count's slots, or the
slots where the compiled search failed, with their crossing slots added until those alone are
refuted. The search's failures then narrow it further, and deletion-based minimisation drops one
member at a time while the rest is still refuted.

Every core given is known to be unfillable, and ``Explanation.proof`` says how: the
certificate's checked proof, the count, or the refutation of that sub-problem on its own by a
complete MAC search (the compiled one; ``search``, the Python one, in tests). A core is
``minimal`` only when, for each member, the search found a fill of the others. A later core is a
subset of the earlier ones, so members shown necessary stay necessary.

``successive_cores`` is a generator (a web page reads it core by core); ``explain_anytime`` hands
each core to a callback and returns the best one when the time limit or Ctrl-C comes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from xwsat.evidence.explain import (
    Explanation,
    blank_problem,
    explain_by_cdcl,
    given_codes,
    sub_problem,
    trivial_core,
    wipeout_sentence,
)
from xwsat.evidence.slot_core import FAILED_WEIGHT, restricted
from xwsat.guard import interruption
from xwsat.outcome import Status, Stop
from xwsat.problem import Built, FillProblem
from xwsat.propagate import propagate

CALL_FLOOR_S = 2.0  # a minimisation call may take at least this long, however fast the last
CALL_FACTOR = 4.0  # ... and this many times the refutation of the current core
ORACLES = ("mac", "search")
REFUTED_BY = {"mac": "the compiled MAC search, a complete search, refuting them on their own",
              "search": "the Python MAC search, a complete search, refuting them on their own"}


@dataclass(frozen=True)
class _Answer:
    """An oracle's verdict on a set of members: True refuted, False a fill, None undecided;
    with a refutation, the slots where the search failed and all the slots in the order of
    its failures (fewest first: the likeliest to be unnecessary)."""

    refuted: bool | None
    failed: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    seconds: float = 0.0


class _Oracle:
    """Decides "can these slots, with these given letters, be filled together?" on the blank
    problem (``explain.blank_problem``), counting its calls."""

    def __init__(self, built: Built, blank: FillProblem, oracle: str, seed: int) -> None:
        if oracle not in ORACLES:
            raise ValueError(f"unknown oracle {oracle!r}: one of {', '.join(ORACLES)}")
        self.blank, self.oracle, self.seed, self.calls = blank, oracle, seed, 0
        self.setup_s = 0.0  # the longest a search took to start (its model): no call starts
        # closer than that to the deadline, since it cannot be stopped before it searches
        self.dense = {int(c): i for i, c in enumerate(blank.cell_ids)}
        self.codes = given_codes(built, blank)

    def ask(self, slots: Sequence[int], givens: Sequence[int], deadline: float) -> _Answer:
        started = time.monotonic()
        self.calls += 1
        if not slots:
            return _Answer(False)
        placed = {self.dense[c]: self.codes[c] for c in givens}
        if self.oracle == "search":
            from xwsat.evidence.drup_search import decide

            verdict = decide(sub_problem(self.blank, list(slots), placed), deadline)
            known = None if verdict is Status.UNKNOWN else verdict is Status.UNFILLABLE
            return _Answer(known, (), tuple(slots), time.monotonic() - started)
        from xwsat.compiled_search import inprocess
        from xwsat.compiled_search import state as mstate

        model, st = inprocess.start(restricted(self.blank, slots, placed), self.seed)
        self.setup_s = max(self.setup_s, time.monotonic() - started)
        code = inprocess.advance(model, st, deadline)
        seconds = time.monotonic() - started
        if code != mstate.UNSAT:
            return _Answer(False if code == mstate.SAT else None, seconds=seconds)
        failed = tuple(slots[i] for i in np.flatnonzero(st.weight > FAILED_WEIGHT).tolist())
        order = tuple(slots[i] for i in np.argsort(st.weight, kind="stable").tolist())
        return _Answer(True, failed, order, seconds)


def successive_cores(built: Built, time_limit: float, first: Sequence[int] | None = None,
                     first_proof: str = "", min_length: int = 2, seed: int = 0,
                     oracle: str = "mac", blank: FillProblem | None = None
                     ) -> Iterator[Explanation]:
    """Cores of the unfillable ``built``, each smaller than the one before, within
    ``time_limit`` seconds; the last says whether it is minimal and, if the search for a
    smaller one stopped early, why. ``first``: slots already known to be unfillable together
    with their given letters (a certificate's formula), ``first_proof`` saying how; otherwise
    the search finds them. A whole-grid core is never given (it explains nothing): nothing
    comes when no smaller one is found in time. Raises ValueError on a fillable grid.
    ``blank``: the grid's problem without its given letters when ``built``'s problem holds
    fewer candidates than its word list gives (a score level): by default it is made from
    the list, which would put the words the problem left out back."""
    start = time.monotonic()
    deadline = start + time_limit
    trivial = trivial_core(built, start)
    if trivial is not None:
        yield trivial
        if trivial.minimal:
            return
        first, first_proof = trivial.slots, trivial.proof
    runner = _Refinement(built, start, deadline, oracle, seed, blank)
    if first is not None and trivial is None:
        first = sorted(first)
        yield runner.core(first, runner.givens_of(first), first_proof,
                          "the certificate's formula")
    yield from runner.refine(first, first_proof, min_length)


class _Refinement:
    """The state of one refinement: the grid, the clock, the oracle and its calls."""

    def __init__(self, built: Built, start: float, deadline: float, oracle: str,
                 seed: int, blank: FillProblem | None = None) -> None:
        self.built, self.start, self.deadline, self.blank = built, start, deadline, blank
        self.oracle_name, self.seed = oracle, seed
        self.method = "first core"
        self.oracle: _Oracle | None = None  # built on first use: with given letters it costs
        self.propagated = propagate(built.problem)  # for the cores' sentence, once

    @property
    def calls(self) -> int:
        return self.oracle.calls if self.oracle is not None else 0

    def givens_of(self, slots: Sequence[int]) -> list[int]:
        """The given letters in the cells of ``slots`` (all of them: the core's constraints)."""
        cells = {c for s in slots for c in self.built.slots[s].cells}
        return sorted(c for c in self.built.grid.given_letters() if c in cells)

    def core(self, slots: Sequence[int], givens: Sequence[int], proof: str, method: str,
             necessary: int = 0, minimal: bool = False, stopped: str = "") -> Explanation:
        slots = tuple(sorted(slots))
        return Explanation(slots, tuple(sorted(givens)), minimal,
                           wipeout_sentence(self.built, slots, self.propagated), method,
                           self.calls,
                           time.monotonic() - self.start, proof, necessary, stopped)

    def refine(self, first: Sequence[int] | None, first_proof: str,
               min_length: int) -> Iterator[Explanation]:
        blank = self.blank if self.blank is not None else blank_problem(self.built, min_length)
        self.oracle = _Oracle(self.built, blank,
                              self.oracle_name, self.seed)
        refuted_by = REFUTED_BY[self.oracle_name]
        n_slots = self.built.problem.n_slots
        if first is None:
            found = self._first_core()
            if found is None:  # out of time before any refutation
                return
            slots, answer = found
            if len(slots) < n_slots:
                yield self.core(slots, self.givens_of(slots), refuted_by,
                                "the slots where the search failed, with their crossings")
        else:
            slots = list(first)  # refuted again for the search's failures (known refuted)
            answer = self.oracle.ask(slots, self.givens_of(slots), self.deadline)
            if answer.refuted is not True:  # out of time: kept as it is
                answer = _Answer(True, (), tuple(slots), answer.seconds)
        givens = self.givens_of(slots)
        self.method = "narrowed by the search's failures, then deletion-based minimisation"
        # narrowing: the slots where the search failed, while they alone are refuted
        while answer.failed and len(answer.failed) < len(slots) and self._time_for_a_call():
            narrower = sorted(answer.failed)
            again = self.oracle.ask(narrower, _within(self.built, narrower, givens),
                                    self._cap(answer))
            if again.refuted is not True:
                break
            slots, givens, answer = narrower, _within(self.built, narrower, givens), again
            yield self.core(slots, givens, refuted_by, self.method)
        # deletion: drop each member in turn (fewest failures first) while the rest is refuted
        necessary: set[tuple[str, int]] = set()
        undecided: list[tuple[str, int]] = []
        stopped = ""
        queue = [("slot", s) for s in answer.order if s in slots] + [("given", c) for c in givens]
        for second_pass in (False, True):
            for member in queue:
                if member not in _members(slots, givens) or member in necessary:
                    continue
                if not self._time_for_a_call():
                    stopped = "time limit"
                    break
                trial_slots = [s for s in slots if member != ("slot", s)]
                trial_givens = _within(self.built, trial_slots,
                                       [c for c in givens if member != ("given", c)])
                until = self.deadline if second_pass else self._cap(answer)
                trial = self.oracle.ask(trial_slots, trial_givens, until)
                if trial.refuted is False:
                    necessary.add(member)
                    continue
                if trial.refuted is None:
                    undecided.append(member)
                    continue
                slots, givens, answer = trial_slots, trial_givens, trial
                yield self.core(slots, givens, refuted_by, self.method,
                                len(necessary & _members(slots, givens)))
            if stopped or not undecided:
                break
            queue, undecided = undecided, []  # undecided within the cap: once more, untimed
        members = _members(slots, givens)
        minimal = members <= necessary
        if not minimal and len(members) == n_slots + len(self.oracle.codes):
            return  # the whole grid, not shown to be needed: no explanation
        yield self.core(slots, givens, refuted_by, self.method, len(necessary & members),
                        minimal, "" if minimal else stopped or "time limit")

    def _time_for_a_call(self) -> bool:
        """Whether a call can still start: its model is built before it looks at the clock."""
        assert self.oracle is not None
        return time.monotonic() + self.oracle.setup_s < self.deadline

    def _cap(self, answer: _Answer) -> float:
        """The deadline of one call: a few times the last refutation, at least a floor."""
        return min(self.deadline, time.monotonic() + max(CALL_FLOOR_S,
                                                         CALL_FACTOR * answer.seconds))

    def _first_core(self) -> tuple[list[int], _Answer] | None:
        """Slots refuted on their own: where the search failed on the whole grid (or where arc
        consistency empties a slot), with their crossing slots added until they are refuted."""
        assert self.oracle is not None
        problem = self.built.problem
        every = list(range(problem.n_slots))
        whole = self.oracle.ask(every, self.givens_of(every), self.deadline)
        if whole.refuted is False:
            raise ValueError("the grid is fillable: there is nothing to explain")
        if whole.refuted is None:
            return None
        wiped = self.propagated.wiped
        slots = sorted(whole.failed) or ([wiped] if wiped is not None else every)
        neighbours = problem.neighbours()
        while len(slots) < len(every) and self._time_for_a_call():
            answer = self.oracle.ask(slots, self.givens_of(slots), self._cap(whole))
            if answer.refuted is True:
                return slots, answer
            slots = sorted(set(slots) | {n for s in slots for n in neighbours[s]})
            if answer.refuted is None or len(slots) == len(every):
                break
        return every, whole


def _members(slots: Sequence[int], givens: Sequence[int]) -> set[tuple[str, int]]:
    return {("slot", s) for s in slots} | {("given", c) for c in givens}


def _within(built: Built, slots: Sequence[int], givens: Sequence[int]) -> list[int]:
    """The given letters of ``givens`` that lie in one of ``slots`` (the others bind nothing)."""
    cells = {c for s in slots for c in built.slots[s].cells}
    return [c for c in givens if c in cells]


def explain_anytime(built: Built, time_limit: float,
                    on_core: Callable[[Explanation], None] | None = None,
                    **options: object) -> tuple[Explanation | None, KeyboardInterrupt | None]:
    """The last core of ``successive_cores`` (options as there), each one handed to ``on_core``
    as it comes, and what stopped it early: Ctrl-C or the command's limit (``guard``), caught so
    that the caller can report the best core before passing it on. The core then says why it
    stopped; None when none had come. The command's time limit, come during a call that
    overran ``time_limit``, ends it as ``time_limit`` would: nothing to pass on."""
    best = None
    try:
        for core in successive_cores(built, time_limit, **options):  # type: ignore[arg-type]
            best = core
            if on_core is not None:
                on_core(core)
    except KeyboardInterrupt as exc:
        stop, message = interruption(exc)
        if stop is Stop.TIME:
            message, exc = "time limit", None
        return (replace(best, stopped=message) if best is not None else None), exc
    return best, None


def explain(built: Built, time_limit: float = 60.0, min_length: int = 2,
            oracle: str = "auto", seed: int = 0) -> Explanation:
    """A minimal unsatisfiable set of slots and given letters for an unfillable grid (the last
    core of ``successive_cores``; ``minimal`` says whether it finished in
    time). ``oracle``: auto or mac (the compiled search), search (the Python MAC search), or
    cdcl (selector cores of a SAT solver). Raises ValueError on a fillable grid."""
    trivial = trivial_core(built, time.monotonic())
    if trivial is not None and trivial.minimal:
        return trivial
    if oracle == "cdcl":
        return explain_by_cdcl(built, time_limit, min_length)
    cores = list(successive_cores(built, time_limit, min_length=min_length, seed=seed,
                                  oracle="mac" if oracle == "auto" else oracle))
    if not cores:
        raise ValueError("the grid is fillable (or undecided): there is nothing to explain")
    return cores[-1]
