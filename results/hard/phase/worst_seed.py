"""Per instance, each back-end's runs and whether all its seeds decided; the worst-seed counts
and the time ratio of the second back-end to the first where both decided at every seed.

    python worst_seed.py rows.jsonl
"""

from __future__ import annotations

import collections
import json
import math
import sys

DECIDED = ("filled", "unfillable")


def main(path: str) -> None:
    rows = {}
    with open(path) as handle:
        for line in handle:
            row = json.loads(line)
            rows[row["key"]] = row  # a re-run's row replaces the earlier one
    runs: dict = collections.defaultdict(lambda: collections.defaultdict(dict))
    for row in rows.values():
        runs[(row["grid"], row["dictionary"][:4])][row["backend"]][row["seed"]] = row
    backends = sorted({b for by_backend in runs.values() for b in by_backend})
    worst: dict = {}
    count: collections.Counter = collections.Counter()
    for instance, by_backend in sorted(runs.items()):
        cells = [f"{instance[0]}@{instance[1]}"]
        for backend in backends:
            seeds = by_backend.get(backend, {})
            decided = bool(seeds) and all(r["status"] in DECIDED for r in seeds.values())
            worst[(instance, backend)] = (max(r["time_s"] for r in seeds.values())
                                          if decided else None)
            count[(backend, "worst")] += decided
            count[(backend, "runs")] += sum(r["status"] in DECIDED for r in seeds.values())
            count[(backend, "all")] += len(seeds)
            shown = " ".join(f"{r['status'][:4]}{r['time_s']:.1f}/{r['solved_by'] or '-'}"
                             for _, r in sorted(seeds.items()))
            cells.append(f"{backend}: {shown}")
        print(" | ".join(cells))
    for backend in backends:
        print(f"{backend}: worst seed decided {count[(backend, 'worst')]} of {len(runs)}; "
              f"runs decided {count[(backend, 'runs')]} of {count[(backend, 'all')]}")
    if len(backends) == 2:
        first, second = backends
        both = [i for i in runs if worst[(i, first)] is not None
                and worst[(i, second)] is not None]
        ratios = sorted(max(worst[(i, second)], 0.05) / max(worst[(i, first)], 0.05)
                        for i in both)
        if ratios:
            mean = math.exp(sum(map(math.log, ratios)) / len(ratios))
            print(f"{second}/{first} worst-seed time, {len(both)} decided by both: geometric "
                  f"mean {mean:.2f}, median {ratios[len(ratios) // 2]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1])
