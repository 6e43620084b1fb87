"""Measure an English word list against a constructors' list used as a yardstick.

Why: the scores of the embedded ``en`` list are meant to say "would a crossword constructor use
this entry". Spread the Wordlist (STWL, tiers 0-50 set by constructors) is the list constructors
use; its licence (CC BY-NC-SA) keeps it out of xwsat and out of the build of any score, so it
serves here as a yardstick only. It is read from the ``blacksquare`` package
(``pip install blacksquare``), never a dependency of xwsat.

Two figures:

* rank agreement (Spearman, ties averaged) between the list's scores and the yardstick's tiers on
  the entries both hold, reported on a tuning half and a held-out half of the shared entries
  (split by a stable hash of the entry, ``half_of``), and on all;
* per grid, the fill ``xwsat fill GRID --dict D --seed S [--min-score T]`` gives: the share of its
  entries in the yardstick's top tier (50) and the count of entries the yardstick lacks.

Usage::

    python scripts/measure_en_against_yardstick.py --dict en \
        --grids grids/american/2020*_empty.txt \
        grids/small/amer15.txt --min-score 0,50 --seeds 0,1,2 --json-out rows.jsonl

``--dict`` takes several lists, comma-separated: their fills of each grid and seed then run one
after another (interleaved), so that they are compared under the same conditions, and the rank
agreement is also given on the entries every list shares with the yardstick (a list that leaves
out its obscure tail is otherwise judged on fewer, harder-to-rank entries).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

TOP_TIER = 50
LOCK = Path("/work/measure.lock")  # shared machines: fills wait for other measurements
NO_LOCK = "--no-lock" in sys.argv  # the fills' entries do not depend on the machine's load


def load_yardstick() -> dict[str, int]:
    """The yardstick's tier (0-50) per entry, from the ``blacksquare`` package."""
    try:
        from blacksquare import DEFAULT_WORDLIST
    except ImportError:
        sys.exit("error: the yardstick comes from the blacksquare package, which is not "
                 "installed here (pip install blacksquare; for measurement only)")
    return {w: round(DEFAULT_WORDLIST.get_score(w) * 50) for w in DEFAULT_WORDLIST.words}


def half_of(word: str) -> str:
    """'tuning' or 'held-out', stable across runs and machines (a hash of the entry)."""
    return ("tuning", "held-out")[hashlib.blake2b(word.encode(), digest_size=2).digest()[0] % 2]


def ranks(values: np.ndarray) -> np.ndarray:
    """Ranks with ties given their average rank (as Spearman's coefficient wants)."""
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    _, first, counts = np.unique(sorted_values, return_index=True, return_counts=True)
    average = first + 1 + (counts - 1) / 2.0  # ranks from 1
    out = np.empty(len(values), dtype=np.float64)
    out[order] = np.repeat(average, counts)
    return out


def spearman(xs: Iterable[float], ys: Iterable[float]) -> float:
    """Spearman's rank correlation of two equal-length sequences."""
    x, y = np.asarray(list(xs), dtype=np.float64), np.asarray(list(ys), dtype=np.float64)
    return float(np.corrcoef(ranks(x), ranks(y))[0, 1])


def agreement(scores: Mapping[str, int], tiers: Mapping[str, int]) -> dict[str, dict]:
    """Spearman on the shared entries, per half and on all."""
    shared = sorted(set(scores) & set(tiers))
    out = {}
    for name in ("tuning", "held-out", "all"):
        words = [w for w in shared if name == "all" or half_of(w) == name]
        out[name] = {"entries": len(words),
                     "spearman": round(spearman([scores[w] for w in words],
                                                [tiers[w] for w in words]), 4)}
    return out


def evidence_cell(ev) -> tuple:
    """The evidence about an entry, coarsened into a cell of a lookup table (``ceiling``)."""
    return (round(ev.zipf * 4) / 4, ev.scowl, ev.scowl_proper, min(len(ev.senses), 4),
            ev.words > 1, ev.abbreviation, ev.british, bool(ev.senses) and ev.senses[0].lex)


def ceiling(scores: Mapping[str, int], tiers: Mapping[str, int]) -> dict[str, float]:
    """How far any weighing of the build's evidence could go: each cell of ``evidence_cell``
    scored with the mean tier of its tuning-half entries, measured on both halves. A lookup
    table is the most flexible weighing there is, so its held-out figure bounds the sources."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from build_en_dictionary import gather

    entries = gather()
    cells: dict[tuple, list[int]] = {}
    shared = sorted(set(scores) & set(tiers))
    for w in shared:
        if half_of(w) == "tuning":
            cells.setdefault(evidence_cell(entries[w]), []).append(tiers[w])
    mean = {cell: sum(v) / len(v) for cell, v in cells.items()}
    overall = float(np.mean([tiers[w] for w in shared]))
    out = {}
    for name in ("tuning", "held-out"):
        words = [w for w in shared if half_of(w) == name]
        out[name] = round(spearman([mean.get(evidence_cell(entries[w]), overall) for w in words],
                                   [tiers[w] for w in words]), 4)
    return out


def fill_entries(grid: Path, dictionary: str, seed: int, min_score: int,
                 time_limit: float) -> tuple[str, list[str]]:
    """Status and entries of ``xwsat fill`` on ``grid`` (the command as a user runs it)."""
    cmd = [sys.executable, "-c", "from xwsat.cli import main; main()", "fill", str(grid),
           "--dict", dictionary, "--seed", str(seed), "--json", "--time-limit", str(time_limit)]
    if min_score:
        cmd += ["--min-score", str(min_score)]
    if LOCK.exists() and not NO_LOCK:
        cmd = ["flock", str(LOCK), *cmd]
    run = subprocess.run(cmd, capture_output=True, text=True, check=False)
    try:
        record = json.loads(run.stdout)
    except json.JSONDecodeError:
        return f"error (exit {run.returncode})", []
    return record["status"], [w["word"] for w in record.get("words") or []]


def grade(entries: list[str], tiers: Mapping[str, int]) -> dict:
    """Share of top-tier entries and the entries the yardstick lacks or ranks lower."""
    top = [w for w in entries if tiers.get(w) == TOP_TIER]
    return {"entries": len(entries),
            "top_share": round(len(top) / len(entries), 4) if entries else None,
            "lacking": [w for w in entries if w not in tiers],
            "lower": [f"{w}:{tiers[w]}" for w in entries if w in tiers and tiers[w] < TOP_TIER]}


def summary(rows: list[dict], min_score: int) -> str:
    """One line over the fills of one --min-score: how many filled, the top-tier share and the
    count of lacking entries (worst, mean, best)."""
    done = [r for r in rows if r["top_share"] is not None]
    if not done:
        return f"min-score {min_score}: 0 of {len(rows)} filled"
    shares = [r["top_share"] for r in done]
    lacking = [len(r["lacking"]) for r in done]
    return (f"min-score {min_score}: {len(done)} of {len(rows)} filled; top tier worst "
            f"{min(shares):.0%}, mean {np.mean(shares):.0%}, best {max(shares):.0%}; lacking "
            f"worst {max(lacking)}, mean {np.mean(lacking):.1f}, best {min(lacking)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dict", default="en", help="en, or a dictionary file")
    parser.add_argument("--grids", nargs="*", type=Path, default=[])
    parser.add_argument("--seeds", default="0", help="comma-separated fill seeds")
    parser.add_argument("--min-score", default="0", help="comma-separated --min-score values")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--no-lock", action="store_true",
                        help="fill without waiting for the measurement lock (quality figures "
                             "only: the fills' times are not reported)")
    parser.add_argument("--json-out", type=Path, help="write one JSON row per fill here")
    parser.add_argument("--ceiling", action="store_true",
                        help="also the rank agreement of the best lookup table over the build's "
                             "evidence (needs the English build's sources)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from xwsat.words import load_words

    tiers = load_yardstick()
    names = args.dict.split(",")
    lists = {name: load_words(name) for name in names}
    common = set(tiers).intersection(*(words.words for words in lists.values()))
    for words in lists.values():
        scores = dict(zip(words.words, words.scores.tolist()))
        print(f"list {words.source}: {len(scores):,} entries; yardstick: {len(tiers):,} "
              f"entries; shared: {len(set(scores) & set(tiers)):,}")
        for half, row in agreement(scores, tiers).items():
            print(f"spearman {half:8s} {row['spearman']:.3f} on {row['entries']:,} shared entries")
        if len(names) > 1:  # the same entries for every list: no list is judged on its own
            for half, row in agreement({w: scores[w] for w in common}, tiers).items():
                print(f"spearman {half:8s} {row['spearman']:.3f} on the {row['entries']:,} "
                      "entries every list shares with the yardstick")
        if args.ceiling:
            for half, value in ceiling(scores, tiers).items():
                print(f"ceiling  {half:8s} {value:.3f} (a lookup table over the evidence, fitted "
                      "on the tuning half)")
    rows = []
    for min_score in (int(x) for x in args.min_score.split(",")):
        for grid in args.grids:
            for seed in (int(x) for x in args.seeds.split(",")):
                for name in names:
                    status, entries = fill_entries(grid, name, seed, min_score, args.time_limit)
                    row = {"dict": name, "grid": str(grid), "seed": seed,
                           "min_score": min_score, "status": status, **grade(entries, tiers)}
                    rows.append(row)
                    share = f"{row['top_share']:.0%}" if row["top_share"] is not None else "-"
                    print(f"fill {grid.name} {Path(name).name} seed {seed} min-score {min_score}: "
                          f"{status}, {row['entries']} entries, top tier {share}, lacking "
                          f"{len(row['lacking'])} {' '.join(row['lacking'])}", flush=True)
    for name in names:
        for min_score in sorted({r["min_score"] for r in rows}):
            print(f"{Path(name).name} " + summary(
                [r for r in rows if r["min_score"] == min_score and r["dict"] == name], min_score))
    if args.json_out:
        args.json_out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
