"""What ``--deterministic`` costs and what it buys: each instance filled or proved by plain
``xwsat fill`` (the default race, first to finish wins) and by ``fill --deterministic`` (the race
kept in step), ``REPEATS`` times each, alternating, with one seed. Writes
``results/step_race/rows.jsonl`` and ``README.md``: per instance the verdicts, how many
different answers (verdict, method and fill) each way gave, and the median time of each.

    python scripts/step_race_cost.py [--repeats 3] [--time-limit 30]
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "step_race"
WAMERICAN = "grids/dictionaries/wamerican-large.txt.gz"
# decided instances of the hard benchmark and the NYT-style patterns, where both racers work
INSTANCES = [
    *[(f"grids/american/{day}_empty.txt", "en", 50)
      for day in ("20201005", "20201012", "20201107", "20201124", "20201128")],
    *[(f"grids/robust15/{name}.txt", WAMERICAN, 0)
      for name in ("g15-s11-000", "g15-s11-001", "g15-s12-000", "g15-s12-001", "g15-s14-001")],
    *[(f"grids/robust15/{name}.txt", "en", 0)
      for name in ("g15-s11-000", "g15-s12-000", "g15-s15-000")],
    *[(f"grids/robust21/{name}.txt", "en", 0) for name in ("g21-s21-000", "g21-s21-002")],
]


def run(grid: str, words: str, score: int, deterministic: bool, limit: float) -> dict:
    command = [sys.executable, "-m", "xwsat", "fill", grid, "--dict", words, "--seed", "0",
               "-t", str(limit), "--json", "--quiet"]
    command += ["--min-score", str(score)] if score else []
    command += ["--deterministic"] if deterministic else []
    began = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    data = json.loads(done.stdout) if done.stdout.strip() else {}
    answer = [data.get("status"), data.get("backend"), data.get("grid")]
    return {"grid": grid, "dictionary": words, "min_score": score, "deterministic": deterministic,
            "status": data.get("status"), "backend": data.get("backend"),
            "answer": hashlib.sha256(json.dumps(answer).encode()).hexdigest()[:12],
            "seconds": round(seconds, 2), "exit": done.returncode}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=30.0)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for grid, words, score in INSTANCES:
        for _ in range(args.repeats):
            for deterministic in (False, True):
                rows.append(run(grid, words, score, deterministic, args.time_limit))
                print(json.dumps(rows[-1]), flush=True)
    (OUT / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "xwsat"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    lines = [
        "# A race kept in step: what `--deterministic` costs",
        "",
        f"Measured {datetime.date.today()} at commit {commit}"
        + (" (with uncommitted changes under xwsat/)" if dirty else "") + ", 2-core machine, "
        f"seed 0, {args.time_limit:g} s limit, each instance run {args.repeats} times each way, "
        "alternating. Made by:",
        "",
        "```sh",
        f"python scripts/step_race_cost.py --repeats {args.repeats} --time-limit "
        f"{args.time_limit:g}",
        "```",
        "",
        "An answer is the verdict, the racer named and the fill; \"answers\" counts the "
        "different ones among the runs. Times are wall clock of the whole command, median.",
        "",
        "| grid | list | min score | verdict | answers (plain) | answers (in step) | plain s | "
        "in step s | ratio |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    ratios = []
    for grid, words, score in INSTANCES:
        mine = [r for r in rows if (r["grid"], r["dictionary"], r["min_score"]) ==
                (grid, words, score)]
        plain = [r for r in mine if not r["deterministic"]]
        step = [r for r in mine if r["deterministic"]]
        a, b = statistics.median(r["seconds"] for r in plain), statistics.median(
            r["seconds"] for r in step)
        ratios.append(b / a)
        verdicts = "/".join(sorted({str(r["status"]) for r in mine}))
        lines.append(f"| {Path(grid).stem} | {Path(words).name} | {score or ''} | {verdicts} | "
                     f"{len({r['answer'] for r in plain})} | {len({r['answer'] for r in step})} | "
                     f"{a:.2f} | {b:.2f} | {b / a:.2f} |")
    geo = statistics.geometric_mean(ratios)
    lines += ["", f"Time in step over plain, geometric mean over the instances: {geo:.2f}x; "
              f"worst {max(ratios):.2f}x.", ""]
    (OUT / "README.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
