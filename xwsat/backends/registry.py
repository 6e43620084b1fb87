"""The one door to a solver: back-ends by name (``name`` or ``name:variant``), and the ``auto``
policies that race several of them.

Each back-end module exposes ``from_spec(variant)`` and ``LISTED`` (the variants worth testing);
modules are imported only when asked for, and solver libraries only inside ``solve``, so a
missing library disables its back-end alone. Adding a back-end is one module and one line in
``_MODULES`` (ARCHITECTURE.md).
"""

from __future__ import annotations

import importlib

from xwsat.backends.base import Backend
from xwsat.errors import XwsatError

_MODULES = {
    "mac": "xwsat.backends.mac",
    "cpsat": "xwsat.backends.cpsat",
    "sat": "xwsat.backends.sat",
    "native": "xwsat.backends.native",
    "ace": "xwsat.backends.ace",  # Java + pycsp3's jar, for comparison (not in auto)
    "qxw": "xwsat.backends.qxw",  # the Debian package qxw, for comparison (not in auto)
}

# ``auto`` policies: (back-end, start delay in seconds), in order of preference when they finish
# together; "a|b" runs the first of a, b that is installed. The default races ``mac:words`` (the
# compiled search deciding whole words: the filler) against ``mac:renew`` (deciding letters,
# started afresh after each Luby epoch from what its earlier searches proved: the refuter) on the
# two cores, the Python searches standing in without numba; ``renew`` is its name. ``phase``
# (``mac:phase`` against ``mac``) is what plain ``auto`` runs from LARGE_SLOTS slots up: the same
# instances decided in 0.88-0.92x the time on large grids. Measured in docs/hard-grids.md.
_WORDS_AND_LETTERS = (("mac:words|native", 0.0), ("mac|native:letters", 0.0))
_WORDS_AND_RENEW = (("mac:words|native", 0.0), ("mac:renew|native:letters", 0.0))
AUTO_POLICIES: dict[str, tuple[tuple[str, float], ...]] = {
    "default": _WORDS_AND_RENEW,
    "renew": _WORDS_AND_RENEW,
    "phase": (("mac:phase|native", 0.0), ("mac|native:letters", 0.0)),
}
# Policies for research and for earlier result rows, runnable by name (``auto:NAME``) but not
# the product's: none won a place in docs/hard-grids.md. ``words`` is the earlier default
# (``mac:words`` against ``mac``) and ``letters`` the one before it; ``share`` is the ``words``
# race with the two searches trading nogoods (``xwsat.compiled_search.share``: 0.87x the time on
# the quick subset, 1.00x on the held-out grids, the same instances decided); ``reseed`` races
# ``mac:reseed`` against ``mac`` (heavy-tailed grids; ``renew`` keeps its win); ``python``,
# ``race``, ``staged`` and ``regions`` race the Python searches and SAT.
EXPERIMENTAL_POLICIES: dict[str, tuple[tuple[str, float], ...]] = {
    "words": _WORDS_AND_LETTERS,
    "share": _WORDS_AND_LETTERS,
    "reseed": (("mac:reseed|native", 0.0), ("mac|native:letters", 0.0)),
    "letters": (("native", 0.0), ("mac|native:letters", 0.0)),
    "python": (("native", 0.0), ("native:letters", 0.0)),
    "race": (("native", 0.0), ("sat", 0.0)),
    "staged": (("native", 0.0), ("sat", 3.0)),
    "regions": (("native", 0.0), ("native:prove", 0.0)),
}
# every 19x19 and larger grid of the benchmark has 118 slots or more, every 15x15 at most 88
LARGE_SLOTS = 100
# policies whose racers trade the nogoods they learn (``xwsat.compiled_search.share``)
SHARING_POLICIES = frozenset({"share"})


def _module(name: str):
    return importlib.import_module(_MODULES[name])


def make_backend(spec: str) -> Backend:
    """A back-end from its name, ``name`` or ``name:variant``; an unknown or uninstalled one is
    a one-line error naming the choices."""
    name, _, sub = spec.partition(":")
    if name not in _MODULES:
        known = ", ".join(["auto", *_MODULES])
        raise XwsatError(f"unknown back-end {spec!r}; choose one of {known}")
    try:
        backend = _module(name).from_spec(sub or None)
    except ImportError as exc:
        raise XwsatError(f"back-end {spec!r} is not available ({exc})") from None
    if not backend.available():
        raise XwsatError(f"back-end {spec!r} is not available (its solver library is missing)")
    return backend


def installed(spec: str) -> bool:
    """Whether ``spec`` names a back-end whose solver is installed."""
    try:
        make_backend(spec)
    except XwsatError:
        return False
    return True


def backend_specs() -> list[str]:
    """Every back-end and listed variant the registry knows (installed or not), in order: the
    product, which the contract tests run."""
    specs = []
    for name in _MODULES:
        specs += [name, *(f"{name}:{variant}" for variant in _variants(name, "LISTED"))]
    return specs


def experimental_specs() -> list[str]:
    """The variants kept for research: runnable by name, not listed among the back-ends."""
    return [f"{name}:{variant}" for name in _MODULES
            for variant in _variants(name, "EXPERIMENTAL")]


def _variants(name: str, group: str) -> tuple[str, ...]:
    try:
        return getattr(_module(name), group, ())
    except ImportError:
        return ()


def is_auto(spec: str) -> bool:
    return spec == "auto" or spec.startswith("auto:")


def shares_nogoods(spec: str) -> bool:
    """Whether the racers of ``spec`` trade nogoods."""
    return is_auto(spec) and (spec.partition(":")[2] or "default") in SHARING_POLICIES


def resolve(spec: str, n_slots: int | None = None) -> list[tuple[str, float]]:
    """The back-ends a spec runs, with their start delays: one for a plain name, the installed
    members of the policy for ``auto`` / ``auto:POLICY``. Plain ``auto`` on a grid of
    ``LARGE_SLOTS`` slots or more (``n_slots``, when known) runs the ``phase`` policy."""
    if not is_auto(spec):
        make_backend(spec)
        return [(spec, 0.0)]
    policy = spec.partition(":")[2] or "default"
    if spec == "auto" and n_slots is not None and n_slots >= LARGE_SLOTS:
        policy = "phase"
    racers = AUTO_POLICIES.get(policy) or EXPERIMENTAL_POLICIES.get(policy)
    if racers is None:
        raise XwsatError(f"unknown auto policy {policy!r}; choose one of "
                         f"{', '.join(AUTO_POLICIES)} (experimental: "
                         f"{', '.join(EXPERIMENTAL_POLICIES)})")
    members = []
    for alternatives, delay in racers:
        choice = next((s for s in alternatives.split("|") if installed(s)), None)
        if choice is not None:
            members.append((choice, delay))
    if not members:
        raise XwsatError("no back-end is available (install ortools or python-sat)")
    return members


def runs_compiled_search(staged: list[tuple[str, float]]) -> bool:
    """Whether the compiled search (``mac`` and its variants) is among these racers: what
    plain fill's upper look and lift need, and what must be compiled before a run."""
    return any(spec.startswith("mac") for spec, _ in staged)


def validate_spec(spec: str) -> str:
    """Check a back-end name early (before any work) and return it."""
    resolve(spec)
    return spec
