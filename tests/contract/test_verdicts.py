"""Wrong verdicts hunted on random tiny instances, against the brute-force oracle.

Each instance is a 3x3 to 5x5 grid with blocks and given letters, a 3-6 letter alphabet,
20-300 random words (half the time with a planted fill), repeats allowed or not. The oracle
(``oracle.brute_fills``, which shares no code with xwsat) gives every fill. Then:

* build and arc consistency lose no fill (``oracle.count_fills`` on the built and the propagated
  problem equals the brute-force count; a wiped-out slot means no fill at all);
* every installed back-end but ACE (slow to start), called in-process on the propagated problem,
  gives the oracle's verdict, and every fill it returns is valid and one of the oracle's;
* ``xwsat.evidence.count.count_fills`` gives the oracle's count;
* a sample goes through ``xwsat.pipeline.fill_grid`` end to end (back-ends in child processes).

The default run checks a few dozen instances; ``-m slow`` runs the study (10,000 instances by
default, ``XWSAT_VERDICT_INSTANCES`` to change it) and, with ``XWSAT_TALLIES`` set, writes its
counts. An instance whose brute force takes over ``ORACLE_S`` is drawn again (and counted).
"""

from __future__ import annotations

import math
import os
import random
import signal
import time
from collections import Counter
from dataclasses import dataclass

import pytest
import tallies
from oracle import brute_fills, valid_fill
from oracle import count_fills as oracle_count

from xwsat.backends.qxw import QxwBackend
from xwsat.backends.registry import backend_specs, make_backend
from xwsat.evidence.count import count_fills
from xwsat.grid import parse_grid
from xwsat.outcome import Limits, Status
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.problem import build_problem, fill_letters
from xwsat.propagate import propagate
from xwsat.words import build_wordlist

ORACLE_S = 0.25  # brute force allowed per instance (a slower one is drawn again)
SOLVE_S = 20.0  # a back-end's limit on a tiny instance (an UNKNOWN is reported, never excused)


def _in_reach(spec: str) -> bool:
    """The project's own back-ends always (a missing one fails the test); of the peers, Qxw
    (a Debian package) only where it is installed, ACE (Java, seconds a run) never."""
    name = spec.partition(":")[0]
    if name == "ace":
        return False
    return name != "qxw" or QxwBackend.available()


SPECS = [s for s in backend_specs() if _in_reach(s)]
PLANT, LOW, HIGH = 0.5, 0.004, 0.3  # a planted fill; the share of possible words in the list
ALPHABET = "ABCDEF"


@dataclass(frozen=True)
class Instance:
    text: str
    words: tuple[str, ...]
    allow_repeats: bool
    min_length: int

    def describe(self) -> str:
        return (f"grid {self.text!r} words {list(self.words)} repeats {self.allow_repeats} "
                f"min_length {self.min_length}")


def random_instance(rng: random.Random) -> Instance | None:
    """One random instance (None when the grid has no slot)."""
    height, width = rng.randint(3, 5), rng.randint(3, 5)
    letters = ALPHABET[: rng.randint(3, 6)]
    block_p = rng.choice([0.0, 0.1, 0.2, 0.3])
    given_p = rng.choice([0.0, 0.0, 0.05, 0.15])
    min_length = rng.choice([2, 2, 2, 3])
    cells = [["#" if rng.random() < block_p else "." for _ in range(width)]
             for _ in range(height)]
    solution = [[ch if ch == "#" else rng.choice(letters) for ch in row] for row in cells]
    for r in range(height):
        for c in range(width):
            if cells[r][c] == "." and rng.random() < given_p:
                cells[r][c] = solution[r][c]
    text = "\n".join("".join(row) for row in cells) + "\n"
    from oracle import runs

    slots = runs(tuple(text.split()), min_length)
    if not slots:
        return None
    lengths = sorted({len(s) for s in slots})
    count = rng.randint(20, 300)
    density = math.exp(rng.uniform(math.log(LOW), math.log(HIGH)))  # of the possible words
    words: set[str] = set()
    for length in lengths:  # the words that can fill a slot: few enough to count the fills
        wanted = min(count // len(lengths), max(1, round(density * len(letters) ** length)))
        for _ in range(wanted * 3):
            if sum(len(w) == length for w in words) >= wanted:
                break
            words.add("".join(rng.choice(letters) for _ in range(length)))
    if rng.random() < PLANT:  # plant a fill: the solution's own words
        rows = tuple("".join(row) for row in solution)
        words.update("".join(rows[r][c] for r, c in slot) for slot in slots)
    others = [n for n in range(2, 8) if n not in lengths]
    while others and len(words) < count:  # and words no slot can take, up to the list's size
        length = rng.choice(others)
        words.add("".join(rng.choice(letters) for _ in range(length)))
    if not words:
        return None
    return Instance(text, tuple(sorted(words)), rng.random() < 0.4, min_length)


class OracleTooSlow(Exception):
    pass


def within(seconds: float, fn, *args):
    """``fn(*args)``, or None when it takes over ``seconds``. The alarm repeats: one raised
    where Python swallows exceptions (a gc callback) is followed by another."""
    state = {"armed": True}

    def too_slow(signum: int, frame: object) -> None:
        if state["armed"]:
            raise OracleTooSlow

    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.05)
    try:
        try:
            return fn(*args)
        finally:
            state["armed"] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except OracleTooSlow:
        return None
    finally:
        signal.signal(signal.SIGALRM, previous)


def oracle_fills(instance: Instance) -> set[tuple[str, ...]] | None:
    """Every fill (brute force on the text), or None when it takes over ``ORACLE_S``."""
    return within(ORACLE_S, brute_fills, instance.text, list(instance.words),
                  instance.allow_repeats, instance.min_length)


def build(instance: Instance):
    words = build_wordlist({w: (50, None) for w in instance.words})
    return build_problem(parse_grid(instance.text), words, instance.min_length,
                         instance.allow_repeats)


def check_instance(instance: Instance, fills: set[tuple[str, ...]], tally: Counter,
                   problems: list[str], with_count: bool) -> None:
    """Every check on one instance whose fills the oracle knows."""
    grid = parse_grid(instance.text)
    built = build(instance)
    expected = len(fills)
    tally["fillable" if fills else "unfillable"] += 1
    propagated = propagate(built.problem)
    if with_count:  # the problem-level oracle: build and arc consistency keep every fill
        before = within(ORACLE_S, oracle_count, built.problem)
        after = (within(ORACLE_S, oracle_count, propagated.problem)
                 if propagated.wiped is None else 0)
        if before is not None and after is not None:
            tally["build and propagate counted"] += 1
            if before != expected or after != expected:
                problems.append(f"build or propagate changed the fills ({before}, {after} for "
                                f"{expected}): {instance.describe()}")
    if propagated.wiped is not None:
        tally["decided by arc consistency"] += 1
        if fills:
            problems.append(f"arc consistency wiped out a fillable grid: {instance.describe()}")
        return
    problem = propagated.problem
    for spec in SPECS:
        backend = make_backend(spec)
        outcome = backend.solve(problem, Limits(time_limit=SOLVE_S, seed=tally["checked"]))
        tally[f"solves {spec}"] += 1
        if outcome.status is Status.FILLED:
            fill = outcome.fill
            letters = grid.with_letters(fill_letters(built, fill)).rows if fill else None
            if fill is None or not valid_fill(problem, fill) or letters not in fills:
                tally["invalid fills"] += 1
                problems.append(f"{spec} returned an invalid fill: {instance.describe()}")
            elif not fills:
                tally["wrong verdicts"] += 1
        elif outcome.status is Status.UNFILLABLE:
            if fills:
                tally["wrong verdicts"] += 1
                problems.append(f"{spec} says unfillable: {instance.describe()}")
        elif backend.traits.complete:
            tally[f"undecided {spec}"] += 1
            problems.append(f"{spec} undecided ({outcome.label}: {outcome.message}): "
                            f"{instance.describe()}")
    if with_count:
        counted = count_fills(built, None, 30.0, None, instance.min_length)
        tally["counts"] += 1
        if not counted.exact or counted.count != expected:
            tally["wrong counts"] += 1
            problems.append(f"count_fills {counted.count} (exact {counted.exact}) != "
                            f"{expected}: {instance.describe()}")


def check_end_to_end(instance: Instance, fills: set[tuple[str, ...]], spec: str,
                     tally: Counter, problems: list[str]) -> None:
    words = build_wordlist({w: (50, None) for w in instance.words})
    result = fill_grid(parse_grid(instance.text), words, FillOptions(
        spec, 30.0, allow_repeats=instance.allow_repeats, min_length=instance.min_length))
    tally["end to end"] += 1
    status = result.outcome.status
    if status is Status.FILLED and (result.filled is None or result.filled.rows not in fills):
        tally["invalid fills"] += 1
        problems.append(f"fill_grid {spec}: a fill the oracle does not know: "
                        f"{instance.describe()}")
    elif status.definitive and (status is Status.FILLED) != bool(fills):
        tally["wrong verdicts"] += 1
        problems.append(f"fill_grid {spec}: {status.value}: {instance.describe()}")
    elif not status.definitive and spec != "native:balanced":
        problems.append(f"fill_grid {spec}: {result.outcome.label}: {instance.describe()}")


def study(instances: int, seed: int, end_to_end: int,
          count_every: int = 1) -> tuple[Counter, list[str]]:
    rng = random.Random(seed)
    tally: Counter = Counter()
    problems: list[str] = []
    e2e_specs = ["auto", "sat", "cpsat", "mac", "native"]
    while tally["checked"] < instances:
        instance = random_instance(rng)
        if instance is None:
            continue
        fills = oracle_fills(instance)
        if fills is None:
            tally["redrawn: oracle over its time"] += 1
            continue
        check_instance(instance, fills, tally, problems,
                       with_count=tally["checked"] % count_every == 0)
        if tally["checked"] < end_to_end:
            check_end_to_end(instance, fills, e2e_specs[tally["checked"] % len(e2e_specs)],
                             tally, problems)
        tally["checked"] += 1
    return tally, problems


def test_a_few_random_instances_agree_with_brute_force() -> None:
    tally, problems = study(instances=12, seed=7, end_to_end=3)
    assert problems == []
    assert tally["fillable"] and tally["unfillable"]


@pytest.mark.slow
def test_every_back_end_agrees_with_brute_force_on_random_instances() -> None:
    n = int(os.environ.get("XWSAT_VERDICT_INSTANCES", "10000"))
    start = time.monotonic()
    tally, problems = study(instances=n, seed=2024, end_to_end=min(300, n), count_every=5)
    summary = dict(sorted(tally.items()))
    summary["seconds"] = round(time.monotonic() - start, 1)
    summary["back-ends"] = SPECS
    summary["problems"] = problems[:50]
    tallies.put("verdicts", f"{n} instances, seed 2024", summary)
    assert problems == [], problems[:10]
