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

from xwsat.backends.base import Evidence, Limits, Outcome, Stats, Status
from xwsat.encode.xcsp3 import cells_solution, cells_xcsp3
from xwsat.evidence.ace import ace_jar
from xwsat.planner import Plan
from xwsat.problem import FillProblem

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_VALUES = re.compile(r"<list>(.*?)</list>\s*<values>(.*?)</values>", re.S)


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
