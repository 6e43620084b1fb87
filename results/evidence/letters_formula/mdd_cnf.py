"""Experiment (not part of the product): a letters-only certificate CNF, each slot's word list as
a layered MDD whose edges and nodes are variables, no word variables. Measured by measure.py
beside it; it lost (results/evidence/README.md, "A smaller certificate formula").

Why try: the word encoding (``xwsat.encode.cnf``) has a variable per (slot, candidate) and a binary
clause per (slot, candidate, letter), about 3M clauses on a 15x15 with a 115k-word list, and a
DRAT checker replays every lemma's unit propagation through them. A minimal MDD of the same words
shares prefixes and suffixes (4-5x fewer edges than letters on English lists), and unit
propagation on the clauses below is still arc consistency on the slot tables:

  edge:     -e | y[cell(p), a],  -e | n_from,  -e | n_to     (an edge needs its letter and ends)
  node:     -n | OR out-edges,   -n | OR in-edges             (a node on the path continues)
  root:     OR root out-edges;   terminal: OR terminal in-edges
  support:  -y[cell(p), a] | OR{edges of layer p labelled a}  (a letter needs a live edge)
  cell:     at most one and at least one letter per cell
  distinct: OR_p d[s,u,p];  -d[s,u,p] | -y[s_p, a] | -y[u_p, a]   (two slots of one length that
            share a candidate differ somewhere: the no-repeat rule, letters only)

An edge dies when its letter or an end dies; a node dies when all its in- or out-edges have; a
letter dies when its last edge in a covering slot has: the greatest live set, which is exactly the
set of edges on a root-to-terminal path through live letters (arc consistency on the table).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from xwsat.encode.cnf import CNF
from xwsat.problem import FillProblem


@dataclass(frozen=True)
class Mdd:
    """A layered, deterministic, minimal MDD of words of one length. Layer p has
    ``n_nodes[p]`` nodes (one root at 0, one terminal at L); its edges go from node
    ``src[p][i]`` of layer p to node ``dst[p][i]`` of layer p+1 with letter ``letter[p][i]``."""

    n_nodes: tuple[int, ...]
    src: tuple[np.ndarray, ...]
    letter: tuple[np.ndarray, ...]
    dst: tuple[np.ndarray, ...]

    @property
    def n_edges(self) -> int:
        return sum(len(e) for e in self.src)


def build_mdd(codes: np.ndarray) -> Mdd:
    """The minimal layered MDD of the distinct rows of ``codes`` (n words x L letter codes)."""
    n, length = codes.shape
    if n == 0:
        empty = tuple(np.zeros(0, np.int64) for _ in range(length))
        return Mdd((1,) + (0,) * (length - 1) + (1,), empty, empty, empty)
    rows = codes[np.lexsort(codes.T[::-1])].astype(np.int64)
    # prefix[p][w]: the trie node (distinct prefix of length p) word w passes at depth p
    prefix = [np.zeros(n, np.int64)]
    for p in range(length):
        starts = np.ones(n, dtype=bool)
        starts[1:] = (prefix[p][1:] != prefix[p][:-1]) | (rows[1:, p] != rows[:-1, p])
        prefix.append(np.cumsum(starts) - 1)
    node_of = np.zeros(int(prefix[length][-1]) + 1, np.int64)  # trie node -> minimal node
    n_nodes, src, letter, dst = [1], [], [], []
    for p in range(length - 1, -1, -1):
        first = np.flatnonzero(np.r_[True, prefix[p + 1][1:] != prefix[p + 1][:-1]])
        parent = prefix[p][first]  # trie node at depth p of each edge
        labels = rows[first, p]
        child = node_of[prefix[p + 1][first]]
        key = labels * (int(child.max()) + 1) + child
        bounds = np.flatnonzero(np.r_[True, parent[1:] != parent[:-1], True])
        ids: dict[bytes, int] = {}
        new_of = np.empty(len(bounds) - 1, np.int64)
        keep = np.zeros(len(first), dtype=bool)
        for g in range(len(bounds) - 1):
            a, b = bounds[g], bounds[g + 1]
            signature = key[a:b].tobytes()
            found = ids.get(signature)
            if found is None:
                found = ids[signature] = len(ids)
                keep[a:b] = True
            new_of[g] = found
        node_of = new_of
        n_nodes.append(len(ids))
        src.append(new_of[np.repeat(np.arange(len(bounds) - 1), np.diff(bounds))][keep])
        letter.append(labels[keep])
        dst.append(child[keep])
    return Mdd(tuple(n_nodes[::-1]), tuple(src[::-1]), tuple(letter[::-1]), tuple(dst[::-1]))


def _ragged_groups(keys: np.ndarray, members: np.ndarray, n_keys: int) -> list[np.ndarray]:
    """``members`` grouped by ``keys`` (0..n_keys-1); an empty array for a key with none."""
    order = np.argsort(keys, kind="stable")
    bounds = np.searchsorted(keys[order], np.arange(n_keys + 1))
    sorted_members = members[order]
    return [sorted_members[bounds[k]:bounds[k + 1]] for k in range(n_keys)]


def encode_letters_cnf(problem: FillProblem) -> CNF:
    """The letters-only formula of ``problem`` (module docstring): letters, MDD edges and
    nodes, distinctness. ``x_base`` is empty: the formula has no word variables."""
    alphabet = problem.alphabet_size
    bits = np.uint64(1) << np.arange(alphabet, dtype=np.uint64)
    allowed = (problem.cell_masks[:, None] & bits[None, :]) != 0
    y_var = np.zeros((problem.n_cells, alphabet), dtype=np.int64)
    y_var[allowed] = np.arange(1, allowed.sum() + 1)
    next_var = int(allowed.sum())
    binary: dict[str, list[np.ndarray]] = {"cell": [], "edge": [], "distinct": []}
    ragged: dict[str, list[np.ndarray]] = {"cell-alo": [], "node": [], "support": [],
                                           "distinct": []}
    units: list[int] = []
    for c in range(problem.n_cells):
        ys = y_var[c][y_var[c] > 0]
        i, j = np.triu_indices(len(ys), k=1)
        if len(i):
            binary["cell"].append(np.stack([-ys[i], -ys[j]], axis=1))
        ragged["cell-alo"].append(ys.astype(np.int64))
    cache: dict[bytes, Mdd] = {}
    for s in range(problem.n_slots):
        codes = problem.letters[s]
        signature = codes.tobytes() + bytes(str(codes.shape), "ascii")
        mdd = cache.get(signature)
        if mdd is None:
            mdd = cache[signature] = build_mdd(codes)
        next_var = _slot_clauses(problem.slot_cells[s], mdd, y_var, next_var, binary, ragged,
                                 units)
    if not problem.allow_repeats:
        next_var = _distinct_clauses(problem, y_var, next_var, binary, ragged)
    families = []
    blocks: list[np.ndarray] = []
    for name, arrays in binary.items():
        blocks += arrays
        families.append((name, sum(len(a) for a in arrays), sum(a.size for a in arrays)))
    clauses: list[np.ndarray] = []
    for name, arrays in ragged.items():
        clauses += arrays
        fam = (f"{name}-or" if name == "distinct" else name, len(arrays),
               sum(len(a) for a in arrays))
        families.append(fam)
    if units:
        lits = np.unique(np.asarray(units, dtype=np.int64))
        blocks.append(lits[:, None])
        families.append(("unit", len(lits), len(lits)))
    return CNF(n_vars=next_var, x_base=np.zeros(0, np.int64), y_var=y_var, blocks=tuple(blocks),
               ragged=tuple(clauses), families=tuple(families), n_word_vars=0)


def _slot_clauses(cells: np.ndarray, mdd: Mdd, y_var: np.ndarray, next_var: int,
                  binary: dict, ragged: dict, units: list[int]) -> int:
    """One slot's edge, node and support clauses; returns the next free variable."""
    length = len(cells)
    node_base = []  # variable of node k of layer p = node_base[p] + k + 1 (inner layers only)
    for p in range(length + 1):
        inner = 0 < p < length
        node_base.append(next_var if inner else -1)
        next_var += mdd.n_nodes[p] if inner else 0
    out_edges: list[list[np.ndarray]] = []
    in_edges: list[list[np.ndarray]] = [[] for _ in range(length + 1)]
    for p in range(length):
        src, letter, dst = mdd.src[p], mdd.letter[p], mdd.dst[p]
        edges = np.arange(len(src), dtype=np.int64) + next_var + 1
        next_var += len(src)
        ys = y_var[cells[p], letter]
        missing = ys == 0
        units.extend((-edges[missing]).tolist())
        pairs = [np.stack([-edges[~missing], ys[~missing]], axis=1)]
        if node_base[p] >= 0:
            pairs.append(np.stack([-edges, src + node_base[p] + 1], axis=1))
        if node_base[p + 1] >= 0:
            pairs.append(np.stack([-edges, dst + node_base[p + 1] + 1], axis=1))
        binary["edge"] += pairs
        out_edges.append(_ragged_groups(src, edges, mdd.n_nodes[p]))
        in_edges[p + 1] = _ragged_groups(dst, edges, mdd.n_nodes[p + 1])
        by_letter = _ragged_groups(letter, edges, y_var.shape[1])
        for a in np.flatnonzero(y_var[cells[p]]).tolist():
            y = int(y_var[cells[p], a])
            if len(by_letter[a]):
                ragged["support"].append(np.concatenate([[-y], by_letter[a]]))
            else:
                units.append(-y)
    for p in range(length + 1):
        groups = []
        if p < length:
            groups += out_edges[p]
        if p > 0:
            groups += in_edges[p]
        if node_base[p] < 0:  # root or terminal: always on the path
            ragged["node"] += [g.copy() for g in groups]
            continue
        n = mdd.n_nodes[p]
        for k in range(n):
            var = node_base[p] + k + 1
            ragged["node"].append(np.concatenate([[-var], out_edges[p][k]]))
            ragged["node"].append(np.concatenate([[-var], in_edges[p][k]]))
    return next_var


def _distinct_clauses(problem: FillProblem, y_var: np.ndarray, next_var: int, binary: dict,
                      ragged: dict) -> int:
    """For each pair of slots of one length sharing a candidate: some position differs."""
    pairs: set[tuple[int, int]] = set()
    for members in problem.repeat_groups().values():
        slots = sorted({s for s, _ in members})
        pairs.update((slots[i], slots[j]) for i in range(len(slots))
                     for j in range(i + 1, len(slots)))
    for s, u in sorted(pairs):
        cells_s, cells_u = problem.slot_cells[s], problem.slot_cells[u]
        ds = np.arange(len(cells_s), dtype=np.int64) + next_var + 1
        next_var += len(cells_s)
        ragged["distinct"].append(ds)
        for p, (cs, cu) in enumerate(zip(cells_s.tolist(), cells_u.tolist())):
            both = np.flatnonzero((y_var[cs] > 0) & (y_var[cu] > 0))
            ys, yu = y_var[cs, both], y_var[cu, both]
            if cs == cu:
                binary["distinct"].append(np.stack([np.full(len(both), -ds[p]), -ys], axis=1))
            else:
                binary["distinct"].append(
                    np.stack([np.full(len(both), -ds[p]), -ys, -yu], axis=1))
    return next_var
