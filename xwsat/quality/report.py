"""What ``fill --optimize`` tells a constructor, as lines and as the ``--json`` record: the
level reached and whether it is proven the highest, the entries per score, the weakest
entries, and the best fill's standing against its bound."""

from __future__ import annotations

from xwsat.problem import Built
from xwsat.quality.levels import top_tier
from xwsat.quality.run import Quality

SHOWN = 10  # weakest entries listed in the text
BANDS_FROM = 8  # more distinct scores than this are counted in bands of ten


def weak_entries(built: Built, quality: Quality) -> tuple[int, list[tuple[str, str, int]], bool]:
    """The top tier (``top_tier``), the counted entries below it that their slot could beat
    (a slot whose best candidate scores lower holds no weak entry at that score), weakest
    first, as (slot, word, score), and whether some slot's best is below the tier."""
    tier = top_tier(built.problem, quality.exempt)
    best = {s: int(built.problem.scores[s].max(initial=0)) for s in range(len(built.slots))
            if s not in quality.exempt}
    rows = [(int(built.words.scores[w]), s, built.slots[s].name, built.words.words[w])
            for s, w in enumerate(quality.fill) if s not in quality.exempt]
    weak = [(name, word, score) for score, s, name, word in sorted(rows)
            if score < min(tier, best[s])]
    return tier, weak, any(b < tier for b in best.values())


def _bands(tiers: dict[int, int]) -> dict[str, int]:
    """Counts per score, or per band of ten when a list has many scores (``en``)."""
    if len(tiers) <= BANDS_FROM:
        return {str(score): count for score, count in tiers.items()}
    bands: dict[str, int] = {}
    for score, count in tiers.items():
        low = min(score // 10 * 10, 90)
        key = f"{low}-{low + 9 if low < 90 else 100}"
        bands[key] = bands.get(key, 0) + count
    return bands


def _ceiling_line(quality: Quality) -> str:
    c = quality.climb
    if c.next_level is None:
        return f"level {c.level} reached: the top score among this grid's candidates"
    if c.proven:
        how = c.evidence.method if c.evidence is not None else "search"
        detail = f": {c.evidence.detail}" if c.evidence is not None and c.evidence.detail else ""
        return (f"level {c.level} reached, proven the highest: no fill at {c.next_level} "
                f"({how}{detail})")
    if c.interrupted:
        trying = f" while trying {c.steps[-1].level}" if c.steps else ""
        return (f"level {c.level} reached; stopped{trying}, so {c.next_level} is not proven "
                "unfillable")
    if c.undecided is not None:
        return (f"level {c.level} reached; {c.undecided} not decided within the limit, so "
                f"{c.next_level} is not proven unfillable")
    return f"level {c.level} reached; {c.next_level} not tried (stopped)"


def quality_lines(built: Built, quality: Quality, prove_hint: str | None) -> list[str]:
    c, best = quality.climb, quality.best
    lines = [_ceiling_line(quality)]
    if c.level > c.start_level:
        lines.append(f"  (plain fill's level: {c.start_level}; {len(c.steps)} searches in "
                     f"{c.seconds:.1f} s)")
    if prove_hint and c.next_level is not None:
        label = (f"the certificate of level {c.next_level}" if c.proven
                 else f"to decide level {c.next_level} with a longer limit")
        lines.append(f"  {label}: {prove_hint}")
    if best is not None and best.level == quality.top:
        lines.append(f"best fill at level {best.level}: every entry at the top score (optimal)")
    elif best is not None:
        needed = (f"at least {best.fewest} must be at {best.level}" if best.fewest > 0
                  else "none is proven needed")
        state = "optimal" if best.optimal else (
            f"not proven the fewest: {needed}" + (f", total bound {best.total_bound}"
                                                  if best.total_bound is not None else ""))
        lines.append(f"best fill at level {best.level}: {best.at_level} "
                     f"entr{'y' if best.at_level == 1 else 'ies'} at "
                     f"{best.level}, total score {best.total} ({state}; "
                     f"{best.search.decisions:,} branch-and-bound decisions"
                     + (f", {best.search.rounds} neighbourhoods" if best.search.rounds else "")
                     + f" in {best.search.seconds:.1f} s)")
    lines.append("entries per score: " + ", ".join(f"{score}: {count}" for score, count
                                                   in _bands(quality.tiers).items()))
    tier, weak, capped = weak_entries(built, quality)
    by_slot = ", or below the best their slot can take" if capped else ""
    lines.append(f"weak entries (below the top tier {tier}{by_slot}): {len(weak)}")
    lines += [f"  {name:>5} {word} ({score})" for name, word, score in weak[:SHOWN]]
    if len(weak) > SHOWN:
        lines.append(f"  ... and {len(weak) - SHOWN} more")
    return lines


def quality_json(built: Built, quality: Quality, prove_hint: str | None) -> dict:
    c, best = quality.climb, quality.best
    tier, weak, _ = weak_entries(built, quality)
    record: dict = {
        "level": c.level, "start_level": c.start_level, "next_level": c.next_level,
        "proven": c.proven, "ceiling": c.ceiling, "undecided": c.undecided,
        "proof": ({"method": c.evidence.method, "detail": c.evidence.detail}
                  if c.evidence is not None else None),
        "prove_command": prove_hint if c.next_level is not None else None,
        "steps": [{"level": s.level, "status": s.status, "seconds": round(s.seconds, 2),
                   "reached": s.reached} for s in c.steps],
        "interrupted": quality.interrupted,
        "tiers": {str(score): count for score, count in quality.tiers.items()},
        "top": quality.top, "top_tier": tier,
        "weak": [{"slot": n, "word": w, "score": s} for n, w, s in weak],
    }
    if best is not None:
        record.update({"at_level": best.at_level, "fewest_at_level": best.fewest,
                       "total_score": best.total, "total_bound": best.total_bound,
                       "optimal": best.optimal, "rounds": best.search.rounds,
                       "decisions": best.search.decisions,
                       "seconds": round(c.seconds + best.search.seconds, 2)})
    else:  # no best-fill search (a stop, a region refill): the fill's own counts, no bound
        record.update({"at_level": quality.tiers.get(c.level, 0), "fewest_at_level": None,
                       "total_score": sum(score * n for score, n in quality.tiers.items()),
                       "total_bound": None, "optimal": False, "rounds": 0, "decisions": 0,
                       "seconds": round(c.seconds, 2)})
    return record
