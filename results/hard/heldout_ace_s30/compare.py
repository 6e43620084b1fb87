"""ACE `wdegdom` at the worst of 3 seeds on the held-out slice, against `auto`'s 3 seeds.

ACE's seed 1 comes from `../heldout/rows.jsonl`, seeds 2 and 3 from this folder's rows; `auto`'s
rows are the ones named on the command line (session 27's shipped search:
`../shared_tables/heldout_new.jsonl`). Run from the repository's top folder:

    python results/hard/heldout_ace_s30/compare.py results/hard/shared_tables/heldout_new.jsonl
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
VERDICTS = {"filled", "unfillable"}


def rows_of(path: Path) -> list[dict[str, Any]]:
    latest: dict[str, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        latest[row["key"]] = row
    return list(latest.values())


def by_instance(rows: list[dict[str, Any]], backend: str) -> dict[str, dict[int, dict]]:
    out: dict[str, dict[int, dict]] = defaultdict(dict)
    for row in rows:
        if row["backend"] == backend:
            out[f"{row['suite']}/{row['grid']}@{row['dictionary']}"][row["seed"]] = row
    return out


def decided(row: dict[str, Any]) -> bool:
    return row["status"] in VERDICTS and (row["status"] != "filled" or bool(row.get("verified")))


def worst(seeds: dict[int, dict]) -> float | None:
    """The slowest seed's time if all three decided, else None."""
    if len(seeds) != 3 or not all(decided(r) for r in seeds.values()):
        return None
    return max(r["time_s"] for r in seeds.values())


def main(auto_rows: Path) -> None:
    seed_one = rows_of(HERE.parent / "heldout" / "rows.jsonl")
    ace = by_instance(seed_one + rows_of(HERE / "rows.jsonl"), "ace:wdegdom")
    auto = by_instance(rows_of(auto_rows), "auto")
    ace_worst = {i: worst(s) for i, s in ace.items()}
    auto_worst = {i: worst(s) for i, s in auto.items()}
    print("ACE decided per seed:", {k: sum(1 for s in ace.values() if k in s and decided(s[k]))
                                    for k in (1, 2, 3)})
    print("ACE at its worst seed:", sum(t is not None for t in ace_worst.values()), "of", len(ace))
    print("auto at its worst seed:", sum(t is not None for t in auto_worst.values()))
    print("decided by ACE at some seed, by auto not at its worst:",
          [i for i, s in ace.items() if any(decided(r) for r in s.values())
           and auto_worst.get(i) is None])
    both = [i for i, t in ace_worst.items() if t is not None and auto_worst.get(i) is not None]
    ratios = [auto_worst[i] / ace_worst[i] for i in both]  # type: ignore[operator]
    print(f"both decided: {len(both)}; median auto/ACE {statistics.median(ratios):.3f}; "
          f"auto faster on {sum(r < 1 for r in ratios)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
