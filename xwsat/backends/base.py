"""The one interface every back-end implements; the values that cross it live in
``xwsat.outcome``.

A back-end gets a propagated ``FillProblem`` (never the grid), the limits, and a progress
callback, and returns an ``Outcome``. What it can do is stated in its ``traits``, so no caller
ever tests a back-end's name: whether an exhausted search is a proof, which family of code it
belongs to (a cross-check needs another family), and which proof producer certifies it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol

from xwsat.outcome import Limits, Outcome, Progress
from xwsat.problem import FillProblem


@dataclass(frozen=True)
class Traits:
    """``complete``: an exhausted search proves UNFILLABLE. ``family``: the code that decides
    ("native", "mac", "cdcl", "cpsat", "ace"). ``proof``: the proof producer that writes a
    checkable certificate the same way (``xwsat.evidence.producers``), or None. ``peer``: a
    solver run for comparison only. ``max_letters``: the largest alphabet it takes (None: any);
    a larger one is refused before the search, as bad input (exit 2). ``shares_nogoods``: it
    takes an ``exchange`` endpoint (``xwsat.compiled_search.share``) to trade nogoods with its
    racers. ``substrings``: it enforces the shared-substring rule (``FillProblem.max_shared``).
    ``counts_steps``: it takes a ``step_clock`` endpoint (``xwsat.step_clock``) and publishes its
    decisions there, so a race can be kept in step."""

    family: str
    complete: bool = True
    proof: str | None = None
    peer: bool = False
    max_letters: int | None = None
    shares_nogoods: bool = False
    substrings: bool = False
    counts_steps: bool = False


class Backend(Protocol):
    """A solver: given a propagated problem and limits, returns an Outcome."""

    name: ClassVar[str]
    traits: Traits

    @staticmethod
    def available() -> bool: ...

    def solve(self, problem: FillProblem, limits: Limits,
              progress: Progress | None = None) -> Outcome: ...


def importable(module: str) -> bool:
    """Whether a solver library imports: how a back-end's ``available`` tells it is installed."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def fill_from_choice(problem: FillProblem, choice: list[int]) -> tuple[int, ...]:
    """Global word ids from a candidate index per slot."""
    return tuple(int(problem.candidates[s][k]) for s, k in enumerate(choice))
