"""Generate a grid: build the line automata, run one back-end within the limits, verify.

The result is verified by ``xwsat.generate.grid_check`` (which shares no code with the back-ends)
before it is returned; a grid that fails is withheld and reported as an error.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from xwsat import guard
from xwsat.errors import XwsatError
from xwsat.generate import pattern_first
from xwsat.generate.automaton import LineAutomaton, build_line_automaton
from xwsat.generate.bisection import NativeGenerator
from xwsat.generate.cpsat_lines import CpsatGenerator, SolveReport
from xwsat.generate.grid_check import check_generated
from xwsat.generate.sat_lines import SatGenerator
from xwsat.generate.spec import GenerateSpec
from xwsat.outcome import Answered, Outcome, Stats, Status, Stop, stopped
from xwsat.words import WordList, build_wordlist

BACKENDS = ("auto", "patterns", "native", "cpsat", "sat")
Progress = Callable[[str], None]
PATTERN_SHARE = 0.8  # of ``auto``'s time, for the pattern-first way where it applies


@dataclass
class GenerateResult(Answered):
    """The outcome (FILLED: a grid was generated and verified, its ``rows`` given; UNFILLABLE:
    no grid exists), where the time went, and the automata's sizes."""

    outcome: Outcome
    rows: tuple[str, ...] | None = None
    times: dict[str, float] = field(default_factory=dict)
    automata: dict[int, dict[str, int]] = field(default_factory=dict)

    @property
    def blocks(self) -> int:
        return sum(row.count("#") for row in self.rows) if self.rows else 0


def with_theme(words: WordList, theme: tuple[str, ...]) -> WordList:
    """The dictionary plus any theme entry it lacks (a theme entry is always a valid word)."""
    missing = [t for t in theme if t not in set(words.words)]
    if not missing:
        return words
    bad = sorted({ch for t in missing for ch in t} - set(words.alphabet.letters))
    if bad:
        raise XwsatError(f"theme letters {''.join(bad)} are not in the dictionary's alphabet")
    entries = {w: (int(s), words.clues.get(i)) for i, (w, s) in
               enumerate(zip(words.words, words.scores))}
    entries.update({t: (50, None) for t in missing})
    return build_wordlist(entries, words.alphabet.letters, words.source + " + theme")


def generate(spec: GenerateSpec, words: WordList, backend: str = "auto",
             time_limit: float = 60.0, seed: int = 0, progress: Progress = lambda _: None,
             stop: threading.Event | None = None) -> GenerateResult:
    """Generate pattern and words together; never raises for a search outcome. ``auto`` takes
    the pattern-first way where it applies (``pattern_first.fits``) for up to all the time but
    a share kept for the native line generator, which alone can prove no grid exists."""
    if backend not in BACKENDS:
        raise XwsatError(f"--backend must be one of {', '.join(BACKENDS)}")
    if spec.theme and backend == "native":
        raise XwsatError("--theme needs --backend cpsat or sat (the native generator has no "
                         "themed entries)")
    started = time.monotonic()
    drawn: dict[str, float | int] = {}  # the pattern stage's counts, kept past its hand-over
    if backend == "auto" and spec.theme:
        backend = "cpsat"
    if backend in ("auto", "patterns") and (backend == "patterns" or pattern_first.fits(spec)):
        share = time_limit if backend == "patterns" else time_limit * PATTERN_SHARE
        progress("drawing legal patterns and filling them")
        try:
            report = pattern_first.solve(spec, words, started + share, seed, progress)
        except KeyboardInterrupt as exc:  # Ctrl-C or the command's limit: nothing found yet
            report = SolveReport(None, False, guard.interruption(exc)[1])
            return _finish(spec, words, "patterns", report, started, started, {})
        if (report.rows is not None or backend == "patterns"
                or report.stopped in ("interrupted", "memory limit reached")):
            return _finish(spec, words, "patterns", report, started, started, {})
        time_limit -= time.monotonic() - started
        drawn = dict(report.stats)
        progress(report.stopped + "; trying the line generator")
    backend = "native" if backend == "auto" else backend
    deadline = time.monotonic() + time_limit
    stop = stop or threading.Event()
    words = with_theme(words, spec.theme)
    automata: dict[int, LineAutomaton] = {}
    for length in sorted({spec.width, spec.height}):
        progress(f"building the line automaton for length {length}")
        automata[length] = build_line_automaton(words, length, spec.min_length)
    sizes = {length: {"trie_nodes": a.trie_nodes, "dawg_states": a.dawg_states,
                      "transitions": len(a.transitions), "layered_transitions": a.layered_size}
             for length, a in automata.items()}
    built = time.monotonic()
    progress(f"searching with {backend}")
    engine: CpsatGenerator | NativeGenerator | SatGenerator
    try:
        if backend == "cpsat":
            engine = CpsatGenerator(spec, words.alphabet, automata, seed)
        elif backend == "sat":
            engine = SatGenerator(spec, words.alphabet, automata, seed)
        else:
            engine = NativeGenerator(spec, words.alphabet, automata, seed)
        report: SolveReport = engine.solve(deadline, stop, progress)
    except KeyboardInterrupt as exc:  # Ctrl-C or the command's limit: nothing found yet
        report = SolveReport(None, False, guard.interruption(exc)[1])
    report.stats = drawn | report.stats
    return _finish(spec, words, backend, report, started, built, sizes)


def _finish(spec: GenerateSpec, words: WordList, backend: str, report: SolveReport,
            started: float, built: float, sizes: dict[int, dict[str, int]]) -> GenerateResult:
    """The result of ``report``, its grid checked by ``grid_check`` first."""
    times = {"build_s": round(built - started, 3),
             "search_s": round(time.monotonic() - built, 3)}
    stats = Stats(extra=dict(report.stats))
    if report.rows is None:
        if report.proven_none:
            return GenerateResult(Outcome(
                Status.UNFILLABLE, backend, stats=stats,
                message=f"no grid exists: {backend} exhausted the search"
                + (" (with exact lazy cuts)" if backend != "native" else "")), None, times, sizes)
        why = (Stop.INTERRUPTED if report.stopped == "interrupted" else
               Stop.MEMORY if "memory" in report.stopped else Stop.TIME)
        return GenerateResult(stopped(backend, why, report.stopped, stats), None, times, sizes)
    problems = check_generated(report.rows, set(words.words), spec.min_length, spec.max_blocks,
                               spec.symmetry, spec.allow_repeats, _givens_rows(spec),
                               spec.theme)
    if problems:
        return GenerateResult(stopped(backend, Stop.FAILED, "generated grid failed "
                                      "verification: " + "; ".join(problems[:3]), stats),
                              None, times, sizes)
    return GenerateResult(Outcome(Status.FILLED, backend, stats=stats), report.rows, times, sizes)


def _givens_rows(spec: GenerateSpec) -> list[str]:
    cells = ["."] * spec.cells
    for cell, ch in spec.givens.items():
        cells[cell] = ch
    w = spec.width
    return ["".join(cells[r * w:(r + 1) * w]) for r in range(spec.height)]
