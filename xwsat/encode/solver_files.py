"""Export a fill problem for external solvers: DIMACS CNF, XCSP3, or the CP-SAT model proto.

Each export is complete (the no-repeat rule included eagerly), so an external solver's verdict is
a verdict on the grid; the exact models are specified in ``encodings/``.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from xwsat.encode.cnf import CNF, dimacs_text, encode_cnf
from xwsat.encode.xcsp3 import cells_xcsp3, to_xcsp3
from xwsat.errors import XwsatError
from xwsat.problem import Built, FillProblem
from xwsat.propagate import propagate

FORMATS = ("dimacs", "xcsp3", "xcsp3-cells", "cpsat")
CNF_ENCODING = ("xwsat-cnf/1 (encodings/cnf.md: slot, cell, word, support, eager repeat, "
                "empty support, cell at-least-one)")


@dataclass(frozen=True)
class Export:
    """The exported bytes, a one-line summary, and whether arc consistency pruned first."""

    data: bytes
    summary: str
    pruned: bool
    legend: str = ""  # with ``legend=True``: what each variable and value means


def chosen_problem(built: Built, prune: bool) -> tuple[FillProblem, bool, str]:
    """The raw problem, or its arc-consistent pruning when asked and no slot wipes out."""
    if not prune:
        return built.problem, False, ""
    propagated = propagate(built.problem)
    if propagated.wiped is not None:
        name = built.problem.slot_names[propagated.wiped]
        return built.problem, False, f"arc consistency empties slot {name}; exported unpruned"
    return propagated.problem, True, ""


def complete_cnf(problem: FillProblem) -> CNF:
    """The `sat` encoding with the no-repeat clauses eager, the empty support clauses and a
    clause per cell that it holds some letter.

    The last family is implied (every fill puts a letter in each cell) but lets unit propagation
    conclude "this cell holds a" once every other letter is out, as a MAC search on letters does
    (the compiled search's proofs need it, ``xwsat.compiled_search.proof``).

    ``encode_cnf`` writes a support clause per letter some candidate uses; on an unpruned problem
    a cell may still allow a letter that no candidate of a covering slot puts there. Its support
    clause is then empty of words: the unit ``-y[c,a]``. Adding these units keeps the formula's
    models and makes unit propagation as strong as arc consistency again (encodings/cnf.md).
    """
    cnf = encode_cnf(problem, repeats=True)
    units = []
    for s, cells in enumerate(problem.slot_cells):
        letters = problem.letters[s]
        for pos, cell in enumerate(cells.tolist()):
            used = np.zeros(problem.alphabet_size, dtype=bool)
            used[letters[:, pos]] = True
            ys = cnf.y_var[cell][~used]
            units.append(ys[ys > 0])
    lits = np.unique(np.concatenate(units)) if units else np.zeros(0, dtype=np.int64)
    cells = tuple(row[row > 0].astype(np.int64) for row in cnf.y_var)
    alo = ("cell-alo", len(cells), sum(len(c) for c in cells))
    if not len(lits):
        return replace(cnf, ragged=(*cnf.ragged, *cells), families=(*cnf.families, alo))
    block = -lits.astype(np.int64)[:, None]
    return replace(cnf, blocks=(*cnf.blocks, block), ragged=(*cnf.ragged, *cells),
                   families=(*cnf.families, ("support-empty", len(block), len(block)), alo))


def cnf_comments(built: Built, problem: FillProblem, cnf: CNF, source: str) -> tuple[str, ...]:
    """DIMACS header comments: what the formula is and how to read its variables. DIMACS is
    ASCII, one comment per line: the grid's name is escaped (a non-ASCII or line-breaking path
    can neither break the file nor add a line to it)."""
    source = source.encode("unicode_escape").decode("ascii")
    lines = [
        f"xwsat {CNF_ENCODING}",
        f"grid {source}: {built.grid.width}x{built.grid.height}, {problem.n_slots} slots, "
        f"repeats {'allowed' if problem.allow_repeats else 'forbidden'}",
        f"word variables 1..{cnf.n_word_vars}: x[s,k] = x_base[s] + k + 1 (k-th candidate)",
        "families " + ", ".join(f"{n}={c}" for n, c, _ in cnf.families),
    ]
    if problem.n_slots < built.problem.n_slots:
        lines.append(f"the constraints of {problem.n_slots} of the grid's {built.problem.n_slots} "
                     "slots only (listed below): any fill of the grid satisfies them")
    for s in range(problem.n_slots):
        lines.append(f"slot {problem.slot_names[s]} x_base {int(cnf.x_base[s])} "
                     f"candidates {len(problem.candidates[s])}")
    return tuple(lines)


def export_problem(built: Built, fmt: str, prune: bool = False, source: str = "grid",
                   binary: bool = False, legend: bool = False) -> Export:
    """Encode ``built`` in format ``fmt`` (one of FORMATS); ``binary`` = CP-SAT wire format;
    ``legend`` adds the variable legend (``xwsat.encode.legend``)."""
    from xwsat.encode.legend import legend as legend_of

    if fmt not in FORMATS:
        raise XwsatError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    problem, pruned, note = chosen_problem(built, prune)
    summary = f"{problem.n_slots} slots, {int(problem.domain_sizes().sum())} candidates"
    cnf = None
    if fmt == "dimacs":
        cnf = complete_cnf(problem)
        data = dimacs_text(cnf, cnf_comments(built, problem, cnf, source))
        summary = f"DIMACS: {cnf.n_vars} variables, {cnf.n_clauses} clauses ({summary})"
    elif fmt == "xcsp3":
        text = to_xcsp3(problem, list(problem.slot_names), note=f"xwsat export of {source}",
                        alphabet=built.words.alphabet.letters)
        data = text.encode("utf-8")
        summary = f"XCSP3: {problem.n_cells} letter + {problem.n_slots} word variables ({summary})"
    elif fmt == "xcsp3-cells":
        data = (f"<!-- xwsat-xcsp3-cells/1: letters only (encodings/xcsp3.md); x<c> = white "
                f"cell c in row-major order; value k = letter k of "
                f"{built.words.alphabet.letters}; the map option of xwsat encode writes the "
                f"cell legend -->\n"  # no double hyphen: XML comments may not hold one
                + cells_xcsp3(problem)).encode("utf-8")
        summary = f"XCSP3 (letters only): {problem.n_cells} letter variables ({summary})"
    else:
        from xwsat.encode.cpsat_tables import encode_cpsat

        model = encode_cpsat(problem)
        proto = model.model.Proto()
        with tempfile.TemporaryDirectory() as tmp:  # OR-Tools writes the proto only to a file
            path = Path(tmp) / ("model.pb" if binary else "model.txt")
            if not model.model.export_to_file(str(path)):
                raise XwsatError("OR-Tools could not export the CP-SAT model")
            data = path.read_bytes()
        kind = "binary" if binary else "text"
        summary = (f"CP-SAT model ({kind} proto): {len(proto.variables)} variables, "
                   f"{len(proto.constraints)} constraints, {model.n_tuples} table rows ({summary})")
    if note:
        summary += f"; {note}"
    return Export(data, summary, pruned, legend_of(built, problem, fmt, cnf) if legend else "")
