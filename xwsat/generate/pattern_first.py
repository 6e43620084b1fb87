"""Pattern first, words second: the generator's way to a symmetric American-style grid.

The line back-ends place blocks and words together, which on a rotationally symmetric 15x15
stays undecided at a minute. Constructors draw a legal pattern first (no run under three,
connected, a word-count ceiling, few cheaters) and fill it; ``xwsat.pattern_suggest`` does the
same with the real fill search, one pattern after another, until one fills. It finds grids; it
cannot prove that none exists, so ``generate``'s auto choice hands the rest of the time to the
native line generator when no pattern filled.
"""

from __future__ import annotations

import time

from xwsat.errors import XwsatError
from xwsat.generate.cpsat_lines import SolveReport
from xwsat.generate.spec import GenerateSpec
from xwsat.grid import parse_grid
from xwsat.grid_patterns import MIN_RUN, MIN_SIZE, block_range
from xwsat.outcome import Stop
from xwsat.pattern_suggest import PatternRules, suggest_patterns
from xwsat.words import WordList

TRY_LIMIT_S = 8.0  # fill search per pattern: most fillable patterns fill in a second or two


def fits(spec: GenerateSpec) -> bool:
    """Whether the pattern-first way applies: a square, rotationally symmetric grid of words of
    three or more with nothing placed in advance."""
    return (spec.width == spec.height >= MIN_SIZE and spec.symmetry == "rotational"
            and spec.min_length == MIN_RUN and not spec.givens and not spec.theme)


def solve(spec: GenerateSpec, words: WordList, deadline: float, seed: int,
          progress=lambda _: None) -> SolveReport:
    """A legal pattern filled by the search within ``deadline`` (monotonic), else no rows."""
    if not fits(spec):
        raise XwsatError("--backend patterns needs a square grid, --symmetry rotational, "
                         "--min-length 3, and no --given or --theme")
    n = spec.width
    lo, hi = block_range(n)
    if spec.max_blocks is not None:
        hi = min(hi, spec.max_blocks)
        lo = min(lo, hi)
    rules = PatternRules(spec.max_words, spec.max_cheaters, lo, hi)
    empty = parse_grid("\n".join(["." * n] * n) + "\n")
    left = deadline - time.monotonic()
    report = suggest_patterns(empty, words, 1, seed, left, rules, min(TRY_LIMIT_S, left),
                              "auto", progress)
    stats = {"patterns_tried": report.tried, "patterns_unfillable": report.unfillable,
             "patterns_undecided": report.undecided}
    if report.stopped is Stop.MEMORY:  # no later stage (the line generator) either
        return SolveReport(None, False, "memory limit reached", stats)
    if report.interrupted:
        return SolveReport(None, False, "interrupted", stats)
    if not report.suggestions:
        return SolveReport(None, False, f"no pattern filled in {report.tried} tried", stats)
    return SolveReport(report.suggestions[0].fill.rows, False, "", stats)
