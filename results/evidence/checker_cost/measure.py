"""Where dratify's time per lemma goes: two hypotheses tested on the certificate formula, with the
same compiled-search proof checked against each variant (results/evidence/README.md, "What a
lemma costs the checker").

1. ``split``: dratify's watch search scans a clause from its third literal every time a watch
   moves, so a long clause whose literals die one by one costs time quadratic in its length; the
   word formula's support clauses list up to thousands of words. Variant: each clause longer
   than B+1 literals is cut into groups of B with a variable per group (``-g | group`` and the
   original head with the group variables), which keeps unit propagation equal to arc
   consistency (a group's variable dies with its last word).
2. ``restarts``: lemmas are the search's failures; the letter search restarts (with nogoods).
   Variant: the same search without restarts, counting failures.

    python results/evidence/checker_cost/measure.py split GRID DICT [--core] [--sizes 0,16,64]
    python results/evidence/checker_cost/measure.py restarts DICT GRID...
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from xwsat.encode.cnf import CNF, dimacs_text
from xwsat.encode.solver_files import complete_cnf
from xwsat.evidence.drat_check import check_files
from xwsat.evidence.slot_core import restricted, shrink
from xwsat.grid import parse_grid
from xwsat.mac import aot
from xwsat.mac import state as mstate
from xwsat.mac.model import build_model
from xwsat.mac.proof import search_with_proof
from xwsat.problem import FillProblem, build_problem
from xwsat.words import load_words


def split_long(cnf: CNF, size: int) -> CNF:
    """Every ragged clause longer than ``size + 1`` cut into groups of ``size`` literals."""
    n_vars, ragged = cnf.n_vars, []
    for clause in cnf.ragged:
        if len(clause) <= size + 1:
            ragged.append(clause)
            continue
        head = clause[:1] if clause[0] < 0 else clause[:0]  # a support clause's -y[c,a]
        body = clause[len(head):]
        groups = [body[i:i + size] for i in range(0, len(body), size)]
        names = np.arange(n_vars + 1, n_vars + 1 + len(groups), dtype=np.int64)
        n_vars += len(groups)
        ragged += [np.concatenate([[-g], group]) for g, group in zip(names, groups)]
        ragged.append(np.concatenate([head, names]))
    return replace(cnf, n_vars=n_vars, ragged=tuple(ragged))


def problem_of(grid: str, dictionary: str) -> FillProblem:
    return build_problem(parse_grid(Path(grid).read_text(encoding="utf-8"), grid),
                         load_words(dictionary)).problem


def split(args: argparse.Namespace) -> None:
    problem = problem_of(args.grid, args.dictionary)
    if args.core:
        problem = restricted(problem, sorted(shrink(problem, 120.0)))
    cnf = complete_cnf(problem)
    with tempfile.TemporaryDirectory() as folder:
        proof = str(Path(folder) / "proof.drat")
        run = search_with_proof(problem, cnf, proof, 300.0)
        print(f"{args.grid}: {problem.n_slots} slots, {run.lines} lemmas ({run.status.name}), "
              f"{cnf.n_clauses:,} clauses, longest {max(len(c) for c in cnf.ragged):,}")
        for size in (int(x) for x in args.sizes.split(",")):
            variant = cnf if size == 0 else split_long(cnf, size)
            formula = Path(folder) / "formula.cnf"
            formula.write_bytes(dimacs_text(variant))
            checked = check_files(str(formula), proof, "auto")
            print(f"  groups of {size or 'all (as shipped)'}: {variant.n_clauses:,} clauses, "
                  f"{variant.n_vars:,} variables, ok={checked['verified']}, parse "
                  f"{checked['parse_s']:.1f} s, check {checked['check_s']:.1f} s", flush=True)


def failures(problem: FillProblem, restarts: bool, limit: float = 60.0) -> tuple[str, float]:
    model, start = build_model(problem)
    state = mstate.new_state(model, start, 0)
    if not restarts:
        state.cutoff[0] = 1e18  # the first restart never comes
    run, code, began = aot.runner(), mstate.BUDGET, time.monotonic()
    while code == mstate.BUDGET:
        if time.monotonic() - began > limit:
            return "undecided", limit
        code = run(model, state, 2000)
    verdict = str(int(state.sc[mstate.FAILS])) if code == mstate.UNSAT else "filled"
    return verdict, time.monotonic() - began


def restarts(args: argparse.Namespace) -> None:
    words = load_words(args.dictionary)
    print("| grid | failures with restarts | without | time with | without |")
    print("|---|---|---|---|---|")
    for grid in args.grids:
        problem = build_problem(parse_grid(Path(grid).read_text(encoding="utf-8"), grid),
                                words).problem
        (a, ta), (b, tb) = failures(problem, True), failures(problem, False)
        print(f"| {Path(grid).stem} | {a} | {b} | {ta:.2f} s | {tb:.2f} s |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("split")
    one.add_argument("grid")
    one.add_argument("dictionary")
    one.add_argument("--core", action="store_true", help="the slots shrink keeps, as shipped")
    one.add_argument("--sizes", default="0,16,64")
    two = sub.add_parser("restarts")
    two.add_argument("dictionary")
    two.add_argument("grids", nargs="+")
    args = parser.parse_args()
    split(args) if args.what == "split" else restarts(args)


if __name__ == "__main__":
    main()
