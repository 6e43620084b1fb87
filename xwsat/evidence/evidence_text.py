"""Words for the evidence: certificate, explanation and cross-check as text lines and JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xwsat.evidence.drat_check import checker_label
from xwsat.outcome import Status
from xwsat.problem import Built

if TYPE_CHECKING:  # imported where used: a plain ``prove`` loads none of the evidence code
    from xwsat.evidence.certificate import CertificateRun
    from xwsat.evidence.crosscheck import CrossCheck
    from xwsat.evidence.explain import Explanation


PRODUCERS = {"search": "MAC tree search", "mac": "compiled MAC search"}  # else a CDCL solver


def certificate_lines(run: CertificateRun) -> list[str]:
    m = run.manifest
    status, message = run.outcome.status, run.outcome.message
    if status is Status.FILLED:
        return [f"FILLABLE: the certificate run found a fill (verified); written to "
                f"{run.directory / 'fill.txt'}"]
    if status is not Status.UNFILLABLE:
        return [f"UNDECIDED: no certificate ({message})" if status is Status.UNKNOWN
                else f"ERROR: certificate run failed: {message}"]
    if not m:  # refuted, but stopped while its certificate was written: no folder
        name = run.outcome.evidence.method if run.outcome.evidence else ""
        return [f"UNFILLABLE by the {PRODUCERS.get(name, 'CDCL solver')}, with no certificate "
                f"({message}; give it more time)"]
    check = m.get("check", {})
    proof = m.get("proof", {})
    if proof.get("format", "").startswith("xwsat-count/"):
        return _count_lines(run)
    enc = m.get("encoding", {})
    files = m.get("files", {})
    method = proof.get("method", "")
    producer = (f"{PRODUCERS[method]} (its own DRUP proof)" if method in PRODUCERS
                else f"CDCL solver {m.get('solver', {}).get('name', '')}")
    if run.checked:
        steps = check.get("steps")
        head = (f"UNFILLABLE: certificate checked by {checker_label(check)}: "
                f"{steps} proof step{'s' if steps != 1 else ''} verified, empty clause derived")
    elif run.checked is None:
        head = f"UNFILLABLE (proof written, NOT checked: {message})"
    else:
        head = f"CERTIFICATE REJECTED by {checker_label(check)}: {message}"
    times = m.get("times", {})
    formula = m.get("formula")
    kept = ((f"the one slot (of {formula['of']}) the refutation needs, "
             if len(formula["slots"]) == 1 else
             f"the {len(formula['slots'])} of {formula['of']} slots the refutation needs, ")
            if formula else "")
    lines = [head,
             f"  folder {run.directory}: " + ", ".join(
                 f"{name} ({size_text(info['bytes'])})" for name, info in files.items())
             + ", manifest.json",
             f"  CNF: {enc.get('variables')} variables, {enc.get('clauses')} clauses "
             f"({kept}unpruned, no-repeat eager); proof by {producer}: {proof.get('lines')} "
             "lines",
             f"  times: slots {times.get('core_s', 0):.2f} s, encode "
             f"{times.get('encode_write_s', 0):.2f} s, prove "
             f"{times.get('solve_wall_s', 0):.2f} s, check {times.get('check_wall_s', 0):.2f} s"]
    lines += [f"  re-check: {step}" for step in m.get("recheck", [])]
    return lines


def _count_lines(run: CertificateRun) -> list[str]:
    """A certificate of the no-repeat count (``xwsat.evidence.count_certificate``)."""
    m = run.manifest
    check = m.get("check", {})
    slots = m.get("proof", {}).get("slots", [])
    head = (f"UNFILLABLE: certificate checked by counting again: {check.get('detail')}"
            if run.checked else
            f"CERTIFICATE REJECTED by the count check: {check.get('detail')}")
    shown = ", ".join(slots[:12]) + (", ..." if len(slots) > 12 else "")
    lines = [head,
             f"  folder {run.directory}: " + ", ".join(
                 f"{name} ({size_text(info['bytes'])})" for name, info in
                 m.get("files", {}).items()) + ", manifest.json",
             f"  slots: {shown} (each must take a different word; no proof file: the count is "
             "the proof)"]
    lines += [f"  re-check: {step}" for step in m.get("recheck", [])]
    return lines


def size_text(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


CERTIFIED_CORE = "the certificate's checked proof (its formula is these slots' constraints)"


def first_core_lines(built: Built, expl: Explanation) -> list[str]:
    """The first core, shown the moment it is known, before the search for a smaller one."""

    names = [f"{built.slots[s].name} ({built.slots[s].length})" for s in expl.slots]
    names += [f"{built.grid.given_kind(c)} {built.grid.cell(c)} at row {c // built.grid.width + 1}"
              f", column {c % built.grid.width + 1}" for c in expl.givens]
    return [f"FIRST EXPLANATION (after {expl.seconds:.1f} s; not yet minimal, looking for a "
            f"smaller one): these {expl.size} constraints cannot hold together",
            *_wrapped(names, 92),
            f"  known unfillable by {expl.proof}", ""]


def _wrapped(items: list[str], width: int) -> list[str]:
    """Items separated by commas, as many to a line as fit, none split across lines."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + len(item) + 2 <= width:
            lines[-1] += f", {item}"
        else:
            lines.append("  " + item)
    return [line + ("," if i < len(lines) - 1 else "") for i, line in enumerate(lines)]


def explanation_lines(built: Built, expl: Explanation) -> list[str]:
    from xwsat.evidence.explain import core_picture, describe_core

    if expl.minimal:
        kind = "minimal"
    else:
        kind = (f"best found, not proven minimal ({expl.stopped or 'stopped'}): "
                f"{expl.necessary} of {expl.size} shown necessary")
    what = "this constraint cannot hold" if expl.size == 1 else \
        f"these {expl.size} constraints cannot hold together"
    lines = [f"EXPLANATION ({kind}): {what}"
             + (f"; {expl.sentence}" if expl.sentence else "")]
    lines += ["  " + line for line in describe_core(built, expl)]
    lines += ["", core_picture(built, expl), ""]
    if expl.proof:
        lines.append(f"  known unfillable by {expl.proof}")
    if expl.minimal and expl.size > 1:
        lines.append("  minimal: without any one of them, the rest can be filled")
    lines.append(f"  ({expl.method}; {expl.calls} solver calls, {expl.seconds:.2f} s)")
    return lines


def explanation_json(built: Built, expl: Explanation,
                     cores: list[Explanation] | None = None) -> dict:
    """The core, how it is known, whether minimal; with ``cores``, the first one and the
    size and time of each one on the way."""
    data = core_json(built, expl)
    data.update(sentence=expl.sentence, method=expl.method, calls=expl.calls,
                stopped=expl.stopped or None)
    if cores:
        data["first"] = core_json(built, cores[0])
        data["steps"] = [{"size": c.size, "seconds": round(c.seconds, 3),
                          "minimal": c.minimal} for c in cores]
    return data


def core_json(built: Built, expl: Explanation) -> dict:
    """A core as data: slots with their lengths and patterns, given letters, how it is known
    to be unfillable, whether it is minimal, when it came."""
    width = built.grid.width
    own = set(expl.givens)  # the core's given letters: a slot's others are free in it
    return {"slots": [built.slots[s].name for s in expl.slots],
            "patterns": {built.slots[s].name: "".join(built.grid.cell(c) if c in own else "."
                                                      for c in built.slots[s].cells)
                         for s in expl.slots},
            "givens": [{"row": c // width + 1, "col": c % width + 1,
                        "letter": built.grid.cell(c), "locked": c in built.grid.locked}
                       for c in expl.givens],
            "minimal": expl.minimal, "necessary": expl.necessary, "proof": expl.proof,
            "seconds": round(expl.seconds, 3)}


def cross_check_lines(cc: CrossCheck, verdict: str) -> list[str]:
    if cc.agree is None:
        return [f"CROSS-CHECK undecided: {cc.method}: {cc.detail}"]
    if cc.agree:
        return [f"CROSS-CHECK agrees: {cc.method} also says {cc.status.value}", f"  {cc.detail}"]
    return ["!" * 72,
            f"CROSS-CHECK DISAGREES: the verdict was {verdict}, {cc.method} says "
            f"{cc.status.value}",
            f"  {cc.detail}",
            "  this is a bug in one of the methods: please report it with the grid and dictionary",
            "!" * 72]


def cross_check_json(cc: CrossCheck) -> dict:
    return {"method": cc.method, "status": cc.status.value, "agree": cc.agree,
            "detail": cc.detail}
