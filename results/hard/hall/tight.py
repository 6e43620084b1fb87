"""Which hard-benchmark instances have a slot the no-repeat count could involve.

A slot can be in a Hall set only when it has fewer candidates (after arc consistency) than its
length has slots; counts those instances and times ``hall_set`` on each. Run from the
repository's top folder: ``python results/hard/hall/tight.py``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from xwsat.formats import read_grid
from xwsat.hall import hall_set
from xwsat.problem import FillProblem, build_problem
from xwsat.propagate import propagate
from xwsat.words import WordList, load_words

SUITES = ("robust15", "robust21", "classic", "heldout15", "heldout21")
FILES = {"wamerican-large": "grids/dictionaries/wamerican-large.txt.gz",
         "lex": "grids/dictionaries/lex.txt"}


def tight_slots(problem: FillProblem) -> int:
    groups: dict[int, list[int]] = {}
    for s in range(problem.n_slots):
        groups.setdefault(problem.slot_length(s), []).append(s)
    return sum(1 for group in groups.values() for s in group
               if len(problem.candidates[s]) < len(group))


def main() -> None:
    lists: dict[str, WordList] = {}
    instances = with_tight = counted = 0
    slowest = 0.0
    for suite in SUITES:
        spec = json.loads(Path(f"grids/{suite}/suite.json").read_text(encoding="utf-8"))
        for entry in spec["grids"]:
            for name in entry.get("dictionaries") or spec["dictionaries"]:
                source = FILES.get(name, name)
                if source not in lists:
                    lists[source] = load_words(source)
                grid = read_grid(Path(f"grids/{suite}") / entry["file"])
                propagated = propagate(build_problem(grid, lists[source]).problem)
                if propagated.wiped is not None:
                    continue
                started = time.perf_counter()
                found = hall_set(propagated.problem)
                slowest = max(slowest, time.perf_counter() - started)
                instances += 1
                with_tight += tight_slots(propagated.problem) > 0
                counted += found is not None
    print(f"instances {instances}, with a tight slot {with_tight}, counted unfillable "
          f"{counted}, hall_set at most {slowest * 1000:.2f} ms")


if __name__ == "__main__":
    main()
