"""DIMACS text of a certificate formula: ``xwsat.encode.cnf.dimacs_text`` (columns turned into text,
zipped into lines) against the ``np.savetxt`` writer it replaced (kept here as the baseline),
same formula, same process, bytes compared. Results: ../README.md.

    python results/evidence/slot_core/dimacs_speed.py GRID DICT [--reps 3]
"""

from __future__ import annotations

import argparse
import io
import time
from pathlib import Path

import numpy as np

from xwsat.encode.cnf import CNF, dimacs_text
from xwsat.encode.solver_files import complete_cnf
from xwsat.grid import parse_grid
from xwsat.problem import build_problem
from xwsat.words import load_words


def savetxt_text(cnf: CNF) -> bytes:
    """The writer before session 19: ``np.savetxt`` per block, row by row."""
    out = io.StringIO()
    out.write(f"p cnf {cnf.n_vars} {cnf.n_clauses}\n")
    for block in cnf.blocks:
        if len(block):
            np.savetxt(out, np.hstack([block, np.zeros((len(block), 1), np.int64)]), fmt="%d")
    for clause in cnf.ragged:
        out.write(" ".join(map(str, clause.tolist())) + (" 0\n" if len(clause) else "0\n"))
    return out.getvalue().encode("ascii")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grid")
    parser.add_argument("dictionary")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    built = build_problem(parse_grid(Path(args.grid).read_text()), load_words(args.dictionary))
    cnf = complete_cnf(built.problem)
    times: dict[str, list[float]] = {"savetxt": [], "columns": []}
    for _ in range(args.reps):
        for name, write in (("savetxt", savetxt_text), ("columns", dimacs_text)):
            start = time.perf_counter()
            data = write(cnf)
            times[name].append(time.perf_counter() - start)
            if name == "savetxt":
                baseline = data
        assert data == baseline, "the two writers differ"
    best = {name: min(values) for name, values in times.items()}
    print(f"{Path(args.grid).stem}: {cnf.n_clauses:,} clauses, {len(baseline) / 1e6:.1f} MB; "
          f"np.savetxt {best['savetxt']:.2f} s, columns {best['columns']:.2f} s "
          f"({best['savetxt'] / best['columns']:.1f}x), same bytes (best of {args.reps})")


if __name__ == "__main__":
    main()
