"""Back-ends by name: ``cpsat``, ``sat`` / ``sat:SOLVER``, ``native`` / ``native:VARIANT``, ``mac``,
``ace``.

Solver libraries are imported lazily, inside the back-ends, so a missing one only disables itself.
"""

from __future__ import annotations

from collections.abc import Callable

from xwsat.backends.base import Backend
from xwsat.errors import XwsatError


def _cpsat(sub: str | None) -> Backend:
    from xwsat.backends.cpsat import CpsatBackend

    if sub not in (None, "plan"):
        raise XwsatError(f"unknown cpsat variant {sub!r} (use cpsat or cpsat:plan)")
    return CpsatBackend(use_plan=sub == "plan")


def _sat(sub: str | None) -> Backend:
    from xwsat.backends.sat import DEFAULT_SOLVER, SOLVERS, SatBackend

    parts = (sub or "").split(":")
    use_plan = parts[-1] == "plan"  # sat:plan, sat:SOLVER:plan: variables numbered in plan order
    if use_plan:
        parts.pop()
    if len(parts) > 1:
        raise XwsatError(f"unknown SAT variant {sub!r} (use sat, sat:SOLVER, sat:SOLVER:plan)")
    solver = (parts[0] if parts else "") or DEFAULT_SOLVER
    if solver not in SOLVERS:
        raise XwsatError(f"unknown SAT solver {solver!r}; choose one of {', '.join(SOLVERS)}")
    return SatBackend(solver, use_plan=use_plan)


def _native(sub: str | None) -> Backend:
    from xwsat.backends.native import make_native

    return make_native(sub)


def _ace(sub: str | None) -> Backend:
    from xwsat.backends.ace import AceBackend

    if sub is not None:
        raise XwsatError(f"unknown ace variant {sub!r} (use ace)")
    return AceBackend()


def _mac(sub: str | None) -> Backend:
    from xwsat.backends.mac import MacBackend

    if sub is not None:
        raise XwsatError(f"unknown mac variant {sub!r} (use mac)")
    return MacBackend()


FACTORIES: dict[str, Callable[[str | None], Backend]] = {
    "mac": _mac,
    "cpsat": _cpsat,
    "sat": _sat,
    "native": _native,
    "ace": _ace,  # Java + pycsp3's jar, for comparison (not in auto)
}

# ``auto`` policies: (back-end, start delay in seconds), in order of preference when they finish
# together; "a|b" runs the first of a, b that is installed. Measured (results/hard.md): on hard
# grids the compiled letters search ``mac`` refutes 19 of 20 grids the Python searches mostly
# could not, and the word-deciding ``native`` fills the one it misses, so the default races those
# two on the two cores (``native:letters`` stands in for ``mac`` without numba). ``auto:python``
# is the earlier default (native against native:letters); ``auto:race`` races native against
# SAT; ``auto:staged`` runs native alone first and escalates to SAT after a short budget
# (issue 3); ``auto:regions`` races native with the region-first prover.
AUTO_POLICIES: dict[str, tuple[tuple[str, float], ...]] = {
    "default": (("native", 0.0), ("mac|native:letters", 0.0)),
    "python": (("native", 0.0), ("native:letters", 0.0)),
    "race": (("native", 0.0), ("sat", 0.0)),
    "staged": (("native", 0.0), ("sat", 3.0)),
    "regions": (("native", 0.0), ("native:prove", 0.0)),
}
AUTO_PORTFOLIO = tuple(spec.split("|")[0] for spec, _ in AUTO_POLICIES["default"])


def make_backend(spec: str) -> Backend:
    """A back-end from its name, ``name`` or ``name:variant``."""
    name, _, sub = spec.partition(":")
    if name not in FACTORIES:
        known = ", ".join(["auto", *FACTORIES])
        raise XwsatError(f"unknown back-end {spec!r}; choose one of {known}")
    try:
        backend = FACTORIES[name](sub or None)
    except ImportError as exc:
        raise XwsatError(f"back-end {spec!r} is not available ({exc})") from None
    if not backend.available():
        raise XwsatError(f"back-end {spec!r} is not available (its solver library is missing)")
    return backend


def validate_spec(spec: str) -> str:
    """Check a back-end name early (before any work) and return it."""
    if spec == "auto" or spec.startswith("auto:"):
        policy = spec.partition(":")[2] or "default"
        if policy not in AUTO_POLICIES:
            raise XwsatError(f"unknown auto policy {policy!r}; choose one of "
                             f"{', '.join(AUTO_POLICIES)}")
    else:
        make_backend(spec)
    return spec
