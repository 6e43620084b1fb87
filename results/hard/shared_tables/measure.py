"""The compiled letter search with a table per slot and with one table per length, in-process.

    python results/hard/shared_tables/measure.py [--seconds 5] [--seed 1] [SUITE]

Both runs make the same search (the same decisions, failures at every step), so the ratio of
their speeds is the ratio of failures per second. Each (instance, decision kind) runs once per
layout, alternating, for at most ``--seconds``; the model build is counted. Default suite:
``grids/quick``. Rows go to stdout as JSON lines, a table to stderr.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from xwsat.bench.suites import load_suite
from xwsat.errors import run_script
from xwsat.grid import parse_grid
from xwsat.mac import aot
from xwsat.mac import model as model_module
from xwsat.mac import state as mstate
from xwsat.problem import FillProblem, build_problem
from xwsat.propagate import propagate
from xwsat.words import load_words

ROOT = Path(__file__).resolve().parents[3]


def search(problem: FillProblem, seed: int, phase: bool, shared: bool,
           seconds: float) -> dict:
    """One search to its end or ``seconds``: its code, failures and time."""
    saved = model_module.SHARE_BELOW
    model_module.SHARE_BELOW = saved if shared else 0  # 0: no slot shares a table
    try:
        start = time.perf_counter()
        model, first = model_module.build_model(problem)
        tables = len(set(model.slot_table.tolist()))
        st = mstate.new_state(model, first, seed, phase=phase)
        run, code = aot.runner(), mstate.BUDGET
        while code == mstate.BUDGET and time.perf_counter() - start < seconds:
            code = run(model, st, 500)
        return {"code": int(code), "failures": int(st.sc[mstate.FAILS]),
                "nodes": int(st.sc[mstate.NODES]), "seconds": time.perf_counter() - start,
                "tables": tables, "sup_mb": model.sup.nbytes / 2**20}
    finally:
        model_module.SHARE_BELOW = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", nargs="?", default=str(ROOT / "grids" / "quick"))
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    instances = load_suite(args.suite).instances
    ratios = []
    print("| instance | kind | tables per slot / per length | failures | s per slot | s shared "
          "| speed ratio |", file=sys.stderr)
    print("|---|---|---|---|---|---|---|", file=sys.stderr)
    for inst in instances:
        built = build_problem(parse_grid(Path(inst.grid_path).read_text(encoding="utf-8")),
                              load_words(inst.dictionary_path))
        propagated = propagate(built.problem)
        if propagated.wiped is not None:
            continue
        for phase in (False, True):
            alone = search(propagated.problem, args.seed, phase, False, args.seconds)
            shared = search(propagated.problem, args.seed, phase, True, args.seconds)
            rate = [r["failures"] / r["seconds"] for r in (alone, shared)]
            ratio = rate[1] / max(rate[0], 1e-9)
            ratios.append(ratio)
            name = f"{inst.grid}@{inst.dictionary}"
            kind = "phase" if phase else "letters"
            print(json.dumps({"instance": name, "kind": kind, "seed": args.seed,
                              "per_slot": alone, "shared": shared}), flush=True)
            print(f"| {name} | {kind} | {alone['tables']} / {shared['tables']} | "
                  f"{alone['failures']:,} / {shared['failures']:,} | {alone['seconds']:.2f} | "
                  f"{shared['seconds']:.2f} | {ratio:.2f} |", file=sys.stderr, flush=True)
    print(f"\nspeed ratio shared / per slot: median {statistics.median(ratios):.2f}, "
          f"min {min(ratios):.2f}, max {max(ratios):.2f} over {len(ratios)} runs",
          file=sys.stderr)


if __name__ == "__main__":
    run_script(main, "measure.py")
