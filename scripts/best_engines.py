"""The best fill at the level reached, by each engine of ``xwsat.quality.best``, from the same
start: plain ``fill``'s fill raised by the climb (``quality.ladder``), then each engine given
the same seconds. A row: entries at the level (fewer is better), total score, whether proven
optimal, and the seconds it took (an engine that proves its fill optimal stops early).

    python scripts/best_engines.py --list stwl40=/tmp/stwl.txt:40 --list en=en:0 \\
        --out results/quality/engines.jsonl

Engines: ``cpsat`` (CP-SAT's neighbourhoods, ``xwsat.optimize``), ``bnb`` (branch and bound in
the compiled search, ``quality.branch_bound``), ``both`` (``bnb`` then ``cpsat`` from its fill).
The grids are ``quality_bench.py``'s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from quality_bench import GRIDS15, GRIDS21, ROOT  # noqa: E402

from xwsat.formats import read_grid  # noqa: E402
from xwsat.pipeline import FillOptions, fill_grid  # noqa: E402
from xwsat.quality.best import best_at_level  # noqa: E402
from xwsat.quality.ladder import climb  # noqa: E402
from xwsat.quality.levels import exempt_slots  # noqa: E402
from xwsat.words import load_words  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="append", required=True, help="NAME=PATH:MIN_SCORE")
    parser.add_argument("--engines", default="cpsat,bnb,both")
    parser.add_argument("--time15", type=float, default=20.0)
    parser.add_argument("--time21", type=float, default=60.0)
    parser.add_argument("--climb15", type=float, default=15.0)
    parser.add_argument("--climb21", type=float, default=40.0)
    parser.add_argument("--seeds", default="0", help="comma-separated: each gives its own start")
    parser.add_argument("--grids", default="", help="only these grids (names, comma-separated)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                            capture_output=True).stdout.strip()
    grids = [(g, args.time15, args.climb15) for g in GRIDS15]
    grids += [(g, args.time21, args.climb21) for g in GRIDS21]
    if args.grids:
        grids = [g for g in grids if g[0].stem in args.grids.split(",")]
    with Path(args.out).open("a", encoding="utf-8") as out:
        for spec in args.list:
            name, _, rest = spec.partition("=")
            source, _, low = rest.rpartition(":")
            words = load_words(source, min_score=int(low))
            for grid, seconds, climb_s in grids:
                for seed in (int(x) for x in args.seeds.split(",")):
                    _one(out, grid, name, words, seconds, climb_s, seed, args.engines, commit)


def _one(out, grid: Path, name: str, words, seconds: float, climb_s: float, seed: int,
         engines: str, commit: str) -> None:
    options = FillOptions(time_limit=20.0, seed=seed)
    first = fill_grid(read_grid(grid), words, options)
    base = {"grid": grid.stem, "list": name, "limit_s": seconds, "seed": seed, "commit": commit}
    if first.outcome.fill is None:
        out.write(json.dumps({**base, "filled": False}) + "\n")
        return
    built = first.built
    exempt = exempt_slots(built)
    raised = climb(built, first.outcome.fill, options, climb_s)
    for engine in engines.split(","):
        began = time.perf_counter()
        best = best_at_level(built, raised.fill, raised.level, exempt, raised.proven, seconds,
                             seed, engine=engine)
        line = {**base, "filled": True, "engine": engine, "level": raised.level,
                "level_proven": raised.proven, "start_at_level":
                sum(1 for s, w in enumerate(raised.fill) if s not in exempt
                    and int(built.words.scores[w]) <= raised.level),
                "at_level": best.at_level, "fewest": best.fewest, "total": best.total,
                "optimal": best.optimal, "decisions": best.search.decisions,
                "seconds": round(time.perf_counter() - began, 2), "load": os.getloadavg()[0]}
        out.write(json.dumps(line) + "\n")
        out.flush()
        print(f"{name} {grid.stem} seed {seed} {engine}: {best.at_level} at {raised.level}, "
              f"total {best.total} in {line['seconds']} s", file=sys.stderr)


if __name__ == "__main__":
    main()
