"""Per-seed verdicts and times of a bench folder's rows, and the counts at the worst seed.

    python results/hard/tails_s36/table.py results/hard/tails_s36/mac8/rows.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

DECIDED = ("filled", "unfillable")


def main(path: str) -> None:
    runs: dict[tuple[str, str], dict[int, dict]] = defaultdict(dict)
    with open(path, encoding="utf-8") as rows:
        for line in rows:
            row = json.loads(line)
            runs[(f"{row['grid']}@{row['dictionary']}", row["backend"])][row["seed"]] = row
    seeds = sorted({seed for by_seed in runs.values() for seed in by_seed})
    print("| instance | back-end | " + " | ".join(f"seed {s}" for s in seeds) + " |")
    print("|---|---|" + "---|" * len(seeds))
    worst: dict[str, int] = defaultdict(int)
    some: dict[str, int] = defaultdict(int)
    for (instance, backend), by_seed in sorted(runs.items()):
        cells = []
        for seed in seeds:
            row = by_seed.get(seed)
            if row is None:
                cells.append("")
            elif row["status"] in DECIDED:
                cells.append(f"{row['status'][0]} {row['time_s']:.1f}")
            else:
                cells.append("–")
        print(f"| {instance} | {backend} | " + " | ".join(cells) + " |")
        decided = [by_seed[s]["status"] in DECIDED for s in seeds if s in by_seed]
        worst[backend] += all(decided)
        some[backend] += any(decided)
    print()
    for backend in sorted(worst):
        print(f"{backend}: decided at the worst seed {worst[backend]}, by some seed "
              f"{some[backend]} (f: filled, u: unfillable, seconds; –: undecided)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", help="a bench folder's rows.jsonl")
    args = parser.parse_args()
    try:
        main(args.rows)
    except (OSError, ValueError, KeyError) as exc:
        parser.exit(2, f"table.py: {exc!r}\n")
