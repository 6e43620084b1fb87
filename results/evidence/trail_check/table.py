"""The table of a rows file written by ``slot_core/measure.py --checker trail,dratify``: per
grid, certify and re-check with each checker, side by side (same run, one after the other).

    python results/evidence/trail_check/table.py rows.jsonl
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path


def table(path: Path) -> str:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
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


if __name__ == "__main__":
    print(table(Path(sys.argv[1])))
