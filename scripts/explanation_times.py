"""How soon ``xwsat prove --explain`` shows a first core and a minimal one, on unfillable grids.

Runs ``XWSAT prove GRID --dict DICT --explain --json -t LIMIT`` (with ``--certificate`` into a
scratch folder when asked) once per instance, one at a time, and writes one JSON row per run:
the verdict, the command's wall clock, and from the record's explanation the first core (its
size, when it came on the explanation's own clock, how it is known) and the last (size, when,
whether minimal, why it stopped). With ``--certificate`` also the explanation's own
certificate (its slots, whether checked) and a re-check of it against the grid and list
(``check-proof DIR/explanation --grid GRID --dict DICT``: its exit code, wall clock and proof
steps). ``--xwsat`` runs another build (an older checkout) the same way; its record may hold
only a final core, or none.

    python scripts/explanation_times.py classic/15-04.txt@lex.txt ... --out rows.jsonl
(an instance is GRID@DICT: relative to grids/ and grids/dictionaries/, paths, or en/ru/es)
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EMBEDDED = ("en", "ru", "es")


def instance_paths(text: str) -> tuple[Path, Path]:
    grid, _, words = text.partition("@")
    grid_path = Path(grid) if Path(grid).exists() else ROOT / "grids" / grid
    if words in EMBEDDED or Path(words).exists():
        return grid_path, Path(words)
    return grid_path, ROOT / "grids" / "dictionaries" / words


def measure(xwsat: list[str], instance: str, limit: float, certificate: bool,
            seed: int | None = None) -> dict:
    grid, words = instance_paths(instance)
    with tempfile.TemporaryDirectory() as scratch:
        argv = [*xwsat, "prove", str(grid), "--dict", str(words), "--explain", "--json",
                "-t", str(limit)]
        if certificate:
            argv += ["--certificate", str(Path(scratch) / "cert")]
        if seed is not None:
            argv += ["--seed", str(seed)]
        started = time.monotonic()
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
        wall = time.monotonic() - started
        try:
            record = json.loads(proc.stdout)
        except ValueError:
            record = {}
        own = (record.get("explanation") or {}).get("certificate") or {}
        recheck = recheck_own(xwsat, own, grid, words) if own.get("checked") else {}
    row = {"instance": instance, "certificate": certificate, "seed": seed,
           "exit": proc.returncode,
           "status": record.get("status"), "wall_s": round(wall, 2), "limit_s": limit}
    explanation = record.get("explanation") or {}
    first = explanation.get("first") or {}
    row.update(
        first_size=len(first.get("slots", [])) + len(first.get("givens", [])) or None,
        first_s=first.get("seconds"), first_proof=first.get("proof"),
        last_size=(len(explanation.get("slots", [])) + len(explanation.get("givens", []))
                   if explanation else None),
        last_s=explanation.get("seconds"), minimal=explanation.get("minimal"),
        stopped=explanation.get("stopped"), calls=explanation.get("calls"))
    if certificate:
        formula = ((record.get("certificate") or {}).get("manifest") or {}).get("formula") or {}
        row.update(formula_slots=len(formula.get("slots", [])) or None,
                   own_slots=len(own.get("slots", [])) or None, own_checked=own.get("checked"),
                   own_is_grids=own.get("folder") is not None
                   and not own["folder"].endswith("explanation"), **recheck)
    return row


def recheck_own(xwsat: list[str], own: dict, grid: Path, words: Path) -> dict:
    """``check-proof`` on the explanation's certificate, against the grid and list."""
    started = time.monotonic()
    proc = subprocess.run([*xwsat, "check-proof", own["folder"], "--grid", str(grid), "--dict",
                           str(words)], capture_output=True, text=True, cwd=ROOT)
    wall = time.monotonic() - started
    manifest = Path(own["folder"]) / "manifest.json"
    steps = (json.loads(manifest.read_text(encoding="utf-8")).get("check") or {}).get("steps") \
        if manifest.is_file() else None
    return {"recheck_exit": proc.returncode, "recheck_s": round(wall, 2), "own_steps": steps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("instances", nargs="+", help="GRID@DICT")
    parser.add_argument("--xwsat", default="xwsat", help="the command to run (default xwsat)")
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--certificate", action="store_true", help="prove with --certificate")
    parser.add_argument("--seed", type=int, action="append", dest="seeds",
                        help="run each instance with this --seed (repeatable)")
    parser.add_argument("--out", type=Path, help="append the rows here (JSON lines)")
    options = parser.parse_args()
    for instance in options.instances:
        for seed in options.seeds or [None]:
            row = measure(shlex.split(options.xwsat), instance, options.time_limit,
                          options.certificate, seed)
            print(json.dumps(row), flush=True)
            if options.out is not None:
                with options.out.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
