"""Certificate formula experiment: the word formula (xwsat-cnf/1) against a letters-only MDD
formula (``mdd_cnf.py`` beside this file), on one grid: size, encode and write time, the compiled
search's proof (y literals only, so the same proof fits both), dratify's check, and CaDiCaL
solving each formula from scratch. Results: ../README.md, "A smaller certificate formula".

    python results/evidence/letters_formula/measure.py GRID DICT {words,mdd} [--cadical SECONDS]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from mdd_cnf import encode_letters_cnf  # noqa: E402

from xwsat.encode.cnf import write_dimacs  # noqa: E402
from xwsat.encode.solver_files import complete_cnf  # noqa: E402
from xwsat.evidence.drat_check import check_files  # noqa: E402
from xwsat.formats import read_grid  # noqa: E402
from xwsat.mac.proof import search_with_proof  # noqa: E402
from xwsat.problem import build_problem  # noqa: E402
from xwsat.words import load_words  # noqa: E402


def cadical(path: str) -> str:
    """CaDiCaL 1.9.5 through pysat on the DIMACS file, to the end (no limit: pysat's CaDiCaL
    cannot be interrupted); run it under `timeout`."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=CNF(from_file=path).clauses) as solver:
        start = time.perf_counter()
        answer = solver.solve()
        return f"cadical {answer} {time.perf_counter() - start:.1f} s {solver.accum_stats()}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("grid")
    parser.add_argument("dictionary")
    parser.add_argument("formula", choices=("words", "mdd"))
    parser.add_argument("--cadical", action="store_true")
    args = parser.parse_args()
    built = build_problem(read_grid(args.grid), load_words(args.dictionary))
    start = time.perf_counter()
    encode = encode_letters_cnf if args.formula == "mdd" else complete_cnf
    cnf = encode(built.problem)
    encoded = time.perf_counter()
    folder = tempfile.mkdtemp(prefix="letters-formula-")
    write_dimacs(cnf, f"{folder}/formula.cnf")
    written = time.perf_counter()
    print(f"{args.formula}: {cnf.n_vars} vars, {cnf.n_clauses} clauses, {cnf.n_literals} "
          f"literals; encode {encoded - start:.1f} s, write {written - encoded:.1f} s")
    print("families", cnf.families)
    if args.cadical:
        print(cadical(f"{folder}/formula.cnf"))
        return
    run = search_with_proof(built.problem, cnf, f"{folder}/proof.drat", 600)
    proved = time.perf_counter()
    print(f"proof: {run.status.name}, {run.lines} lemmas, {proved - written:.1f} s")
    print("dratify", check_files(f"{folder}/formula.cnf", f"{folder}/proof.drat", "native"))


if __name__ == "__main__":
    main()
