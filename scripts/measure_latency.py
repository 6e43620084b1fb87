"""End-to-end wall and CPU time of whole processes: xwsat's CLI against Qxw's batch mode, one
run at a time, round robin over instances and methods (so load hits all of them alike).

    python scripts/measure_latency.py [--reps 5] [--time-limit 30] --out FOLDER
                                      [--ablate-symmetry] [--baseline OTHER/.venv/bin/xwsat]
    python scripts/measure_latency.py --table results/latency/rows.jsonl

Qxw runs on a deck and word list prepared beforehand (not timed) from the problem xwsat builds,
so it reads exactly xwsat's words; it is timed as the bare ``qxw -b`` process, at its best value
order (``.RANDOM 1``). Rows go to ``rows.jsonl``; the table (median wall [median CPU], range) is
printed as Markdown. Every verdict is compared with the suite's known one.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from xwsat.backends.qxw import deck_text, qxw_program, word_text
from xwsat.bench.suites import load_suite
from xwsat.grid import parse_grid
from xwsat.problem import build_problem
from xwsat.words import load_words

ROOT = Path(__file__).resolve().parents[1]
XWSAT_METHODS = {"xwsat auto": [], "xwsat mac": ["-b", "mac"], "xwsat native": ["-b", "native"]}
# the same back-ends with the grid's symmetry not used (XWSAT_SYMMETRY=0), for the ablation
NO_SYMMETRY = {"xwsat auto, no symmetry": [], "xwsat mac, no symmetry": ["-b", "mac"]}
BASELINE = {"baseline auto": [], "baseline mac": ["-b", "mac"]}  # --baseline's install


def timed(command: list[str], limit: float,
          env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Wall and CPU seconds (user + sys of the process and its children) and the exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        code = subprocess.run(command, capture_output=True, timeout=limit,
                              env=env).returncode
    except subprocess.TimeoutExpired:
        code = -1
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, code


def qxw_deck(grid: Path, dictionary: str, folder: Path) -> list[str]:
    """Qxw's command on the deck and list written to ``folder`` (xwsat's defaults: slots of 2+
    cells, no repeats)."""
    problem = build_problem(parse_grid(grid.read_text(encoding="utf-8"), str(grid)),
                            load_words(dictionary)).problem
    (folder / "deck.qxd").write_text(deck_text(problem), encoding="ascii")
    (folder / "words.txt").write_text(word_text(problem), encoding="ascii")
    command = [qxw_program(), "-b", "-a", "AZ", "-F", "1", "-d", str(folder / "words.txt"),
               str(folder / "deck.qxd")]
    return command


def verdict(method: str, code: int) -> str:
    if code == -1:
        return "timeout"
    if method == "qxw":
        return {0: "filled", 4: "unfillable"}.get(code, "error")
    return {0: "filled", 1: "unfillable", 3: "timeout"}.get(code, "error")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--out", type=Path,
                        help="a folder for rows.jsonl (an existing rows.jsonl is never replaced)")
    parser.add_argument("--table", type=Path, help="print the table of these rows, run nothing")
    parser.add_argument("--ablate-symmetry", action="store_true",
                        help="also run auto and mac with XWSAT_SYMMETRY=0")
    parser.add_argument("--baseline", help="another install's xwsat, run alike in the same rounds")
    args = parser.parse_args()
    if args.table:
        with open(args.table, encoding="utf-8") as rows:
            print_table([json.loads(line) for line in rows if line.strip()])
        return
    if args.out is None:
        parser.error("give --out FOLDER (or --table ROWS)")
    if (args.out / "rows.jsonl").exists():
        parser.error(f"{args.out / 'rows.jsonl'} exists: give another --out")
    xwsat = str(Path(sys.executable).with_name("xwsat"))
    suite = load_suite(str(ROOT / "grids" / "latency"))
    work = Path(tempfile.mkdtemp(prefix="xwsat-latency-"))
    jobs = []
    for n, inst in enumerate(suite.instances):
        folder = work / str(n)
        folder.mkdir()
        qxw = qxw_deck(inst.grid_path, inst.dictionary_path, folder)
        jobs.append((inst, "qxw", qxw, None))
        variants = [(xwsat, XWSAT_METHODS, None)]
        if args.ablate_symmetry:
            variants.append((xwsat, NO_SYMMETRY, {**os.environ, "XWSAT_SYMMETRY": "0"}))
        if args.baseline:
            variants.append((args.baseline, BASELINE, None))
        for program, methods, env in variants:
            for method, extra in methods.items():
                jobs.append((inst, method, [program, "fill", str(inst.grid_path), "--dict",
                                            inst.dictionary_path, "-t", str(args.time_limit),
                                            *extra], env))
    for program in [xwsat] + ([args.baseline] if args.baseline else []):  # warm, compile
        timed([program, "fill", str(ROOT / "grids/small/amer15.txt"), "-t", "60"], 120)
    rows = []
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "rows.jsonl", "x", encoding="utf-8") as out:
        for rep in range(args.reps):
            for inst, method, command, env in jobs:
                wall, cpu, code = timed(command, args.time_limit + 5, env)
                row = {"instance": f"{inst.grid}@{inst.dictionary}", "method": method,
                       "rep": rep, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
                       "status": verdict(method, code), "known": inst.known,
                       "load": round(os.getloadavg()[0], 2)}
                rows.append(row)
                out.write(json.dumps(row) + "\n")
                out.flush()
    print_table(rows)


def print_table(rows: list[dict]) -> None:
    methods = list(dict.fromkeys(r["method"] for r in rows))
    instances = list(dict.fromkeys(r["instance"] for r in rows))
    print("| instance | " + " | ".join(methods) + " |")
    print("|---|" + "---|" * len(methods))
    for inst in instances:
        cells = []
        for method in methods:
            mine = [r for r in rows if r["instance"] == inst and r["method"] == method]
            statuses = {r["status"] for r in mine}
            walls = [r["wall_s"] for r in mine]
            cpu = statistics.median(r["cpu_s"] for r in mine)
            wrong = any(r["status"] not in ("timeout", r["known"]) for r in mine)
            cells.append(f"{'/'.join(sorted(statuses))}{' WRONG' if wrong else ''} "
                         f"{statistics.median(walls):.2f} [{cpu:.2f}] "
                         f"({min(walls):.2f}–{max(walls):.2f})")
        print(f"| {inst} | " + " | ".join(cells) + " |")
    loads = [r["load"] for r in rows]
    print(f"\nmedian wall s [median CPU s] (range of wall), {len(rows)} runs; "
          f"load average {min(loads)}–{max(loads)}")


if __name__ == "__main__":
    main()
