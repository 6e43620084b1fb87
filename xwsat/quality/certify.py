"""The certificate of the level above the one reached: the grid has no fill from the words
scored ``level`` or more, written and checked by the machinery of ``prove --certificate``.

The certificate's word list is the list cut at ``level`` (what ``prove --min-score LEVEL``
reads), plus the constructor's entries (slots the grid gives in full), which stand outside the
level as they do in the climb.
"""

from __future__ import annotations

from pathlib import Path

from xwsat.evidence.certificate import CertificateRun, certify, choose_proof
from xwsat.guard import Tick
from xwsat.lock import with_words
from xwsat.problem import Built, build_problem
from xwsat.words import WordList, build_wordlist


def words_at(words: WordList, level: int) -> WordList:
    """The dictionary words scored ``level`` or more, with their clues, in the same alphabet."""
    kept = {w: (int(s), words.clues.get(i)) for i, (w, s) in enumerate(zip(words.words,
                                                                              words.scores))
            if s >= level and w not in words.placed_only}
    return build_wordlist(kept, words.alphabet.letters, f"{words.source} (scores >= {level})")


def level_certificate(built: Built, fill: tuple[int, ...], exempt: frozenset[int], level: int,
                      directory: Path, grid_source: str, time_limit: float, backend: str,
                      facts: dict, seed: int = 0, on_tick: Tick | None = None,
                      min_length: int = 2, allow_repeats: bool = False,
                      at: Built | None = None) -> CertificateRun:
    """Write and check the certificate that ``built``'s grid has no fill at ``level``; ``at``:
    that question already built (``built_at``), when the caller needs it again."""
    if at is None:
        at = built_at(built, fill, exempt, level, min_length, allow_repeats)
    return certify(at, directory, grid_source, time_limit, choose_proof(at, backend),
                   rules=facts, on_tick=on_tick, seed=seed)


def built_at(built: Built, fill: tuple[int, ...], exempt: frozenset[int], level: int,
             min_length: int = 2, allow_repeats: bool = False) -> Built:
    """``built``'s grid with the list cut at ``level`` (the constructor's entries kept): the
    question a level's certificate, and its explanation's, answer. Same grid, same slots."""
    cut = with_words(words_at(built.words, level),
                     [built.words.words[fill[s]] for s in sorted(exempt)])
    return build_problem(built.grid, cut, min_length, allow_repeats)
