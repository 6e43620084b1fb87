"""The side-by-side table of certificates measured with three commits in one run.

    cd results/evidence/parallel_check && python table.py rows_{old,split,new}.jsonl

Rows come from ``results/evidence/slot_core/measure.py`` (``--formulas core``), one commit after
the other grid by grid (README.md, "Checking the proof on both cores").
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path


def load(path: str) -> dict[str, dict]:
    return {Path(row["grid"]).stem: row for row in
            (json.loads(line) for line in Path(path).read_text().splitlines() if line.strip())}


def main() -> None:
    runs = [load(path) for path in sys.argv[1:]]
    names = [Path(path).stem.removeprefix("rows_") for path in sys.argv[1:]]
    print("| grid | slots | lemmas | " + " | ".join(
        f"certify {n} (shrink, check)" for n in names) + " | " + " | ".join(
        f"re-check {n}" for n in names) + " |")
    print("|---|---|---|" + "---|" * (2 * len(names)))
    walls: list[list[float]] = [[] for _ in names]
    rechecks: list[list[float]] = [[] for _ in names]
    for grid in runs[0]:
        rows = [run.get(grid) for run in runs]
        if any(row is None or row.get("checked") is not True or not row.get("recheck_verified")
               for row in rows):
            print(f"| {grid} | not checked and re-checked by all |")
            continue
        cells = []
        for k, row in enumerate(rows):
            times = row["times"]
            walls[k].append(row["certify_wall_s"])
            rechecks[k].append(row["recheck_wall_s"])
            cells.append(f"{row['certify_wall_s']:.1f} s ({times['core_s']:.1f}, "
                         f"{times['check_wall_s']:.1f})")
        print(f"| {grid} | {rows[0]['slots']} | {rows[0]['lemmas']:,} | " + " | ".join(cells)
              + " | " + " | ".join(f"{row['recheck_wall_s']:.1f} s" for row in rows) + " |")
    print()
    for k, name in enumerate(names):
        print(f"- {name}: {len(walls[k])} certified and re-checked; certify median "
              f"{statistics.median(walls[k]):.1f} s, longest {max(walls[k]):.1f} s; re-check "
              f"median {statistics.median(rechecks[k]):.1f} s, longest {max(rechecks[k]):.1f} s; "
              f"certify + re-check median "
              f"{statistics.median(a + b for a, b in zip(walls[k], rechecks[k])):.1f} s")
    for k, name in enumerate(names[1:], 1):
        ratios = [b / a for a, b in zip(walls[0], walls[k])]
        print(f"- {name} / {names[0]}: certify median ratio {statistics.median(ratios):.2f} "
              f"(range {min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
