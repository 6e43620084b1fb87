"""The SAT route: the same line automata as clauses, solved by a CDCL solver through pysat.

Variables: X[c][s] (cell c holds symbol s: a letter or the block), exactly one per cell; and per
line a state variable S[i][q] for each state q the layered automaton can be in after i cells.
Clauses per line: the start state is true; a state and a symbol imply the next state
(S[i][q] & X[c_i][a] -> S[i+1][q']); a state allows only its symbols (S[i][q] -> OR X[c_i][a]);
a state needs a predecessor (S[i+1][q'] -> OR S[i][q]). Only final states survive the layer
pruning at the end, so a satisfied line is a valid line. The block cap is a cardinality encoding;
symmetry ties block literals; theme entries are placement literals. Connectivity and repeats are
lazy: each model is checked and an exact clause added (incremental SAT), as in the CP-SAT route.
The solver runs in a forked child, killed at the deadline (CaDiCaL ignores interrupts).
"""

from __future__ import annotations

import multiprocessing as mp
import threading
import time
from collections.abc import Callable
from itertools import combinations

import numpy as np

from xwsat.generate.automaton import LayeredStates, LineAutomaton
from xwsat.generate.cpsat_lines import SolveReport
from xwsat.generate.lazy import lazy_cuts, run_literals
from xwsat.generate.spec import GenerateSpec
from xwsat.words import Alphabet

Progress = Callable[[str], None]
SOLVER = "cadical195"


def build_cnf(spec: GenerateSpec, alphabet: Alphabet,
              automata: dict[int, LineAutomaton]) -> tuple[list[list[int]], int, int]:
    """(clauses, number of variables, symbols per cell); X[c][s] is variable c*symbols + s + 1."""
    block = alphabet.size
    n_sym = block + 1
    top = spec.cells * n_sym

    def x(cell: int, sym: int) -> int:
        return cell * n_sym + sym + 1

    clauses: list[list[int]] = []
    for cell in range(spec.cells):
        lits = [x(cell, s) for s in range(n_sym)]
        clauses.append(lits)
        clauses.extend([-a, -b] for a, b in combinations(lits, 2))
    for cell, ch in spec.givens.items():
        clauses.append([x(cell, block if ch == "#" else alphabet.code(ch))])
    for cell in range(spec.cells):
        other = spec.mirror_of(cell)
        if other is not None and other > cell:
            clauses += [[-x(cell, block), x(other, block)], [x(cell, block), -x(other, block)]]
    layered = {length: LayeredStates(auto) for length, auto in automata.items()}
    for _, _, cells in spec.lines():
        lay = layered[len(cells)]
        prev: np.ndarray | None = None   # layer 0 is the start state, always true
        for i, cell in enumerate(cells):
            nxt = np.arange(top + 1, top + 1 + lay.sizes[i + 1], dtype=np.int64)
            top += lay.sizes[i + 1]
            src, sym, dst = lay.src[i].astype(np.int64), lay.sym[i], lay.dst[i]
            xs = cell * n_sym + sym.astype(np.int64) + 1
            if prev is None:
                clauses += np.stack([-xs, nxt[dst]], axis=1).tolist()
                clauses.append(sorted(set(xs.tolist())))
            else:
                clauses += np.stack([-prev[src], -xs, nxt[dst]], axis=1).tolist()
                clauses += _grouped(src, xs, -prev)
                clauses += _grouped(dst, prev[src], -nxt)
            prev = nxt
    if spec.max_blocks is not None and spec.max_blocks < spec.cells:
        from pysat.card import CardEnc, EncType

        card = CardEnc.atmost([x(c, block) for c in range(spec.cells)], spec.max_blocks,
                              top_id=top, encoding=EncType.seqcounter)
        clauses.extend(card.clauses)
        top = max(top, card.nv)
    for word in spec.theme:
        codes = [alphabet.code(ch) for ch in word]
        options = []
        for _, _, cells in spec.lines():
            for start in range(len(cells) - len(word) + 1):
                top += 1
                options.append(top)
                for cell, sym, _ in run_literals(cells[start:start + len(word)], codes, block,
                                                 spec.width, spec.cells):
                    clauses.append([-top, x(cell, sym)])
        clauses.append(options)
    return clauses, top, n_sym


def _grouped(keys: np.ndarray, members: np.ndarray, heads: np.ndarray) -> list[list[int]]:
    """One clause per key k: heads[k] or any member listed under k (duplicates dropped)."""
    order = np.lexsort((members, keys))
    keys, members = keys[order], members[order]
    keep = np.ones(len(keys), dtype=bool)
    keep[1:] = (keys[1:] != keys[:-1]) | (members[1:] != members[:-1])
    keys, members = keys[keep], members[keep]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], len(keys)].tolist()
    flat, head = members.tolist(), heads[keys[starts]].tolist()
    return [[h, *flat[a:b]] for h, a, b in zip(head, starts.tolist(), ends)]


def _child(spec, alphabet, automata, seed, conn) -> None:
    import signal

    from pysat.solvers import Solver

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    started = time.monotonic()
    clauses, n_vars, n_sym = build_cnf(spec, alphabet, automata)
    stats: dict[str, float | int] = {"variables": n_vars, "clauses": len(clauses), "cuts": 0,
                                     "solves": 0, "build_cnf_s": round(time.monotonic() - started,
                                                                       3)}
    letters = alphabet.letters + "#"
    with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
        while True:
            stats["solves"] += 1
            if not solver.solve():
                conn.send(SolveReport(None, True, "", stats))
                return
            model = solver.get_model()
            values = []
            for cell in range(spec.cells):
                base = cell * n_sym
                values.append(next(letters[s] for s in range(n_sym) if model[base + s] > 0))
            rows = tuple("".join(values[r * spec.width:(r + 1) * spec.width])
                         for r in range(spec.height))
            cuts = lazy_cuts(rows, alphabet.letters, spec.allow_repeats)
            if not cuts:
                stats["solve_s"] = round(time.monotonic() - started, 3)
                conn.send(SolveReport(rows, False, "", stats))
                return
            stats["cuts"] += len(cuts)
            for clause in cuts:
                solver.add_clause([(1 if pos else -1) * (c * n_sym + s + 1)
                                   for c, s, pos in clause])


class SatGenerator:
    """Runs the CNF route in a child process with a hard deadline."""

    def __init__(self, spec: GenerateSpec, alphabet: Alphabet,
                 automata: dict[int, LineAutomaton], seed: int = 0) -> None:
        self.args = (spec, alphabet, automata, seed)

    def solve(self, deadline: float, stop: threading.Event, progress: Progress) -> SolveReport:
        ctx = mp.get_context("fork")
        receiver, sender = ctx.Pipe(duplex=False)
        child = ctx.Process(target=_child, args=(*self.args, sender), daemon=True)
        child.start()
        sender.close()
        try:
            while True:
                if receiver.poll(0.05):
                    try:
                        return receiver.recv()
                    except EOFError:
                        return SolveReport(None, False, "the SAT solver process died")
                if stop.is_set():
                    return SolveReport(None, False, "interrupted")
                if time.monotonic() >= deadline:
                    return SolveReport(None, False, "time limit reached")
                if not child.is_alive() and not receiver.poll():
                    return SolveReport(None, False, "the SAT solver process died")
        except KeyboardInterrupt:
            return SolveReport(None, False, "interrupted")
        finally:
            if child.is_alive():
                child.kill()
            child.join(timeout=5)
            receiver.close()
