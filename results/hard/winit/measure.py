"""Initial dom/wdeg weights of the compiled letter search from the planner's analysis.

    python results/hard/winit/measure.py LIMIT SEEDS MODES GRID@DICT ...

MODES, comma-separated: ``plain`` (weights 1), ``pd`` (1 + 2 x the slot's placement-difficulty
rank, ``xwsat.planner``), ``probeS`` (plus the weights that S-second searches of the region
probe's first windows learned, ``xwsat.probe``). One JSON row per run on stdout.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from xwsat.evidence.slot_core import restricted
from xwsat.grid import parse_grid
from xwsat.mac import inprocess
from xwsat.mac import state as S
from xwsat.planner import placement_difficulty
from xwsat.probe import FIRST_SHARE, SMALLEST, starts, window_slots
from xwsat.problem import FillProblem, build_problem
from xwsat.propagate import propagate as py_propagate
from xwsat.words import load_words


def probe_weights(problem: FillProblem, width: int, height: int, per_window: float,
                  seed: int) -> np.ndarray:
    """Sum of the weights each window's short search learned, per slot of the whole grid."""
    side = min(height, width)
    size = max(min(SMALLEST, side), round(FIRST_SHARE * side))  # as the probe's first scan
    stride = max(1, size // 3)
    extra = np.zeros(problem.n_slots)
    for t in starts(height, size, stride):
        for c in starts(width, size, stride):
            slots = window_slots(problem, width, t, c, size)
            if not slots:
                continue
            model, st = inprocess.start(restricted(problem, slots), seed)
            inprocess.advance(model, st, time.monotonic() + per_window)
            extra[list(slots)] += st.weight - 1.0
    return extra


def main() -> None:
    limit = float(sys.argv[1])
    seeds = [int(x) for x in sys.argv[2].split(',')]
    modes = sys.argv[3].split(',')
    for spec in sys.argv[4:]:
        g, dname = spec.split('@')
        grid = parse_grid(Path(g).read_text(encoding='utf-8'), g)
        words = load_words(dname)
        built = build_problem(grid, words)
        problem = py_propagate(built.problem).problem
        for seed in seeds:
            for mode in modes:
                t0 = time.monotonic()
                out = {"inst": g.split('/')[-1] + '@' + dname.split('/')[-1].split('.')[0],
                       "seed": seed, "mode": mode}
                if mode == "pd":
                    pd = np.array(placement_difficulty(problem))
                    ranks = pd.argsort().argsort() / max(1, len(pd) - 1)
                    add = 2.0 * ranks
                elif mode.startswith("probe"):
                    per = float(mode[5:] or 0.1)
                    add = probe_weights(problem, grid.width, grid.height, per, seed)
                    out["probe_s"] = round(time.monotonic() - t0, 2)
                else:
                    add = None
                model, st = inprocess.start(problem, seed)
                if add is not None:
                    st.weight[:] += add
                code = inprocess.advance(model, st, t0 + limit)
                out.update(code={0: "unsat", 1: "sat", 2: "timeout"}[int(code)],
                           s=round(time.monotonic() - t0, 2), fails=int(st.sc[S.FAILS]))
                print(json.dumps(out), flush=True)

if __name__ == "__main__":
    main()
