"""Word lists stacked and trimmed for one puzzle: several lists read as one, each on its own
score scale, the first listed winning a word's score and clue, and words banned for this puzzle.

A constructor keeps a personal list (their own scores, their own clues) over a big general one;
lists disagree on scales (0-50, 1-60, 0-100), so each is mapped onto 0-100 before they meet.
The result is an ordinary ``WordList``: every command, certificate and verifier sees one list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.words import EMBEDDED, WordList, build_wordlist, load_words, normalize_word

_SCALED = re.compile(r"^(.+):(\d+)(?:-(\d+))?$")


@dataclass(frozen=True)
class ListSpec:
    """One ``--dict`` value: an embedded list or a file, and the scale its scores use."""

    source: str
    scale: tuple[int, int] | None = None


def parse_list_spec(text: str) -> ListSpec:
    """``en``, ``PATH``, ``PATH:HIGH`` (scores 0-HIGH) or ``PATH:LOW-HIGH``. A file whose own
    name ends like a scale is taken as a file."""
    if not text.strip():
        raise XwsatError("--dict '': give a word list: en, ru, es or a file")
    match = _SCALED.match(text)
    if match is None or Path(text).exists():
        source, colon, scale = text.rpartition(":")
        if (match is None and colon and scale and not Path(text).exists()
                and (source in EMBEDDED or Path(source).is_file())):
            raise XwsatError(f"--dict {text!r}: a score scale is whole numbers, HIGH or "
                             f"LOW-HIGH, e.g. {source}:0-50")
        return ListSpec(text)
    source, first, second = match.groups()
    low, high = (0, int(first)) if second is None else (int(first), int(second))
    if not low < high:
        raise XwsatError(f"--dict {text!r}: a score scale runs from low to high, e.g. "
                         f"{source}:0-50")
    if source not in EMBEDDED and not Path(source).exists():
        raise XwsatError(f"{source}: no such file")
    return ListSpec(source, (low, high))


def stacked_words(specs: Sequence[str], min_score: int = 0, alphabet: str | None = None,
                  fold_yo: bool = False, ban: Sequence[str] = ()) -> tuple[WordList, list[str]]:
    """The word list of ``specs`` stacked (the first listed wins a word's score and clue),
    scores below ``min_score`` dropped after that, and the ``ban`` words left out; returns it
    with notes for the user (a banned word no list has)."""
    lists = [parse_list_spec(text) for text in specs]
    if len(lists) == 1 and not ban:  # the common case: the loader's cached result as is
        one = lists[0]
        return load_words(one.source, min_score, alphabet, fold_yo=fold_yo, scale=one.scale), []
    # over the embedded Spanish list, which folds accents but Ñ, a user's CANCIÓN is its CANCION
    fold = any(one.source == "es" for one in lists)
    loaded = [load_words(one.source, 0, alphabet, fold_accents=fold, fold_yo=fold_yo,
                         scale=one.scale) for one in lists]
    banned = _banned(ban, fold_yo, set(_letters(loaded)))
    entries: dict[str, tuple[int, str | None]] = {}
    for words in reversed(loaded):  # later lists first, so the earlier ones overwrite them
        clues = words.clues
        entries.update((w, (int(s), clues.get(i)))
                       for i, (w, s) in enumerate(zip(words.words, words.scores.tolist())))
    notes = [f"--ban {word}: no word list has it" for word in banned if word not in entries]
    # the banned words the cut would have kept: those a message may say are banned
    kept_banned = frozenset(w for w in banned if w in entries and entries[w][0] >= min_score)
    for word in banned:
        entries.pop(word, None)
    if min_score:
        entries = {w: v for w, v in entries.items() if v[0] >= min_score}
    source = " + ".join(words.source for words in loaded)
    if not entries:
        raise XwsatError(f"{source}: no usable words"
                         + (f" with score >= {min_score}" if min_score else "")
                         + (" once the banned words are left out" if banned else ""))
    letters = alphabet if alphabet is not None else _letters(loaded)
    merged = build_wordlist(entries, letters, source)
    first = next((f"{w.source}: {w.first_skipped}" for w in loaded if w.first_skipped), "")
    dashed = next((f"{w.source}: {w.first_dashed}" for w in loaded if w.first_dashed), "")
    return replace(merged, skipped=sum(words.skipped for words in loaded), first_skipped=first,
                   dashed=sum(words.dashed for words in loaded), first_dashed=dashed,
                   min_score=min_score, banned=kept_banned), notes


def _letters(loaded: list[WordList]) -> str:
    """The lists' letters in first-seen order (each list's own order kept)."""
    seen: dict[str, None] = {}
    for words in loaded:
        seen.update(dict.fromkeys(words.alphabet.letters))
    return "".join(seen)


def _banned(ban: Sequence[str], fold_yo: bool, letters: set[str]) -> list[str]:
    """The banned words normalised like dictionary words, each once, in the order given; a
    word with a letter the lists lack is taken accent-folded, as ``--lock`` takes it
    (CANCIÓN bans the embedded Spanish list's CANCION)."""
    out: dict[str, None] = {}
    for raw in ban:
        word = normalize_word(raw, fold_yo=fold_yo)
        if not set(word) <= letters:
            word = normalize_word(raw, fold_accents=True, fold_yo=fold_yo)
        if not word.isalpha():
            raise XwsatError(f"--ban {raw!r}: give a word of letters")
        out[word] = None
    return list(out)
