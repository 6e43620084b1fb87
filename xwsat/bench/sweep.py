"""A sweep: (instance x back-end x seed) tasks, run through an executor, appended to JSONL.

The JSONL file is the truth: a row is appended (and flushed to disk) the moment its run finishes,
so an interrupted sweep loses at most the runs in flight, and running the same sweep again skips
every task whose row is already there. Never prints; progress goes through a callback.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xwsat.bench.execute import run_isolated
from xwsat.bench.suites import Suite
from xwsat.errors import XwsatError

ROWS = "rows.jsonl"
LOCK = ".lock"  # held while a sweep writes into the folder
VERDICTS = ("filled", "unfillable")
NAMED = ("suite", "grid", "dictionary", "backend")  # what a row names, all text


def plan_tasks(suites: Iterable[Suite], backends: list[str], seeds: list[int],
               time_limit: float, memory_mb: int | None, as_fill: bool = False
               ) -> list[dict[str, Any]]:
    """Every task, instance by instance (all back-ends of an instance run together, so a
    partial sweep still compares back-ends on the instances it reached). ``as_fill``: each
    run as plain ``fill`` runs (the upper look and the lift on a scored list); by default the
    named back-end alone, which is what a comparison of methods measures."""
    tasks = []
    digests: dict[str, str] = {}
    for suite in suites:
        for inst in suite.instances:
            inputs = _inputs_digest(str(inst.grid_path), inst.dictionary_path, digests)
            for seed in seeds:
                for backend in backends:
                    task = {"suite": inst.suite, "grid": inst.grid, "dictionary": inst.dictionary,
                            "backend": backend, "seed": seed, "time_limit": time_limit,
                            "memory_mb": memory_mb, "known": inst.known,
                            "grid_path": str(inst.grid_path),
                            "dictionary_path": inst.dictionary_path, "inputs": inputs,
                            "as_fill": as_fill}
                    task["key"] = task_key(task)
                    tasks.append(task)
    return tasks


def _inputs_digest(grid_path: str, dictionary_path: str, seen: dict[str, str]) -> str:
    """A hash of the grid's and the dictionary's bytes (an embedded list: its code and the
    hash of the data xwsat carries for it): a resumed sweep reruns a row whose files changed
    under the same names, an embedded list rebuilt by a newer xwsat included."""
    import hashlib
    from importlib import resources

    from xwsat.words import EMBEDDED

    parts = []
    for path in (grid_path, dictionary_path):
        if path not in seen:
            if path in EMBEDDED:
                data = (resources.files("xwsat") / "data" / EMBEDDED[path]).read_bytes()
                seen[path] = f"{path}:{hashlib.sha256(data).hexdigest()[:16]}"
            else:
                seen[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
        parts.append(seen[path])
    return "-".join(parts)


def task_key(row: dict[str, Any]) -> str:
    """What makes two runs the same run (the resume key)."""
    return (f"{row['suite']}/{row['grid']}@{row['dictionary']}|{row['backend']}|seed={row['seed']}"
            f"|t={row['time_limit']:g}|m={row.get('memory_mb') or 0}"
            + ("|as-fill" if row.get("as_fill") else ""))


def same_mode(row: dict[str, Any]) -> bool:
    """Whether a row measured what its key says: a row written before rows said how they ran
    (``as_fill``) ran the upper look and the lift where they applied, so it stands for the
    named back-end alone only when neither touched it (its fill not the upper look's, no time
    in the lift)."""
    if "as_fill" in row:
        return True
    lifted = ((row.get("times") or {}).get("lift_s") or 0) > 0
    return not lifted and "(upper look)" not in str(row.get("solved_by") or "")


def limits_of(rows: Iterable[dict[str, Any]]) -> set[tuple[float, int]]:
    """The (time limit, memory limit) pairs the rows ran under: a folder holds one, since its
    tables count each instance once (rows of two limits would count it twice)."""
    return {(float(row.get("time_limit", 0)), int(row.get("memory_mb") or 0)) for row in rows}


def describe_limits(limits: Iterable[tuple[float, int]]) -> str:
    return "; ".join(f"{t:g} s, " + (f"{m} MiB" if m else "no memory limit")
                     for t, m in sorted(limits))


def instance_id(row: dict[str, Any]) -> str:
    return f"{row['suite']}/{row['grid']}@{row['dictionary']}"


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The latest row of each run in a JSONL file (a rerun appends a newer row for its key);
    a line cut short by a kill, or one that is not a row (no key, status, numeric limits,
    names, seed, or a decided run with no time), is skipped (its task will rerun)."""
    if not path.exists():
        return []
    rows: dict[str, dict[str, Any]] = {}
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                row = json.loads(line)
            except (ValueError, RecursionError):  # torn, damaged or absurdly nested
                continue
            if (isinstance(row, dict) and isinstance(row.get("key"), str)
                    and isinstance(row.get("status"), str) and _number(row.get("time_limit"))
                    and (row.get("memory_mb") is None or _number(row["memory_mb"]))
                    and all(isinstance(row.get(k), str) for k in NAMED)
                    and isinstance(row.get("seed"), int)
                    and (row.get("time_s") is None or _number(row["time_s"]))
                    and (row["status"] not in VERDICTS or _number(row.get("time_s")))):
                rows.pop(row["key"], None)  # keep file order, newest last
                rows[row["key"]] = row
    return current(list(rows.values()))


def current(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows made from an instance's files as they were at its newest row (rows in file
    order, newest last): a grid or list edited between two runs into one folder is another
    problem, and comparing the two would read as back-ends that disagree."""
    newest = {instance_id(row): row.get("inputs") for row in rows}
    return [row for row in rows
            if row.get("inputs") is None or newest[instance_id(row)] in (None, row["inputs"])]


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def append_row(path: Path, row: dict[str, Any]) -> None:
    """Append one row and force it to disk, so a crash of the sweep cannot lose it."""
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def _end_torn_line(path: Path) -> None:
    """A sweep killed mid-write leaves a line without its newline: end it, so the next row
    starts on its own line (the torn line is then skipped when read)."""
    if path.exists() and path.stat().st_size:
        with path.open("rb+") as handle:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                handle.write(b"\n")


def with_known(rows: Iterable[dict[str, Any]], known: Any) -> list[dict[str, Any]]:
    """The rows with each instance's known status as its suite states it now (``known``:
    instance -> status or None, as the last sweep read the suites): a suite corrected since
    the rows were made is not an alarm about them."""
    if not isinstance(known, dict):
        return list(rows)
    fixed = []
    for row in rows:
        inst = instance_id(row)
        if inst in known:
            row = {k: v for k, v in row.items() if k != "known"}
            if isinstance(known[inst], str):
                row["known"] = known[inst]
        fixed.append(row)
    return fixed


def disagreements(rows: Iterable[dict[str, Any]]) -> list[str]:
    """Loud problems: two back-ends with opposite verdicts, a verdict against the status its
    suite knows (from the literature, or the suite's own author), or a FILLED row that was not
    verified."""
    verdicts: dict[str, dict[str, list[str]]] = {}
    known: dict[str, str] = {}
    problems = []
    for row in rows:
        status = row.get("status")
        if status == "filled" and not row.get("verified"):
            problems.append(f"{row['key']}: FILLED but not verified")
        if status in VERDICTS:
            verdicts.setdefault(instance_id(row), {}).setdefault(status, []).append(
                f"{row['backend']} (seed {row['seed']})")
        if row.get("known"):
            known[instance_id(row)] = row["known"]
    for inst, by_status in sorted(verdicts.items()):
        if len(by_status) > 1:
            problems.append(f"{inst}: back-ends disagree: filled by "
                            f"{', '.join(by_status['filled'])}; unfillable by "
                            f"{', '.join(by_status['unfillable'])}")
        expected = known.get(inst)
        for status, who in by_status.items():
            if expected and status != expected:
                problems.append(f"{inst}: {status} by {', '.join(who)} but its suite "
                                f"says {expected}")
    return problems


@dataclass
class Progress:
    """Counts by status, the runs in flight and an ETA, for the live progress line."""

    total: int
    skipped: int
    jobs: int
    time_limit: float
    counts: Counter = field(default_factory=Counter)
    started: float = field(default_factory=time.monotonic)
    durations: list[float] = field(default_factory=list)

    @property
    def done(self) -> int:
        return sum(self.counts.values())

    def eta_s(self) -> float | None:
        remaining = self.total - self.skipped - self.done
        if remaining <= 0:
            return 0.0
        if not self.durations:
            return None
        mean = sum(self.durations) / len(self.durations)
        return mean * remaining / max(1, self.jobs)

    def line(self) -> str:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items())) or "none yet"
        eta = self.eta_s()
        eta_text = "?" if eta is None else _clock(eta)
        finished = self.done + self.skipped
        filled = round(20 * finished / self.total) if self.total else 20
        bar = "#" * filled + "." * (20 - filled)
        return (f"[bench] [{bar}] {finished}/{self.total} runs ({self.skipped} resumed) "
                f"| {counts} | elapsed {_clock(time.monotonic() - self.started)} | ETA {eta_text}")


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


RunFn = Callable[[dict[str, Any]], dict[str, Any]]


def run_sweep(tasks: list[dict[str, Any]], out_dir: Path, executor: Executor,
              on_row: Callable[[dict[str, Any], Progress], None] | None = None,
              run: RunFn = run_isolated, jobs: int = 1,
              rerun: frozenset[str] = frozenset(), locked: bool = False,
              ) -> tuple[list[dict[str, Any]], Progress]:
    """Run the tasks whose rows are missing from ``out_dir/rows.jsonl`` (or whose status is in
    ``rerun``; ``"all"`` reruns every task); return the folder's latest row per run.
    ``locked``: the caller already holds the folder's lock."""
    if len({t["key"] for t in tasks}) != len(tasks):
        raise XwsatError("the sweep lists the same run twice (repeated suite or back-end?)")
    if locked:
        return _sweep(tasks, out_dir, executor, on_row, run, jobs, rerun)
    out_dir.mkdir(parents=True, exist_ok=True)
    with folder_lock(out_dir):
        return _sweep(tasks, out_dir, executor, on_row, run, jobs, rerun)


@contextmanager
def folder_lock(out_dir: Path) -> Iterator[None]:
    """One sweep at a time per folder (a second one would run every job again)."""
    handle = (out_dir / LOCK).open("a")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise XwsatError(f"{out_dir}: another sweep is writing into this folder") from None
        yield
    finally:
        handle.close()


def _sweep(tasks: list[dict[str, Any]], out_dir: Path, executor: Executor,
           on_row: Callable[[dict[str, Any], Progress], None] | None, run: RunFn, jobs: int,
           rerun: frozenset[str]) -> tuple[list[dict[str, Any]], Progress]:
    path = out_dir / ROWS
    _end_torn_line(path)
    existing = read_rows(path)
    inputs = {t["key"]: t.get("inputs") for t in tasks}
    # a row counts as done only for the same files (rows written before their digest was
    # recorded are taken as they are)
    done = {row["key"] for row in existing
            if "all" not in rerun and row["status"] not in rerun and same_mode(row)
            and row.get("inputs", inputs.get(row["key"])) == inputs.get(row["key"])}
    todo = [t for t in tasks if t["key"] not in done]
    progress = Progress(len(tasks), len(tasks) - len(todo), jobs,
                        tasks[0]["time_limit"] if tasks else 0.0)
    latest = {row["key"]: row for row in existing}  # every run of the folder counts
    futures: dict[Future, dict[str, Any]] = {}
    try:
        futures = {executor.submit(run, task): task for task in todo}
        for future in as_completed(futures):
            task = futures[future]
            try:
                row = future.result()
            except Exception as exc:  # the executor itself failed (a lost worker): still a row
                row = dict(task, status="crash", verified=False,
                           message=f"executor lost the run: {type(exc).__name__}: {exc}")
            append_row(path, row)
            latest.pop(row["key"], None)
            latest[row["key"]] = row
            progress.counts[row["status"]] += 1
            progress.durations.append(float(row.get("wall_s", task["time_limit"])))
            if on_row:
                on_row(row, progress)
    finally:
        for future in futures:
            future.cancel()
    return current(list(latest.values())), progress


def local_executor(jobs: int) -> Executor:
    """Threads that each watch one isolated run process: ``jobs`` runs at a time."""
    return ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="xwsat-bench")
