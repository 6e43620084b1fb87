"""How many fillable patterns ``grids suggest`` finds around 15x15 theme sets in a time budget.

Each theme set is two 15-letter entries (rows 3 and 13, or 4 and 12) and a 9-letter one in the
middle row, from the embedded English list. For each set and each --min-score level it runs
``xwsat.pattern_suggest.suggest_patterns`` for the whole budget (count high enough never to stop
early) and prints one row: fillable, proved unfillable, undecided, patterns tried, and the best
pattern's words and cheaters. Run one at a time (``flock /work/measure.lock``).

    python scripts/pattern_figures.py --seconds 60 --levels 0,30,50

``--generator`` prints instead the words and cheaters of ``grids generate``'s patterns (seeds
0-4, 20 each, 15x15 and 21x21) under the old rules (``--legacy``) and the new defaults.
"""

from __future__ import annotations

import argparse
import time
from statistics import median

from xwsat.grid import parse_grid
from xwsat.grid_patterns import cheater_cap, generate_patterns, word_ceiling
from xwsat.pattern_stats import pattern_stats
from xwsat.pattern_suggest import suggest_patterns
from xwsat.words import load_words

THEMES = {
    "A": ((2, "ACCOMPLISHMENTS"), (7, "AFTERNOON"), (12, "ADMINISTRATIONS")),
    "B": ((3, "CONGRATULATIONS"), (7, "SOMETHING"), (11, "RECOMMENDATIONS")),
    "C": ((2, "CHARACTERISTICS"), (7, "BEAUTIFUL"), (12, "STRAIGHTFORWARD")),
}


def theme_grid(entries: tuple[tuple[int, str], ...]) -> str:
    rows = ["." * 15] * 15
    for row, word in entries:
        start = (15 - len(word)) // 2
        rows[row] = "." * start + word + "." * (15 - start - len(word))
    return "\n".join(rows) + "\n"


def generator_counts() -> None:
    print("size\trules\tpatterns\tcheaters_min_median_max\twords_min_median_max")
    for size in (15, 21):
        for rules, caps in (("legacy", {}), ("default", {"max_words": word_ceiling(size),
                                                           "max_cheaters": cheater_cap(size)})):
            stats = [pattern_stats(g) for seed in range(5)
                     for g in generate_patterns(size, 20, seed, **caps)]
            cheats = [len(s.cheaters) for s in stats]
            words = [s.words for s in stats]
            print(f"{size}\t{rules}\t{len(stats)}\t{min(cheats)}/{median(cheats):g}/"
                  f"{max(cheats)}\t{min(words)}/{median(words):g}/{max(words)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--levels", default="0,30,50")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--generator", action="store_true")
    args = parser.parse_args()
    if args.generator:
        generator_counts()
        return
    print("theme\tmin_score\tfillable\tunfillable\tundecided\ttried\tbest_words\tbest_cheaters"
          "\tseconds")
    for level in (int(x) for x in args.levels.split(",")):
        words = load_words("en", min_score=level)
        for name, entries in THEMES.items():
            started = time.monotonic()
            report = suggest_patterns(parse_grid(theme_grid(entries)), words, count=1000,
                                      seed=args.seed, time_limit=args.seconds)
            best = report.suggestions[0] if report.suggestions else None
            print(f"{name}\t{level}\t{len(report.suggestions)}\t{report.unfillable}\t"
                  f"{report.undecided}\t{report.tried}\t{best.stats.words if best else '-'}\t"
                  f"{len(best.stats.cheaters) if best else '-'}\t"
                  f"{time.monotonic() - started:.0f}", flush=True)


if __name__ == "__main__":
    main()
