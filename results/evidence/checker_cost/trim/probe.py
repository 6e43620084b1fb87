"""Trimming the compiled search's proof before it is written: how many lemmas would go?

Needs the kernel patched with ``trim.diff`` (from the repository root: ``git apply
results/evidence/checker_cost/trim/trim.diff``; ``git checkout xwsat/mac`` undoes it). The
patch records, for each restart nogood, which lemmas its subtree wrote, and each time a nogood
propagates, from which lemma until its level is undone; ``xwsat.mac.proof.kept_lemmas`` then keeps
only the nogoods a kept lemma may rest on (results/evidence/README.md, "Trimming the proof").

    python results/evidence/checker_cost/trim/probe.py GRID DICT SEED
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from xwsat.commands.common import load_grid
from xwsat.encode.solver_files import complete_cnf
from xwsat.mac import aot
from xwsat.mac import state as mstate
from xwsat.mac.model import build_model
from xwsat.mac.proof import kept_lemmas
from xwsat.pipeline import build_problem
from xwsat.propagate import propagate
from xwsat.words import load_words


def main(grid: str, dictionary: str, seed: int) -> None:
    built = build_problem(load_grid(Path(grid), False), load_words(dictionary), 2, False)
    problem = propagate(built.problem).problem
    cnf = complete_cnf(problem)
    model, start = build_model(problem)
    st = mstate.new_state(model, start, seed, yvar=cnf.y_var)
    run = aot.runner()
    began, code = time.perf_counter(), mstate.BUDGET
    while code == mstate.BUDGET:
        code = run(model, st, 1 << 16)
        st.sc[mstate.PROOF] = 0  # the lemmas themselves are not needed here
    lemmas, nogoods = int(st.sc[mstate.LEMMAS]), int(st.sc[mstate.NG])
    cover = np.zeros(lemmas + 1, dtype=np.int64)
    np.add.at(cover, st.ng_from[:nogoods], 1)
    np.add.at(cover, st.ng_to[:nogoods], -1)
    kept = kept_lemmas(st)
    print(f"{Path(grid).stem}: {'UNSAT' if code == mstate.UNSAT else code} in "
          f"{time.perf_counter() - began:.2f} s; lemmas {lemmas}, restarts "
          f"{int(st.sc[mstate.RESTARTS])}, nogoods {nogoods}, lemmas in nogood subtrees "
          f"{int((np.cumsum(cover)[:lemmas] > 0).sum())}, propagations by nogoods below the "
          f"root {int(st.sc[mstate.FIRES])}; kept {int(kept.sum())} "
          f"({100 * kept.sum() / max(lemmas, 1):.1f} %)")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
