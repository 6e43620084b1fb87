"""A legend for an export: what each variable and value of the file means, so that a model an
external solver finds can be read back into a fill without xwsat (``xwsat encode --map``).

One line per item, space-separated, rows and columns from 1:
  cell NAME ROW COL      the variable of the white cell at (ROW, COL)
  slot NAME SLOT         the word variable of a slot (word-model formats)
  letter CODE LETTER     a value of a cell variable
  word ID WORD           a value of a word variable (the dictionary's id of the word)
  x VAR SLOT WORD | y VAR ROW COL LETTER   DIMACS variables (as in a certificate's variables.txt)
"""

from __future__ import annotations

import numpy as np

from xwsat.encode.cnf import CNF
from xwsat.encode.xcsp3 import cell_var, slot_vars
from xwsat.problem import Built, FillProblem

CELL_NAMES = {"xcsp3": cell_var, "xcsp3-cells": lambda c: f"x{c}", "cpsat": lambda c: f"c{c}"}


def legend(built: Built, problem: FillProblem, fmt: str, cnf: CNF | None = None) -> str:
    """The legend of ``problem`` exported as ``fmt`` (``cnf`` for DIMACS)."""
    if fmt == "dimacs":
        assert cnf is not None
        return variable_map(built, problem, cnf)
    width = built.grid.width
    letters = built.words.alphabet.letters
    lines = [f"# xwsat legend of a {fmt} export: cell NAME ROW COL | slot NAME SLOT | "
             "letter CODE LETTER | word ID WORD (rows, cols from 1)"]
    name = CELL_NAMES[fmt]
    for c in range(problem.n_cells):
        row, col = divmod(int(problem.cell_ids[c]), width)
        lines.append(f"cell {name(c)} {row + 1} {col + 1}")
    lines += [f"letter {code} {letter}" for code, letter in enumerate(letters)]
    if fmt != "xcsp3-cells":
        names = (slot_vars(problem.slot_names) if fmt == "xcsp3" else list(problem.slot_names))
        lines += [f"slot {ident} {slot}" for ident, slot in zip(names, problem.slot_names)]
        ids = sorted({int(w) for cands in problem.candidates for w in cands.tolist()})
        lines += [f"word {i} {built.words.words[i]}" for i in ids]
    return "\n".join(lines) + "\n"


def variable_map(built: Built, problem: FillProblem, cnf: CNF) -> str:
    """The DIMACS legend (a certificate's ``variables.txt``), one line per variable:
    ``x VAR SLOT WORD`` and ``y VAR ROW COL LETTER`` (1-based)."""
    words, width = built.words, built.grid.width
    lines = ["# xwsat variable map: x VAR SLOT WORD | y VAR ROW COL LETTER (rows, cols from 1)"]
    for s, cands in enumerate(problem.candidates):
        base = int(cnf.x_base[s])
        name = problem.slot_names[s]
        lines.extend(f"x {base + k + 1} {name} {words.words[int(w)]}"
                     for k, w in enumerate(cands.tolist()))
    letters = words.alphabet.letters
    for c in range(problem.n_cells):
        row, col = divmod(int(problem.cell_ids[c]), width)
        for a in np.flatnonzero(cnf.y_var[c]).tolist():
            lines.append(f"y {int(cnf.y_var[c, a])} {row + 1} {col + 1} {letters[a]}")
    return "\n".join(lines) + "\n"
