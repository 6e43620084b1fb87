"""Hard grids: xwsat against ACE in the same run, one after the other (results/hard.md, .jsonl).

Usage: python scripts/bench_hard.py [--suite grids/hard] [--dict PATH] [--time-limit 30]
       [--backends auto] [--no-ace] [--grids a,b] [--out results/hard] [--label TEXT]
       [--markdown results/hard.md] [--files a.txt,b.txt (instead of a suite)]

For each grid of the suite (its ``suite.json``), sequentially so that nothing competes:
* each xwsat back-end runs as the user runs it, ``xwsat prove GRID --dict D -t LIMIT --json`` in
  a fresh process; the time is that process's wall clock (dictionary load included);
* ACE (pycsp3's jar) solves the XCSP3 export (``xwsat.encode.xcsp3``) of the same arc-consistent
  problem; its time is the ``java`` process's wall clock (JVM start and parsing included, the
  export not), killed at the limit. A fill ACE reports is read back and checked by
  ``xwsat.verify.check_fill``.
Rows go to ``OUT.jsonl`` (appended, with the command); the Markdown table is printed and, with
``--markdown FILE``, written into FILE between ``<!-- bench -->`` markers.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from xwsat.backends.ace import AceBackend, run_ace
from xwsat.encode.xcsp3 import cells_solution, cells_xcsp3, read_solution, to_xcsp3
from xwsat.grid import parse_grid
from xwsat.outcome import Status
from xwsat.problem import build_problem, fill_letters
from xwsat.propagate import propagate
from xwsat.verify import check_fill
from xwsat.words import load_words, read_text_file

ROOT = Path(__file__).resolve().parent.parent


def run_xwsat(grid: Path, dictionary: str, backend: str, limit: float) -> dict:
    """``xwsat prove`` in a fresh process; its verdict, evidence and wall-clock time."""
    cmd = [sys.executable, "-c", "from xwsat.cli import main; main()", "prove", str(grid),
           "--dict", dictionary, "-t", str(limit), "--backend", backend, "--json"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 60)
    seconds = time.perf_counter() - start
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"status": "error", "seconds": seconds, "message": proc.stderr.strip()[-300:]}
    status = data["status"] if data["status"] != "filled" or data["verified"] else "error"
    evidence = data.get("evidence") or {}
    return {"status": status, "seconds": round(seconds, 3), "by": data["backend"],
            "search_s": data["times"].get("solve_s"), "message": data.get("message", ""),
            "evidence": evidence.get("method"), "detail": evidence.get("detail")}


def run_ace_on(grid: Path, words, limit: float, model: str = "export") -> dict:
    """ACE on an XCSP3 model of the arc-consistent problem; a fill is verified here."""
    built = build_problem(parse_grid(read_text_file(grid), str(grid)), words)
    propagated = propagate(built.problem)
    if propagated.wiped is not None:
        return {"status": "unfillable", "seconds": 0.0, "by": "arc consistency (no export)"}
    problem = propagated.problem
    names = list(problem.slot_names)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / (grid.stem + ".xml")
        text = (cells_xcsp3(problem) if model == "cells"
                else to_xcsp3(problem, names, note=f"{grid.name} {words.source}"))
        path.write_text(text)
        result = run_ace(path, limit)
    row = {"status": result.status.value, "seconds": round(result.seconds, 3),
           "by": f"ace ({model} model)"}
    if result.status is Status.FILLED:
        fill = (cells_solution(problem, result.values) if model == "cells"
                else read_solution(problem, names, result.values))
        filled = built.grid.with_letters(fill_letters(built, fill))
        problems = check_fill(built.grid.rows, filled.rows, frozenset(words.words), False, 2)
        row["verified"] = not problems
        if problems:
            row["status"] = "error"
            row["message"] = "; ".join(problems[:2])
    return row


def table(rows: list[dict], columns: list[str]) -> list[str]:
    out = ["| grid | blocks | " + " | ".join(columns) + " |",
           "|---|---|" + "---|" * len(columns)]
    by_grid: dict[str, dict[str, dict]] = {}
    blocks: dict[str, int] = {}
    for r in rows:
        by_grid.setdefault(r["grid"], {})[r["solver"]] = r
        blocks[r["grid"]] = r.get("blocks", 0)
    for grid, per in by_grid.items():
        cells = []
        for col in columns:
            r = per.get(col)
            cells.append("-" if r is None else f"{r['status']} {r['seconds']:.1f} s")
        out.append(f"| {grid} | {blocks[grid]} | " + " | ".join(cells) + " |")
    return out


def summary(rows: list[dict], columns: list[str], limit: float) -> list[str]:
    out = []
    decided = {c: {r["grid"]: r["seconds"] for r in rows if r["solver"] == c
                   and r["status"] in ("filled", "unfillable") and r["seconds"] <= limit}
               for c in columns}
    n = len({r["grid"] for r in rows})
    for c in columns:
        times = list(decided[c].values())
        med = f", median {statistics.median(times):.1f} s" if times else ""
        out.append(f"- `{c}`: decided {len(times)}/{n} within {limit:g} s{med}")
    for c in columns:
        if c.startswith("ace"):
            continue
        for ace in (a for a in columns if a.startswith("ace")):
            both = sorted(set(decided[c]) & set(decided[ace]))
            if both:
                mine = statistics.median(decided[c][g] for g in both)
                theirs = statistics.median(decided[ace][g] for g in both)
                out.append(f"- both `{c}` and `{ace}` decided {len(both)}: median {mine:.1f} s "
                           f"vs {theirs:.1f} s (ratio {mine / theirs:.2f})")
            wins = [g for g in decided[ace] if g not in decided[c]
                    or decided[c][g] > decided[ace][g]]
            if wins:
                out.append(f"- `{ace}` ahead of `{c}` on: {', '.join(sorted(wins))}")
    disagree = []
    by_grid: dict[str, set[str]] = {}
    for r in rows:
        if r["status"] in ("filled", "unfillable"):
            by_grid.setdefault(r["grid"], set()).add(r["status"])
    disagree = [g for g, s in by_grid.items() if len(s) > 1]
    out.append(f"- verdicts that disagree: {', '.join(disagree) if disagree else 'none'}")
    return out


def write_between_markers(path: Path, text: str, name: str = "bench") -> None:
    """Replace what lies between ``<!-- NAME -->`` and ``<!-- /NAME -->`` (append if none)."""
    start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if start in old and end in old:
        head, rest = old.split(start, 1)
        tail = rest.split(end, 1)[1]
        new = f"{head}{start}\n{text}\n{end}{tail}"
    else:
        new = f"{old}\n{start}\n{text}\n{end}\n"
    path.write_text(new, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--suite", default="grids/hard")
    parser.add_argument("--dict", default="grids/dictionaries/wamerican-large.txt.gz")
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--backends", default="auto")
    parser.add_argument("--ace", default="ace-cells,ace",
                        help="ACE columns: ace (the project export), ace-cells (letters model)")
    parser.add_argument("--grids", default="")
    parser.add_argument("--marker", default="bench", help="the markers' name in --markdown")
    parser.add_argument("--files", default="", help="grid files instead of a suite (a,b,...)")
    parser.add_argument("--out", default="results/hard")
    parser.add_argument("--label", default="")
    parser.add_argument("--markdown", default="",
                        help="a Markdown file whose text between the bench markers is replaced")
    args = parser.parse_args()
    command = "python scripts/bench_hard.py " + shlex.join(sys.argv[1:])
    suite = ROOT / args.suite
    if args.files:
        suite = ROOT
        entries = [{"file": f} for f in args.files.split(",")]
    else:
        entries = json.loads((suite / "suite.json").read_text())["grids"]
    if args.grids:
        wanted = set(args.grids.split(","))
        entries = [e for e in entries if e["file"] in wanted or Path(e["file"]).stem in wanted]
    dictionary = str(ROOT / args.dict)
    aces = [a for a in args.ace.split(",") if a] if AceBackend.available() else []
    words = load_words(dictionary) if aces else None
    backends = [b for b in args.backends.split(",") if b]
    columns = backends + aces
    rows: list[dict] = []
    out = ROOT / args.out
    with open(out.with_suffix(".jsonl"), "a", encoding="utf-8") as jsonl:
        for entry in entries:
            grid = suite / entry["file"]
            for solver in columns:
                if solver.startswith("ace"):
                    model = "cells" if solver == "ace-cells" else "export"
                    row = run_ace_on(grid, words, args.time_limit, model)
                else:
                    row = run_xwsat(grid, dictionary, solver, args.time_limit)
                name = entry["file"] if args.files else Path(entry["file"]).stem
                row.update(grid=name, blocks=entry.get("blocks"),
                           load=round(os.getloadavg()[0], 2),
                           solver=solver, limit=args.time_limit, command=command,
                           label=args.label)
                rows.append(row)
                jsonl.write(json.dumps(row) + "\n")
                jsonl.flush()
                print(f"{row['grid']} {solver}: {row['status']} {row['seconds']:.1f} s "
                      f"{row.get('by', '')} {row.get('evidence') or ''}", flush=True)
    lines = [f"Command: `{command}`", "", *table(rows, columns), "",
             *summary(rows, columns, args.time_limit), ""]
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        write_between_markers(ROOT / args.markdown, text, args.marker)


if __name__ == "__main__":
    main()
