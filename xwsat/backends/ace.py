"""ACE back-end: the Java MAC constraint solver bundled with pycsp3, for side-by-side comparison.

The problem goes to ACE as a letters-only XCSP3 model: a variable per cell, a table per slot over
its cells, and per length an ``allDifferent`` over the slots' cell lists (ACE's DistinctLists).
Measured on the hard sample (results/hard.md), ACE decides several times more grids from this
model than from one with word variables. ACE's letters are mapped back to word ids here; the fill
is then verified like any other. Available only when ``java`` and pycsp3's ACE jar exist.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import ClassVar

import numpy as np

from xwsat.backends.base import Evidence, Limits, Outcome, Stats, Status
from xwsat.evidence.ace import ace_jar
from xwsat.planner import Plan
from xwsat.problem import FillProblem

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_VALUES = re.compile(r"<list>(.*?)</list>\s*<values>(.*?)</values>", re.S)


def cells_xcsp3(problem: FillProblem) -> str:
    """The letters-only XCSP3 model of ``problem`` (variables ``x0``, ``x1``, ... per cell)."""
    top = problem.alphabet_size - 1
    out = ['<instance format="XCSP3" type="CSP">', "  <variables>",
           *(f'    <var id="x{c}"> 0..{top} </var>' for c in range(problem.n_cells)),
           "  </variables>", "  <constraints>"]

    def cells(s: int) -> str:
        return " ".join(f"x{int(c)}" for c in problem.slot_cells[s])

    for s in range(problem.n_slots):
        rows = "".join("(" + ",".join(map(str, r)) + ")" for r in problem.letters[s].tolist())
        if rows:
            out.append(f"    <extension> <list> {cells(s)} </list> <supports> {rows} "
                       "</supports> </extension>")
        else:  # no candidate: a table that nothing satisfies (XCSP3 refuses empty supports)
            first = f"x{int(problem.slot_cells[s][0])}"
            out.append(f"    <intension> ne({first},{first}) </intension>")
    if not problem.allow_repeats:
        groups: dict[int, list[int]] = {}
        for s in range(problem.n_slots):
            groups.setdefault(problem.slot_length(s), []).append(s)
        for group in groups.values():
            out += _distinct(problem, group, cells)
    out += ["  </constraints>", "</instance>", ""]
    return "\n".join(out)


def _distinct(problem: FillProblem, group: list[int], cells) -> list[str]:
    """No repeated word among ``group`` (slots of one length): one ``allDifferent`` over their
    cell lists, or, when two lists share a cell (ACE's DistinctLists refuses that), one
    constraint per pair, the sharing pairs as "some other position differs"."""
    if len(group) < 2:
        return []
    lists = {s: problem.slot_cells[s].tolist() for s in group}
    pairs = [(a, b) for i, a in enumerate(group) for b in group[i + 1:]]
    if not any(set(lists[a]) & set(lists[b]) for a, b in pairs):
        joined = "".join(f"<list> {cells(s)} </list>" for s in group)
        return [f"    <allDifferent> {joined} </allDifferent>"]
    out = []
    for a, b in pairs:
        if not set(lists[a]) & set(lists[b]):
            out.append(f"    <allDifferent> <list> {cells(a)} </list><list> {cells(b)} </list> "
                       "</allDifferent>")
            continue
        differ = [f"ne(x{x},x{y})" for x, y in zip(lists[a], lists[b]) if x != y]
        if differ:
            out.append(f"    <intension> or({','.join(differ)}) </intension>"
                       if len(differ) > 1 else f"    <intension> {differ[0]} </intension>")
    return out


def cells_solution(problem: FillProblem, values: dict[str, int]) -> tuple[int, ...]:
    """Word ids from ACE's cell letters: per slot, the candidate with exactly those letters."""
    letters = [values[f"x{c}"] for c in range(problem.n_cells)]
    fill = []
    for s in range(problem.n_slots):
        word = np.array([letters[int(c)] for c in problem.slot_cells[s]], dtype=np.uint8)
        k = np.flatnonzero((problem.letters[s] == word).all(axis=1))
        fill.append(int(problem.candidates[s][k[0]]) if len(k) else -1)
    return tuple(fill)


class AceBackend:
    """Run ACE on the letters model within the time limit (its own ``-t`` and a hard timeout)."""

    name: ClassVar[str] = "ace"

    @staticmethod
    def available() -> bool:
        return shutil.which("java") is not None and ace_jar() is not None

    def solve(self, problem: FillProblem, plan: Plan, limits: Limits) -> Outcome:
        started = time.perf_counter()
        jar, java = ace_jar(), shutil.which("java")
        assert jar is not None and java is not None
        with tempfile.TemporaryDirectory(prefix="xwsat-ace-") as tmp:
            path = Path(tmp) / "fill.xml"
            path.write_text(cells_xcsp3(problem), encoding="utf-8")
            built = time.perf_counter()
            cmd = [java, "-jar", str(jar), str(path)]
            if limits.time_limit:
                cmd.append(f"-t={max(1, int(limits.time_limit))}s")
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True,
                                      timeout=(limits.time_limit + 5) if limits.time_limit
                                      else None)
                text = _ANSI.sub("", proc.stdout)
            except subprocess.TimeoutExpired:
                text = ""
        stats = Stats(build_s=built - started, solve_s=time.perf_counter() - built)
        status = [line[2:].strip() for line in text.splitlines() if line.startswith("s ")]
        verdict = status[-1] if status else ""
        if verdict == "UNSATISFIABLE":
            return Outcome(Status.UNFILLABLE, "ace", stats=stats, evidence=Evidence(
                "ACE exhaustive search",
                "ACE (MAC with compact tables, restarts and nogoods) explored the whole space "
                "of the letters model: UNSATISFIABLE"))
        match = _VALUES.search(text)
        if verdict == "SATISFIABLE" and match:
            values = dict(zip(match.group(1).split(), map(int, match.group(2).split())))
            fill = cells_solution(problem, values)
            if min(fill) < 0:
                return Outcome(Status.ERROR, "ace", stats=stats,
                               message="ACE's letters do not spell a candidate word")
            return Outcome(Status.FILLED, "ace", fill, stats)
        return Outcome(Status.UNKNOWN, "ace", stats=stats,
                       message="ACE gave no verdict within the time limit")
