"""Lazy clause generation experiment: CaDiCaL 1.9.5 (pysat's user-propagator interface) with the
slot tables as a compiled propagator, against the compiled MAC search on the same instances,
one after the other in one process. Results: README.md beside this file.

    python results/hard/lcg/measure.py --limit 60 [--decide] GRID@DICT ...

DICT is a file or an embedded list (``en``). CaDiCaL sees one variable per (cell, letter), "one
letter per cell" as clauses, and nothing else: the propagator removes the rows a letter excludes
from each slot's bitset, prunes the letters left without support, and explains each pruning by
the letters that exclude every supporting row; a slot whose letters are all placed bans its word
from the other slots of its length (the explanation then names that slot's letters). Every fill
is checked against the unpruned candidates (each slot a candidate, no word twice).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from pysat.solvers import Solver

sys.path.insert(0, str(Path(__file__).parent))

import lcg_kernel as K  # noqa: E402

from xwsat.backends.registry import make_backend  # noqa: E402
from xwsat.errors import XwsatError, run_script  # noqa: E402
from xwsat.formats import read_grid  # noqa: E402
from xwsat.mac.model import build_model  # noqa: E402
from xwsat.outcome import Limits  # noqa: E402
from xwsat.problem import FillProblem, build_problem  # noqa: E402
from xwsat.propagate import propagate  # noqa: E402
from xwsat.words import load_words  # noqa: E402


class TablePropagator:
    """pysat's IPASIR-UP callbacks; the work is done in ``lcg_kernel``."""

    has_clause = None  # not callable: pysat asks add_clause alone (one call, not two)

    def __init__(self, problem: FillProblem, deadline: float, decide: str) -> None:
        self.is_lazy = False
        self.problem = problem
        self.m, start = build_model(problem)
        self.A = self.m.n_letters
        self.n_vars = problem.n_cells * self.A
        self.ct = start.ct.copy()
        self.init = start.ct.copy()
        last = int(self.m.slot_start[-1] - self.m.slot_start[-2]) if problem.n_slots else 0
        n_res = int(self.m.res_off[-1]) + last * self.A if problem.n_slots else 0
        self.__dict__.update(K.empty_buffers(self.n_vars, len(self.ct), problem.n_slots, n_res,
                                             int(self.m.tab_words.max())))
        self.wcap = max(4 * len(self.ct), 1 << 16)
        self.wtr_idx = np.zeros(self.wcap, np.int64)
        self.wtr_old = np.zeros(self.wcap, np.uint64)
        self.pending: list[int] = []
        self.fixed: list[int] = []  # root-level literals, as CaDiCaL marked them
        self.out_lit = np.zeros(self.n_vars + 1, np.int64)
        self.out_start = np.zeros(self.n_vars + 2, np.int64)
        self.pool_cap = 1 << 20
        longest = int(np.diff(self.m.slot_start).max()) if problem.n_slots else 0
        # room past the cap for a slot's explanations to end (the kernel stops when less is left)
        self.pool = np.zeros(self.pool_cap + 2 * (self.n_vars + longest * self.A) + 16,
                             np.int64)
        self.reasons: dict[int, list[int]] = {}
        self.clauses: list[list[int]] = []  # external clauses, handed over one per call
        self.counts = {"propagate": 0, "pruned": 0, "conflicts": 0, "reasons": 0, "models": 0}
        self.deadline = deadline
        self.timed_out = False
        self.decide_by = decide
        self.letters: np.ndarray | None = None
        # dom/wdeg: a slot's weight grows by one each time CaDiCaL's conflict analysis asks
        # for an explanation it gave (or it wiped out), as the compiled search's does per failure
        self.weight = np.ones(max(problem.n_slots, 1), np.float64)
        self.reason_slot: dict[int, int] = {}

    def _room(self) -> None:
        """One kernel call saves each bitset word at most once (it works at one level): room
        for that many saves, since numba checks no bounds."""
        if self.cnt[K.WTRAIL] + len(self.ct) > self.wcap:
            self.wcap = 2 * self.wcap + len(self.ct)
            for name in ("wtr_idx", "wtr_old"):
                old = getattr(self, name)
                grown = np.zeros(self.wcap, old.dtype)
                grown[: len(old)] = old
                setattr(self, name, grown)

    def _flush(self) -> None:
        if not self.pending:
            return
        self._room()
        lits = np.array(self.pending, np.int64)
        self.pending = []
        m = self.m
        K.assign(lits, len(lits), self.A, m.cell_nslots, m.cell_slot, m.cell_pos, m.slot_table,
                 m.tab_words, m.sup_off, m.sup, m.ct_off, self.ct, self.stamp, self.wtr_idx,
                 self.wtr_old, self.trl, self.cnt, self.lvid, self.val, self.dirty, self.dlist)

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        self.pending.append(lit)
        if fixed:
            self.fixed.append(lit)

    def on_new_level(self) -> None:
        self._flush()
        K.new_level(self.cnt, self.lvid, self.lev_t, self.lev_w)

    def on_backtrack(self, to: int) -> None:
        self._flush()
        K.backtrack(to, self.cnt, self.lev_t, self.lev_w, self.trl, self.val, self.ct,
                    self.wtr_idx, self.wtr_old, self.dirty, self.dlist)
        # CaDiCaL tells a root-level (fixed) literal once, perhaps while above level 0, and
        # never again: one undone here is still assigned there, so it is applied again
        self.pending.extend(lit for lit in self.fixed if self.val[abs(lit)] == 0)

    def decide(self) -> int:
        if self.decide_by == "cadical":
            return 0
        self._flush()
        m = self.m
        return int(K.decide(self.A, self.problem.n_cells, self.val, m.cell_nslots, m.cell_slot,
                            m.cell_pos, m.slot_table, m.tab_words, m.sup_off, m.sup, m.ct_off,
                            self.ct, self.weight, self.decide_by == "wdeg"))

    def _slot_of(self, clause: list[int]) -> int:
        """The slot whose table gave ``clause``: the one slot through all its cells (the
        letters of one slot explain a pruning or a wipe-out of that slot)."""
        A, cs = self.A, self.m.cell_slot
        common: set[int] | None = None
        for lit in clause:
            slots = {int(s) for s in cs[(abs(lit) - 1) // A] if s >= 0}
            common = slots if common is None else common & slots
            if len(common) <= 1:
                break
        return min(common) if common else -1

    def propagate(self) -> list[int]:
        self._flush()
        self.counts["propagate"] += 1
        if self.timed_out:
            return []
        if self.counts["propagate"] & 255 == 0 and time.perf_counter() > self.deadline:
            # pysat's CaDiCaL has no interrupt: two opposite unit clauses end the search
            self.timed_out = True
            self.clauses = [[1], [-1]]
            return []
        if self.cnt[K.NDIRTY] == 0:
            return []
        self._room()  # a ban saves words too
        m = self.m
        K.propagate(self.A, m.slot_start, m.slot_cells, m.slot_table, m.tab_words, m.sup_off,
                    m.sup, m.ct_off, self.ct, self.init, self.res, m.res_off, self.val,
                    self.dirty, self.dlist, self.cnt, self.out_lit, self.out_start, self.pool,
                    self.mark, self.R, self.pool_cap, m.row_off, m.row_word, m.same_start,
                    m.same_slots, self.banner, self.seen, self.stamp, self.wtr_idx,
                    self.wtr_old, self.lvid)
        conflict = int(self.cnt[K.CONFLICT])
        if conflict > 1:
            raise RuntimeError(f"explanation failed (code {conflict})")
        if conflict == 1:
            self.counts["conflicts"] += 1
            clause = self.pool[: self.cnt[K.NPOOL]].tolist()
            self.clauses.append(clause)
            s = self._slot_of(clause) if self.decide_by == "wdeg" else -1
            if s >= 0:
                self.weight[s] += 1.0
            return []
        n = int(self.cnt[K.NOUT])
        if n == 0:
            return []
        lits = self.out_lit[:n]
        self.mark[-lits] = 0
        starts = self.out_start[: n + 1].tolist()
        pool = self.pool[: starts[-1]].tolist()
        out = lits.tolist()
        for k in range(n):
            self.reasons[out[k]] = pool[starts[k]: starts[k + 1]]
            if self.decide_by == "wdeg":
                self.reason_slot[out[k]] = -1
        self.counts["pruned"] += n
        return out

    def provide_reason(self, lit: int) -> list[int]:
        self.counts["reasons"] += 1
        reason = self.reasons[lit]
        if self.decide_by == "wdeg":
            s = self.reason_slot.get(lit, -1)
            if s < 0:
                s = self._slot_of(reason)
                self.reason_slot[lit] = s
            if s >= 0:
                self.weight[s] += 1.0
        return reason

    def add_clause(self) -> list[int]:
        return self.clauses.pop(0) if self.clauses else []

    def check_model(self, model: list[int]) -> bool:
        """Each slot's letters a row of its table, and no word twice (else a clause says so)."""
        self.counts["models"] += 1
        A, p, m = self.A, self.problem, self.m
        values = np.array(model, dtype=np.int64)
        placed = values[values > 0] - 1
        letter = np.full(p.n_cells, -1, np.int64)
        letter[placed // A] = placed % A
        seen: dict[tuple[int, ...], int] = {}
        for s, cells in enumerate(p.slot_cells):
            word = tuple(letter[cells].tolist())
            lits = [-(1 + int(c) * A + a) for c, a in zip(cells.tolist(), word)]
            t = m.slot_table[s]
            W = m.tab_words[t]
            rows = self.init[m.ct_off[s]: m.ct_off[s] + W].copy()
            for q, a in enumerate(word):
                rows &= m.sup[m.sup_off[t] + (q * A + a) * W: m.sup_off[t] + (q * A + a + 1) * W]
            if not rows.any():
                self.clauses.append(lits)
                return False
            if not p.allow_repeats:
                if word in seen:
                    other = p.slot_cells[seen[word]].tolist()
                    self.clauses.append(sorted(set(lits) | {-(1 + int(c) * A + a)
                                                            for c, a in zip(other, word)}))
                    return False
                seen[word] = s
        self.letters = letter
        return True


def solve_lcg(problem: FillProblem, limit: float, decide: str) -> tuple[str, dict]:
    """Verdict ("filled", "unfillable" or "timeout") and counts."""
    A = problem.alphabet_size
    prop = TablePropagator(problem, time.perf_counter() + limit, decide)
    with Solver(name="cadical195") as solver:
        for c in range(problem.n_cells):
            mask = int(problem.cell_masks[c])
            allowed = [1 + c * A + a for a in range(A) if mask >> a & 1]
            for a in range(A):
                if not mask >> a & 1:
                    solver.add_clause([-(1 + c * A + a)])
            solver.add_clause(allowed)
            for i, x in enumerate(allowed):
                for y in allowed[i + 1:]:
                    solver.add_clause([-x, -y])
        solver.connect_propagator(prop)
        for v in range(1, prop.n_vars + 1):
            solver.observe(v)
        solver.set_phases(list(range(1, prop.n_vars + 1)))  # a decision places a letter
        sat = solver.solve()
        stats = solver.accum_stats() or {}
        solver.disconnect_propagator()
    counts = dict(prop.counts, cdcl_conflicts=int(stats.get("conflicts", 0)),
                  decisions=int(stats.get("decisions", 0)))
    if prop.timed_out:
        return "timeout", counts
    if not sat:
        return "unfillable", counts
    counts["letters"] = prop.letters
    return "filled", counts


def in_child(problem: FillProblem, limit: float, decide: str) -> tuple[str, dict]:
    """``solve_lcg`` in a forked child, killed 10 s after the limit: CaDiCaL's own inprocessing
    can run for minutes without calling the propagator back, so its clock goes unread."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    queue = context.SimpleQueue()
    child = context.Process(target=lambda: queue.put(solve_lcg(problem, limit, decide)))
    child.start()
    child.join(limit + 10.0)
    if child.is_alive():
        child.kill()
        child.join()
        return "timeout", {"killed": True, "cdcl_conflicts": 0}
    if queue.empty():  # the child died: a signal's number, or an exception's exit code 1
        return "crash", {"exit_code": child.exitcode, "cdcl_conflicts": 0}
    return queue.get()


def check_letters(problem: FillProblem, letters: np.ndarray) -> bool:
    """Independent of the propagator: each slot a candidate of the unpruned problem, no repeat."""
    words = []
    for s, cells in enumerate(problem.slot_cells):
        word = letters[cells]
        if not (problem.letters[s] == word).all(axis=1).any():
            return False
        words.append(tuple(word.tolist()))
    return problem.allow_repeats or len(set(words)) == len(words)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("instances", nargs="+", help="GRID@DICT")
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1, help="the MAC search's seed")
    parser.add_argument("--decide", choices=("cadical", "dom", "wdeg"), default="cadical",
                        help="who chooses decisions: CaDiCaL (VSIDS), or the propagator by "
                        "smallest domain (dom) or dom/wdeg with explanation-bumped slot weights "
                        "(wdeg); the propagator's letter is the one with the most rows")
    args = parser.parse_args()
    mac = make_backend("mac")
    print("| instance | LCG (CaDiCaL + tables) | conflicts | MAC (compiled) | failures |",
          file=sys.stderr)
    print("|---|---|---|---|---|", file=sys.stderr)
    for item in args.instances:
        grid_path, _, dictionary = item.partition("@")
        if not dictionary:
            raise XwsatError(f"{item}: write each instance as GRID@DICT")
        built = build_problem(read_grid(grid_path), load_words(dictionary))
        started = time.perf_counter()
        propagated = propagate(built.problem)
        if propagated.wiped is not None:
            print(f"| {item} | wiped by propagation | | |", file=sys.stderr)
            continue
        verdict, counts = in_child(propagated.problem, args.limit, args.decide)
        lcg_s = time.perf_counter() - started
        letters = counts.pop("letters", None)
        if letters is not None and not check_letters(built.problem, letters):
            raise SystemExit(f"{item}: the LCG fill does not check")
        started = time.perf_counter()
        outcome = mac.solve(propagated.problem, Limits(time_limit=args.limit, seed=args.seed))
        mac_s = time.perf_counter() - started
        name = f"{Path(grid_path).stem}@{Path(dictionary).name.split('.')[0]}"
        row = {"instance": name, "limit": args.limit, "decide": args.decide,
               "lcg": {"verdict": verdict, "seconds": round(lcg_s, 2), **counts},
               "mac": {"verdict": outcome.status.value, "seconds": round(mac_s, 2),
                       "seed": args.seed, "failures": outcome.stats.conflicts,
                       "decisions": outcome.stats.nodes}}
        print(json.dumps(row), flush=True)
        print(f"| {name} | {verdict} {lcg_s:.1f} s | {counts['cdcl_conflicts']:,} | "
              f"{outcome.status.value} {mac_s:.1f} s | {outcome.stats.conflicts:,} |",
              file=sys.stderr, flush=True)


if __name__ == "__main__":
    run_script(main, "measure.py")
