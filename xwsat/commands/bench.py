"""``xwsat bench SUITE...`` (run a sweep, resumable) and ``xwsat bench report DIR``.

Exit codes: 0 the sweep ran and every verdict agrees; 4 back-ends disagreed on a verdict (or a
verdict contradicts a known status); 2 bad input; 3 interrupted (rerun the command to resume).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from xwsat.backends.registry import validate_spec
from xwsat.bench import execute as isolate
from xwsat.bench.suites import load_suite
from xwsat.bench.sweep import (
    LOCK,
    ROWS,
    Progress,
    describe_limits,
    disagreements,
    folder_lock,
    instance_id,
    limits_of,
    local_executor,
    plan_tasks,
    read_rows,
    run_sweep,
    with_known,
)
from xwsat.bench.tables import (
    TEXT_FILES,
    build_report,
    chosen_baseline,
    readme_section,
    report_files,
    section_of,
    splice,
)
from xwsat.commands.common import check_writable, compile_first, same_file, write_atomic
from xwsat.commands.options import check_time_limit, parse_seeds
from xwsat.errors import XwsatError
from xwsat.exit_codes import ExitCode
from xwsat.guard import stop_on_termination
from xwsat.outcome import Stop
from xwsat.words import load_words

SWEEP = "sweep.json"


class _DefaultRun(TyperGroup):
    """``xwsat bench SUITE...`` means ``xwsat bench run SUITE...``; ``report`` is a subcommand."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


bench_app = typer.Typer(cls=_DefaultRun, no_args_is_help=True,
                        help="Benchmark sweeps (xwsat bench SUITE...) and their reports.")


def _split(text: str, what: str) -> list[str]:
    items = [x.strip() for x in text.split(",")]
    if not any(items):
        raise XwsatError(f"{what} is empty")
    if "" in items:  # "1,,2": a value left out, or a typo
        raise XwsatError(f"{what} {text!r} has an empty item; write them like a,b,c")
    if twice := next((x for x in items if items.count(x) > 1), None):
        raise XwsatError(f"{what} lists {twice} twice")
    return items


def _dictionary(name: str) -> str:
    """A --dict value: a file path (made absolute) or a name the suites resolve (lex, en)."""
    path = Path(name)
    return str(path.resolve()) if path.is_file() else name


def _executor(jobs: int, cluster: str | None) -> tuple[Any, Any]:
    if cluster is None:
        return local_executor(jobs), None
    try:
        from distributed import Client
    except ImportError:
        raise XwsatError("--cluster needs dask.distributed (pip install 'xwsat[cluster]')") \
            from None
    try:
        client = Client(cluster, timeout="15s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise XwsatError(f"cannot reach the Dask scheduler at {cluster} ({exc})") from None
    return client.get_executor(pure=False), client


def _show(row: dict[str, Any], progress: Progress) -> None:
    line = progress.line()
    last = (f" | last: {row['suite']}/{row['grid']}@{row['dictionary']} {row['backend']} "
            f"{row['status']}" + (f" {row['time_s']:.2f} s" if "time_s" in row else ""))
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[2K" + (line + last)[:200])
    else:
        sys.stderr.write(line + last + "\n")
    sys.stderr.flush()


@bench_app.command("run")
def run(
    suites: Annotated[list[str], typer.Argument(help="Suite names (see 'xwsat grids suites') "
                                                     "or folders with suite.json.")],
    backends: Annotated[str, typer.Option(
        "--backends", "-b", help="Comma-separated back-ends, any that fill takes: "
                                 "auto,mac,mac:words,native,sat,sat:SOLVER,cpsat,ace,...")
    ] = "auto",
    dictionary: Annotated[list[str] | None, typer.Option(
        "--dict", "-d", help="Replace the suites' dictionaries (name or file; repeatable).")
    ] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", "-t", help="Seconds per run.")
                          ] = 60.0,
    memory_limit: Annotated[int, typer.Option(
        "--memory-limit", help="MiB per run, all its processes (0 = none, else 512 or more).")
    ] = 4096,
    seeds: Annotated[str, typer.Option("--seeds", help="Seeds: 1,2,3 or 1-3.")] = "0",
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Runs at a time (local).")] = 1,
    cluster: Annotated[str | None, typer.Option(
        "--cluster", help="Dask scheduler address, e.g. tcp://host:8786.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Result folder (default results/SUITES).")] = None,
    rerun: Annotated[str, typer.Option(
        "--rerun", help="Run again the runs with these statuses (e.g. crash,error,timeout; "
                        "'all' after a back-end changed); the newer row wins.")] = "",
    no_report: Annotated[bool, typer.Option("--no-report", help="Skip tables and plots.")
                         ] = False,
    as_fill: Annotated[bool, typer.Option(
        "--as-fill", help="Run each as plain fill does: on a scored list, the upper look "
                          "first and the lift after (default: the named back-end alone).")
    ] = False,
) -> None:
    """Run every (grid, dictionary, back-end, seed) in its own process; rows go to JSONL."""
    held = contextlib.ExitStack()  # the folder's lock, from before this command writes into it
    executor: Any = None
    made: list[Path] = []  # the folders this run makes, taken back if it fails before a row
    try:
        check_time_limit(time_limit)
        if memory_limit < 0 or 0 < memory_limit < 512:
            raise XwsatError("--memory-limit must be 0 (none) or at least 512 MiB")
        if not 1 <= jobs <= 256:
            raise XwsatError("--jobs must be between 1 and 256")
        names = [validate_spec(b) for b in _split(backends, "--backends")]
        seed_list = parse_seeds(",".join(_split(seeds, "--seeds")), "--seeds")
        rerun_set = frozenset(_split(rerun, "--rerun")) if rerun else frozenset()
        statuses = {"all", "filled", "unfillable", "unknown", *(stop.value for stop in Stop)}
        if not rerun_set <= statuses:
            raise XwsatError(f"--rerun: unknown status {sorted(rerun_set - statuses)[0]!r} "
                             f"(use {', '.join(sorted(statuses))})")
        dicts = [_dictionary(d) for d in dictionary] if dictionary else None
        loaded = [load_suite(s, dicts) for s in suites]
        if len({s.name for s in loaded}) != len(loaded):
            raise XwsatError("a suite is listed twice")
        out_dir = out or Path("results") / "+".join(s.name for s in loaded)
        check_bench_folder(out_dir)
        _check_same_limits(out_dir, time_limit, memory_limit)
        tasks = plan_tasks(loaded, names, seed_list, time_limit, memory_limit or None,
                           as_fill)
        if not tasks:  # said before the folder is made
            raise XwsatError(f"{', '.join(suites)}: no grid to run (the suite lists none)")
        labels: dict[str, set[str]] = {}
        for task in tasks:  # rows name a list by its file stem: two files, one name
            labels.setdefault(task["dictionary"], set()).add(task["dictionary_path"])
        if shared := next((name for name, paths in labels.items() if len(paths) > 1), None):
            raise XwsatError(f"two different word lists are both named {shared!r} "
                             f"({', '.join(sorted(labels[shared]))}); rows and tables name a "
                             "list by its file name, so give them different names")
        repeated = [key for key, n in Counter(t["key"] for t in tasks).items() if n > 1]
        if repeated:
            raise XwsatError(f"the sweep lists the same run twice ({repeated[0]}): a grid, "
                             "suite or back-end named twice")
        for path in sorted({t["dictionary_path"] for t in tasks}):
            load_words(path)  # a damaged dictionary is bad input now, not a column of crashes
        for path in sorted({t["grid_path"] for t in tasks}):
            _check_grid(Path(path))  # so is a grid that does not parse, or has no entry
        command = _command(suites, names, dictionary, time_limit, memory_limit, seed_list, jobs,
                           cluster, out_dir, rerun, as_fill, no_report)
        executor, client = _executor(jobs, cluster)  # a bad --cluster: nothing written yet
        made = _missing_parts(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        held.enter_context(folder_lock(out_dir))  # refused here, before the plan is shown
        for kept in (out_dir / ROWS, out_dir / SWEEP):  # a refused run is not recorded
            if kept.exists() and not os.access(kept, os.W_OK):
                raise XwsatError(f"{kept}: cannot write it (read-only)")
        _record(out_dir, command, [t["key"] for t in tasks],
                {instance_id(t): t["known"] for t in tasks})
        if client is not None:  # the ETA divides by the cluster's worker threads
            jobs = max(1, sum(client.nthreads().values()))
    except BaseException as exc:  # a locked or unwritable folder: nothing of this run is left
        held.close()
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
            if client is not None:
                client.close()
        _take_back(made)
        if isinstance(exc, OSError):
            raise XwsatError(f"{exc.filename or out or 'results'}: cannot create the result "
                             f"folder ({exc.strerror})") from None
        raise
    with held:
        _sweep_and_report(out_dir, tasks, names, loaded, seed_list, executor, client, jobs,
                          rerun_set, no_report)


def _check_grid(path: Path) -> None:
    """A suite's grid as a run reads it: text that parses, with at least one entry."""
    from xwsat.grid import extract_slots, parse_grid
    from xwsat.words import read_text_file

    grid = parse_grid(read_text_file(path), str(path))
    if not extract_slots(grid, 2):
        raise XwsatError(f"{path}: the grid has no slots (no run of 2 or more white cells)")


def _missing_parts(folder: Path) -> list[Path]:
    """The folders ``mkdir(parents=True)`` would make for ``folder``, deepest first."""
    made = []
    while not folder.exists() and folder != folder.parent:
        made.append(folder)
        folder = folder.parent
    return made


def _take_back(made: list[Path]) -> None:
    """Remove the folders this run made (with the lock it put there) when it fails before its
    first row: a full disk or a locked folder leaves nothing behind. Only empty ones go."""
    for folder in made:
        with contextlib.suppress(OSError):
            (folder / LOCK).unlink(missing_ok=True)
            folder.rmdir()


def _sweep_and_report(out_dir: Path, tasks: list[dict[str, Any]], names: list[str],
                      loaded: list, seed_list: list[int], executor: Any, client: Any, jobs: int,
                      rerun_set: frozenset[str], no_report: bool) -> None:
    """Run the planned sweep in a folder whose lock is held, then write its report."""
    compile_first(names)  # once, before any run's clock
    typer.echo(f"[bench] {len(tasks)} runs ({len(loaded)} suites, {len(names)} back-ends, "
               f"{len(seed_list)} seeds) -> {out_dir / ROWS}", err=True)
    isolate.STOP.clear()
    interrupted = False
    stop_on_termination()
    try:
        rows, progress = run_sweep(tasks, out_dir, executor, _show, jobs=jobs, rerun=rerun_set,
                                   locked=True)
    except KeyboardInterrupt:
        interrupted = True
        isolate.STOP.set()
    finally:
        if client is None:
            executor.shutdown(wait=True, cancel_futures=True)
        else:  # Dask's executor cancels its pending futures itself on shutdown
            executor.shutdown(wait=True)
            client.close()
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    if interrupted:
        typer.echo("xwsat: interrupted; rows so far are kept, rerun the same command to resume",
                   err=True)
        raise typer.Exit(ExitCode.UNDECIDED)
    if not no_report:
        try:
            _write_report(out_dir, None)
        except XwsatError as exc:  # the rows are kept; the report waits for the user
            said = str(exc).replace("add --force", f"run xwsat bench report {out_dir} --force")
            typer.echo(f"xwsat: report not written: {said}", err=True)
    problems = disagreements(with_known(rows, _sweep_data(out_dir).get("known")))
    counts = ", ".join(f"{k} {v}" for k, v in sorted(progress.counts.items())) or "nothing new"
    typer.echo(f"{len(rows)} rows in {out_dir / ROWS} ({progress.skipped} resumed; this run: "
               f"{counts})")
    if problems:
        typer.echo("xwsat: DISAGREEMENT between verdicts:", err=True)
        for problem in problems:
            typer.echo(f"  !! {problem}", err=True)
        raise typer.Exit(ExitCode.ERROR)


def check_bench_folder(folder: Path) -> None:
    """A sweep writes only into a new or empty folder, or one an earlier sweep made (to resume);
    never among other files."""
    if folder.exists() and not folder.is_dir():
        raise XwsatError(f"{folder}: exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (
            (folder / ROWS).is_file() or (folder / SWEEP).is_file()):
        raise XwsatError(f"{folder}: the folder holds other files and no earlier sweep; give a "
                         "new or empty folder for --out")
    if not _ours(folder):
        raise XwsatError(f"{folder}: its {SWEEP} or {ROWS} was not written by a sweep; give a "
                         "new or empty folder for --out")


def _check_same_limits(folder: Path, time_limit: float, memory_limit: int) -> None:
    """Resuming keeps the folder's limits: its report counts each instance once."""
    there = limits_of(read_rows(folder / ROWS))
    if there and there != {(float(time_limit), memory_limit)}:
        raise XwsatError(f"{folder}: its runs have the limits {describe_limits(there)}; a sweep "
                         "folder keeps one time and memory limit (its tables count each "
                         "instance once): give the same -t and --memory-limit to resume, or "
                         "another --out")


def _ours(folder: Path) -> bool:
    """Whether the sweep files in ``folder`` (if any) are xwsat's: a sweep.json holding a list
    of commands, and a rows.jsonl whose first row is a result row. Resuming appends to them."""
    rows = folder / ROWS
    if (folder / SWEEP).exists() and not isinstance(_sweep_data(folder).get("commands"), list):
        return False
    if rows.exists():
        try:
            with rows.open("rb") as handle:
                first = next((line for line in handle if line.strip()), b"")
            row = json.loads(first) if first else {"key": "", "status": ""}
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return False
        if not isinstance(row, dict) or "key" not in row or "status" not in row:
            return False
    return True


def _command(suites: list[str], backends: list[str], dictionary: list[str] | None,
             time_limit: float, memory_limit: int, seeds: list[int], jobs: int,
             cluster: str | None, out: Path, rerun: str | None = None, as_fill: bool = False,
             no_report: bool = False) -> str:
    parts = ["xwsat", "bench", "run", *suites, "--backends", ",".join(backends)]
    for d in dictionary or []:
        parts += ["--dict", d]
    parts += ["--time-limit", f"{time_limit:g}", "--memory-limit", str(memory_limit),
              "--seeds", ",".join(map(str, seeds)), "--jobs", str(jobs)]
    if cluster:
        parts += ["--cluster", cluster]
    if rerun:
        parts += ["--rerun", rerun]
    parts += ["--as-fill"] if as_fill else []
    parts += ["--no-report"] if no_report else []
    return shlex.join([*parts, "--out", str(out)])


def _record(out_dir: Path, command: str, keys: list[str],
            known: dict[str, str | None]) -> None:
    """Keep every command that wrote into this folder, the runs they planned (sweep.json),
    for the report: a sweep stopped before its end is said to be one; and each instance's
    known status as its suite says it now (``sweep.with_known``)."""
    path = out_dir / SWEEP
    data: dict[str, Any] = {"commands": []}
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            data = {"commands": []}
    if command not in data.setdefault("commands", []):
        data["commands"].append(command)
    planned = data.get("planned") if isinstance(data.get("planned"), list) else []
    data["planned"] = sorted({*(k for k in planned if isinstance(k, str)), *keys})
    kept = data.get("known") if isinstance(data.get("known"), dict) else {}
    data["known"] = {**kept, **known}
    write_atomic(path, json.dumps(data, indent=2) + "\n", replace=True)  # the folder's own


def _write_report(out_dir: Path, baseline: str | None, title: str | None = None,
                  force: bool = False) -> str:
    """Tables and plots from the folder's rows, headed by the commands that wrote them.

    A report file already there is replaced only when it is exactly what an earlier report
    wrote (its hash is in sweep.json) or with ``force``: a file the user made or edited under
    one of these names is never lost. Checked for every file before any is written."""
    sweep = _sweep_data(out_dir)
    rows = with_known(read_rows(out_dir / ROWS), sweep.get("known"))
    if not rows:
        lines = sum(1 for line in (out_dir / ROWS).read_bytes().splitlines() if line.strip()) \
            if (out_dir / ROWS).is_file() else 0
        raise XwsatError(f"{out_dir / ROWS}: " + (f"none of its {lines} lines is a result row"
                                                  if lines else "no rows yet"))
    if len(limits := limits_of(rows)) > 1:
        raise XwsatError(f"{out_dir / ROWS}: runs of several limits ({describe_limits(limits)}) "
                         "would count an instance once per limit; keep one per folder")
    commands = sweep.get("commands")
    command = ("\n".join(c for c in commands if isinstance(c, str)) if isinstance(commands, list)
               else "") or "(command not recorded)"
    written = sweep.get("written") if isinstance(sweep.get("written"), dict) else {}
    # the files of a report stopped while it was written (Ctrl-C): its own, whatever they hold
    cut_short = sweep.get("writing") if isinstance(sweep.get("writing"), list) else []
    # a report's --baseline and --title hold for the later ones (a resumed sweep's included)
    chosen = sweep.get("report") if isinstance(sweep.get("report"), dict) else {}
    baseline = baseline or (chosen.get("baseline") if isinstance(chosen.get("baseline"), str)
                            and chosen["baseline"] in {r["backend"] for r in rows} else None)
    title = title or (chosen.get("title") if isinstance(chosen.get("title"), str) else None)
    asked = {k: v for k, v in (("baseline", baseline), ("title", title)) if v}
    baseline = chosen_baseline(rows, baseline)
    names = report_files(rows, baseline)
    for name in names:
        path = out_dir / name
        if (path.exists() and not force and name not in cut_short
                and written.get(name) != _sha256(path)):
            raise XwsatError(f"{path}: exists and is not the file an earlier report wrote here "
                             "(changed, or not xwsat's); move it away or add --force")
    for stale in out_dir.glob("scatter_*.*"):  # plots of an earlier baseline, if untouched
        if stale.name not in names and (stale.name in cut_short
                                        or written.get(stale.name) == _sha256(stale)):
            stale.unlink()
            written.pop(stale.name, None)
    there = {name for name in names if (out_dir / name).is_file()}  # checked just above
    planned = sweep.get("planned") if isinstance(sweep.get("planned"), list) else []
    done = {row.get("key") for row in rows}
    missing = [key for key in planned if isinstance(key, str) and key not in done]
    ours = "commands" in sweep or "written" in sweep or not (out_dir / SWEEP).exists()
    if ours:  # said before the first file changes, so a report cut short can be written again
        sweep["writing"] = sorted({*cut_short, *names})
        write_atomic(out_dir / SWEEP, json.dumps(sweep, indent=2) + "\n",
                     replace=(out_dir / SWEEP).exists())
    files = build_report(rows, out_dir, baseline, command,
                         title or f"xwsat bench: {out_dir.name}", (missing, len(planned)))
    for name, text in files.items():
        write_atomic(out_dir / name, text, replace=name in there or name in cut_short)
    sweep.pop("writing", None)
    sweep["report"] = asked  # the choices given, not the defaults (auto may come later)
    sweep["written"] = {**written, **{name: _sha256(out_dir / name) for name in names
                                      if (out_dir / name).is_file()}}
    if ours:
        write_atomic(out_dir / SWEEP, json.dumps(sweep, indent=2) + "\n",
                     replace=True)  # else: not ours
    return files["report.md"]


def _sweep_data(out_dir: Path) -> dict[str, Any]:
    """The folder's sweep record; an unreadable or foreign sweep.json reads as empty (and is
    then left alone: a file xwsat cannot read is not one it wrote)."""
    try:
        data = json.loads((out_dir / SWEEP).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _readme_text(readme: Path) -> str:
    """The user's Markdown as it is, line ends included (a text-mode read turns CRLF into LF,
    and the rewrite would change every line)."""
    if not readme.exists():
        return ""
    try:
        return readme.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise XwsatError(f"{readme}: not UTF-8 text (bad byte at offset {exc.start}); "
                         "--readme edits UTF-8 Markdown only") from None
    except OSError as exc:
        raise XwsatError(f"{readme}: cannot read ({exc.strerror})") from None


def marker_name(folder: Path, readme: Path, readme_text: str) -> str:
    """The sweep's name in its README markers: the folder's path from the README's folder, so
    two sweeps both called ``out`` keep two sections. Earlier reports named it by the folder's
    name alone: such a section whose rows line points to this folder keeps that name (else a
    second, current section would be added beside the stale one)."""
    rel = Path(os.path.relpath(folder.resolve(), readme.resolve().parent)).as_posix()
    legacy = folder.resolve().name
    if rel == ".":  # the README inside the sweep's own folder
        return legacy
    old = section_of(readme_text, legacy) if rel != legacy else None
    return legacy if old is not None and f"`{rel}/{ROWS}`" in old else rel


def _check_readme(readme: Path, folder: Path) -> None:
    """``--readme`` names a Markdown file of the user's, never one of the sweep's own files
    (its rows, its record, the report files): checked before anything is written."""
    if readme.suffix.lower() not in (".md", ".markdown"):
        raise XwsatError(f"{readme}: --readme takes a Markdown file (.md)")
    if readme.is_dir():
        raise XwsatError(f"{readme}: --readme takes a Markdown file, not a folder")
    if not readme.parent.is_dir():
        raise XwsatError(f"{readme}: folder {readme.parent} does not exist")
    own = [folder / name for name in (ROWS, SWEEP, *TEXT_FILES)]
    if any(same_file(readme, path) for path in own):
        raise XwsatError(f"{readme}: is one of the sweep's own files; give another Markdown "
                         "file for --readme")
    check_writable(readme)  # a link, or a folder it cannot be written in: before the report
    if readme.exists() and not os.access(readme, os.W_OK):
        raise XwsatError(f"{readme}: cannot write it (read-only)")


@contextlib.contextmanager
def _not_while_a_sweep_writes(folder: Path) -> Iterator[None]:
    """The folder's lock, held while a report is written, where a sweep made one: a report
    written while the sweep adds its last rows would be stale, and the sweep's own report
    would then be refused. A folder no sweep ran in (a copy) has no lock, and gets none."""
    with contextlib.ExitStack() as stack:
        if (folder / LOCK).is_file():
            try:
                stack.enter_context(folder_lock(folder))
            except XwsatError:
                raise XwsatError(f"{folder}: a sweep is writing into this folder; it writes "
                                 "its report when it ends (or run this again then)") from None
        yield


@bench_app.command("report")
def report(
    folder: Annotated[Path, typer.Argument(help="A sweep's result folder (with rows.jsonl).")],
    baseline: Annotated[str | None, typer.Option(
        "--baseline", help="Back-end the ratios compare against (default auto).")] = None,
    title: Annotated[str | None, typer.Option("--title", help="Report title.")] = None,
    readme: Annotated[Path | None, typer.Option(
        "--readme", help="Also put the tables and plots in this Markdown file, between markers "
                         "(the rest of it is kept).")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace report files xwsat did not write here (or that were edited).")
    ] = False,
) -> None:
    """Markdown and CSV tables (solved, PAR-2, median, ratios), cactus and scatter plots."""
    try:
        if not (folder / ROWS).is_file():
            raise XwsatError(f"{folder}: no {ROWS} here (run xwsat bench first)")
        if readme is not None:  # all of it read and checked before any report file changes
            _check_readme(readme, folder)
            existed, old = readme.is_file(), _readme_text(readme)
            marker = marker_name(folder, readme, old)
            try:
                splice(old, marker, "")
            except XwsatError as exc:
                raise XwsatError(f"{readme}: {exc}") from None
        with _not_while_a_sweep_writes(folder):
            text = _write_report(folder, baseline, title, force)
            if readme is not None:
                spliced = splice(old, marker, readme_section(text, folder, readme))
                write_atomic(readme, spliced, replace=existed)
    except OSError as exc:  # the folder or --readme cannot be read or written
        raise XwsatError(f"{exc.filename or folder}: cannot write the report "
                         f"({exc.strerror or exc})") from None
    summary = text.split("## Solved per back-end", 1)[1].split("## Plots", 1)[0]
    typer.echo(summary.strip())
    typer.echo(f"\nwrote report.md, summary.csv, versus.csv, instances.csv and plots to {folder}")


def register(app: typer.Typer) -> None:
    app.add_typer(bench_app, name="bench")
