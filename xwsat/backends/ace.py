"""ACE, the Java MAC constraint solver bundled with pycsp3: the one driver, used as a back-end
for side-by-side comparison and as the cross-check's independent second method.

The problem goes to ACE as a letters-only XCSP3 model: a variable per cell, a table per slot over
its cells, and per length an ``allDifferent`` over the slots' cell lists (ACE's DistinctLists).
Measured on the hard sample (grids/hard), ACE decides several times more grids from this
model than from one with word variables. ACE's letters are mapped back to word ids here; the fill
is then verified like any other. Available only when ``java`` and pycsp3's ACE jar exist.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from xwsat.backends.base import Traits
from xwsat.encode.xcsp3 import cells_solution, cells_xcsp3
from xwsat.errors import XwsatError
from xwsat.guard import die_with_parent
from xwsat.outcome import Evidence, Limits, Outcome, Progress, Stats, Status, Stop, stopped
from xwsat.problem import FillProblem

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_VALUES = re.compile(r"<list>(.*?)</list>\s*<values>(.*?)</values>", re.S)
# ACE's options per variant: the default (wdeg/CACD variable order, first value, last-conflict
# reasoning, restarts with nogoods) and the two variable orders of ACE's own documentation that
# suit table-heavy models; ``xwsat bench`` picks the best on the training grids (results/hard/).
VARIANTS: dict[str, tuple[str, ...]] = {
    "default": (),
    "frba": ("-varh=FrbaOnDom",),
    "wdegdom": ("-varh=WdegOnDom",),
}
LISTED: tuple[str, ...] = ("frba", "wdegdom")


def ace_jar() -> Path | None:
    """The ACE jar bundled in pycsp3's ``solvers/ace/`` folder, if pycsp3 is installed."""
    import importlib.util

    # find_spec locates pycsp3 without importing it (its import compiles a model at exit).
    spec = importlib.util.find_spec("pycsp3")
    if spec is None or spec.origin is None:
        return None
    jars = sorted((Path(spec.origin).parent / "solvers" / "ace").glob("ACE-*.jar"))
    return jars[-1] if jars else None


@dataclass(frozen=True)
class AceAnswer:
    """ACE's verdict (FILLED = satisfiable), its solution (variable -> value) and its time."""

    status: Status
    values: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    output: str = ""


def run_ace(xml_path: Path, time_limit: float | None = 60.0,
            options: tuple[str, ...] = ()) -> AceAnswer:
    """Solve an XCSP3 file with ACE (one solution) within ``time_limit`` seconds of wall clock,
    with extra ACE ``options``; the JVM dies with the calling process."""
    jar, java = ace_jar(), shutil.which("java")
    if jar is None or java is None:
        raise XwsatError("ACE needs java and pycsp3's ACE jar (pip install pycsp3)")
    cmd = [java, "-jar", str(jar), str(xml_path), *options]
    if time_limit:
        cmd.append(f"-t={max(1, int(time_limit))}s")
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=die_with_parent,
                              timeout=time_limit + 5 if time_limit else None)
    except subprocess.TimeoutExpired:
        return AceAnswer(Status.UNKNOWN, seconds=time.perf_counter() - start)
    text = _ANSI.sub("", proc.stdout + proc.stderr)
    seconds = time.perf_counter() - start
    verdicts = [line[2:].strip() for line in text.splitlines() if line.startswith("s ")]
    status = {"SATISFIABLE": Status.FILLED, "UNSATISFIABLE": Status.UNFILLABLE}.get(
        verdicts[-1] if verdicts else "", Status.UNKNOWN)
    values: dict[str, int] = {}
    match = _VALUES.search(text)
    if status is Status.FILLED and match:
        values = dict(zip(match.group(1).split(), map(int, match.group(2).split())))
    return AceAnswer(status, values, seconds, text)


class AceBackend:
    """Run ACE on the letters model within the time limit (its own ``-t`` and a hard timeout)."""

    name: ClassVar[str] = "ace"
    traits = Traits("ace", peer=True)

    def __init__(self, variant: str = "default") -> None:
        self.variant = variant
        self.label = "ace" if variant == "default" else f"ace:{variant}"

    @staticmethod
    def available() -> bool:
        return shutil.which("java") is not None and ace_jar() is not None

    def setup(self) -> dict[str, str]:
        """How this peer runs, for the bench's rows and report (a peer is judged by its
        setup)."""
        jar = ace_jar()
        return {"solver": f"ACE ({jar.name if jar else 'jar missing'}, pycsp3's)",
                "runtime": _first_line(["java", "-version"]),
                "model": "xwsat's letters-only XCSP3 of the arc-consistent problem: a variable "
                         "per cell (its surviving letters), a table per slot of its surviving "
                         "candidates, allDifferent lists per length",
                "options": " ".join([*VARIANTS[self.variant], "-seed=SEED", "-t=LIMIT"]),
                "time": "wall clock of writing the model, starting the JVM and ACE's search"}

    def solve(self, problem: FillProblem, limits: Limits,
              progress: Progress | None = None) -> Outcome:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="xwsat-ace-") as tmp:
            path = Path(tmp) / "fill.xml"
            path.write_text(cells_xcsp3(problem), encoding="utf-8")
            built = time.perf_counter()
            left = limits.time_limit - (built - started) if limits.time_limit else None
            options = (*VARIANTS[self.variant], f"-seed={limits.seed}")
            answer = run_ace(path, max(left, 0.5) if left is not None else None, options)
        stats = Stats(build_s=built - started, solve_s=time.perf_counter() - built)
        if answer.status is Status.UNFILLABLE:
            return Outcome(Status.UNFILLABLE, self.label, stats=stats, evidence=Evidence(
                "ACE exhaustive search",
                "ACE (MAC with compact tables, restarts and nogoods) explored the whole space "
                "of the letters model: UNSATISFIABLE"))
        if answer.status is Status.FILLED and answer.values:
            fill = cells_solution(problem, answer.values)
            if min(fill) < 0:
                return stopped(self.label, Stop.FAILED,
                               "ACE's letters do not spell a candidate word", stats)
            return Outcome(Status.FILLED, self.label, fill, stats)
        if left is not None and answer.seconds < left - 1.0:  # it stopped by itself, early
            last = next((line for line in reversed(answer.output.splitlines()) if line.strip()),
                        "no output")
            return stopped(self.label, Stop.FAILED, f"ACE ended without a verdict after "
                           f"{answer.seconds:.1f} s ({last.strip()[:120]})", stats)
        return stopped(self.label, Stop.TIME, "ACE gave no verdict within the time limit", stats)


def _first_line(command: list[str]) -> str:
    """The first line a version command prints (Java prints on stderr), or 'unknown'."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    lines = (done.stdout + done.stderr).strip().splitlines()
    return lines[0] if lines else "unknown"


def from_spec(sub: str | None) -> AceBackend:
    if sub is not None and sub not in LISTED:
        raise XwsatError(f"unknown ace variant {sub!r} (use ace or ace:{', ace:'.join(LISTED)})")
    return AceBackend(sub or "default")
