"""Which checker replays a proof (``checker_engine``: the trail checker of ``rup_check`` by
default), and dratify replaying it from the files as written on every core, cut into parts.

Every lemma must be a unit-propagation consequence (RUP) of the formula and the lemmas before it;
RAT steps are refused. dratify's RAT check keeps, after a clause is deleted, the root literal
that clause had forced, so a five-line proof of RAT lemmas and one deletion "refuted" any formula,
a fillable grid's included (found by testing it, docs/evidence.md); every producer here
writes RUP lemmas only (CaDiCaL's proofs too: 0 RAT steps in 170k lemmas measured).

A forward checker pays for every lemma the propagation of its negation from the root, about
20-60 ms on a hard 15x15's formula, one lemma after another on one core. A RUP proof can be
checked in parts at once: part k checks its own lemmas against the formula plus every lemma
before the part, taken as clauses. Each lemma is then checked against clauses that the formula
implies (the formula's own, or earlier lemmas, each checked by some part), so all parts verified
and one deriving the empty clause prove the formula unsatisfiable, as one sequential check
would. Deletions before a part are not applied in it (a larger clause set only makes more lemmas
unit-propagation consequences, all of them still implied by the formula).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.guard import OTHER_FAILED, Finished, Tick, memory_watched, run_all

MIN_PART_LINES = 100  # below this, a second part saves less than its own parse costs


ENGINES = ("auto", "trail", "dratify", "native", "python")


def checker_engine(engine: str = "auto") -> str:
    """Which checker runs: 'trail' (xwsat's own, ``rup_check``) for 'auto' when numba is
    installed; else dratify's 'native' engine when its compiled accelerator is present
    (cdclkit-native), else 'python'. 'dratify' is dratify's best engine."""
    if engine not in ENGINES:
        raise XwsatError(f"unknown proof checker {engine!r}: {', '.join(ENGINES)}")
    from xwsat.evidence import rup_check

    if engine == "trail" or (engine == "auto" and rup_check.available()):
        if not rup_check.available():
            raise XwsatError("the trail checker needs numba (pip install numba)")
        return rup_check.NAME
    if engine == "python":
        return "python"
    with suppress(ImportError):
        import cdclkit.native  # noqa: F401  (registers the Rust checker with dratify)
    import dratify

    if dratify.native_available():
        return "native"
    if engine == "native":
        raise XwsatError("dratify's native checker is missing (pip install 'cdclkit[native]')")
    return "python"


def checker_label(check: dict) -> str:
    """Who checked, for a verdict line: the trail checker, or dratify and its engine."""
    engine = check.get("engine")
    if engine == "trail":
        return "xwsat's trail checker (RUP)"
    return f"dratify ({engine} engine)" if engine else "dratify"


def parts_for(lines: int) -> int:
    """How many parts to check a proof of ``lines`` lines in: one per usable core (two at most)
    when the proof is long enough to gain, else one; one under a memory limit (each part holds
    its own copy of the formula: 0.8 GB for a hard 15x15's)."""
    if lines < MIN_PART_LINES or memory_watched():
        return 1
    with suppress(AttributeError, OSError):
        return max(1, min(2, len(os.sched_getaffinity(0))))
    return max(1, min(2, os.cpu_count() or 1))


def check_files(cnf_path: str, proof_path: str, engine: str, part: int = 0,
                parts: int = 1) -> dict:
    """Child: dratify reads the CNF and the proof from disk and checks part ``part`` of
    ``parts`` (the whole proof when ``parts`` is 1), unit propagation only."""
    import dratify

    from xwsat.evidence.proof_files import beyond, literal_counts, read_file, variables

    engine = checker_engine("dratify" if engine in ("auto", "trail") else engine)
    start = time.perf_counter()
    formula_read = read_file(Path(cnf_path), keep=True)
    proof_read = read_file(Path(proof_path), keep=True)
    hashes = {"formula_sha256": formula_read.sha256, "proof_sha256": proof_read.sha256}
    largest, literals = literal_counts(formula_read.content)  # before dratify sizes anything
    refused = beyond(literal_counts(proof_read.content)[0], variables(literals, largest))
    if refused:
        return {"verified": False, "reached_empty": False, "steps": 0, "first": 0, "last": 0,
                "failed_step": 1, "reason": refused, "engine": engine, **hashes,
                "parse_s": time.perf_counter() - start, "check_s": 0.0}
    formula = dratify.parse_dimacs(formula_read.content.decode("ascii"))
    steps = dratify.parse_proof(proof_read.content.decode("ascii"))
    first, last = len(steps) * part // parts, len(steps) * (part + 1) // parts
    for kind, lits in steps[:first]:
        if kind == "a":
            formula.add(lits)
    parsed = time.perf_counter()
    result = dratify.check_proof(formula, steps[first:last], check_rat=False, engine=engine)
    checked = time.perf_counter()
    failed = int(result.failed_step)
    verified = bool(result.ok) or (failed < 1 and int(result.steps) == last - first)
    return {"verified": verified, "reached_empty": bool(result.reached_empty),
            "steps": int(result.steps), "first": first, "last": last,
            "failed_step": first + failed if failed >= 1 else -1,
            "reason": str(result.reason or ""), "engine": engine, **hashes,
            "parse_s": parsed - start, "check_s": checked - parsed}


def combined(values: list[dict]) -> dict:
    """One verdict from the parts, in proof order: the first part that fails rejects the proof;
    a part that derives the empty clause, all before it verified, accepts it."""
    head = {"engine": values[0]["engine"], "parts": len(values),
            "checker": values[0].get("checker", "dratify"),
            "parse_s": max(v["parse_s"] for v in values),
            "check_s": max(v["check_s"] for v in values)}
    steps = 0
    for value in values:
        steps = value["first"] + value["steps"]
        if not value["verified"]:
            return {**head, "ok": False, "reached_empty": False, "steps": steps,
                    "reason": f"step {value['failed_step']}: {value['reason']}"
                    if value["failed_step"] >= 1 else value["reason"]}
        if value["reached_empty"]:
            return {**head, "ok": True, "reached_empty": True, "steps": steps,
                    "reason": "empty clause derived and every step verified"
                    + (f" ({len(values)} parts checked at once)" if len(values) > 1 else "")}
    return {**head, "ok": False, "reached_empty": False, "steps": steps,
            "reason": "every step verified, but the proof never derives the empty clause"}


def check_in_parts(cnf_path: Path, proof_path: Path, engine: str, parts: int,
                   time_limit: float, on_tick: Tick | None = None,
                   meanwhile: Callable[[], bool | None] | None = None) -> Finished:
    """Check the proof with ``engine`` (``checker_engine``): dratify in ``parts`` children at
    once, the trail checker in one child (``parts`` does not apply). The value is
    ``combined``'s verdict with ``read``, the formula's and proof's hashes as the children read
    them (so a caller that compared the files can tell that they are what got checked).
    ``meanwhile``: the caller's own work, done while the children check (False: stop them)."""
    engine = checker_engine(engine)
    if engine == "trail":
        from xwsat.evidence.rup_check import check_files as trail_check

        jobs = [(trail_check, (str(cnf_path), str(proof_path)))]
        label = "checking the proof"
    else:
        jobs = [(check_files, (str(cnf_path), str(proof_path), engine, part, parts))
                for part in range(parts)]
        label = "dratify checking the proof" + (f" ({parts} parts at once)" if parts > 1
                                                 else "")
    runs = run_all(jobs, time_limit, label, on_tick, meanwhile)
    seconds = max(run.seconds for run in runs)
    failed = [run for run in runs if not run.ok]
    if failed:
        cause = next((run for run in failed if run.message != OTHER_FAILED), failed[0])
        return Finished(stop=cause.stop, message=cause.message, seconds=seconds,
                        os_error=cause.os_error)
    values = [run.value for run in runs]
    read = {(v["formula_sha256"], v["proof_sha256"]) for v in values}
    if len(read) != 1:
        return Finished({"ok": False, "reached_empty": False, "steps": 0, "engine": values[0][
            "engine"], "parts": len(values), "read": None, "reason": "the formula or proof file "
            "changed while it was being checked"}, seconds=seconds)
    return Finished({**combined(values), "read": read.pop()}, seconds=seconds)
