"""The native search loop: choose a slot, choose a word, propagate, jump back on a conflict.

One loop serves every native variant; a ``SearchConfig`` picks the parts:

* ``csp`` (the CSP filler, ARCHITECTURE.md): maintained arc consistency, most-constrained slot
  (fewest candidates divided by 1 + its dom/wdeg conflict weight, ties by more unfilled crossings),
  least-constraining word (sum of logs of the crossing slots' remaining option counts, plus 3 x
  score / 100 so common words come first), conflict-directed backjumping and pruning of the jump
  target by the guilty letters; in grids of at most 16 slots it decides letters instead (see
  ``letters``); on a transpose-symmetric grid one of each pair of mirrored fills is kept
  (``symmetry``). Complete: an empty conflict set proves the grid unfillable.
* ``letters``: ``csp`` deciding one cell's letter at a time (the letter best supported by both
  crossing slots); a refuted letter leaves the cell for good, which proves small grids unfillable
  several times faster, while word decisions fill large grids faster.
* ``fragments`` (the fragment filler, ARCHITECTURE.md): the planner's static order, forward checking
  with templates, backjumping to the latest decision the failure depends on, and accelerators (a
  failed letter at an accelerator's single fragment crossing is never retried). Complete.
* ``balanced``: ``fragments`` plus dynamic difficulty balancing (rare letters forbidden at crossings
  with hard slots). Incomplete: exhaustion is reported as UNKNOWN, never UNFILLABLE.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from xwsat.outcome import Status, Stop
from xwsat.planner import Plan
from xwsat.problem import FillProblem
from xwsat.python_search.estimate import TreeEstimate
from xwsat.python_search.state import SearchState
from xwsat.python_search.symmetry import transpose_pair
from xwsat.restarts import luby

CLOCK_EVERY = 8  # nodes between clock checks
PROGRESS_EVERY_S = 1.0  # seconds between progress reports
Progress = Callable[["SearchResult", "float | None"], None]  # result so far, log10 tree size


@dataclass(frozen=True)
class SearchConfig:
    """Which parts of the search to use."""

    mac: bool = True  # arc consistency after each placement (else forward checking)
    dynamic_order: bool = True  # most constrained slot next (else the plan's order)
    prune: str = "letters"  # jump-target pruning: "letters" (exact), "accelerators", "word"
    wdeg: bool = True  # conflict weights break ties in slot choice
    letter_above: int | None = None  # MAC: decide a letter above this many candidates
    letters_up_to: int = 0  # MAC: decide letters (letter_above=0) in grids of at most this many
    # slots: small, fully checked grids are mostly proofs, which letter decisions shorten
    balance: bool = False  # dynamic difficulty balancing (incomplete)
    balance_share: float = 0.1  # forbid the rarest letters covering this share of a hard slot
    balance_max_letters: float = 0.6  # but never more than this share of the letters present
    hard_quantile: float = 0.75  # slots at or above this placement-difficulty quantile are hard
    restart_base: int = 0  # conflicts before the first restart (Luby multiples); 0 = never.
    # Restarts randomise ties and values (seeded) and keep the conflict weights; measured, they
    # helped some 15x15 fills and hurt others, so they stay off by default
    score_weight: float = 0.0  # value order: add this x word score / 100 to the LCV sum
    symmetry: bool = True  # MAC: keep one of each pair of transposed fills (square grids)
    noise: float = 0.5  # value order after a restart or with a seed: uniform noise of this size
    regions: bool = False  # prove stack regions first, in turn with the whole grid (prover.py)
    planner: bool = False  # static order from the fragment planner (else longest slot first)


@dataclass
class SearchResult:
    """What a search ended with: a verdict, or UNKNOWN with the ``stop`` (the deadline, or an
    incomplete search that ran out of options)."""

    status: Status = Status.UNKNOWN
    stop: Stop | None = None
    choice: list[int] | None = None
    nodes: int = 0
    conflicts: int = 0
    backjumps: int = 0
    longest_jump: int = 0
    pruned: int = 0
    accelerator_hits: int = 0
    balanced_cuts: int = 0
    letter_nodes: int = 0
    restarts: int = 0
    revisions: int = 0
    seconds: float = 0.0
    extra: dict[str, float | int | str] = field(default_factory=dict)


class Search:
    """A single complete (or, balanced, incomplete) depth-first search with backjumping."""

    def __init__(
        self, problem: FillProblem, plan: Plan, config: SearchConfig, seed: int = 0,
        progress: Progress | None = None,
    ) -> None:
        self.problem = problem
        self.progress = progress
        self.tree = TreeEstimate()
        self.branching: list[int] = []  # branching factor of each decision on the current path
        self._resume: tuple[int, int | None] | None = None  # (restart run, cutoff) when paused
        self._spent = 0.0  # search seconds over every call of run
        self.plan = plan
        self.config = config
        self.seed = seed
        self.rng = np.random.default_rng(seed) if seed else None
        order = transpose_pair(problem) if config.symmetry and config.mac else None
        self.state = SearchState(problem, cascade=config.mac, order=order)
        n = problem.n_slots
        self.rank = [0] * n
        for i, s in enumerate(plan.order):
            self.rank[s] = i
        self.weight = [0] * n
        self.accelerator_cells: dict[int, set[int]] = {}
        for acc in plan.accelerators:
            self.accelerator_cells.setdefault(acc.slot, set()).add(acc.cell)
        self.hard = [False] * n
        if config.balance and plan.placement:
            cut = float(np.quantile(np.array(plan.placement), config.hard_quantile))
            self.hard = [p >= cut for p in plan.placement]
        self.result = SearchResult()
        self.letter_above = config.letter_above
        if config.mac and self.letter_above is None and n <= config.letters_up_to:
            self.letter_above = 0

    # ---- heuristics ------------------------------------------------------------------------
    def select_slot(self) -> int | None:
        """Most constrained unfilled slot (or the plan's next one); None when all are filled."""
        st = self.state
        if not self.config.dynamic_order:
            for s in self.plan.order:
                if not st.assigned[s]:
                    return s
            return None
        best, best_key = None, None
        mac = self.config.mac
        for s in range(st.n_slots):
            if st.assigned[s]:
                continue
            size = st.dom[s].bit_count()
            if mac and size == 1:
                continue
            free = sum(1 for t in st.neighbours[s] if not st.assigned[t])
            if self.config.wdeg:
                size = size / (1 + self.weight[s])
            key = (size, -free, self._tie(s))
            if best_key is None or key < best_key:
                best, best_key = s, key
        return best

    def _tie(self, s: int) -> float:
        if self.rng is None:
            return self.rank[s]
        return float(self.rng.random())

    def value_scores(self, slot: int) -> tuple[np.ndarray, np.ndarray]:
        """Candidate indices of ``slot`` and, per candidate, the sum of log option counts left
        in each unfilled crossing slot (plus the weighted word score)."""
        st = self.state
        dom = st.indices(slot)
        score = np.zeros(len(dom), dtype=np.float64)
        if len(dom) == 1:
            return dom, score
        for j, _, t, p in st.crossings[slot]:
            if st.assigned[t]:
                continue
            with np.errstate(divide="ignore"):
                logs = np.log(st.letter_counts(t, p))
            score += logs[st.cols[slot][j][dom]]
        if self.config.score_weight and self.problem.scores:
            score += self.problem.scores[slot][dom] * (self.config.score_weight / 100.0)
        if self.rng is not None:
            score += self.rng.random(len(dom)) * self.config.noise
        return dom, score

    def choose_value(self, slot: int) -> int:
        """Least constraining candidate index of ``slot`` (ties: first in the word list)."""
        dom, score = self.value_scores(slot)
        return int(dom[int(np.argmax(score))])

    def choose_letter(self, slot: int) -> tuple[int, int]:
        """(cell, letter): the open cell of ``slot`` with fewest letters, its best-supported letter.

        A letter's support is the product of its counts in the two slots crossing at the cell.
        """
        st = self.state
        best = None
        for j, cell in enumerate(st.cell_lists[slot]):
            mask = int(st.masks[cell])
            if mask & (mask - 1) == 0:
                continue
            key = (mask.bit_count(), j)
            if best is None or key < best[0]:
                best = (key, j, cell)
        assert best is not None, "a slot with several candidates has an open cell"
        _, j, cell = best
        support = np.ones(st.alphabet, dtype=np.float64)
        for t, p in st.covers[cell]:
            support *= st.letter_counts(t, p)
        if self.rng is not None:
            support *= 1.0 + 0.5 * self.rng.random(st.alphabet)
        return cell, int(np.argmax(support))

    def balance(self, slot: int) -> int | None:
        """Forbid the rarest letters of hard crossing slots in ``slot`` (incomplete pruning)."""
        st = self.state
        cfg = self.config
        dom = st.dom[slot]
        keep = dom
        for j, _, t, p in st.crossings[slot]:
            if st.assigned[t] or not self.hard[t]:
                continue
            counts = st.letter_counts(t, p).astype(np.int64)
            present = np.flatnonzero(counts)
            order = present[np.argsort(counts[present], kind="stable")]
            cum = np.cumsum(counts[order])
            limit = int(cfg.balance_max_letters * len(present))
            rare = order[: min(limit, int(np.searchsorted(cum, cfg.balance_share * cum[-1])))]
            if len(rare) == 0:
                continue
            trial = keep & ~st.matching(slot, j, sum(1 << int(a) for a in rare))
            if trial:
                keep = trial
        if keep == dom:
            return None
        self.result.balanced_cuts += (dom & ~keep).bit_count()
        return st.shrink(slot, keep, st.all_literals() | st.marker(slot), cascade=False)

    # ---- conflicts -------------------------------------------------------------------------
    def resolve(self, conflict: int, wiped: int | None) -> bool:
        """Jump back to the latest decision in ``conflict`` and prune; False when none is left."""
        st = self.state
        res = self.result
        if wiped is not None:
            self.weight[wiped] += 1
        while True:
            res.conflicts += 1
            level = st.level_of(conflict)
            if level == 0:
                return False
            depth = len(st.decisions)
            if depth - level >= 1:
                res.backjumps += 1
                res.longest_jump = max(res.longest_jump, depth - level)
            slot, k = st.decisions[level - 1]
            guilty = conflict & st.level_lits[level - 1]
            rest = conflict & ~guilty
            st.undo_to_level(level)
            if slot < 0:  # a letter decision: that letter is now forbidden in that cell
                res.pruned += 1
                wipe = st.forbid_letter(-1 - slot, k, rest)
                if wipe is None:
                    return True
                conflict = wipe
                continue
            dom = st.dom[slot]
            drop = self._nogood(slot, k, guilty) & dom
            res.pruned += drop.bit_count() - 1
            wipe = st.shrink(slot, dom & ~drop, rest, st.cascade)
            if wipe is None:
                wipe = st.propagate()
            if wipe is None:
                return True
            conflict = wipe

    def _nogood(self, slot: int, k: int, guilty: int) -> int:
        """Candidates repeating the failed word ``k``'s guilty letters (always ``k`` itself)."""
        st = self.state
        exact = 1 << k
        if guilty & st.marker(slot) or self.config.prune == "word":
            return exact
        positions = [j for j, c in enumerate(st.cell_lists[slot]) if guilty >> c & 1]
        if self.config.prune == "accelerators":
            cells = self.accelerator_cells.get(slot, set())
            if len(positions) != 1 or st.cell_lists[slot][positions[0]] not in cells:
                return exact
            self.result.accelerator_hits += 1
        word = st.row(slot, k)
        drop = st.dom[slot]
        for j in positions:
            drop &= st.bits[slot][j][word[j]]
        return drop | exact

    # ---- main loop -------------------------------------------------------------------------
    def run(self, deadline: float | None = None) -> SearchResult:
        """Search until a fill, a proof of none, exhaustion (balanced) or the deadline.

        After a timeout, calling ``run`` again resumes where the search stopped (the region
        prover gives several searches time slices in turn).
        """
        st = self.state
        res = self.result
        started = time.perf_counter()
        if self._resume is None:
            if st.initialise() is not None:
                self._exhausted()
                return self._finish(started)
            self._resume = (0, self._cutoff(0))
        elif res.stop is not Stop.TIME:
            return res  # already decided
        run, limit = self._resume
        reported = started
        while True:
            if res.nodes % CLOCK_EVERY == 0:
                now = time.perf_counter()
                if deadline is not None and now > deadline:
                    res.status, res.stop = Status.UNKNOWN, Stop.TIME
                    self._resume = (run, limit)
                    return self._finish(started)
                if self.progress is not None and now >= reported + PROGRESS_EVERY_S:
                    reported = now
                    res.seconds = self._spent + now - started
                    self.progress(res, self.tree.log10_nodes())
            if limit is not None and res.conflicts >= limit and st.decisions:
                run += 1
                res.restarts += 1
                st.undo_to_level(1)  # root prunings are sound nogoods and stay
                if self.rng is None:
                    self.rng = np.random.default_rng([self.seed, run])
                limit = self._cutoff(run)
                limit = None if limit is None else res.conflicts + limit
            slot = self.select_slot()
            if slot is None:
                res.status, res.stop = Status.FILLED, None
                res.choice = [d.bit_length() - 1 for d in st.dom]
                return self._finish(started)
            conflict = None
            if not self.config.mac:
                conflict = st.revise(slot)  # the templates: letters the crossings still allow
            if conflict is None and self.config.balance:
                conflict = self.balance(slot)
            if conflict is None:
                res.nodes += 1
                above = self.letter_above
                del self.branching[len(st.decisions):]
                if self.config.mac and above is not None and st.dom[slot].bit_count() > above:
                    res.letter_nodes += 1
                    cell, letter = self.choose_letter(slot)
                    self.branching.append(st.masks[cell].bit_count())
                    conflict = st.assign_letter(cell, letter)
                else:
                    self.branching.append(st.dom[slot].bit_count())
                    conflict = st.assign(slot, self.choose_value(slot))
                wiped = self._last_wiped()
                if conflict is not None:
                    self.tree.leaf(self.branching)
            else:
                wiped = slot
            if conflict is not None and not self.resolve(conflict, wiped):
                self._exhausted()
                return self._finish(started)

    def _exhausted(self) -> None:
        """No option is left: a proof of unfillability, unless the search was incomplete."""
        if self.config.balance:
            self.result.status, self.result.stop = Status.UNKNOWN, Stop.EXHAUSTED
        else:
            self.result.status, self.result.stop = Status.UNFILLABLE, None

    def _cutoff(self, run: int) -> int | None:
        """Conflicts allowed in restart ``run``: base x Luby(run + 1); None = no restarts."""
        base = self.config.restart_base
        return base * luby(run + 1) if base else None

    def _last_wiped(self) -> int | None:
        trail = self.state.trail
        if trail and trail[-1][0] == 0 and self.state.dom[trail[-1][1]] == 0:
            return trail[-1][1]
        return None

    def _finish(self, started: float) -> SearchResult:
        res = self.result
        self._spent += time.perf_counter() - started
        res.seconds = self._spent
        res.revisions = self.state.revisions
        estimate = self.tree.log10_nodes()
        if estimate is not None:
            res.extra["log10_tree_nodes"] = round(estimate, 2)
        return res
