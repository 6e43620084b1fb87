"""CNF encoding (spec: encodings/cnf.md): word and letter Booleans with support clauses.

Variables: x[s,k] "slot s takes its k-th candidate", y[c,a] "cell c holds letter a" (only the
letters arc consistency left). Clauses, built with numpy:
  slot:     OR_k x[s,k]                                  (some word in every slot)
  cell:     -y[c,a] | -y[c,b]                            (at most one letter per cell)
  word:     -x[s,k] | y[cell(s,p), letter(k,p)]          (a word fixes its letters)
  support:  -y[c,a] | OR{x[s,k] : letter(k,p) = a}        (a letter needs a word in each slot)
  repeat:   at most one of the x[s,k] naming the same word (pairwise, or a sequential counter)
The support clauses give unit propagation the strength of arc consistency on the tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from xwsat.problem import FillProblem

PAIRWISE_LIMIT = 6  # larger at-most-one groups use a sequential counter


@dataclass(frozen=True)
class CNF:
    """Clauses as numpy blocks: fixed-width 2-D arrays and ragged lists of 1-D arrays."""

    n_vars: int
    x_base: np.ndarray  # x[s,k] = x_base[s] + k + 1
    y_var: np.ndarray  # (n_cells, alphabet) int32, 0 where the letter is ruled out
    blocks: tuple[np.ndarray, ...]  # each (m, width) int32
    ragged: tuple[np.ndarray, ...]  # each a clause

    @property
    def n_clauses(self) -> int:
        return sum(len(b) for b in self.blocks) + len(self.ragged)

    @property
    def n_literals(self) -> int:
        return sum(b.size for b in self.blocks) + sum(len(c) for c in self.ragged)

    def clauses(self) -> list[list[int]]:
        """All clauses as Python lists (the form pysat takes)."""
        result: list[list[int]] = []
        for block in self.blocks:
            result.extend(block.tolist())
        result.extend(c.tolist() for c in self.ragged)
        return result

    def x_vars(self, slot: int, n_candidates: int) -> np.ndarray:
        return np.arange(n_candidates, dtype=np.int64) + int(self.x_base[slot]) + 1

    def decode(self, problem: FillProblem, true_vars: set[int] | np.ndarray) -> list[int]:
        """Candidate index chosen for each slot from a model (the positive literals)."""
        model = np.zeros(self.n_vars + 1, dtype=bool)
        positives = np.asarray(list(true_vars) if isinstance(true_vars, set) else true_vars)
        positives = positives[(positives > 0) & (positives <= self.n_vars)]
        model[positives] = True
        choice = []
        for s, cands in enumerate(problem.candidates):
            hits = np.flatnonzero(model[self.x_vars(s, len(cands))])
            choice.append(int(hits[0]) if len(hits) else -1)
        return choice


def encode_cnf(problem: FillProblem, repeats: bool = True) -> CNF:
    """Encode ``problem``; ``repeats=False`` omits the no-repeat clauses (for lazy blocking)."""
    sizes = problem.domain_sizes()
    x_base = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    next_var = int(sizes.sum())
    alphabet = problem.alphabet_size
    bits = np.uint64(1) << np.arange(alphabet, dtype=np.uint64)
    allowed = (problem.cell_masks[:, None] & bits[None, :]) != 0
    y_var = np.zeros((problem.n_cells, alphabet), dtype=np.int64)
    y_var[allowed] = np.arange(1, allowed.sum() + 1) + next_var
    next_var += int(allowed.sum())

    blocks: list[np.ndarray] = []
    ragged: list[np.ndarray] = []
    for s, cands in enumerate(problem.candidates):
        ragged.append(np.arange(len(cands), dtype=np.int64) + x_base[s] + 1)
    for c in range(problem.n_cells):
        ys = y_var[c][y_var[c] > 0]
        i, j = np.triu_indices(len(ys), k=1)
        if len(i):
            blocks.append(np.stack([-ys[i], -ys[j]], axis=1))
    for s, cells in enumerate(problem.slot_cells):
        letters = problem.letters[s].astype(np.int64)
        xs = np.arange(len(letters), dtype=np.int64) + x_base[s] + 1
        ys = y_var[cells[None, :], letters]  # (n, L)
        blocks.append(np.stack([np.repeat(-xs, len(cells)), ys.ravel()], axis=1))
        for pos, cell in enumerate(cells):
            column = letters[:, pos]
            order = np.argsort(column, kind="stable")
            splits = np.flatnonzero(np.diff(column[order])) + 1
            for group in np.split(order, splits):
                if len(group):
                    a = column[group[0]]
                    ragged.append(np.concatenate([[-y_var[cell, a]], xs[group]]))
    if repeats:
        for members in problem.repeat_groups().values():
            lits = np.array([x_base[s] + k + 1 for s, k in members], dtype=np.int64)
            next_var = _at_most_one(lits, next_var, blocks)
    return CNF(
        n_vars=next_var,
        x_base=x_base,
        y_var=y_var,
        blocks=tuple(b.astype(np.int64) for b in blocks),
        ragged=tuple(ragged),
    )


def _at_most_one(lits: np.ndarray, next_var: int, blocks: list[np.ndarray]) -> int:
    """Append an at-most-one over ``lits``; returns the next free variable number."""
    if len(lits) <= PAIRWISE_LIMIT:
        i, j = np.triu_indices(len(lits), k=1)
        blocks.append(np.stack([-lits[i], -lits[j]], axis=1))
        return next_var
    # Sequential counter (Sinz 2005): s_i = "some of lits[0..i] is true".
    n = len(lits)
    s = np.arange(next_var + 1, next_var + n, dtype=np.int64)  # s_0 .. s_{n-2}
    blocks.append(np.stack([-lits[:-1], s], axis=1))  # x_i -> s_i
    blocks.append(np.stack([-s[:-1], s[1:]], axis=1))  # s_{i-1} -> s_i
    blocks.append(np.stack([-lits[1:], -s], axis=1))  # x_i -> not s_{i-1}
    return next_var + n - 1


def write_dimacs(cnf: CNF, path: str, comments: tuple[str, ...] = ()) -> None:
    """Write the formula as DIMACS CNF."""
    with open(path, "w", encoding="ascii") as out:
        for line in comments:
            out.write(f"c {line}\n")
        out.write(f"p cnf {cnf.n_vars} {cnf.n_clauses}\n")
        for block in cnf.blocks:
            if len(block):
                np.savetxt(out, np.hstack([block, np.zeros((len(block), 1), np.int64)]), fmt="%d")
        for clause in cnf.ragged:
            out.write(" ".join(map(str, clause.tolist())) + " 0\n")
