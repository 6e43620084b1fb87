"""The one vocabulary of results, spoken by back-ends, fills, proofs, certificates, generated
grids, free-form layouts and bench rows alike.

A run ends with a ``Status``: two verdicts (FILLED, UNFILLABLE), UNKNOWN (no verdict: the
``Stop`` says why) or ERROR (something failed; never a verdict). The exit code of every command
comes from here, so "unfillable" and "timed out" can never be confused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from xwsat.exit_codes import ExitCode


class Status(str, Enum):
    """FILLED and UNFILLABLE are verdicts; UNKNOWN and ERROR never are."""

    FILLED = "filled"
    UNFILLABLE = "unfillable"
    UNKNOWN = "unknown"
    ERROR = "error"

    @property
    def definitive(self) -> bool:
        return self in (Status.FILLED, Status.UNFILLABLE)

    @property
    def exit_code(self) -> ExitCode:
        """The command's exit code for this status (undecided for UNKNOWN)."""
        return EXIT_CODES[self]


EXIT_CODES = {Status.FILLED: ExitCode.FILLED, Status.UNFILLABLE: ExitCode.UNFILLABLE,
              Status.UNKNOWN: ExitCode.UNDECIDED, Status.ERROR: ExitCode.ERROR}


class Stop(str, Enum):
    """Why a run ended without a verdict (the values are bench row statuses)."""

    TIME = "timeout"
    MEMORY = "memout"
    INTERRUPTED = "interrupted"
    KILLED = "killed"  # stopped from outside (a signal), memory not over its limit
    CRASH = "crash"  # the process died
    EXHAUSTED = "exhausted"  # an incomplete search ran out of options: no verdict
    GAVE_UP = "gave-up"  # a complete solver stopped undecided before its limit, on its own
    FAILED = "error"  # an exception or a failed check


@dataclass(frozen=True)
class Limits:
    """What a run may spend. ``time_limit`` in seconds of wall clock; ``memory_mb`` for the
    run's processes together."""

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
    """How a run ended. ``method`` names who decided (a back-end, "propagate", a certificate's
    proof producer, a generator); ``fill`` is one word id per slot when a back-end FILLED."""

    status: Status
    method: str
    fill: tuple[int, ...] | None = None
    stats: Stats = field(default_factory=Stats)
    evidence: Evidence | None = None
    message: str = ""
    stop: Stop | None = None

    @property
    def label(self) -> str:
        """One word for tables and bench rows: the verdict, or why there is none."""
        if self.status.definitive or self.stop is None:
            return self.status.value
        return self.stop.value


class Answered:
    """A result that carries an ``outcome``: its status, and whether it holds a checked answer
    (a fill, a grid, a layout that passed its independent checker)."""

    outcome: Outcome

    @property
    def status(self) -> Status:
        return self.outcome.status

    @property
    def verified(self) -> bool:
        return self.outcome.status is Status.FILLED

    @property
    def method(self) -> str:
        return self.outcome.method


def stopped(method: str, stop: Stop, message: str, stats: Stats | None = None) -> Outcome:
    """An outcome without a verdict: UNKNOWN for a limit or an interruption, ERROR otherwise."""
    status = Status.ERROR if stop in (Stop.CRASH, Stop.FAILED) else Status.UNKNOWN
    return Outcome(status, method, stats=stats or Stats(), message=message, stop=stop)


Progress = Callable[[str], None]  # a one-line progress text, about once a second
