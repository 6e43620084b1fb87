"""Fill rate and time per language: each grid with each dictionary, one verified fill attempt.

Usage (the runs in results/languages.md):
  python scripts/bench_languages.py --dict en --dict ru --dict es \
      --grids grids/american/empty_4x4.txt grids/small/open5.txt grids/classic/05-*.txt \
      --time-limit 20 --out results/languages_small.jsonl
  python scripts/bench_languages.py --table results/languages_small.jsonl   # markdown table

``--dict LABEL=SPEC`` names a dictionary file (e.g. a baseline build); a bare ``en``/``ru``/``es``
is the embedded list. Each fill runs through ``xwsat.pipeline.fill_grid`` (so it is verified) with
the ``auto`` portfolio; a row records the status and the wall-clock seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from xwsat.formats import read_grid
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.words import load_words


def run(dicts: list[str], grids: list[str], time_limit: float, backend: str, seed: int,
        out: Path) -> None:
    with out.open("a", encoding="utf-8") as sink:
        for spec in dicts:
            label, _, path = spec.partition("=")
            words = load_words(path or label)
            for grid_path in grids:
                grid = read_grid(grid_path)
                t0 = time.perf_counter()
                result = fill_grid(grid, words, FillOptions(backend, time_limit, None, seed))
                row = {
                    "dict": label, "words": len(words), "grid": grid_path,
                    "status": result.outcome.status.value, "backend": result.outcome.method,
                    "seconds": round(time.perf_counter() - t0, 2), "time_limit": time_limit,
                    "verified": result.verified,
                    "fill": list(result.filled.rows) if result.filled else None,
                }
                sink.write(json.dumps(row, ensure_ascii=False) + "\n")
                sink.flush()
                print(f"{label:>10} {grid_path:<40} {row['status']:<11} {row['seconds']:>7.2f} s",
                      flush=True)


def table(paths: list[str]) -> str:
    """Markdown: one row per grid, one column per dictionary (status and seconds)."""
    rows = [json.loads(line) for p in paths for line in Path(p).read_text().splitlines() if line]
    labels = list(dict.fromkeys(r["dict"] for r in rows))
    cells: dict[str, dict[str, str]] = defaultdict(dict)
    filled: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        mark = {"filled": "filled", "unfillable": "**unfillable**"}.get(r["status"], "undecided")
        cells[r["grid"]][r["dict"]] = f"{mark} {r['seconds']:.1f} s"
        filled[r["dict"]][0] += r["status"] == "filled"
        filled[r["dict"]][1] += 1
    out = ["| grid | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
    for grid, by_dict in cells.items():
        out.append(f"| `{grid}` | " + " | ".join(by_dict.get(d, "") for d in labels) + " |")
    out.append("| **fill rate** | " + " | ".join(
        f"**{filled[d][0]}/{filled[d][1]}**" for d in labels) + " |")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dict", action="append", default=[])
    parser.add_argument("--grids", nargs="*", default=[])
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("results/languages.jsonl"))
    parser.add_argument("--table", nargs="*", help="print the markdown table of these JSONL files")
    args = parser.parse_args()
    if args.table:
        print(table(args.table))
        return 0
    run(args.dict, args.grids, args.time_limit, args.backend, args.seed, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
