"""Free-form layout as a CP-SAT optimisation: place as many entries as possible, then maximise
crossings, then minimise the bounding box (one weighted objective, lexicographic by weights).

Variables: a literal per (entry, position, direction) that fits the board, a letter literal per
(cell, letter), and per cell "covered across", "covered down", "occupied". Rules:
- an entry is placed at most once; a cell holds one letter and at most one word per direction;
- the cells just before and after a word are empty;
- a cell covered across with an occupied cell above or below must also be covered down (and the
  same turned), so words touch only at crossings and every run of letters is exactly one word;
- each placed word crosses another, and the occupied cells are connected: one root cell, every
  other occupied cell has an occupied neighbour nearer the root (distance labels).
Anytime: the greedy board is the hint, every better solution is kept, and the best at the
time limit (or Ctrl-C) is returned.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from xwsat.cpsat_thread import solve_stoppable
from xwsat.freeform.layout import ACROSS, DOWN, Entry, Layout, Placement
from xwsat.guard import CPSAT_OVERRUN_S, Budget

Progress = Callable[[str], None]



def cpsat_layout(entries: list[Entry], width: int, height: int, time_limit: float,
                 seed: int = 0, hint: Layout | None = None, stop: threading.Event | None = None,
                 progress: Progress = lambda _: None,
                 workers: int = 1) -> tuple[Layout | None, dict[str, float | int | str]]:
    from ortools.sat.python import cp_model

    started = time.monotonic()
    budget = Budget(time_limit, started)
    late = budget.stop_at(CPSAT_OVERRUN_S)  # a large board's model can outlast the limit
    unbuilt = {"status": "no time to build the model", "build_s": time_limit}
    model = cp_model.CpModel()
    cells = [(r, c) for r in range(height) for c in range(width)]
    a = {cell: [] for cell in cells}
    d = {cell: [] for cell in cells}
    letters: dict[tuple[tuple[int, int], str], object] = {}
    options: list[tuple[object, Placement]] = []
    per_entry: list[list] = [[] for _ in entries]
    for index, entry in enumerate(entries):
        if time.monotonic() > late:
            return None, unbuilt
        n = len(entry.word)
        for direction in (ACROSS, DOWN):
            dr, dc = (0, 1) if direction == ACROSS else (1, 0)
            for row in range(height - dr * (n - 1)):
                for col in range(width - dc * (n - 1)):
                    x = model.NewBoolVar(f"{entry.word}@{row},{col},{direction}")
                    place = Placement(index, row, col, direction)
                    options.append((x, place))
                    per_entry[index].append(x)
                    for cell, ch in zip(place.cells(n), entry.word):
                        (a if direction == ACROSS else d)[cell].append(x)
                        key = (cell, ch)
                        if key not in letters:
                            letters[key] = model.NewBoolVar(f"{cell}={ch}")
                        model.AddImplication(x, letters[key])
    for xs in per_entry:
        model.AddAtMostOne(xs)
    by_cell: dict[tuple[int, int], list] = {cell: [] for cell in cells}
    for (cell, _), lit in letters.items():
        by_cell[cell].append(lit)
    cov_a, cov_d, occ = {}, {}, {}
    for cell in cells:
        model.AddAtMostOne(by_cell[cell])
        cov_a[cell] = model.NewBoolVar(f"a{cell}")
        cov_d[cell] = model.NewBoolVar(f"d{cell}")
        model.Add(sum(a[cell]) == cov_a[cell])
        model.Add(sum(d[cell]) == cov_d[cell])
        occ[cell] = model.NewBoolVar(f"o{cell}")
        model.AddBoolOr([cov_a[cell], cov_d[cell]]).OnlyEnforceIf(occ[cell])
        model.AddImplication(cov_a[cell], occ[cell])
        model.AddImplication(cov_d[cell], occ[cell])

    def inside(cell: tuple[int, int]) -> bool:
        return 0 <= cell[0] < height and 0 <= cell[1] < width

    for number, (x, place) in enumerate(options):
        if number % 2000 == 0 and time.monotonic() > late:
            return None, unbuilt
        n = len(entries[place.entry].word)
        dr, dc = (0, 1) if place.direction == ACROSS else (1, 0)
        for cap in ((place.row - dr, place.col - dc), (place.row + dr * n, place.col + dc * n)):
            if inside(cap):
                model.AddImplication(x, occ[cap].Not())
        other = cov_d if place.direction == ACROSS else cov_a
        model.AddBoolOr([other[cell] for cell in place.cells(n)]).OnlyEnforceIf(x)
    for (r, c) in cells:
        for side, cover, perpendicular in (((1, 0), cov_a, cov_d), ((0, 1), cov_d, cov_a)):
            for sign in (1, -1):
                nb = (r + sign * side[0], c + sign * side[1])
                if inside(nb):
                    model.AddBoolOr([cover[(r, c)].Not(), occ[nb].Not(),
                                     perpendicular[(r, c)]])
    root, dist, links = _connected(model, cells, occ, inside)
    if time.monotonic() > late:
        return None, unbuilt
    placed = sum(x for x, _ in options)
    cross = []
    for cell in cells:
        both = model.NewBoolVar(f"x{cell}")
        model.AddImplication(both, cov_a[cell])
        model.AddImplication(both, cov_d[cell])
        cross.append(both)
    lo_r, hi_r = model.NewIntVar(0, height - 1, "lo_r"), model.NewIntVar(0, height - 1, "hi_r")
    lo_c, hi_c = model.NewIntVar(0, width - 1, "lo_c"), model.NewIntVar(0, width - 1, "hi_c")
    for (r, c) in cells:
        model.Add(lo_r <= r).OnlyEnforceIf(occ[(r, c)])
        model.Add(hi_r >= r).OnlyEnforceIf(occ[(r, c)])
        model.Add(lo_c <= c).OnlyEnforceIf(occ[(r, c)])
        model.Add(hi_c >= c).OnlyEnforceIf(occ[(r, c)])
    spread = hi_r - lo_r + hi_c - lo_c
    mid = width + height + 1
    big = mid * (sum(len(e.word) for e in entries) + 1)
    model.Maximize(big * placed + mid * sum(cross) - spread)
    if hint is not None:
        # A complete hint (every variable), so CP-SAT starts from the greedy board at once.
        chosen = {(p.entry, p.row, p.col, p.direction) for p in hint.placed}
        for x, p in options:
            model.AddHint(x, (p.entry, p.row, p.col, p.direction) in chosen)
        board = hint.letters()
        across, down = set(), set()
        for p in hint.placed:
            (across if p.direction == ACROSS else down).update(
                p.cells(len(entries[p.entry].word)))
        for (cell, ch), lit in letters.items():
            model.AddHint(lit, board.get(cell) == ch)
        for i, cell in enumerate(cells):
            model.AddHint(cov_a[cell], cell in across)
            model.AddHint(cov_d[cell], cell in down)
            model.AddHint(occ[cell], cell in board)
            model.AddHint(cross[i], cell in across and cell in down)
        parent = _bfs_tree(board)
        for cell in cells:
            model.AddHint(root[cell], parent.get(cell, 0) is None)
            model.AddHint(dist[cell], parent.get(cell, (None, 0))[1] if cell in parent and
                          parent[cell] is not None else 0)
        for (cell, nb), link in links.items():
            model.AddHint(link, parent.get(cell) is not None and parent[cell][0] == nb)
        if board:
            model.AddHint(lo_r, min(r for r, _ in board))
            model.AddHint(hi_r, max(r for r, _ in board))
            model.AddHint(lo_c, min(c for _, c in board))
            model.AddHint(hi_c, max(c for _, c in board))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = budget.with_margin(CPSAT_OVERRUN_S)
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    solver.parameters.catch_sigint_signal = False   # Ctrl-C is ours: StopSearch, keep the best
    solver.parameters.max_presolve_iterations = 1   # probing/clique rounds cost the most
    best: list[list[Placement]] = []

    class Keep(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            best.append([p for x, p in options if self.Value(x)])
            progress(f"{time.monotonic() - started:.1f} s: {len(best[-1])} words placed, "
                     f"objective {self.ObjectiveValue():.0f}")

    build_s = time.monotonic() - started
    code, _ = solve_stoppable(solver, model, stop, Keep(),  # Ctrl-C: keep the best board
                              late)  # CP-SAT's clock starts late
    status = solver.status_name(code) if code is not None else "UNKNOWN"
    stats: dict[str, float | int | str] = {
        "status": status, "placements": len(options), "build_s": round(build_s, 3),
        "solve_s": round(time.monotonic() - started - build_s, 3), "solutions": len(best),
        "optimal": int(status == "OPTIMAL"),
    }
    if not best:
        return None, stats
    return Layout(width, height, tuple(entries), tuple(best[-1])), stats


def _connected(model, cells, occ, inside) -> tuple[dict, dict, dict]:
    """Occupied cells form one 4-connected piece: a single root, distances decrease to it."""
    n = len(cells)
    root = {cell: model.NewBoolVar(f"root{cell}") for cell in cells}
    dist = {cell: model.NewIntVar(0, n, f"dist{cell}") for cell in cells}
    model.AddAtMostOne(root.values())
    links: dict[tuple[tuple[int, int], tuple[int, int]], object] = {}
    for cell in cells:
        model.AddImplication(root[cell], occ[cell])
        model.Add(dist[cell] == 0).OnlyEnforceIf(root[cell])
        parents = []
        r, c = cell
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if not inside(nb):
                continue
            link = model.NewBoolVar(f"p{cell}{nb}")
            links[(cell, nb)] = link
            model.AddImplication(link, occ[nb])
            model.Add(dist[nb] + 1 <= dist[cell]).OnlyEnforceIf(link)
            parents.append(link)
        model.AddBoolOr([occ[cell].Not(), root[cell], *parents])
    # Something occupied means there is a root.
    any_root = list(root.values())
    for cell in cells:
        model.AddBoolOr([occ[cell].Not(), *any_root])
    return root, dist, links


def _bfs_tree(board: dict) -> dict:
    """Occupied cell -> (parent, distance) on a BFS tree from the first occupied cell (the
    root maps to None): the hint for the connectivity labels."""
    if not board:
        return {}
    start = min(board)
    tree: dict = {start: None}
    frontier = [(start, 0)]
    while frontier:
        nxt = []
        for (r, c), d in frontier:
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nb in board and nb not in tree:
                    tree[nb] = ((r, c), d + 1)
                    nxt.append((nb, d + 1))
        frontier = nxt
    return tree
