"""The native route (the line generator, ARCHITECTURE.md): every line keeps its set of possible
lines, filtered lazily, and the search halves a line's option set instead of picking a word.

A line's option set is the paths of its length-L layered automaton allowed by the cells' symbol
sets (letters plus block, one boolean row per cell). Propagation is exact per line (the regular
constraint's forward/backward sweep, as counts so the set's size comes for free): a symbol stays
at a cell only if some whole valid line puts it there. The search takes the line with the fewest
options (more than one), finds its first undecided cell, and splits that cell's symbols so each
half holds about half of the line's options in dictionary order: "is there a grid with this
line in A-M?". Blocks, the cap, symmetry and connectivity are checked on the partial grid after
each propagation; repeats as soon as a run is decided.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from xwsat import guard
from xwsat.generate.automaton import LayeredStates, LineAutomaton
from xwsat.generate.cpsat_lines import SolveReport
from xwsat.generate.lazy import neighbours
from xwsat.generate.spec import GenerateSpec
from xwsat.restarts import luby
from xwsat.words import Alphabet

Progress = Callable[[str], None]


Sub = tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]   # live (src, sym, dst) per layer
Node = tuple[np.ndarray, np.ndarray, list[Sub]]               # cell symbol sets, counts, lines


RESTART_BASE = 500  # nodes in the first runs; Luby restarts keep the search complete


class _Dead(Exception):
    """A propagation wiped out a line or broke a grid rule."""


class NativeGenerator:
    """Domain-bisection search over per-cell symbol sets with exact per-line propagation."""

    def __init__(self, spec: GenerateSpec, alphabet: Alphabet,
                 automata: dict[int, LineAutomaton], seed: int = 0) -> None:
        self.spec, self.alphabet = spec, alphabet
        self.block = alphabet.size
        self.n_sym = alphabet.size + 1
        self.rng = np.random.default_rng(seed)
        self.lines = [cells for _, _, cells in spec.lines()]
        self.layers = {length: LayeredStates(auto) for length, auto in automata.items()}
        self.lines_of = [[] for _ in range(spec.cells)]
        for index, cells in enumerate(self.lines):
            for cell in cells:
                self.lines_of[cell].append(index)
        self.nodes = 0
        self.fails = 0

    def _initial(self) -> np.ndarray:
        dom = np.ones((self.spec.cells, self.n_sym), dtype=bool)
        for cell, ch in self.spec.givens.items():
            dom[cell] = False
            dom[cell, self.block if ch == "#" else self.alphabet.code(ch)] = True
        return dom

    def _revise(self, dom: np.ndarray, line: int, sub: Sub) -> tuple[list[int], float,
                                                                     list[np.ndarray], Sub]:
        """Exact filtering of one line: its transitions still on some whole valid line.

        ``sub`` holds the line's live transitions per layer (they only shrink down the search,
        which keeps deep nodes cheap). Returns the changed cells, the line's option count, the
        number of options through each live transition, and the new live transitions.
        """
        cells = self.lines[line]
        lay = self.layers[len(cells)]
        forward = [np.ones(1)]
        kept = []
        for i, cell in enumerate(cells):
            src, sym, dst = sub[i]
            ok = dom[cell][sym] & (forward[i][src] > 0)
            src, sym, dst = src[ok], sym[ok], dst[ok]
            kept.append((src, sym, dst))
            forward.append(np.bincount(dst, weights=forward[i][src], minlength=lay.sizes[i + 1]))
        back = lay.final.astype(float)
        total = float(forward[-1] @ back)
        if total == 0:
            raise _Dead
        changed = []
        weights: list[np.ndarray] = [np.empty(0)] * len(cells)
        new: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = [kept[0]] * len(cells)
        for i in range(len(cells) - 1, -1, -1):
            src, sym, dst = kept[i]
            ok = back[dst] > 0
            src, sym, dst = src[ok], sym[ok], dst[ok]
            new[i] = (src, sym, dst)
            weights[i] = forward[i][src] * back[dst]
            back = np.bincount(src, weights=back[dst], minlength=lay.sizes[i])
            keep = np.zeros(self.n_sym, dtype=bool)
            keep[sym] = True
            cell = cells[i]
            if (keep != dom[cell]).any():
                dom[cell] &= keep
                changed.append(cell)
        return changed, total, weights, tuple(new)

    def _propagate(self, dom: np.ndarray, queue: set[int], counts: np.ndarray,
                   subs: list[Sub]) -> None:
        while queue:
            line = queue.pop()
            changed, counts[line], _, subs[line] = self._revise(dom, line, subs[line])
            for cell in changed:      # the revised line itself is consistent already
                queue.update(x for x in self.lines_of[cell] if x != line)
            for cell in self._symmetry(dom, changed)[len(changed):]:
                queue.update(self.lines_of[cell])
            self._cap(dom, queue)

    def _symmetry(self, dom: np.ndarray, changed: list[int]) -> list[int]:
        """Mirror block/white decisions onto the symmetric cell; returns every changed cell."""
        out = list(changed)
        for cell in changed:
            other = self.spec.mirror_of(cell)
            if other is None or other == cell:
                continue
            before = dom[other].copy()
            if not dom[cell, self.block]:
                dom[other, self.block] = False
            if not dom[cell, :self.block].any():
                dom[other, :self.block] = False
            if not dom[other].any():
                raise _Dead
            if (before != dom[other]).any():
                out.append(other)
        return out

    def _cap(self, dom: np.ndarray, queue: set[int]) -> None:
        cap = self.spec.max_blocks
        if cap is None:
            return
        sure = ~dom[:, :self.block].any(axis=1)
        blocks = int(sure.sum())
        if blocks > cap:
            raise _Dead
        if blocks == cap:
            open_cells = np.flatnonzero(dom[:, self.block] & ~sure)
            for cell in open_cells.tolist():
                dom[cell, self.block] = False
                queue.update(self.lines_of[cell])

    def _grid_rules(self, dom: np.ndarray) -> None:
        """Partial-grid checks: sure-white cells must be connectable; decided runs distinct."""
        w, h = self.spec.width, self.spec.height
        maybe_white = dom[:, :self.block].any(axis=1)
        sure_white = np.flatnonzero(~dom[:, self.block])
        if len(sure_white):
            start = int(sure_white[0])
            seen = {start}
            stack = [start]
            while stack:
                cell = stack.pop()
                for nxt in neighbours(cell, w, h):
                    if nxt not in seen and maybe_white[nxt]:
                        seen.add(nxt)
                        stack.append(nxt)
            if any(int(c) not in seen for c in sure_white):
                raise _Dead
        if not self.spec.allow_repeats:
            self._decided_runs_distinct(dom)

    def _decided_runs_distinct(self, dom: np.ndarray) -> None:
        single = dom.sum(axis=1) == 1
        value = dom.argmax(axis=1)
        seen: set[tuple[int, ...]] = set()
        for cells in self.lines:
            run: list[int] = []
            bounded = True
            for cell in (*cells, -1):
                if cell >= 0 and not (single[cell] and value[cell] == self.block):
                    if not single[cell]:
                        bounded = False
                    run.append(cell)
                    continue
                if run and bounded:
                    word = tuple(int(value[c]) for c in run)
                    if word in seen:
                        raise _Dead
                    seen.add(word)
                run, bounded = [], True

    def solve(self, deadline: float, stop: threading.Event, progress: Progress) -> SolveReport:
        started = time.monotonic()
        counts = np.zeros(len(self.lines))
        dom = self._initial()
        subs: list[Sub] = []
        for cells in self.lines:
            lay = self.layers[len(cells)]
            subs.append(tuple(zip(lay.src, lay.sym, lay.dst)))
        try:
            self._propagate(dom, set(range(len(self.lines))), counts, subs)
            self._grid_rules(dom)
        except _Dead:
            return self._report(None, started, proven=True)
        root: Node = (dom, counts, subs)
        self.last = started
        restart = 0
        try:
            while True:
                restart += 1
                limit = RESTART_BASE * luby(restart)
                verdict = self._dfs(root, limit, deadline, stop, progress, started)
                if verdict is not None:
                    verdict.stats["restarts"] = restart - 1
                    return verdict
        except KeyboardInterrupt as exc:  # Ctrl-C, or the command's time or memory limit
            return self._report(None, started, stopped=guard.interruption(exc)[1])

    def _dfs(self, root: Node, limit: int, deadline: float, stop: threading.Event,
             progress: Progress, started: float) -> SolveReport | None:
        """One depth-first run from the root; None when its node budget ran out (restart)."""
        stack: list[Node] = [root]
        nodes = 0
        while stack:
            if stop.is_set():
                return self._report(None, started, stopped="interrupted")
            now = time.monotonic()
            if now >= deadline:
                return self._report(None, started, stopped="time limit reached")
            if now - self.last > 2:
                self.last = now
                progress(f"{self.nodes} nodes, {self.fails} dead ends, depth {len(stack)}")
            if nodes >= limit:
                return None
            node = stack.pop()
            self.nodes += 1
            nodes += 1
            if not (node[1] > 1).any():
                return self._report(self._rows(node[0]), started)
            stack.extend(self._split(*node))
        return self._report(None, started, proven=True)

    def _split(self, dom: np.ndarray, counts: np.ndarray, subs: list[Sub]) -> list[Node]:
        """The two halves of the most constrained line's options, each propagated (pushed so the
        first half is explored first; dead halves are dropped)."""
        line = int(np.argmin(np.where(counts > 1, counts, np.inf)))
        cells = self.lines[line]
        _, _, weights, sub = self._revise(dom, line, subs[line])
        i = next(k for k, c in enumerate(cells) if dom[c].sum() > 1)
        cell = cells[i]
        per_symbol = np.bincount(sub[i][1], weights=weights[i], minlength=self.n_sym)
        symbols = np.flatnonzero(dom[cell])
        cumulative = np.cumsum(per_symbol[symbols])
        cut = int(np.searchsorted(cumulative, cumulative[-1] / 2)) + 1
        cut = min(max(cut, 1), len(symbols) - 1)
        halves = [symbols[:cut], symbols[cut:]]
        if self.rng.random() < 0.5:
            halves.reverse()
        children: list[Node] = []
        for keep in reversed(halves):   # the stack pops the last pushed first
            child = dom.copy()
            child[cell] = False
            child[cell, keep] = True
            child_counts = counts.copy()
            child_subs = list(subs)
            try:
                queue = {x for c in self._symmetry(child, [cell]) for x in self.lines_of[c]}
                self._propagate(child, queue, child_counts, child_subs)
                self._grid_rules(child)
            except _Dead:
                self.fails += 1
                continue
            children.append((child, child_counts, child_subs))
        return children

    def _rows(self, dom: np.ndarray) -> tuple[str, ...]:
        letters = self.alphabet.letters + "#"
        values = [letters[int(v)] for v in dom.argmax(axis=1)]
        w = self.spec.width
        return tuple("".join(values[r * w:(r + 1) * w]) for r in range(self.spec.height))

    def _report(self, rows, started: float, proven: bool = False,
                stopped: str = "") -> SolveReport:
        stats = {"nodes": self.nodes, "dead_ends": self.fails,
                 "solve_s": round(time.monotonic() - started, 3)}
        return SolveReport(rows, proven, stopped, stats)
