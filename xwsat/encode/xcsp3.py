"""XCSP3 export (spec: encodings/xcsp3.md): the crossword model of the XCSP competitions.

A letter variable per cell, a word variable per slot, one extension (table) constraint per slot
over (its cells' letters, its word) whose tuples are the slot's candidates, and an allDifferent
over the word variables of same-length slots when words may not repeat. This is the model of the
XCSP3 "Crossword" series (letters per cell, a table per slot) plus the word column that makes the
no-repeat rule one global constraint; ACE, Choco, PicatSAT and the like read it as it is.

Values are integers: letter codes (index in the dictionary's alphabet) and global word ids.
Build, never solve: running ACE lives in ``xwsat/backends/ace.py``.

``cells_xcsp3`` writes the second model, letters only: a variable per cell, a table per slot over
its cells, and the no-repeat rule as ``allDifferent`` over the slots' cell lists (DistinctLists).
ACE decided 15 of the 20 hard 15x15 grids from it and none from the word model within 30 s
(docs/hard-grids.md), so the ``ace`` back-end, the cross-check and ``xwsat encode --xcsp3-model
cells`` use it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from xml.sax.saxutils import quoteattr

import numpy as np

from xwsat.problem import FillProblem

FORMAT_VERSION = "xwsat-xcsp3/1"
NO_VALUE = -1  # the lone value of a variable whose domain is empty (a slot without candidates)


def cell_var(cell: int) -> str:
    """The XCSP3 id of dense cell ``cell``'s letter variable."""
    return f"l{cell}"


def slot_vars(slot_names: Sequence[str]) -> list[str]:
    """XCSP3 ids for the slots' word variables: ``w`` + the slot name, made a legal id."""
    ids: list[str] = []
    seen: set[str] = set()
    for i, name in enumerate(slot_names):
        ident = "w" + re.sub(r"[^A-Za-z0-9_]", "_", name)
        if ident in seen:
            ident = f"{ident}_{i}"
        seen.add(ident)
        ids.append(ident)
    return ids


def domain_text(values: np.ndarray) -> str:
    """Sorted integers as XCSP3 domain text, runs of consecutive values written ``a..b``."""
    vals = np.unique(np.asarray(values, dtype=np.int64))
    if len(vals) == 0:  # XCSP3 has no empty domains: a value no table allows stands in
        return str(NO_VALUE)
    breaks = np.flatnonzero(np.diff(vals) != 1) + 1
    starts = np.concatenate([[0], breaks])
    ends = np.concatenate([breaks, [len(vals)]]) - 1
    parts = []
    for a, b in zip(vals[starts].tolist(), vals[ends].tolist()):
        parts.append(str(a) if a == b else (f"{a} {b}" if b == a + 1 else f"{a}..{b}"))
    return " ".join(parts)


def _tuples_text(table: np.ndarray) -> str:
    return "".join("(" + ",".join(map(str, row)) + ")" for row in table.tolist())


def to_xcsp3(
    problem: FillProblem, slot_names: list[str], note: str = "", alphabet: str | None = None
) -> str:
    """The problem as an XCSP3 CSP instance (XML text).

    ``slot_names`` name the word variables (``w1A``, ``w3D``, ...); ``note`` becomes the
    instance's note (grid, dictionary); ``alphabet`` (the letters, in code order) is written as a
    comment so that a solution can be read back by hand.
    """
    if len(slot_names) != problem.n_slots:
        raise ValueError(f"{len(slot_names)} slot names for {problem.n_slots} slots")
    words = slot_vars(slot_names)
    out: list[str] = [f"<!-- {FORMAT_VERSION}: crossword fill, see encodings/xcsp3.md -->"]
    if alphabet is not None:
        legend = " ".join(f"{i}={ch}" for i, ch in enumerate(alphabet))
        out.append(f"<!-- letter codes: {legend} -->")
    head = '<instance format="XCSP3" type="CSP"'
    out.append(head + (f" note={quoteattr(note)}>" if note else ">"))
    out.append("  <variables>")
    bits = np.uint64(1) << np.arange(problem.alphabet_size, dtype=np.uint64)
    for c in range(problem.n_cells):
        letters = np.flatnonzero((problem.cell_masks[c] & bits) != 0)
        out.append(f'    <var id="{cell_var(c)}" note="grid cell {int(problem.cell_ids[c])}"> '
                   f"{domain_text(letters)} </var>")
    for s, ident in enumerate(words):
        out.append(f'    <var id="{ident}" note="slot {slot_names[s]}"> '
                   f"{domain_text(problem.candidates[s])} </var>")
    out.append("  </variables>")
    out.append("  <constraints>")
    for s, ident in enumerate(words):
        cells = " ".join(cell_var(int(c)) for c in problem.slot_cells[s])
        table = np.hstack([problem.letters[s].astype(np.int64),
                           problem.candidates[s].astype(np.int64)[:, None]])
        out.append(f'    <extension note="slot {slot_names[s]}">')
        if len(table):
            out.append(f"      <list> {cells} {ident} </list>")
            out.append(f"      <supports> {_tuples_text(table)} </supports>")
        else:  # no candidate: forbid the stand-in value (XCSP3 readers refuse empty tables)
            out.append(f"      <list> {ident} </list>")
            out.append(f"      <conflicts> {NO_VALUE} </conflicts>")
        out.append("    </extension>")
    if not problem.allow_repeats:
        for length, group in sorted(_by_length(problem).items()):
            if len(group) > 1:
                members = " ".join(words[s] for s in group)
                out.append(f'    <allDifferent note="no repeated word of length {length}"> '
                           f"{members} </allDifferent>")
    out.append("  </constraints>")
    out.append("</instance>")
    return "\n".join(out) + "\n"


def _by_length(problem: FillProblem) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for s in range(problem.n_slots):
        groups.setdefault(problem.slot_length(s), []).append(s)
    return groups


def read_solution(problem: FillProblem, slot_names: list[str],
                  values: dict[str, int]) -> tuple[int, ...]:
    """The fill (global word id per slot) from a solver's variable -> value assignment."""
    return tuple(int(values[ident]) for ident in slot_vars(slot_names))


# --- the letters-only model -------------------------------------------------------------------


def cells_xcsp3(problem: FillProblem) -> str:
    """The letters-only XCSP3 model of ``problem`` (variables ``x0``, ``x1``, ... per cell)."""
    top = problem.alphabet_size - 1
    out = ['<instance format="XCSP3" type="CSP">', "  <variables>",
           *(f'    <var id="x{c}"> 0..{top} </var>' for c in range(problem.n_cells)),
           "  </variables>", "  <constraints>"]

    def cells(s: int) -> str:
        return " ".join(f"x{int(c)}" for c in problem.slot_cells[s])

    for s in range(problem.n_slots):
        letters = problem.letters[s]
        # a unary table lists plain values (XCSP3; ACE refuses "(0)(1)")
        rows = " ".join(map(str, sorted(set(letters[:, 0].tolist())))) if letters.shape[1] == 1 \
            else "".join("(" + ",".join(map(str, r)) + ")" for r in letters.tolist())
        if rows:
            out.append(f"    <extension> <list> {cells(s)} </list> <supports> {rows} "
                       "</supports> </extension>")
        elif top >= 1:  # no candidate: XCSP3 refuses empty supports and ACE a constraint that
            first = f"x{int(problem.slot_cells[s][0])}"  # only conflicts, so two unary tables
            out += [f"    <extension> <list> {first} </list> <supports> {v} </supports> "  # that
                    "</extension>" for v in (0, 1)]  # exclude each other say it
        else:
            first = f"x{int(problem.slot_cells[s][0])}"
            out.append(f"    <intension> ne({first},{first}) </intension>")
    if not problem.allow_repeats:
        groups: dict[int, list[int]] = {}
        for s in range(problem.n_slots):
            groups.setdefault(problem.slot_length(s), []).append(s)
        for group in groups.values():
            out += _distinct(problem, group, cells)
    out += ["  </constraints>", "</instance>", ""]
    return "\n".join(out)


def _distinct(problem: FillProblem, group: list[int], cells) -> list[str]:
    """No repeated word among ``group`` (slots of one length): one ``allDifferent`` over their
    cell lists, or, when two lists share a cell (ACE's DistinctLists refuses that), one
    constraint per pair, the sharing pairs as "some other position differs"."""
    if len(group) < 2:
        return []
    lists = {s: problem.slot_cells[s].tolist() for s in group}
    pairs = [(a, b) for i, a in enumerate(group) for b in group[i + 1:]]
    if not any(set(lists[a]) & set(lists[b]) for a, b in pairs):
        joined = "".join(f"<list> {cells(s)} </list>" for s in group)
        return [f"    <allDifferent> {joined} </allDifferent>"]
    out = []
    for a, b in pairs:
        if not set(lists[a]) & set(lists[b]):
            out.append(f"    <allDifferent> <list> {cells(a)} </list><list> {cells(b)} </list> "
                       "</allDifferent>")
            continue
        differ = [f"ne(x{x},x{y})" for x, y in zip(lists[a], lists[b]) if x != y]
        if differ:
            out.append(f"    <intension> or({','.join(differ)}) </intension>"
                       if len(differ) > 1 else f"    <intension> {differ[0]} </intension>")
    return out


def cells_solution(problem: FillProblem, values: dict[str, int]) -> tuple[int, ...]:
    """Word ids from ACE's cell letters: per slot, the candidate with exactly those letters."""
    letters = [values[f"x{c}"] for c in range(problem.n_cells)]
    fill = []
    for s in range(problem.n_slots):
        word = np.array([letters[int(c)] for c in problem.slot_cells[s]], dtype=np.uint8)
        k = np.flatnonzero((problem.letters[s] == word).all(axis=1))
        fill.append(int(problem.candidates[s][k[0]]) if len(k) else -1)
    return tuple(fill)
