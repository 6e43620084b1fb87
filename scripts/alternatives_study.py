"""Other fills on real 15x15 grids: ``fill --count K --differ D`` against asking CP-SAT the
exact question fill after fill, ``--region`` refills under several seeds, and
``--max-shared-substring`` against the plain fill. One JSON row per run.

    python scripts/alternatives_study.py --out results/alternatives/rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GRIDS = sorted(Path("/work/shared/benchmarks/american").glob("2020*_empty.txt"))


def xwsat(*args: str) -> tuple[dict, float]:
    """Run the CLI with --json; its record and the wall time."""
    started = time.monotonic()
    done = subprocess.run([str(Path(sys.executable).parent / "xwsat"), *args, "--json"],
                          capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    return (json.loads(done.stdout) if done.stdout.strip() else
            {"status": "error", "message": done.stderr.strip()[-300:]}), seconds


def entries(rows: list[str]) -> list[str]:
    """Across then down entries of a filled grid, by plain string work."""
    found = []
    for lines in (rows, ["".join(col) for col in zip(*rows)]):
        for line in lines:
            found += [piece for piece in line.split("#") if len(piece) >= 2]
    return found


def apart(first: list[str], second: list[str]) -> int:
    return sum(a != b for a, b in zip(entries(first), entries(second)))


def count_rows(grid: Path, count: int, differ: int, limit: float) -> list[dict]:
    record, seconds = xwsat("fill", str(grid), "--count", str(count), "--differ", str(differ),
                            "-t", str(limit))
    fills = record.get("alternatives", {}).get("fills", [])
    grids = [f["grid"] for f in fills]
    closest = min((apart(a, b) for i, a in enumerate(grids) for b in grids[i + 1:]),
                  default=None)
    return [{"study": "count", "design": "search", "grid": grid.name, "count": count,
             "differ": differ, "found": len(fills), "seconds": round(seconds, 2),
             "closest_pair": closest,
             "lowest": [f["lowest"] for f in fills], "at_lowest": [f["at_lowest"] for f in fills],
             "total": [f["total"] for f in fills]}]


def exact_rows(grid: Path, count: int, differ: int, per_fill: float) -> list[dict]:
    """The other design: every fill after the first from CP-SAT with the sums as constraints."""
    from xwsat.alternatives import entries as slot_entries
    from xwsat.alternatives import exact_alternative, open_slots, quality
    from xwsat.formats import read_grid
    from xwsat.pipeline import FillOptions, fill_grid
    from xwsat.words import load_words

    target, words = read_grid(grid), load_words("en")
    options = FillOptions("auto", per_fill)
    started = time.monotonic()
    results = [fill_grid(target, words, options)]
    slots = open_slots(target, 2)
    while len(results) < count and results[-1].outcome.fill is not None:
        before = [slot_entries(r) for r in results if r.outcome.fill is not None]
        results.append(exact_alternative(target, words, options, before, differ, slots,
                                         per_fill))
    fills = [r for r in results if r.filled is not None]
    grids = [list(r.filled.rows) for r in fills if r.filled is not None]
    closest = min((apart(a, b) for i, a in enumerate(grids) for b in grids[i + 1:]),
                  default=None)
    return [{"study": "count", "design": "cpsat-exact", "grid": grid.name, "count": count,
             "differ": differ, "found": len(fills),
             "seconds": round(time.monotonic() - started, 2), "closest_pair": closest,
             "last_status": results[-1].outcome.status.value,
             "lowest": [quality(r).lowest for r in fills],
             "at_lowest": [quality(r).at_lowest for r in fills],
             "total": [quality(r).total for r in fills]}]


def region_rows(grid: Path, seeds: list[int], limit: float, region: str) -> list[dict]:
    with tempfile.TemporaryDirectory() as folder:
        filled = Path(folder) / "filled.txt"
        record, _ = xwsat("fill", str(grid), "-t", str(limit), "-o", str(filled))
        if record.get("status") != "filled":
            return [{"study": "region", "grid": grid.name, "status": record.get("status")}]
        start = record["grid"]
        rows = []
        for seed in seeds:
            again, seconds = xwsat("fill", str(filled), "--region", region, "--seed", str(seed),
                                   "-t", str(limit))
            refill = again.get("grid")
            rows.append({"study": "region", "grid": grid.name, "region": region, "seed": seed,
                         "status": again.get("status"), "seconds": round(seconds, 2),
                         "changed": apart(start, refill) if refill else None,
                         "refill": refill})
        return rows


def shared_rows(grid: Path, most: list[int | None], limit: float) -> list[dict]:
    rows = []
    for n in most:
        extra = ["--max-shared-substring", str(n)] if n else []
        record, seconds = xwsat("fill", str(grid), "-t", str(limit), *extra)
        filled = record.get("grid")
        texts = entries(filled) if filled else []
        pairs = [(a, b) for i, a in enumerate(texts) for b in texts[i + 1:]
                 if any(a[j:j + 5] in b for j in range(len(a) - 4))]
        rows.append({"study": "shared", "grid": grid.name, "max_shared": n,
                     "status": record.get("status"), "seconds": round(seconds, 2),
                     "pairs_sharing_5": len(pairs), "example": pairs[:3]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--differ", type=int, default=10)
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    rows: list[dict] = []
    for grid in GRIDS:
        rows += count_rows(grid, args.count, args.differ, args.time_limit)
        rows += exact_rows(grid, args.count, args.differ, args.time_limit / args.count)
        rows += region_rows(grid, [1, 2, 3, 4, 5], 20.0, "1,1-5,5")
        rows += shared_rows(grid, [None, 4], 30.0)
        print(f"{grid.name}: done", file=sys.stderr, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


if __name__ == "__main__":
    main()
