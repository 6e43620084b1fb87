"""The one interface every back-end implements, and the values that cross it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar, Protocol

from xwsat.planner import Plan
from xwsat.problem import FillProblem


class Status(str, Enum):
    """FILLED and UNFILLABLE are verdicts; UNKNOWN (limit, abort) never is."""

    FILLED = "filled"
    UNFILLABLE = "unfillable"
    UNKNOWN = "unknown"
    ERROR = "error"

    @property
    def definitive(self) -> bool:
        return self in (Status.FILLED, Status.UNFILLABLE)


@dataclass(frozen=True)
class Limits:
    """What a run may spend. ``time_limit`` in seconds of wall clock; ``memory_mb`` per process."""

    time_limit: float | None = None
    memory_mb: int | None = None
    seed: int = 0
    threads: int = 1


@dataclass(frozen=True)
class Stats:
    """Times in seconds (build = encode, load = hand to the solver, solve) and sizes."""

    build_s: float = 0.0
    load_s: float = 0.0
    solve_s: float = 0.0
    variables: int = 0
    constraints: int = 0
    conflicts: int = 0
    nodes: int = 0
    extra: dict[str, float | int | str] = field(default_factory=dict)


@dataclass(frozen=True)
class Evidence:
    """Why a verdict holds: the method that proved it, in words, and any files that back it."""

    method: str
    detail: str = ""
    files: tuple[str, ...] = ()
    slots: tuple[int, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """What a back-end returns: a status, a fill (one word id per slot) when FILLED, and stats."""

    status: Status
    backend: str
    fill: tuple[int, ...] | None = None
    stats: Stats = field(default_factory=Stats)
    evidence: Evidence | None = None
    message: str = ""


class Backend(Protocol):
    """A solver: given a propagated problem, a plan and limits, returns an Outcome."""

    name: ClassVar[str]

    @staticmethod
    def available() -> bool: ...

    def solve(self, problem: FillProblem, plan: Plan, limits: Limits) -> Outcome: ...


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
