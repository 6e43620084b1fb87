"""``xwsat fill -b BACKEND`` over instances x values of XW_PHASE x seeds, two at a time, one
JSON row per run appended to OUT (for the patched checkout of ``target_phase.diff``).

    XWSAT=path/to/xwsat XTREE=path/to/checkout \\
        python run_target.py mac:phase 1,3,5 1 30 OUT GRID@en GRID@wame ...
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
LISTS = {"en": "en", "wame": str(HERE.parents[2] / "grids/dictionaries/wamerican-large.txt.gz")}


def run_one(backend: str, limit: str, out: str, job: tuple[str, str, str]) -> None:
    instance, value, seed = job
    grid, words = instance.split("@")
    env = dict(os.environ, PYTHONPATH=os.environ["XTREE"], XW_PHASE=value)
    started = time.time()
    done = subprocess.run([os.environ.get("XWSAT", "xwsat"), "fill", grid + ".txt", "-d",
                           LISTS[words], "-b", backend, "--seed", seed, "-t", limit, "--json"],
                          capture_output=True, text=True, env=env, check=False)
    try:
        status = json.loads(done.stdout).get("status")
    except json.JSONDecodeError:
        status = "error"
    row = {"inst": f"{Path(grid).name}@{words}", "var": value, "seed": seed, "status": status,
           "wall": round(time.time() - started, 2)}
    with open(out, "a") as handle:
        handle.write(json.dumps(row) + "\n")
    print(row, flush=True)


def main(backend: str, values: str, seeds: str, limit: str, out: str, *instances: str) -> None:
    jobs = list(itertools.product(instances, values.split(","), seeds.split(",")))
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda job: run_one(backend, limit, out, job), jobs))


if __name__ == "__main__":
    main(*sys.argv[1:])
