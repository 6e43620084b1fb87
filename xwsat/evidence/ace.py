"""Run ACE (the XCSP3 CP solver bundled with pycsp3) on an exported instance.

ACE is a third, independent implementation (Java, its own propagators and search): its verdict on
our XCSP3 export cross-checks both the export and our own solvers.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_VALUES = re.compile(r"<list>(.*?)</list>\s*<values>(.*?)</values>", re.S)


@dataclass(frozen=True)
class AceResult:
    """ACE's verdict: 'sat', 'unsat' or 'unknown', its solution (variable -> value) and time."""

    verdict: str
    values: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    output: str = ""


def ace_jar() -> Path | None:
    """The ACE jar shipped in pycsp3's ``solvers/ace/`` folder, if pycsp3 is installed."""
    import importlib.util

    # find_spec locates pycsp3 without importing it (its import compiles a model at exit).
    spec = importlib.util.find_spec("pycsp3")
    if spec is None or spec.origin is None:
        return None
    jars = sorted((Path(spec.origin).parent / "solvers" / "ace").glob("ACE-*.jar"))
    return jars[-1] if jars else None


def ace_available() -> bool:
    return shutil.which("java") is not None and ace_jar() is not None


def run_ace(xml_path: Path, time_limit: float = 60.0) -> AceResult:
    """Solve ``xml_path`` with ACE (one solution), within ``time_limit`` seconds of wall clock."""
    jar = ace_jar()
    java = shutil.which("java")
    if jar is None or java is None:
        raise RuntimeError("ACE needs java and pycsp3's ACE jar")
    start = time.perf_counter()
    try:
        proc = subprocess.run([java, "-jar", str(jar), str(xml_path)], capture_output=True,
                              text=True, timeout=time_limit)
    except subprocess.TimeoutExpired:
        return AceResult("unknown", seconds=time.perf_counter() - start)
    text = _ANSI.sub("", proc.stdout + proc.stderr)
    seconds = time.perf_counter() - start
    status = [line[2:].strip() for line in text.splitlines() if line.startswith("s ")]
    verdict = {"SATISFIABLE": "sat", "UNSATISFIABLE": "unsat"}.get(status[-1] if status else "",
                                                                    "unknown")
    values: dict[str, int] = {}
    match = _VALUES.search(text)
    if verdict == "sat" and match:
        names, vals = match.group(1).split(), match.group(2).split()
        values = {n: int(v) for n, v in zip(names, vals)}
    return AceResult(verdict, values, seconds, text)
