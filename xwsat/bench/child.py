"""One bench run, inside its own fresh Python process (``xwsat.bench.execute.child_command``).

Reads a task (JSON) on stdin, loads the dictionary and the grid, calls ``fill_grid`` (which runs
the back-end in a further child with the time and memory limits and verifies every fill), and
writes one result (JSON) on stdout. A fresh interpreter per run means no state leaks between runs
and a crash here is seen by the parent as a dead process, never as a lost sweep.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from xwsat.errors import XwsatError


def execute(task: dict[str, Any]) -> dict[str, Any]:
    """Run one task and describe it as a result dict (the parent adds identity and machine)."""
    from xwsat.grid import parse_grid
    from xwsat.outcome import Stats
    from xwsat.pipeline import FillOptions, fill_grid
    from xwsat.words import load_words, normalize_word, read_text_file

    t0 = time.perf_counter()
    words = load_words(task["dictionary_path"])
    t1 = time.perf_counter()
    grid = parse_grid(read_text_file(Path(task["grid_path"])), task["grid_path"])
    grid = grid.map_letters(normalize_word)
    options = FillOptions(task["backend"], task["time_limit"], task.get("memory_mb"),
                          task["seed"], upper_first=bool(task.get("as_fill")))
    result = fill_grid(grid, words, options)
    outcome, problem = result.outcome, result.built.problem
    stats = outcome.stats
    evidence = outcome.evidence
    # a solver stopped from outside (its process ended at the limit) reports nothing: its
    # counts are unknown (null), not zero conflicts in ten seconds
    said = outcome.stats != Stats()

    def told(value: float | int, digits: int | None = None) -> float | int | None:
        return (round(value, digits) if digits is not None else value) if said else None

    return {
        "status": outcome.label,
        "verified": result.verified,
        "solved_by": outcome.method,
        "message": outcome.message[:500],
        "time_s": round(sum(result.times.values()), 4),
        "times": {
            "dict_load_s": round(t1 - t0, 4),
            "problem_build_s": round(result.times.get("build_s", 0.0), 4),
            "propagate_s": round(result.times.get("propagate_s", 0.0), 4),
            "solve_wall_s": round(result.times.get("solve_s", 0.0), 4),
            "encode_s": told(stats.build_s, 4),
            "solver_load_s": told(stats.load_s, 4),
            "search_s": told(stats.solve_s, 4),
            "lift_s": round(result.times.get("lift_s", 0.0), 4),  # plain fill's lift, after
        },
        "sizes": {
            "slots": problem.n_slots,
            "cells": problem.n_cells,
            "candidates": int(problem.domain_sizes().sum()),
            "dictionary_words": len(words),
            "variables": told(stats.variables),
            "constraints": told(stats.constraints),
        },
        "conflicts": told(stats.conflicts),
        "nodes": told(stats.nodes),
        "stats_extra": {k: v for k, v in stats.extra.items()
                        if isinstance(v, int | float | str)},
        "evidence": asdict(evidence) if evidence else None,
        "fill": list(result.filled.rows) if result.filled is not None else None,
    }


def main() -> None:
    task = json.loads(sys.stdin.read())
    try:
        row = execute(task)
    except XwsatError as exc:  # bad input: a row saying so, not a crash
        row = {"status": "error", "verified": False, "message": f"input error: {exc}"}
    sys.stdout.write(json.dumps(row) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
