"""Plain fill's lift against an earlier version of it, on the same search fills.

For each grid and seed: the search's own fill (``XWSAT_LIFT=0``: the upper look and the search,
no lift), then that one fill lifted by ``xwsat/quality/lift.py`` as it is at ``--before`` (read
from git) and as it is in this checkout. A row holds the entries per score of the three fills,
their totals, the neighbourhoods each lift searched and refilled, and its seconds. Run it alone
on the machine (``flock``): the seconds are wall clock.

    python scripts/lift_study.py --before d1ed08d --grids grids/american/2020*_empty.txt \
        --seeds 0,1,2 --out results/quality/lift_levels.jsonl
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import ModuleType

os.environ["XWSAT_LIFT"] = "0"  # the pipeline's own lift off: both versions start from one fill

from xwsat.errors import XwsatError  # noqa: E402
from xwsat.formats import read_grid  # noqa: E402
from xwsat.pipeline import FillOptions, fill_grid  # noqa: E402
from xwsat.quality import lift as lift_now  # noqa: E402
from xwsat.quality.levels import exempt_slots  # noqa: E402
from xwsat.words import load_words  # noqa: E402


def fail(message: str) -> None:
    """Bad input: one line on stderr, exit 2."""
    print(f"lift_study: {message}", file=sys.stderr)
    sys.exit(2)


def lift_at(commit: str, folder: Path) -> ModuleType:
    """``xwsat/quality/lift.py`` as it was at ``commit``, loaded as a module of its own."""
    shown = subprocess.run(["git", "show", f"{commit}:xwsat/quality/lift.py"],
                           capture_output=True, text=True)
    if shown.returncode != 0:
        fail(f"no xwsat/quality/lift.py at {commit!r} in this checkout")
    text = shown.stdout
    path = folder / "lift_before.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("lift_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["lift_before"] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


def per_score(built, fill, exempt) -> list[list[int]]:
    counts = Counter(int(built.words.scores[w]) for s, w in enumerate(fill) if s not in exempt)
    return [[score, n] for score, n in sorted(counts.items())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the commit of the earlier lift")
    parser.add_argument("--grids", nargs="+", type=Path, required=True)
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--dict", default="en")
    parser.add_argument("--limit", type=float, default=30.0, help="seconds for each search")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
        words = load_words(args.dict)
        grids = {grid: read_grid(grid) for grid in args.grids}
    except (ValueError, XwsatError, OSError) as exc:
        fail(str(exc))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        before = lift_at(args.before, Path(folder))
        with args.out.open("a", encoding="utf-8") as out:
            for grid, pattern in grids.items():
                for seed in seeds:
                    result = fill_grid(pattern, words,
                                       FillOptions("auto", args.limit, seed=seed))
                    row: dict = {"date": time.strftime("%Y-%m-%d"), "commit": commit,
                                 "before_commit": args.before, "grid": grid.name, "seed": seed,
                                 "dict": args.dict, "status": result.outcome.status.name}
                    if result.outcome.fill is not None:
                        built, start = result.built, result.outcome.fill
                        exempt = exempt_slots(built)
                        row["search"] = per_score(built, start, exempt)
                        for name, module in (("before", before), ("now", lift_now)):
                            began = time.perf_counter()
                            done = module.lift(built.problem, start, built.words.scores,
                                               exempt, seed)
                            row[name] = {
                                "per_score": per_score(built, done.fill, exempt),
                                "total": int(sum(built.words.scores[w]
                                                 for s, w in enumerate(done.fill)
                                                 if s not in exempt)),
                                "regions": done.regions, "refilled": done.refilled,
                                "seconds": round(time.perf_counter() - began, 2)}
                    print(json.dumps(row), file=out, flush=True)
                    print(json.dumps(row), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
