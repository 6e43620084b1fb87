"""Run one bench task in a fresh process with a hard wall clock and a memory limit on its tree.

``fill_grid`` already limits the back-end's own process; this outer guard also covers dictionary
loading, building and verifying, and turns any way a run can end (a result, a crash, an
out-of-memory kill, a hang) into a row. It is a plain function of picklable values, so a thread
pool or a Dask worker can call it alike.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import signal
import subprocess
import sys
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from xwsat.guard import BENCH_SLACK_S, CommandRun, run_command
from xwsat.outcome import Stop

STOP = threading.Event()  # set on Ctrl-C: every watcher kills its run and returns at once


def hard_limit(time_limit: float) -> float:
    return time_limit * 1.5 + BENCH_SLACK_S


def _version(module: str) -> str:
    try:
        from importlib.metadata import version

        return version(module)
    except Exception:  # noqa: BLE001 - a missing package is simply "absent"
        return "absent"


@lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """Versions of everything that can change a result, git commit of the code included."""
    import xwsat

    root = Path(xwsat.__file__).resolve().parent.parent
    commit = "unknown"
    try:
        out = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty"],
                             capture_output=True, text=True, timeout=10, check=False)
        commit = out.stdout.strip() or commit
    except (OSError, subprocess.SubprocessError):
        pass
    return {"xwsat": _version("xwsat"), "git": commit, "python": platform.python_version(),
            "ortools": _version("ortools"), "python-sat": _version("python-sat"),
            "numpy": _version("numpy")}


@lru_cache(maxsize=1)
def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory_mb = 0
    with contextlib.suppress(ValueError, OSError):
        memory_mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    return {"host": platform.node(), "cpu": cpu, "cores": os.cpu_count() or 0,
            "memory_mb": memory_mb, "os": f"{platform.system()} {platform.release()}"}


def child_command() -> list[str]:
    """``python`` running ``xwsat.bench.child`` from the same xwsat as this process.

    Not ``python -m``: it puts the working directory first on ``sys.path``, so a bench started
    in a source checkout next to an installed xwsat ran the checkout's code, whose compiled
    search was not built yet: the first run compiled it inside its own time limit (28 s on a
    0.3 s instance)."""
    import xwsat

    root = str(Path(xwsat.__file__).resolve().parent.parent)
    return [sys.executable, "-c",
            f"import runpy, sys; sys.path[0] = {root!r}; "
            "runpy.run_module('xwsat.bench.child', run_name='__main__', alter_sys=True)"]


def run_isolated(task: dict[str, Any]) -> dict[str, Any]:
    """Run ``task`` in a child process (``child_command``); always returns a row (task +
    result)."""
    started = time.time()
    run = run_command(child_command(), json.dumps(task),
                      hard_limit(task["time_limit"]), task.get("memory_mb"), STOP.is_set)
    result = _parse(run)
    if result.get("status") == "filled":
        result = _recheck(task, result)
    row = dict(task)
    row.update(result)
    row.update({"wall_s": round(run.seconds, 3), "started": time.strftime(
        "%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)), "versions": versions(),
        "machine": machine()})
    setup = peer_setup(task["backend"])
    if setup:
        row["peer"] = setup
    return row


@lru_cache(maxsize=16)
def peer_setup(spec: str) -> dict[str, str]:
    """How a peer back-end runs (solver, version, model, options), or {} for xwsat's own."""
    from xwsat.backends.registry import make_backend

    try:
        backend = make_backend(spec)
    except Exception:  # noqa: BLE001 - an unavailable peer ran nothing to describe
        return {}
    return dict(backend.setup()) if backend.traits.peer and hasattr(backend, "setup") else {}


@lru_cache(maxsize=4)
def _dictionary(path: str) -> frozenset[str]:
    from xwsat.words import load_words

    return frozenset(load_words(path).words)


def _recheck(task: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """Check a FILLED row's grid again here, outside the run's process, with the checker.

    The run already verified it; this second look means a row cannot claim a fill that the
    watcher's own reading of the grid and dictionary rejects.
    """
    from xwsat.grid import parse_grid
    from xwsat.verify import check_fill
    from xwsat.words import normalize_word, read_text_file

    try:
        grid = parse_grid(read_text_file(Path(task["grid_path"])), task["grid_path"])
        pattern = grid.map_letters(normalize_word).rows
        problems = check_fill(pattern, result.get("fill") or [],
                              _dictionary(task["dictionary_path"]))
    except Exception as exc:  # noqa: BLE001 - any failure to re-check withholds the verdict
        problems = [f"could not re-check: {type(exc).__name__}: {exc}"]
    if problems or not result.get("verified"):
        why = "; ".join(problems[:3]) or "the run did not verify it"
        return dict(result, status="error", verified=False,
                    message=f"fill rejected by the second check: {why}")
    return dict(result, rechecked=True)


def _parse(run: CommandRun) -> dict[str, Any]:
    """The run's own result line, or why there is none: the watcher's stop, or how it died (a
    SIGKILL from outside is 'killed': only a measured breach of the limit is 'memout')."""
    if run.stop is not None:
        return _no_result(run.stop.value, run.message)
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode == 0 and lines:
        try:
            return json.loads(lines[-1])
        except json.JSONDecodeError:
            pass
    tail = " | ".join(run.stderr.strip().splitlines()[-3:])[-400:]
    code = run.returncode
    if code is not None and code < 0:
        status = Stop.KILLED if code == -signal.SIGKILL else Stop.CRASH
        why = f"killed by signal {-code}"
    else:
        status, why = Stop.CRASH, f"exit {code}"
    return _no_result(status.value, f"run process died: {why}. {tail}")


# what a run measures, unknown (null) when it said nothing: the same keys in every row
MEASURED = ("solved_by", "time_s", "times", "sizes", "conflicts", "nodes", "stats_extra",
            "evidence", "fill")


def _no_result(status: str, message: str) -> dict[str, Any]:
    """The row of a run stopped or dead before it reported: its measures unknown."""
    return {"status": status, "verified": False, "message": message,
            **dict.fromkeys(MEASURED)}
