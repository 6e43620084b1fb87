"""The heavy-tail experiment: `xwsat fill` from a checkout patched with knobs.diff, on the
instances of instances.txt x seeds, under environment knobs; one JSON row per run appended to
OUT, and with --table the worst-seed summary of OUT.

    git worktree add /tmp/knobs HEAD && git -C /tmp/knobs apply "$PWD/results/hard/tails/knobs.diff"
    python results/hard/tails/run.py /tmp/knobs base results/hard/tails/rows.jsonl
    XW_LNOISE=1.0 python results/hard/tails/run.py /tmp/knobs lnoise1 results/hard/tails/rows.jsonl
    python results/hard/tails/run.py --table results/hard/tails/rows.jsonl

Knobs (read by the patched xwsat/mac/state.py): XW_RFIRST, XW_RFACTOR (geometric restarts,
default 10 and 1.1), XW_LUBY (Luby restarts with this unit, 0 = off), XW_LNOISE (after the first
restart, each letter's score is multiplied by exp(XW_LNOISE * U[0,1))), XW_LC (1: last-conflict
variable choice). XB picks the back-end (default auto), XT the limit (30), XS the seeds (1,2,3),
XI the instance list (instances.txt).
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
XWSAT = Path(sys.executable).with_name("xwsat")
DECIDED = {"filled": "f", "unfillable": "U"}


def run(tree: str, tag: str, out: str) -> None:
    backend, limit = os.environ.get("XB", "auto"), os.environ.get("XT", "30")
    seeds = [int(s) for s in os.environ.get("XS", "1,2,3").split(",")]
    listed = Path(os.environ.get("XI", HERE / "instances.txt"))
    instances = [line.split() for line in listed.read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
    env = dict(os.environ, PYTHONPATH=tree)
    for seed in seeds:
        for grid, words in instances:
            began = time.time()
            proc = subprocess.run([str(XWSAT), "fill", f"{tree}/{grid}", "-d",
                                   words if words == "en" else f"{tree}/{words}", "-b", backend,
                                   "-t", limit, "--seed", str(seed), "--json"],
                                  capture_output=True, text=True, env=env, check=False)
            wall = time.time() - began
            try:
                answer = json.loads(proc.stdout)
            except json.JSONDecodeError:
                answer = {"status": "error"}
            row = {"tag": tag, "grid": Path(grid).name, "dict": Path(words).name[:4],
                   "seed": seed, "status": answer.get("status"), "by": answer.get("backend"),
                   "wall": round(wall, 2), "load": os.getloadavg()[0]}
            print(json.dumps(row), flush=True)
            with open(out, "a", encoding="utf-8") as sink:
                sink.write(json.dumps(row) + "\n")


def table(path: str) -> None:
    rows = [json.loads(line) for line in Path(path).read_text().splitlines()]
    runs: dict[str, dict] = collections.defaultdict(dict)
    for r in rows:
        runs[r["tag"]][(r["grid"], r["dict"], r["seed"])] = (
            DECIDED.get(r["status"], "."), r["wall"])
    seeds = sorted({s for tag in runs.values() for (_, _, s) in tag})
    names = sorted({(g, d) for tag in runs.values() for (g, d, _) in tag})
    print("| instance | " + " | ".join(runs) + " |")
    print("|---" * (len(runs) + 1) + "|")
    for g, d in names:
        cells = [", ".join(f"{v[0]} {v[1]:.0f}" if (v := runs[t].get((g, d, s))) else "–"
                           for s in seeds) for t in runs]
        print(f"| {g.removesuffix('.txt')}@{d} | " + " | ".join(cells) + " |")
    for t, got in runs.items():
        worst = sum(all(got.get((g, d, s), ".")[0] != "." for s in seeds) for g, d in names)
        decided = sum(v[0] != "." for v in got.values())
        print(f"{t}: decided at the worst seed {worst} of {len(names)}; runs decided "
              f"{decided} of {len(got)}")


if __name__ == "__main__":
    if sys.argv[1] == "--table":
        table(sys.argv[2])
    else:
        run(*sys.argv[1:4])
