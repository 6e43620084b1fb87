"""The trail checker: xwsat's own DRUP checker (``rup_kernel``), run on the files as written.

dratify replays each lemma's propagation from the root: 20-70 ms a lemma on a hard 15x15's
formula, most of a certificate's time. The compiled search's lemmas negate the decisions of
its branch, so consecutive lemmas share most of their literals; the trail checker keeps the
propagation of the shared ones (results/evidence/README.md, "A checker that keeps its trail").
It checks the same thing (every lemma a unit-propagation consequence of the formula and the
lemmas before it, the empty clause derived) and agrees with dratify on every proof without
deletions tried, mutated ones included (tests/unit/test_rup_check.py). It does not apply
deletions: every clause it keeps is implied by the formula, so this is sound, but a proof that
uses a clause after deleting it passes here where dratify and drat-trim reject it. The
searches' proofs have no deletions and a CDCL solver's never use a clause they deleted, so on
xwsat's own certificates the verdicts are the same. It is independent of the searches that write
the proofs: it reads only the CNF and proof files. dratify stays available (``--engine
dratify``) as a second checker written by others.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from xwsat.errors import XwsatError

NAME = "trail"
CHECKER = "xwsat trail checker"


def available() -> bool:
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def _parsed(kernel, data: bytes, name: str, formula: bool):
    lits, kinds, header, bad = kernel.parse_dimacs(np.frombuffer(data, np.uint8))
    if bad >= 0:
        line = data.count(b"\n", 0, bad) + 1
        raise XwsatError(f"{name}: line {line} is not DIMACS"
                         + (" (the last clause has no closing 0)" if bad >= len(data) else ""))
    if not formula and header[0] >= 0:
        raise XwsatError(f"{name}: a proof has no 'p cnf' header")
    if formula:
        if header[0] < 0:
            raise XwsatError(f"{name}: no 'p cnf' header")
        if header[1] != len(kinds) or int(kinds.sum()):
            raise XwsatError(f"{name}: the header announces {header[1]} clauses, the file "
                             f"holds {len(kinds)}" if header[1] != len(kinds) else
                             f"{name}: a formula cannot delete clauses")
        if len(lits) and int(np.abs(lits).max()) > header[0]:
            raise XwsatError(f"{name}: a literal beyond the header's {header[0]} variables")
    return lits, kinds, int(header[0])


def check_files(cnf_path: str, proof_path: str) -> dict:
    """Child: check the proof file against the formula file; the same fields as
    ``drat_check.check_files`` (one part)."""
    from xwsat.evidence import rup_kernel
    from xwsat.evidence.proof_files import beyond, read_file, variables

    start = time.perf_counter()
    formula_read = read_file(Path(cnf_path), keep=True)  # comment lines dropped as read
    proof_read = read_file(Path(proof_path), keep=True)
    hashes = {"formula_sha256": formula_read.sha256, "proof_sha256": proof_read.sha256}
    formula, _, _ = _parsed(rup_kernel, formula_read.content, Path(cnf_path).name, True)
    proof, kinds, _ = _parsed(rup_kernel, proof_read.content, Path(proof_path).name, False)
    # sized by the variables the formula uses, not the header's count (which may be far
    # larger) nor the proof's (anyone's file: one literal would make gigabytes of arrays)
    n_vars = variables(int(np.count_nonzero(formula)),
                       int(np.abs(formula).max()) if len(formula) else 0)
    refused = beyond(int(np.abs(proof).max()) if len(proof) else 0, n_vars)
    if refused:
        return {"verified": False, "reached_empty": False, "steps": 0, "first": 0,
                "last": int(len(kinds)), "failed_step": 1, "reason": refused, "engine": NAME,
                "checker": CHECKER, "propagations": 0, **hashes,
                "parse_s": time.perf_counter() - start, "check_s": 0.0}
    parsed = time.perf_counter()
    verdict, steps, failed, propagations = rup_kernel.check(n_vars, formula, proof, kinds)
    checked = time.perf_counter()
    verified = verdict >= 0
    reason = ("empty clause derived and every step verified" if verdict == 1 else
              "every step verified, but the proof never derives the empty clause"
              if verdict == 0 else
              "the lemma is not a unit-propagation consequence (RUP)")
    return {"verified": verified, "reached_empty": verdict == 1, "steps": int(steps),
            "first": 0, "last": int(len(kinds)), "failed_step": int(failed),
            "reason": reason, "engine": NAME, "checker": CHECKER,
            "propagations": int(propagations), **hashes,
            "parse_s": parsed - start, "check_s": checked - parsed}


def _marker() -> Path:
    """A file that says "this checker source was compiled by this numba" (numba's own cache
    holds the code; the marker lets a command know without importing numba)."""
    from xwsat.compiled_search.aot import compiled_marker

    return compiled_marker(Path(__file__).resolve().parent, ("rup_kernel.py",), "checker")


def compiled() -> bool:
    try:
        return _marker().exists()
    except OSError:
        return False


def warm_up() -> None:
    """Compile the checker (a three-clause formula and its proof) and leave the marker."""
    from xwsat.evidence import rup_kernel

    formula = rup_kernel.parse_dimacs(np.frombuffer(b"p cnf 2 3\n1 2 0\n-1 0\n-2 1 0\n",
                                                    np.uint8))
    proof = rup_kernel.parse_dimacs(np.frombuffer(b"1 0\nd 1 2 0\n0\n", np.uint8))
    verdict = rup_kernel.check(2, formula[0], proof[0], proof[1])[0]
    if verdict != 1:
        raise RuntimeError("the trail checker failed its warm-up proof")
    marker = _marker()
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
