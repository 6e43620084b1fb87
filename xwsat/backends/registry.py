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
# together; "a|b" runs the first of a, b that is installed. Measured on the quick subset of the
# hard benchmark (results/hard/): the compiled search deciding whole words (``mac:words``) fills
# the large grids the letter-deciding ``mac`` misses, and ``mac`` refutes faster, so the default
# races those two on the two cores (the Python searches stand in without numba). ``letters`` is
# the earlier default (native against mac); ``python`` races the two Python searches; ``race``
# races native against SAT; ``staged`` runs native alone first and escalates to SAT after a short
# budget; ``regions`` races native with the region-first prover. ``words`` is the default's old
# name, kept for earlier result rows. ``share`` is the ``words`` race with the two searches trading
# nogoods (``xwsat.mac.share``): 0.87x the default's worst-seed time (geometric mean) on the
# quick subset, 1.00x on the held-out grids, the same instances decided; not the default.
# ``phase`` races the letter search with phase saving (``mac:phase``) against ``mac``: on large
# grids it decides the same instances as the default at the worst of 3 seeds in 0.88-0.92x the
# time (robust21, heldout21, classic 19x19-23x23; docs/hard-grids.md), so plain ``auto`` runs it
# from LARGE_SLOTS slots up. ``reseed`` races ``mac`` against ``mac:reseed``, a letter search
# started afresh under a new seed after each Luby epoch of decisions, for grids whose search
# time is heavy-tailed across seeds (docs/hard-grids.md); not the default. ``renew`` races
# ``mac:words`` against ``mac:renew``, the reseeding letter search that keeps what its earlier
# searches proved, in the place of ``mac``: the default below LARGE_SLOTS slots
# (docs/hard-grids.md, worst of 3 seeds: 3 of the 4 heavy-tailed 15x15s decided at every
# seed; none lost on the held-out 15x15s or on the 34 longest letter searches of robust15;
# a long letter refutation takes up to 2x). ``words`` is the default before it.
_WORDS_AND_LETTERS = (("mac:words|native", 0.0), ("mac|native:letters", 0.0))
_WORDS_AND_RENEW = (("mac:words|native", 0.0), ("mac:renew|native:letters", 0.0))
AUTO_POLICIES: dict[str, tuple[tuple[str, float], ...]] = {
    "default": _WORDS_AND_RENEW,
    "letters": (("native", 0.0), ("mac|native:letters", 0.0)),
    "python": (("native", 0.0), ("native:letters", 0.0)),
    "race": (("native", 0.0), ("sat", 0.0)),
    "staged": (("native", 0.0), ("sat", 3.0)),
    "regions": (("native", 0.0), ("native:prove", 0.0)),
    "words": _WORDS_AND_LETTERS,
    "share": _WORDS_AND_LETTERS,
    "phase": (("mac:phase|native", 0.0), ("mac|native:letters", 0.0)),
    "reseed": (("mac:reseed|native", 0.0), ("mac|native:letters", 0.0)),
    "renew": _WORDS_AND_RENEW,
}
# every 19x19 and larger grid of the benchmark has 118 slots or more, every 15x15 at most 88
LARGE_SLOTS = 100
# policies whose racers trade the nogoods they learn (``xwsat.mac.share``)
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
    """Every back-end and listed variant the registry knows (installed or not), in order."""
    specs = []
    for name in _MODULES:
        try:
            listed = _module(name).LISTED
        except ImportError:
            listed = ()
        specs += [name, *(f"{name}:{variant}" for variant in listed)]
    return specs


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
    if policy not in AUTO_POLICIES:
        raise XwsatError(f"unknown auto policy {policy!r}; choose one of "
                         f"{', '.join(AUTO_POLICIES)}")
    members = []
    for alternatives, delay in AUTO_POLICIES[policy]:
        choice = next((s for s in alternatives.split("|") if installed(s)), None)
        if choice is not None:
            members.append((choice, delay))
    if not members:
        raise XwsatError("no back-end is available (install ortools or python-sat)")
    return members


def validate_spec(spec: str) -> str:
    """Check a back-end name early (before any work) and return it."""
    resolve(spec)
    return spec
