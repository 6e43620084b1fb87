"""Per-instance table and counts of measure.py's rows, with each racer's union with ``mac``.

    python results/hard/planned/summary.py ROWS.jsonl ...

A run is decided when its status is not ``unknown``; an instance is decided at the worst seed
when every seed's run of that back-end decided it. "with mac" counts a run as decided when the
back-end or ``mac`` (same instance, same seed) decided it: what a race of the two would decide,
ignoring that two racers share the machine's two cores.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path


def main() -> None:
    rows = [json.loads(line) for path in sys.argv[1:]
            for line in Path(path).read_text(encoding="utf-8").splitlines()]
    seeds = sorted({r["seed"] for r in rows})
    specs = sorted({r["spec"] for r in rows})
    runs: dict[str, dict[tuple[str, int], dict]] = defaultdict(dict)
    for r in rows:
        runs[r["inst"]][(r["spec"], r["seed"])] = r

    def decided(inst: str, spec: str, seed: int) -> bool:
        r = runs[inst].get((spec, seed))
        return r is not None and r["status"] != "unknown"

    print("| instance | " + " | ".join(specs) + " |")
    print("|---|" + "---|" * len(specs))
    for inst, got in runs.items():
        cells = []
        for spec in specs:
            cells.append(" ".join(
                f"{got[(spec, s)]['solve_s']:.1f}" if decided(inst, spec, s) else "-"
                for s in seeds))
        print(f"| {inst} | " + " | ".join(cells) + " |")
    print()
    print("| back-end | runs decided | decided at the worst seed | runs, with mac | "
          "worst seed, with mac |")
    print("|---|---|---|---|---|")
    for spec in specs:
        alone = [decided(i, spec, s) for i in runs for s in seeds]
        worst = sum(all(decided(i, spec, s) for s in seeds) for i in runs)
        both = [[decided(i, spec, s) or decided(i, "mac", s) for s in seeds] for i in runs]
        print(f"| {spec} | {sum(alone)} | {worst} | {sum(map(sum, both))} | "
              f"{sum(map(all, both))} |")


if __name__ == "__main__":
    main()
