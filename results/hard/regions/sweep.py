"""``xwsat plan --probe`` on every instance `auto` leaves undecided at its worst seed, one
process per instance, two at a time (each probe uses one core); rows as JSON lines, resumed by
instance. Then a table: how many have a hard region smaller than the grid, how many none, how
many the probe proves unfillable.

    python results/hard/regions/sweep.py INSTANCES ROWS [-t 60] [--probe 5] [-j 2]
    python results/hard/regions/sweep.py --table rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def run(instance: str, limit: float, per_window: float, xwsat: str) -> dict:
    grid, dictionary = instance.rsplit("@", 1)
    began = time.monotonic()
    done = subprocess.run([xwsat, "plan", grid, "--dict", dictionary, "--probe", str(per_window),
                           "-t", str(limit), "--json"], capture_output=True, text=True,
                          timeout=limit + 60)
    row = {"instance": instance, "exit": done.returncode,
           "wall_s": round(time.monotonic() - began, 2)}
    if done.stdout.strip():
        probe = json.loads(done.stdout)["probe"]
        slots = {(tuple(w["rows"]), tuple(w["columns"])): len(w["slots"])
                 for w in probe["windows"]}
        row.update(unfillable=probe["unfillable"], cut_short=probe["cut_short"],
                   windows=len(probe["windows"]),
                   hardest=[{**h, "slots": slots[(tuple(h["rows"]), tuple(h["columns"]))]}
                            for h in probe["hardest"]])
    return row


def table(rows: list[dict]) -> None:
    print("| instance | verdict of the probe | hardest windows (rows x columns, slots) | wall s |")
    print("|---|---|---|---|")
    for r in rows:
        if r.get("unfillable"):
            what = "**no fill** (grid unfillable)"
        elif r.get("hardest"):
            what = "hard region"
        else:
            what = "no hard window"
        spans = ", ".join(f"{h['rows'][0]}-{h['rows'][1]} x {h['columns'][0]}-{h['columns'][1]}"
                          f" ({h['slots']})" for h in r.get("hardest", []))
        print(f"| {r['instance']} | {what} | {spans} | {r['wall_s']} |")
    kinds = [("unfillable", lambda r: r.get("unfillable")),
             ("hard region", lambda r: not r.get("unfillable") and r.get("hardest")),
             ("no hard window", lambda r: not r.get("unfillable") and not r.get("hardest"))]
    print()
    print(", ".join(f"{name}: {sum(1 for r in rows if test(r))}" for name, test in kinds)
          + f" (of {len(rows)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("instances", nargs="?")
    parser.add_argument("rows")
    parser.add_argument("-t", type=float, default=60.0)
    parser.add_argument("--probe", type=float, default=5.0)
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("--xwsat", default=".venv/bin/xwsat")
    parser.add_argument("--table", action="store_true")
    args = parser.parse_args()
    out = Path(args.rows)
    rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    if args.table:
        table(rows)
        return
    seen = {r["instance"] for r in rows}
    todo = [line.strip() for line in Path(args.instances).read_text().splitlines()
            if line.strip() and line.strip() not in seen]
    with ThreadPoolExecutor(args.j) as pool, out.open("a") as sink:
        for row in pool.map(lambda i: run(i, args.t, args.probe, args.xwsat), todo):
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            print(row["instance"], row.get("unfillable"), row.get("hardest"), row["wall_s"],
                  flush=True)


if __name__ == "__main__":
    main()
