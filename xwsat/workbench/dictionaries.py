"""Word lists for the pages: the embedded ones shared by every page, uploads kept per page.

A list is loaded once per minimum score and kept (the few most recent), so switching back and
forth costs nothing; a page's uploaded list is its bytes, parsed as ``xwsat.words`` parses a
file, never a path on this machine. Locked theme entries join a list as ``--lock`` makes them
(``xwsat.lock.with_words``), cached per set of entries.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict

from xwsat.errors import ScoreOutOfRange, XwsatError
from xwsat.lock import with_words, without_words
from xwsat.words import EMBEDDED, WordList, dashed_note, load_words, words_from_bytes

MAX_UPLOAD_BYTES = 32 << 20  # an uploaded word list, packed or not (Spread the Wordlist:
# about 6 MiB): a small gzip file can unpack to gigabytes, and the server is shared
MAX_UPLOAD_WORDS = 1_000_000
KEEP = 8  # word lists kept loaded
FRESH_S = 60.0  # an upload this recent is kept even when no page uses it yet


class Dictionaries:
    """Loaded word lists by (name, minimum score); uploads by the hash of their bytes."""

    def __init__(self) -> None:
        self._loaded: OrderedDict[tuple, WordList] = OrderedDict()
        self._uploads: dict[str, tuple[bytes, str, float]] = {}  # bytes, name, when added
        self._notes: dict[str, str] = {}  # an upload's lines left out, said
        self._lock = threading.Lock()

    def add_upload(self, raw: bytes, name: str) -> str:
        """Check and keep an uploaded list; returns its key ("upload:HASH")."""
        if len(raw) > MAX_UPLOAD_BYTES:
            raise XwsatError(f"{name}: larger than {MAX_UPLOAD_BYTES >> 20} MiB")
        key = "upload:" + hashlib.blake2b(raw, digest_size=12).hexdigest()
        try:
            words = words_from_bytes(raw, name, most=MAX_UPLOAD_BYTES)  # a bad file: said now
        except ScoreOutOfRange as error:  # the page reads scores on 0-100 only
            raise XwsatError(f"{error.bare}; the workbench reads scores from 0 to 100, so "
                             "put the list's scores on that scale") from None
        if len(words) > MAX_UPLOAD_WORDS:
            raise XwsatError(f"{name}: {len(words):,} words; the workbench takes up to "
                             f"{MAX_UPLOAD_WORDS:,}")
        with self._lock:
            self._uploads[key] = (raw, name, time.monotonic())
            self._remember((key, 0), words)
            self._notes[key] = left_out_note(name, words)
        return key

    def label(self, key: str) -> str:
        """How a page names a list: an embedded one by its name, an upload by its file's."""
        with self._lock:
            upload = self._uploads.get(key)
        return upload[1] if upload is not None else key

    def key_of(self, label: str) -> str | None:
        """The key of the list a page names ``label`` (an embedded one, or an upload by its
        file's name, the latest such), or None when the server has none by that name."""
        if label in EMBEDDED:
            return label
        with self._lock:
            named = [(added, key) for key, (_, name, added) in self._uploads.items()
                     if name == label]
        return max(named)[1] if named else None

    def note(self, key: str) -> str:
        """What reading an uploaded list left out, in a sentence; "" when nothing."""
        with self._lock:
            return self._notes.get(key, "")

    def keep_uploads(self, in_use: set[str]) -> None:
        """Forget the uploads no open page uses, their bytes and their loaded lists: pages
        come and go, the server stays. One added in the last ``FRESH_S`` is kept: its page
        may not have chosen it yet."""
        recent = time.monotonic() - FRESH_S
        with self._lock:
            gone = {k for k, (_, _, added) in self._uploads.items()
                    if k not in in_use and added < recent}
            for key in gone:
                del self._uploads[key]
                self._notes.pop(key, None)
            for key in [k for k in self._loaded if k[0] in gone]:
                del self._loaded[key]

    def get(self, key: str, min_score: int = 0) -> WordList:
        with self._lock:
            found = self._loaded.get((key, min_score))
            if found is not None:
                self._loaded.move_to_end((key, min_score))
                return found
        if key in EMBEDDED:
            words = load_words(key, min_score)
        elif key in self._uploads:
            raw, name, _ = self._uploads[key]
            words = words_from_bytes(raw, name, min_score, most=MAX_UPLOAD_BYTES)
        else:
            raise XwsatError(f"unknown dictionary {key!r}; one of {', '.join(EMBEDDED)} "
                             "or an uploaded list")
        with self._lock:
            self._remember((key, min_score), words)
        return words

    def with_entries(self, key: str, min_score: int, entries: frozenset[str],
                     bans: frozenset[str] = frozenset()) -> WordList:
        """The list with the locked ``entries`` it lacks added (as ``--lock`` does) and the
        words ``bans`` names offered to no slot (as ``--ban`` does)."""
        base = self.get(key, min_score)
        if not entries - _known(base, entries) and not bans:
            return base
        with self._lock:
            found = self._loaded.get((key, min_score, entries, bans))
        if found is None:
            found = without_words(with_words(base, entries), bans)
            with self._lock:
                self._remember((key, min_score, entries, bans), found)
        return found

    def _remember(self, key: tuple, words: WordList) -> None:
        self._loaded[key] = words
        self._loaded.move_to_end(key)
        while len(self._loaded) > KEEP:
            self._loaded.popitem(last=False)


def left_out_note(name: str, words: WordList) -> str:
    """The lines of a list left out as not words, as the command line notes them: a word
    dropped in silence makes a fillable grid look unfillable; and those holding " - " read
    as one word."""
    notes = [f"{name}: {dashed_note(words)}"] if words.dashed else []
    if words.skipped:
        lines = "line" if words.skipped == 1 else "lines"
        first = f", the first {words.first_skipped}" if words.first_skipped else ""
        notes.insert(0, f"{name}: {words.skipped:,} {lines} left out (not words){first}; "
                        f"{len(words):,} {'word' if len(words) == 1 else 'words'} kept")
    return " ".join(notes)


def _known(words: WordList, entries: frozenset[str]) -> set[str]:
    """The entries ``words`` already has."""
    index = _index(words)
    return {e for e in entries if e in index}


_INDEXES: dict[int, tuple[WordList, frozenset[str]]] = {}


def _index(words: WordList) -> frozenset[str]:
    held = _INDEXES.get(id(words))
    if held is None or held[0] is not words:
        held = (words, frozenset(words.words))
        _INDEXES.clear()  # one list at a time is plenty: pages rarely switch
        _INDEXES[id(words)] = held
    return held[1]
