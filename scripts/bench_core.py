"""Measure the core targets (issue 2): fill and prove times per back-end, split into phases.

Usage: python scripts/bench_core.py [--time-limit S] [--backends a,b,...] [--out results/core]
Writes OUT.jsonl (one row per run) and OUT.md (the table). Each run goes through the same
library path as ``xwsat fill`` (build, propagate, isolated solver, independent verification).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from xwsat import __version__
from xwsat.grid import parse_grid
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.words import load_words, read_text_file

ROOT = Path(__file__).resolve().parent.parent
G = ROOT / "grids"
CASES = [
    ("small/amer15.txt", "dictionaries/wamerican.txt", "filled"),
    ("small/amer15.txt", "en", "filled"),
    *[(f"american/{n}_empty.txt", "dictionaries/wamerican.txt", "not known")
      for n in ("20201005", "20201012", "20201107", "20201124", "20201128")],
    *[(f"american/{n}_empty.txt", "en", "filled")
      for n in ("20201005", "20201012", "20201107", "20201124", "20201128")],
    ("classic/15-02.txt", "dictionaries/lex.txt", "filled"),
    ("small/open5.txt", "small/words5_sub2.txt", "filled"),
    ("small/open5.txt", "small/words5_sub3.txt", "unfillable"),
    ("small/open5.txt", "small/words5_sub4.txt", "unfillable"),
    ("small/open5.txt", "small/words5_sub5.txt", "unfillable"),
    ("classic/19-05.txt", "dictionaries/lex.txt", "unfillable"),
]


def run(backends: list[str], time_limit: float, out: Path) -> None:
    rows = []
    for grid_name, dict_name, expected in CASES:
        for backend in backends:
            t0 = time.perf_counter()
            spec = dict_name if dict_name == "en" else str(G / dict_name)
            words = load_words(spec)
            load_s = time.perf_counter() - t0
            grid = parse_grid(read_text_file(G / grid_name))
            result = fill_grid(grid, words, FillOptions(backend=backend, time_limit=time_limit))
            stats = result.outcome.stats
            row = {
                "grid": grid_name, "dict": dict_name, "backend": backend,
                "winner": result.outcome.method, "status": result.outcome.status.value,
                "expected": expected, "verified": result.verified,
                "dict_load_s": round(load_s, 3),
                "build_s": round(result.times["build_s"], 3),
                "propagate_s": round(result.times["propagate_s"], 3),
                "solve_total_s": round(result.times.get("solve_s", 0.0), 3),
                "encode_s": round(stats.build_s, 3), "solver_load_s": round(stats.load_s, 3),
                "search_s": round(stats.solve_s, 3),
                "end_to_end_s": round(time.perf_counter() - t0, 3),
                "time_limit": time_limit, "version": __version__,
                "machine": f"{platform.machine()} {platform.python_version()}",
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    write_table(rows, out)


def write_table(rows: list[dict], out: Path) -> None:
    """The Markdown table of a run; expectations come from CASES (the literature), not the run."""
    expected = {(g, d): e for g, d, e in CASES}
    for r in rows:
        r["expected"] = expected.get((r["grid"], r["dict"]), r["expected"])
    header = ("| grid | dict | backend | status (expected) | end to end s | dict load | build+AC |"
              " encode | solver load | search |\n|---|---|---|---|---|---|---|---|---|---|\n")
    lines = [
        f"| {r['grid']} | {r['dict']} | {r['backend']}"
        f"{'' if r['winner'] == r['backend'] else ' (' + r['winner'] + ')'} | "
        f"{r['status']} ({r['expected']}) | {r['end_to_end_s']} | {r['dict_load_s']} | "
        f"{round(r['build_s'] + r['propagate_s'], 3)} | {r['encode_s']} | {r['solver_load_s']} | "
        f"{r['search_s']} |"
        for r in rows
    ]
    out.with_suffix(".md").write_text(header + "\n".join(lines) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--backends", default="auto,native,sat,cpsat")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "core")
    parser.add_argument("--table-only", action="store_true", help="rewrite OUT.md from OUT.jsonl")
    args = parser.parse_args()
    if args.table_only:
        lines = args.out.with_suffix(".jsonl").read_text().splitlines()
        write_table([json.loads(line) for line in lines], args.out)
    else:
        run(args.backends.split(","), args.time_limit, args.out)
