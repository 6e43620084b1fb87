"""Issue 3's comparison: native variants with and without the planner against the solvers.

Usage: python scripts/bench_planner.py [--time-limit S] [--backends a,b,...] [--out results/planner]
Each (grid, dictionary, back-end) run goes through ``fill_grid`` (build, propagate, an isolated
solver process with a hard limit, independent verification). Rows are appended to OUT.jsonl as they
finish and a re-run skips rows already there; OUT.md holds the per-grid times and the ratios of
each back-end's time to the default native filler's (``native:csp``) in the same run. An undecided
run counts as the time limit, so a ratio against it is a lower bound (shown as ">").
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
BACKENDS = "native:csp,native:fragments,native:static,sat,sat:plan,cpsat,cpsat:plan"
CASES = [
    *[(f"classic/15-{i:02d}.txt", "dictionaries/lex.txt") for i in range(1, 11)],
    *[(f"classic/19-{i:02d}.txt", "dictionaries/lex.txt") for i in range(1, 11)],
    *[(f"classic/15-{i:02d}.txt", "dictionaries/scowl55.txt") for i in range(1, 11)],
    ("small/amer15.txt", "dictionaries/wamerican.txt"),
    *[(f"american/{n}_empty.txt", "dictionaries/wamerican.txt")
      for n in ("20201005", "20201012", "20201107", "20201124", "20201128")],
    *[("small/open5.txt", f"small/words5_sub{k}.txt") for k in (2, 3, 4, 5)],
]


def run(backends: list[str], time_limit: float, out: Path, note: str = "") -> None:
    path = out.with_suffix(".jsonl")
    path.parent.mkdir(parents=True, exist_ok=True)
    done = set()
    if path.exists():
        for line in path.read_text().splitlines():
            r = json.loads(line)
            done.add((r["grid"], r["dict"], r["backend"], r["time_limit"]))
    cache: dict[str, object] = {}
    for grid_name, dict_name in CASES:
        for backend in backends:
            if (grid_name, dict_name, backend, time_limit) in done:
                continue
            if dict_name not in cache:
                cache[dict_name] = load_words(str(G / dict_name))
            grid = parse_grid(read_text_file(G / grid_name))
            t0 = time.perf_counter()
            options = FillOptions(backend=backend, time_limit=time_limit)
            result = fill_grid(grid, cache[dict_name], options)  # type: ignore[arg-type]
            stats = result.outcome.stats
            row = {
                "grid": grid_name, "dict": dict_name, "backend": backend,
                "status": result.outcome.status.value, "verified": result.verified,
                "seconds": round(time.perf_counter() - t0, 3),
                "nodes": stats.nodes, "conflicts": stats.conflicts,
                "evidence": result.outcome.evidence.method if result.outcome.evidence else "",
                "time_limit": time_limit, "version": __version__,
                "machine": f"{platform.machine()} {platform.python_version()}",
            }
            with path.open("a") as handle:
                handle.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)
    write_table(path, out.with_suffix(".md"), backends, note)


def _cell(row: dict | None) -> str:
    if row is None:
        return "–"
    mark = {"filled": "", "unfillable": " U", "unknown": " ?", "error": " E"}[row["status"]]
    return f"{row['seconds']:.2f}{mark}"


def write_table(path: Path, md: Path, backends: list[str], note: str = "") -> None:
    """Times per grid and back-end, then ratios of each back-end to native:csp."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    table: dict[tuple[str, str], dict[str, dict]] = {}
    for r in rows:
        table.setdefault((r["grid"], r["dict"]), {})[r["backend"]] = r
    base = "native:csp"
    limit = rows[0]["time_limit"] if rows else 0
    decided = {b: sum(1 for r in rows if r["backend"] == b and r["status"] in
                      ("filled", "unfillable")) for b in backends}
    lines = [
        "# Planner on and off, native against the solvers (issue 3)",
        "",
        f"Command: `python scripts/bench_planner.py --time-limit {limit:g}` (rows in"
        " `planner.jsonl`; `--table-only` rewrites this file).",
        "",
        *([note, ""] if note else []),
        "Decided (filled or proven unfillable) per back-end, of "
        f"{len(table)} instances: "
        + ", ".join(f"{b} {decided[b]}" for b in backends) + ".",
        "",
        "Times in seconds end to end (build, propagation, solver in its own process,",
        "verification); U = proven unfillable, ? = undecided at the limit, E = error; no mark =",
        "filled and verified.",
        "",
        "| grid | dict | " + " | ".join(backends) + " |",
        "|---|---|" + "---|" * len(backends),
    ]
    for (grid, dictionary), by_backend in table.items():
        cells = [_cell(by_backend.get(b)) for b in backends]
        lines.append(f"| {grid} | {Path(dictionary).name} | " + " | ".join(cells) + " |")
    lines += ["", f"Ratio: back-end time / {base} time (> 1 means {base} is faster; an undecided",
              "run counts as the limit, so such ratios are bounds: '>' or '<').", "",
              "| grid | dict | " + " | ".join(b for b in backends if b != base) + " |",
              "|---|---|" + "---|" * (len(backends) - 1)]
    for (grid, dictionary), by_backend in table.items():
        ref = by_backend.get(base)
        cells = []
        for b in backends:
            if b == base:
                continue
            other = by_backend.get(b)
            if ref is None or other is None:
                cells.append("–")
                continue
            ratio = other["seconds"] / max(ref["seconds"], 1e-3)
            ref_open, other_open = ref["status"] == "unknown", other["status"] == "unknown"
            if ref_open and other_open:
                cells.append("both ?")
            elif other_open:
                cells.append(f">{ratio:.2g}")
            elif ref_open:
                cells.append(f"<{ratio:.2g}")
            else:
                cells.append(f"{ratio:.2g}")
        lines.append(f"| {grid} | {Path(dictionary).name} | " + " | ".join(cells) + " |")
    md.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--backends", default=BACKENDS)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "planner")
    parser.add_argument("--table-only", action="store_true", help="rewrite OUT.md from OUT.jsonl")
    parser.add_argument("--note", default="", help="a line on the conditions, put in OUT.md")
    args = parser.parse_args()
    if args.table_only:
        write_table(args.out.with_suffix(".jsonl"), args.out.with_suffix(".md"),
                    args.backends.split(","), args.note)
    else:
        run(args.backends.split(","), args.time_limit, args.out, args.note)
