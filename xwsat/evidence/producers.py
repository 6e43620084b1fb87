"""Proof producers: the searches that refute the certificate formula and write the proof.

Three producers, one protocol: ``mac`` (the compiled letters search, one RUP lemma per refuted
branch), ``search`` (the Python MAC tree search, the same kind of proof, small grids) and
``cdcl`` (a proof-logging CDCL solver through pysat, CaDiCaL 1.9.5 by default; never Maplesat,
whose proofs are known to be wrong). ``prove --certificate`` picks the producer of the back-end
it was asked for (its ``traits.proof``), or refuses a back-end that cannot write a proof.
Whatever the producer, a DRUP checker (the trail checker or dratify) checks the proof; a wrong
lemma only makes that check fail.
"""

from __future__ import annotations

import time
from contextlib import suppress
from typing import Protocol

import numpy as np

from xwsat.encode.cnf import CNF
from xwsat.errors import XwsatError
from xwsat.evidence.proof_run import ProofRun
from xwsat.outcome import Status
from xwsat.problem import FillProblem

DEFAULT_CDCL = "cadical195"
SEARCH_MAX_SLOTS = 24  # without numba, 'auto' proves grids up to this many slots by search
METHODS = ("auto", "mac", "search", "cdcl")


class ProofProducer(Protocol):
    name: str  # "mac", "search" or "cdcl"

    def describe(self) -> dict: ...

    def prove(self, problem: FillProblem, cnf: CNF, proof_path: str, time_limit: float,
              seed: int = 0) -> ProofRun: ...


class MacProducer:
    name = "mac"

    def describe(self) -> dict:
        return {"name": "xwsat compiled MAC search (xwsat/compiled_search/kernel.py, numba)",
                "branching": "two-way on letters, dom/wdeg, restarts with nogoods",
                "proof_logging": True}

    def prove(self, problem: FillProblem, cnf: CNF, proof_path: str, time_limit: float,
              seed: int = 0) -> ProofRun:
        from xwsat.compiled_search.proof import search_with_proof

        return search_with_proof(problem, cnf, proof_path, time_limit, seed)


class SearchProducer:
    name = "search"

    def describe(self) -> dict:
        return {"name": "xwsat MAC tree search (xwsat/evidence/drup_search.py)",
                "branching": "two-way on letters", "proof_logging": True}

    def prove(self, problem: FillProblem, cnf: CNF, proof_path: str, time_limit: float,
              seed: int = 0) -> ProofRun:
        from xwsat.evidence.drup_search import search_with_proof

        return search_with_proof(problem, cnf, proof_path, time_limit, seed)


def check_solver(solver: str) -> str:
    """A CDCL solver that logs proofs pysat can hand over (never Maplesat)."""
    from xwsat.backends.sat import PROOF_LOGGING

    if solver not in PROOF_LOGGING:
        raise XwsatError(f"--proof-solver must be one of {', '.join(PROOF_LOGGING)}")
    return solver


class CdclProducer:
    name = "cdcl"

    def __init__(self, solver: str = DEFAULT_CDCL) -> None:
        self.solver = check_solver(solver)

    def describe(self) -> dict:
        import pysat

        return {"name": self.solver, "via": f"python-sat {getattr(pysat, '__version__', '?')}",
                "proof_logging": True}

    def prove(self, problem: FillProblem, cnf: CNF, proof_path: str, time_limit: float,
              seed: int = 0) -> ProofRun:
        """Solve with proof logging (the child's time limit stops it); the DRAT text is written
        when the formula is unsatisfiable."""
        from pysat.solvers import Solver

        start = time.perf_counter()
        with Solver(name=self.solver, with_proof=True) as solver:
            for chunk in cnf.chunks():
                for clause in chunk:
                    solver.add_clause(clause)
            loaded = time.perf_counter()
            sat = solver.solve()
            solved = time.perf_counter()
            stats: dict[str, int] = {}
            with suppress(NotImplementedError):
                stats = {k: int(v) for k, v in (solver.accum_stats() or {}).items()}
            times = {"load_s": loaded - start, "solve_s": solved - loaded}
            if sat:
                model = np.array(solver.get_model(), dtype=np.int64)
                return ProofRun(Status.FILLED, cnf.decode(problem, model[model > 0]), 0, stats,
                                times)
            lines = solver.get_proof()
        if not lines or lines[-1].strip() != "0":
            # MapleCM ends its proof at the last learnt clause, without the empty clause; the
            # checker derives it from the rest by unit propagation or refuses the proof
            lines = [*lines, "0"]
        with open(proof_path, "w", encoding="ascii") as out:
            for line in lines:
                out.write(line)
                out.write("\n")
        times["write_s"] = time.perf_counter() - solved
        return ProofRun(Status.UNFILLABLE, None, len(lines), stats, times)


def producer(method: str, solver: str = DEFAULT_CDCL, n_slots: int = 0) -> ProofProducer:
    """The producer for ``--proof-method``; 'auto' is the compiled search when numba is
    installed (it refutes in far fewer steps than CDCL, docs/evidence.md), else the Python
    search on small grids and CDCL otherwise."""
    if method not in METHODS:
        raise XwsatError(f"--proof-method must be one of {', '.join(METHODS)}")
    check_solver(solver)
    from xwsat.backends.mac import MacBackend

    if method == "auto":
        method = ("mac" if MacBackend.available() else
                  "search" if n_slots <= SEARCH_MAX_SLOTS else "cdcl")
    if method == "mac":
        if not MacBackend.available():
            raise XwsatError("--proof-method mac needs numba (pip install numba)")
        return MacProducer()
    if method == "search":
        return SearchProducer()
    return CdclProducer(solver)


def producer_for_backend(spec: str, method: str, solver: str, n_slots: int) -> ProofProducer:
    """The producer a certificate uses when ``--backend`` is ``spec``: the back-end's own kind
    of proof, unless ``--proof-method`` names one (they must then agree)."""
    from xwsat.backends.registry import is_auto, make_backend

    if is_auto(spec):
        return producer(method, solver, n_slots)
    own = make_backend(spec).traits.proof
    if own is None:
        from xwsat.backends.sat import PROOF_LOGGING

        raise XwsatError(f"--backend {spec} cannot write a checkable proof; for a certificate "
                         "use auto, mac, native or sat[:SOLVER] with a SOLVER that logs "
                         f"proofs: {', '.join(PROOF_LOGGING)}")
    kind, _, own_solver = own.partition(":")
    if method not in ("auto", kind):
        raise XwsatError(f"--proof-method {method} does not go with --backend {spec} "
                         f"(its proofs come from {kind})")
    if kind == "cdcl":
        return CdclProducer(own_solver or solver)
    return producer(kind, solver, n_slots)
