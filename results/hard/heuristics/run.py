"""Run `xwsat fill -b XB` from a checkout patched with knobs.diff (XTREE) on the instances of XI
x seeds x XW_HEUR values; one JSON row per run appended to OUT, two runs at a time (XJ).

    python run.py HEURS SEEDS OUT      e.g. python run.py 0,2 1,2 rows.jsonl
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TREE = os.environ.get("XTREE", "/tmp/knobs")
XWSAT = os.environ.get("XWSAT", "xwsat")
BACKEND, LIMIT = os.environ.get("XB", "mac"), os.environ.get("XT", "90")


def one(job: tuple[str, str, str, str], out: str) -> dict:
    heur, seed, grid, words = job
    env = dict(os.environ, PYTHONPATH=TREE, XW_HEUR=heur)
    began = time.time()
    proc = subprocess.run([XWSAT, "fill", f"{TREE}/{grid}", "-d",
                           words if words == "en" else f"{TREE}/{words}", "-b", BACKEND,
                           "-t", LIMIT, "--seed", seed, "--json"],
                          capture_output=True, text=True, env=env, check=False)
    try:
        answer = json.loads(proc.stdout)
    except json.JSONDecodeError:
        answer = {"status": "error"}
    stats = answer.get("solver_stats") or {}
    row = {"h": heur, "seed": seed, "grid": Path(grid).stem, "dict": Path(words).name[:4],
           "status": answer.get("status"), "by": answer.get("backend"),
           "conflicts": stats.get("conflicts"), "wall": round(time.time() - began, 2)}
    with open(out, "a", encoding="utf-8") as sink:
        sink.write(json.dumps(row) + "\n")
    return row


def main(heurs: str, seeds: str, out: str) -> None:
    listed = Path(os.environ.get("XI", "instances_unfillable.txt")).read_text().splitlines()
    instances = [line.split() for line in listed if line.strip()]
    jobs = [(h, s, g, d) for s in seeds.split(",") for g, d in instances
            for h in heurs.split(",")]
    with ThreadPoolExecutor(int(os.environ.get("XJ", "2"))) as pool:
        for row in pool.map(lambda job: one(job, out), jobs):
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
