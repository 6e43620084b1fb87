"""Turn results into text and JSON for people and machines (no computation, no I/O)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from xwsat.grid import Slot
from xwsat.outcome import Stats, Status
from xwsat.pipeline import FillResult
from xwsat.problem import Built

VERDICT = {
    Status.FILLED: "FILLED",
    Status.UNFILLABLE: "UNFILLABLE",
    Status.UNKNOWN: "UNDECIDED",
    Status.ERROR: "ERROR",
}


def slot_words(result: FillResult) -> list[tuple[Slot, str]]:
    """Each slot with its word, in clue order."""
    assert result.outcome.fill is not None
    words = result.built.words.words
    return [(slot, words[w]) for slot, w in zip(result.built.slots, result.outcome.fill)]


def shared_entries(result: FillResult) -> list[tuple[str, str, str]]:
    """Pairs of the fill's entries sharing a long piece (ALEUT and ALEUTIAN, CAKE inside
    CHEESECAKE), as the workbench flags them: (slot, slot, piece)."""
    from xwsat.pattern_stats import shared_pieces

    entries = {slot.name: word for slot, word in slot_words(result)}
    order = {name: i for i, name in enumerate(entries)}  # clue order: 1D before 11D
    pairs = [(a, b, piece) if order[a] < order[b] else (b, a, piece)
             for a, b, piece in shared_pieces(entries)]
    return sorted(pairs, key=lambda pair: (order[pair[0]], order[pair[1]]))


def describe(result: FillResult, question: str = "fill") -> str:
    """The human-readable report: verdict line, grid and word lists, or the evidence."""
    outcome = result.outcome
    lines = [f"{VERDICT[outcome.status]} by {outcome.method} in {total_time(result):.2f} s"]
    if outcome.status is Status.FILLED and result.filled is not None:
        if question == "prove":
            lines[0] = f"FILLABLE: a verified fill was found by {outcome.method}"
        lines += ["", *(" ".join(row) for row in result.filled.rows), ""]
        for direction, title in (("A", "Across"), ("D", "Down")):
            lines.append(f"{title}:")
            lines += [f"  {s.number:>3}. {w}"
                      for s, w in slot_words(result) if s.direction == direction]
        if question == "fill" and (pieces := shared_entries(result)):
            lines += ["", "shared pieces (dupes to an editor?): " + ", ".join(
                f"{a}/{b} {piece}" for a, b, piece in pieces)]
        lift = outcome.stats.extra.get("lift")
        if lift and (lift["refilled"] or lift.get("fresh")) and question == "fill":
            fresh = (", in two passes: the search's fill, then a fresh one without the list's "
                     "lowest level"
                     if lift.get("fresh") else "")
            lines += ["", f"lift: {lift['refilled']} of {lift['regions']} neighbourhoods of the "
                      f"weakest entries refilled with better words{fresh} "
                      f"({lift['seconds']:.2f} s)"]
    elif outcome.status is Status.UNFILLABLE and outcome.evidence is not None:
        lines.append(f"proof: {outcome.evidence.method}" +
                     (f": {outcome.evidence.detail}" if outcome.evidence.detail else ""))
        if own := entries_not_in_list(result.built):
            locks = " ".join(f"--lock {name}={word}" for name, word in own)
            lines.append(f"  to keep {'this entry' if len(own) == 1 else 'these entries'} of "
                         f"your own as typed: {locks}")
    elif outcome.message:
        lines.append(outcome.message)
    return "\n".join(lines)


def entries_not_in_list(built: Built) -> list[tuple[str, str]]:
    """The entries the grid gives whole that the word list lacks, as (slot, word): a theme
    entry typed in, which ``--lock`` would take as it is."""
    given = built.grid.given_letters()
    return [(slot.name, "".join(given[c] for c in slot.cells))
            for s, slot in enumerate(built.slots)
            if all(c in given for c in slot.cells) and len(built.problem.candidates[s]) == 0]


def total_time(result: FillResult) -> float:
    return sum(result.times.values())


def as_json(result: FillResult) -> dict[str, Any]:
    """A machine-readable record of the run."""
    outcome = result.outcome
    problem = result.built.problem
    data: dict[str, Any] = {
        "status": outcome.status.value,
        "backend": outcome.method,
        "verified": result.verified,
        "message": outcome.message,
        "stop": outcome.stop.value if outcome.stop is not None else None,  # why no verdict
        "times": {k: round(v, 4) for k, v in result.times.items()},
        # a solver stopped from outside reported nothing: unknown (null), not zero counts
        "solver_stats": (asdict(outcome.stats) if outcome.stats != Stats() else
                         dict.fromkeys(asdict(outcome.stats))),
        "sizes": {
            "slots": problem.n_slots,
            "cells": problem.n_cells,
            "candidates": int(problem.domain_sizes().sum()),
            "dictionary": len(result.built.words),
        },
        "dictionary": result.built.words.source,
        "evidence": asdict(outcome.evidence) if outcome.evidence else None,
        "grid": list(result.filled.rows) if result.filled else None,
        "words": None,
    }
    if result.filled is not None:
        data["words"] = [
            {"slot": s.name, "number": s.number, "direction": "across" if s.direction == "A"
             else "down", "row": s.row, "col": s.col, "word": w}
            for s, w in slot_words(result)
        ]
        data["shared_pieces"] = [{"slots": [a, b], "piece": piece}
                                 for a, b, piece in shared_entries(result)]
    return data
