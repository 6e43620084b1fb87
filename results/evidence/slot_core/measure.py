"""Certificates over the slots a refutation needs, against the whole grid's formula, end to end
from the command line: ``xwsat prove --certificate`` (shrink, encode, prove, dratify's check)
and then ``xwsat check-proof`` (the independent re-check: rebuild the formula from the grid and
words, compare, check again), one process each, the two formulas one after the other per grid
so that load falls on both alike. Results: ../README.md, "Certificates over the slots a
refutation needs".

    python results/evidence/slot_core/measure.py --dict D [--time-limit S] GRID... > rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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


def measure(grid: str, dictionary: str, limit: float, whole: bool, xwsat: str) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="xwsat-cert-")) / "cert"
    try:
        command = [xwsat, "prove", grid, "--dict", dictionary, "--certificate", str(folder),
                   "-t", str(limit), "--json", *(["--whole-formula"] if whole else [])]
        wall, code, out = timed(command, limit + 60)
        row = {"grid": grid, "dictionary": dictionary, "formula": "whole" if whole else "core",
               "certify_wall_s": round(wall, 2), "exit": code, "load": os.getloadavg()[0]}
        try:
            manifest = json.loads(out)["certificate"]["manifest"]
        except (ValueError, KeyError, TypeError):
            return {**row, "checked": None}
        row.update(checked=manifest.get("verified"), clauses=manifest["encoding"]["clauses"],
                   slots=len(manifest.get("formula", {}).get("slots", []))
                   or None, lemmas=manifest.get("proof", {}).get("lines"),
                   times={k: round(v, 2) for k, v in manifest.get("times", {}).items()},
                   check={k: manifest.get("check", {}).get(k) for k in ("parse_s", "check_s")})
        wall, code, out = timed([xwsat, "check-proof", str(folder), "--grid", grid, "--dict",
                                 dictionary, "-t", str(limit)], limit + 60)
        row.update(recheck_wall_s=round(wall, 2), recheck_verified=code == 1)
        return row
    finally:
        shutil.rmtree(folder.parent, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grids", nargs="+")
    parser.add_argument("--dict", required=True)
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--xwsat", default=shutil.which("xwsat") or "xwsat")
    args = parser.parse_args()
    for grid in args.grids:
        for whole in (False, True):
            row = measure(grid, args.dict, args.time_limit, whole, args.xwsat)
            print(json.dumps(row), flush=True)
            print(f"{grid} {row['formula']}: certify {row['certify_wall_s']} s, checked "
                  f"{row.get('checked')}, re-check {row.get('recheck_wall_s')} s", file=sys.stderr)


if __name__ == "__main__":
    main()
