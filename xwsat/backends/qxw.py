"""Qxw, Mark Owen's crossword constructor (Debian package ``qxw``), as a peer: its batch mode
fills a *deck*, one line per slot listing the slot's cells by name, a name used twice being one
shared cell.

The deck is written from the problem itself: cell ``c<i>`` for dense cell i, a cell's allowed
letters as ``=[...]`` when they are not the whole alphabet, ``.UNIQUE 1`` (no answer twice,
xwsat's rule; left out when repeats are allowed) and ``.RANDOM 1`` with the run's seed, the
value order Qxw fills best with (results/latency/). The word list is every candidate word of the
problem, one per line, with the letter codes spelled A..Z, so Qxw sees exactly the words xwsat
does. Exit 0 prints ``W<i> <letters>`` per deck line; exit 4 is "No fill found" after Qxw's
complete search.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import ClassVar

import numpy as np

from xwsat.backends.base import Traits
from xwsat.errors import XwsatError
from xwsat.guard import die_with_parent
from xwsat.outcome import Evidence, Limits, Outcome, Progress, Stats, Status, Stop, stopped
from xwsat.problem import FillProblem

LISTED: tuple[str, ...] = ()
SPELLING = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # letter code i is written as SPELLING[i]
_ANSWER = re.compile(r"W(\d+) ([A-Z]+)")


def qxw_program() -> str | None:
    """The ``qxw`` executable (Debian installs it under /usr/games)."""
    return shutil.which("qxw") or shutil.which("qxw", path="/usr/games")


def _spell(codes: np.ndarray) -> str:
    return "".join(SPELLING[int(c)] for c in codes)


def deck_text(problem: FillProblem) -> str:
    """The deck: directives, then one line per slot in slot order."""
    full = (1 << problem.alphabet_size) - 1
    lines = [f".UNIQUE {0 if problem.allow_repeats else 1}", ".RANDOM 1"]
    written: set[int] = set()
    for cells in problem.slot_cells:
        tokens = []
        for cell in map(int, cells):
            tokens.append(f"c{cell}")
            mask = int(problem.cell_masks[cell])
            if cell not in written and mask != full:
                tokens.append("=[" + "".join(SPELLING[b] for b in range(problem.alphabet_size)
                                             if mask >> b & 1) + "]")
            written.add(cell)
        lines.append(" ".join(tokens))
    return "\n".join(lines) + "\n"


def word_text(problem: FillProblem) -> str:
    """Every candidate word of every slot, once, one per line."""
    words = {_spell(row) for rows in problem.letters for row in rows}
    return "\n".join(sorted(words)) + "\n"


def read_answers(stdout: str, problem: FillProblem) -> tuple[int, ...] | None:
    """Word ids from Qxw's ``W<i> LETTERS`` lines, or None when a slot is missing or its letters
    are not one of its candidates."""
    spelled = {int(m.group(1)): m.group(2) for m in map(_ANSWER.fullmatch,
                                                        stdout.splitlines()) if m}
    fill = []
    for s in range(problem.n_slots):
        letters = spelled.get(s)
        if letters is None or len(letters) != problem.slot_length(s):
            return None
        codes = np.frombuffer(letters.encode("ascii"), dtype=np.uint8) - ord("A")
        match = np.flatnonzero((problem.letters[s] == codes).all(axis=1))
        if not len(match):
            return None
        fill.append(int(problem.candidates[s][match[0]]))
    return tuple(fill)


class QxwBackend:
    """Run ``qxw -b`` on the problem's deck within the time limit (Qxw has none of its own)."""

    name: ClassVar[str] = "qxw"
    label = "qxw"
    traits = Traits("qxw", peer=True, max_letters=len(SPELLING))

    @staticmethod
    def available() -> bool:
        return qxw_program() is not None

    def setup(self) -> dict[str, str]:
        """How this peer runs, for the bench's rows and report."""
        from xwsat.backends.ace import _first_line

        version = _first_line(["dpkg-query", "-W", "-f", "${Version}", "qxw"])
        return {"solver": f"Qxw {version} (Debian package), batch mode",
                "model": "a deck of the arc-consistent problem: a line per slot naming its "
                         "cells, a cell's surviving letters as =[...], .UNIQUE 1 (no repeats), "
                         ".RANDOM 1; the word list is the problem's candidates",
                "options": "-b -a AZ -F SEED+1",
                "time": "wall clock of writing the deck and list and Qxw's run"}

    def solve(self, problem: FillProblem, limits: Limits,
              progress: Progress | None = None) -> Outcome:
        program = qxw_program()
        if program is None:
            raise XwsatError("Qxw is not installed (Debian package qxw)")
        if problem.alphabet_size > len(SPELLING):
            return stopped(self.label, Stop.FAILED,
                           f"Qxw takes at most {len(SPELLING)} letters; this alphabet has "
                           f"{problem.alphabet_size}")
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="xwsat-qxw-") as tmp:
            deck, words = Path(tmp) / "fill.qxd", Path(tmp) / "words.txt"
            deck.write_text(deck_text(problem), encoding="ascii")
            words.write_text(word_text(problem), encoding="ascii")
            built = time.perf_counter()
            left = limits.time_limit - (built - started) if limits.time_limit else None
            command = [program, "-b", "-a", "AZ", "-F", str(limits.seed + 1), "-d", str(words),
                       str(deck)]
            try:
                done = subprocess.run(command, capture_output=True, text=True, cwd=tmp,
                                      preexec_fn=die_with_parent,
                                      timeout=max(left, 0.5) if left is not None else None)
            except subprocess.TimeoutExpired:
                done = None
        stats = Stats(build_s=built - started, solve_s=time.perf_counter() - built)
        if done is None:
            return stopped(self.label, Stop.TIME, "Qxw gave no verdict within the time limit",
                           stats)
        if done.returncode == 4 and "No fill found" in done.stderr:
            return Outcome(Status.UNFILLABLE, self.label, stats=stats, evidence=Evidence(
                "Qxw exhaustive search",
                "Qxw's complete depth-first search over cells found no fill"))
        if done.returncode == 0:
            fill = read_answers(done.stdout, problem)
            if fill is None:
                return stopped(self.label, Stop.FAILED,
                               "Qxw's answer does not match the slots' candidates", stats)
            return Outcome(Status.FILLED, self.label, fill, stats)
        message = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        return stopped(self.label, Stop.FAILED, f"Qxw failed: {message}", stats)


def from_spec(sub: str | None) -> QxwBackend:
    if sub is not None:
        raise XwsatError(f"unknown qxw variant {sub!r} (use qxw)")
    return QxwBackend()
