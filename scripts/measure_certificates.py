"""Certificates over the slots a refutation needs, against the whole grid's formula, end to end
from the command line: ``xwsat prove --certificate`` (shrink, encode, prove, dratify's check)
and then ``xwsat check-proof`` (the independent re-check: rebuild the formula from the grid and
words, compare, check again), one process each, the two formulas one after the other per grid
so that load falls on both alike. Results: results/evidence/README.md.

    python scripts/measure_certificates.py --dict D [--time-limit S] [--recheck-whole]
        [--formulas core,whole] [--checker auto|trail|dratify] GRID... > rows.jsonl
    python scripts/measure_certificates.py --table rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(command: list[str], limit: float) -> tuple[float, int, str]:
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit)
        return time.perf_counter() - start, done.returncode, done.stdout
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, -1, ""


def measure(grid: str, dictionary: str, limit: float, whole: bool, xwsat: str,
            recheck: bool, checker: str | None = None) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="xwsat-cert-")) / "cert"
    chosen = ["--proof-checker", checker] if checker else []
    try:
        command = [xwsat, "prove", grid, "--dict", dictionary, "--certificate", str(folder),
                   "-t", str(limit), "--json", *(["--whole-formula"] if whole else []), *chosen]
        wall, code, out = timed(command, limit + 60)
        row = {"grid": grid, "dictionary": dictionary, "formula": "whole" if whole else "core",
               "checker": checker or "default",
               "certify_wall_s": round(wall, 2), "exit": code, "load": os.getloadavg()[0]}
        try:
            manifest = json.loads(out)["certificate"]["manifest"]
        except (ValueError, KeyError, TypeError):
            return {**row, "checked": None}
        if not recheck:
            return {**row, **_facts(manifest)}
        row.update(_facts(manifest))
        wall, code, out = timed([xwsat, "check-proof", str(folder), "--grid", grid, "--dict",
                                 dictionary, "-t", str(limit),
                                 *(["--engine", checker] if checker else [])], limit + 60)
        row.update(recheck_wall_s=round(wall, 2), recheck_verified=code == 1)
        return row
    finally:
        shutil.rmtree(folder.parent, ignore_errors=True)


def _facts(manifest: dict) -> dict:
    return {"checked": manifest.get("verified"), "clauses": manifest["encoding"]["clauses"],
            "slots": len(manifest.get("formula", {}).get("slots", [])) or None,
            "lemmas": manifest.get("proof", {}).get("lines"),
            "times": {k: round(v, 2) for k, v in manifest.get("times", {}).items()},
            "check": {k: manifest.get("check", {}).get(k) for k in ("parse_s", "check_s")}}


def table(path: Path) -> str:
    """The markdown table of a rows file: per grid, the core and the whole formula side by
    side, then the medians."""
    import statistics

    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    by = {}
    for row in rows:
        by.setdefault(row["grid"], {})[row["formula"]] = row
    lines = ["| grid | slots kept | clauses core / whole | lemmas core / whole | certify core "
             "(of it: check) | re-check core | certify whole (of it: check) | ratio |",
             "|---|---|---|---|---|---|---|---|"]
    ratios, core_walls, whole_walls, core_totals = [], [], [], []
    for grid, pair in by.items():
        core, whole = pair.get("core", {}), pair.get("whole", {})
        cw, ww = core.get("certify_wall_s"), whole.get("certify_wall_s")
        ok_c, ok_w = core.get("checked") is True, whole.get("checked") is True
        if ok_c:
            core_walls.append(cw)
            core_totals.append(cw + (core.get("recheck_wall_s") or 0))
        whole_walls.append(ww if ok_w else float("inf"))
        if ok_c and ok_w:
            ratios.append(cw / ww)
        lines.append(
            f"| {Path(grid).stem} | {core.get('slots') or 'all'} | "
            f"{(core.get('clauses') or 0) / 1e6:.2f}M / {(whole.get('clauses') or 0) / 1e6:.2f}M | "
            f"{core.get('lemmas')} / {whole.get('lemmas')} | "
            f"{cw if ok_c else 'not checked'} s ({core.get('times', {}).get('check_wall_s')}) | "
            f"{core.get('recheck_wall_s')} s | "
            f"{ww if ok_w else 'not checked'} s ({whole.get('times', {}).get('check_wall_s')}) | "
            f"{cw / ww if ok_c and ok_w else float('nan'):.2f} |")
    lines.append("")
    lines.append(f"Checked: core {len(core_walls)} of {len(by)}, whole "
                 f"{sum(w != float('inf') for w in whole_walls)} of {len(by)}. Median certify "
                 f"(shrink + encode + prove + dratify's check): core "
                 f"{statistics.median(core_walls):.1f} s, whole "
                 f"{statistics.median(whole_walls):.1f} s; longest core {max(core_walls):.1f} s. "
                 f"Median certify + re-check (core): {statistics.median(core_totals):.1f} s. "
                 + (f"Median ratio core / whole: {statistics.median(ratios):.2f}." if ratios
                    else ""))
    return "\n".join(lines)


def checkers_table(rows: list[dict]) -> str:
    """Per grid, certify and re-check with each checker side by side (same run)."""
    by: dict[str, dict[str, dict]] = {}
    several = len({row["dictionary"] for row in rows}) > 1  # then name the list too
    for row in rows:
        name = Path(row["grid"]).stem + (f" x {Path(row['dictionary']).stem}" if several else "")
        by.setdefault(name, {})[row["checker"]] = row
    lines = ["| grid | lemmas | certify trail (check) | re-check trail | certify dratify (check) "
             "| re-check dratify | certify ratio |", "|---|---|---|---|---|---|---|"]
    walls: dict[str, list[float]] = {"trail": [], "dratify": []}
    rechecks: dict[str, list[float]] = {"trail": [], "dratify": []}
    ratios = []
    for grid, pair in by.items():
        cells = []
        for name in ("trail", "dratify"):
            row = pair.get(name, {})
            ok = row.get("checked") is True and row.get("recheck_verified") is True
            if ok:
                walls[name].append(row["certify_wall_s"])
                rechecks[name].append(row["recheck_wall_s"])
            check = row.get("times", {}).get("check_wall_s")
            cells += [f"{row.get('certify_wall_s')} s ({check} s)" if ok else "not checked",
                      f"{row.get('recheck_wall_s')} s" if ok else "-"]
        trail, other = pair.get("trail", {}), pair.get("dratify", {})
        if trail.get("checked") and other.get("checked"):
            ratios.append(trail["certify_wall_s"] / other["certify_wall_s"])
        lemmas = trail.get("lemmas") or other.get("lemmas")
        lines.append(f"| {grid} | {lemmas:,} | " + " | ".join(cells)
                     + f" | {ratios[-1] if ratios else float('nan'):.2f} |")
    lines.append("")
    for name in ("trail", "dratify"):
        if walls[name]:
            lines.append(f"- {name}: {len(walls[name])} of {len(by)} certified and re-checked; "
                         f"certify median {statistics.median(walls[name]):.1f} s, longest "
                         f"{max(walls[name]):.1f} s; re-check median "
                         f"{statistics.median(rechecks[name]):.1f} s, longest "
                         f"{max(rechecks[name]):.1f} s")
    if ratios:
        lines.append(f"- certify trail / dratify: median {statistics.median(ratios):.2f} "
                     f"(range {min(ratios):.2f}-{max(ratios):.2f})")
    return "\n".join(lines)



def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--table":
        rows = [json.loads(line) for line in Path(sys.argv[2]).read_text().splitlines()
                if line.strip()]
        several_checkers = len({row.get("checker") for row in rows}) > 1
        print(checkers_table(rows) if several_checkers else table(Path(sys.argv[2])))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grids", nargs="+")
    parser.add_argument("--dict", required=True)
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--xwsat", default=shutil.which("xwsat") or "xwsat")
    parser.add_argument("--formulas", default="core,whole",
                        help="which to measure: core, whole or both (default)")
    parser.add_argument("--checker", default=None,
                        help="--proof-checker for prove and --engine for check-proof (several, "
                        "comma-separated: each grid is certified with each in turn)")
    parser.add_argument("--recheck-whole", action="store_true",
                        help="also re-check the whole-grid certificates (as long as their check)")
    args = parser.parse_args()
    checkers = args.checker.split(",") if args.checker else [None]
    for grid in args.grids:
        for whole in [name == "whole" for name in args.formulas.split(",")]:
            for checker in checkers:
                row = measure(grid, args.dict, args.time_limit, whole, args.xwsat,
                              recheck=not whole or args.recheck_whole, checker=checker)
                print(json.dumps(row), flush=True)
                print(f"{grid} {row['formula']} {row['checker']}: certify "
                      f"{row['certify_wall_s']} s, checked {row.get('checked')}, re-check "
                      f"{row.get('recheck_wall_s')} s", file=sys.stderr)


if __name__ == "__main__":
    main()
