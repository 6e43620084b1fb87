"""Singleton arc consistency (SAC) at the root of the compiled letter search, then the search.

    python results/hard/sac/measure.py LIMIT SEED MODE GRID@DICT ...

MODE: ``plain`` (the search alone), ``sac1`` (one SAC pass first: each letter of each open cell
is placed, propagated and taken back; a letter whose placement fails leaves its cell),
``sac`` (passes until none removes a letter), ``sacw`` (as ``sac``, each failure also adding 1
to its slot's dom/wdeg weight). One JSON row per instance on stdout: the SAC time, passes and
letters removed, the verdict, the whole time (SAC included) and the search's failures.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from xwsat.grid import parse_grid
from xwsat.mac import inprocess, kernel
from xwsat.mac import state as S
from xwsat.mac.kernel import U1, _decide, undo
from xwsat.problem import build_problem
from xwsat.propagate import propagate
from xwsat.words import load_words

ROOT_UNSAT = -2


@njit(cache=True, _nrt=False)
def sac_pass(m, st, bump):  # noqa: ANN001, ANN201 (numba's types)
    """One pass over every (cell, letter) at the root: the letters removed, or ROOT_UNSAT."""
    removed = 0
    n_slots = len(m.slot_table)
    for c in range(len(st.dom)):
        x = st.dom[c]
        if x == 0 or (x & (x - U1)) == 0:
            continue
        while x:
            a = kernel.low_bit(x)
            x &= x - U1
            if not (st.dom[c] & (U1 << np.uint64(a))):
                continue
            st.sc[S.LEVEL] = 1  # as the search opens a level, so the trail keeps what to undo
            st.sc[S.STAMP] += 1
            st.lv_stamp[1] = st.sc[S.STAMP]
            st.lv_trail[1] = st.sc[S.TR]
            st.lv_path[1] = st.sc[S.PATH]
            conflict = _decide(m, st, c, a, True)
            undo(st, st.lv_trail[1])
            st.sc[S.PATH] = st.lv_path[1]
            st.sc[S.LEVEL] = 0
            if conflict >= 0:
                if bump and conflict < n_slots:
                    st.weight[conflict] += 1.0
                removed += 1
                if _decide(m, st, c, a, False) >= 0:
                    return ROOT_UNSAT
    return removed


def main() -> None:
    limit, seed, mode = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    for spec in sys.argv[4:]:
        path, dictionary = spec.split("@")
        grid = parse_grid(Path(path).read_text(encoding="utf-8"), path)
        problem = propagate(build_problem(grid, load_words(dictionary)).problem).problem
        began = time.monotonic()
        model, st = inprocess.start(problem, seed)
        code = kernel.run(model, st, 0)
        row: dict[str, object] = {"instance": spec, "seed": seed, "mode": mode}
        if mode.startswith("sac") and code != S.UNSAT:
            passes = removed = 0
            while True:
                found = sac_pass(model, st, mode == "sacw")
                passes += 1
                if found == ROOT_UNSAT:
                    code = S.UNSAT
                    break
                removed += found
                if found == 0 or mode == "sac1":
                    break
            row.update(sac_s=round(time.monotonic() - began, 2), passes=passes, removed=removed)
        if code != S.UNSAT:
            code = inprocess.advance(model, st, began + limit)
        row.update(verdict={S.UNSAT: "unfillable", S.SAT: "filled"}.get(int(code), "timeout"),
                   seconds=round(time.monotonic() - began, 2), failures=int(st.sc[S.FAILS]))
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
