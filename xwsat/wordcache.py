"""A cache of parsed word lists, keyed by the file's content and the loading options.

Parsing and indexing a 115k-word list takes 0.3-0.9 s, every run; the arrays it yields take
about 10 ms to read back. So ``load_words`` keeps what ``build_wordlist`` made in one ``.npz``
file per (content, options) under ``$XDG_CACHE_HOME/xwsat/words`` (``~/.cache`` by default),
written atomically, and reads it back when the same bytes are loaded with the same options.
The key hashes the raw bytes, so an edited file is simply a new entry; any problem with the
cache (missing, damaged, unwritable) means parsing as usual. ``XWSAT_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np

from xwsat.word_list import Alphabet, WordList

FORMAT = 8  # 8: lines holding " - " read as one word counted; 7: a duplicate's clue kept
# when the word kept has none; 6: the first line left out kept; 5: WORD<tab>SCORE lines,
# CR-only line ends, more apostrophes; 4: a list without
# a byte order mark is read as UTF-16/32 only when it breaks lines so
KEEP = 24  # entries kept; the least recently used go first


def cache_dir() -> Path | None:
    if os.environ.get("XWSAT_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "xwsat" / "words"


def key_of(raw: bytes, options: dict) -> str:
    digest = hashlib.blake2b(digest_size=20)
    digest.update(json.dumps({"format": FORMAT, **options}, sort_keys=True).encode())
    digest.update(raw)
    return digest.hexdigest()


class LazyClues(Mapping[int, str]):
    """Clues decoded on first use: most runs never print one."""

    def __init__(self, blob: bytes) -> None:
        self._blob: bytes | None = blob
        self._clues: dict[int, str] = {}

    def _decoded(self) -> dict[int, str]:
        if self._blob is not None:
            self._clues = {int(k): v for k, v in json.loads(self._blob.decode("utf-8")).items()}
            self._blob = None
        return self._clues

    def __getitem__(self, key: int) -> str:
        return self._decoded()[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._decoded())

    def __len__(self) -> int:
        return len(self._decoded())


def load(raw: bytes, options: dict, source: str) -> WordList | None:
    """The cached word list for these bytes and options, or None (then the caller parses).
    A damaged entry (cut short, bits flipped, arrays that disagree) is removed, never used."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"{key_of(raw, options)}.npz"
    if not path.exists():
        return None
    try:
        found = _read(path, source)
    except Exception:  # whatever the damage: a cache must never stop a run
        found = None
    if found is None:
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used
    return found


def _read(path: Path, source: str) -> WordList | None:
    """The entry at ``path``, checked whole: None for another format or arrays that disagree."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(bytes(data["meta"]).decode("utf-8"))
        if meta.get("format") != FORMAT:
            return None
        scores = data["scores"]
        codes_all = data["codes"]
        words = tuple(bytes(data["words"]).decode("utf-8").split("\n"))
        clues_blob = bytes(data["clues"])
    by_length, codes, at, count = {}, {}, 0, 0
    for length, start, end in meta["ranges"]:
        if start != count or end < start or end > len(words) or (end > start and not (
                len(words[start]) == length == len(words[end - 1]))):  # (sorted by length:
            return None  # its two ends tell a range's words)
        by_length[length] = np.arange(start, end, dtype=np.int32)
        size = (end - start) * length
        codes[length] = codes_all[at:at + size].reshape(end - start, length)
        at, count = at + size, end
    if count != len(words) or len(scores) != len(words) or at != len(codes_all):
        return None
    clues: Mapping[int, str] = LazyClues(clues_blob) if meta["clues"] else {}
    return WordList(Alphabet(meta["letters"]), words, scores, clues, source, by_length, codes,
                    int(meta.get("skipped", 0)), str(meta.get("first_skipped", "")),
                    int(meta.get("dashed", 0)), str(meta.get("first_dashed", "")))


def save(words: WordList, raw: bytes, options: dict) -> None:
    """Keep ``words`` for the next load of these bytes; silently skipped when it cannot."""
    folder = cache_dir()
    if folder is None:
        return
    with contextlib.suppress(OSError, ValueError):
        folder.mkdir(parents=True, exist_ok=True)
        lengths = sorted(words.by_length)
        ranges = [[length, int(words.by_length[length][0]), int(words.by_length[length][-1]) + 1]
                  for length in lengths if len(words.by_length[length])]
        meta = {"format": FORMAT, "letters": words.alphabet.letters, "ranges": ranges,
                "clues": bool(words.clues), "skipped": words.skipped,
                "first_skipped": words.first_skipped, "dashed": words.dashed,
                "first_dashed": words.first_dashed}
        arrays = {
            "meta": np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8),
            "scores": np.asarray(words.scores, dtype=np.int16),
            "codes": np.concatenate([np.ascontiguousarray(words.codes[r[0]]).ravel()
                                     for r in ranges]) if ranges else np.zeros(0, np.uint8),
            "words": np.frombuffer("\n".join(words.words).encode("utf-8"), dtype=np.uint8),
            "clues": np.frombuffer(json.dumps({str(k): v for k, v in words.clues.items()},
                                              ensure_ascii=False).encode("utf-8"),
                                   dtype=np.uint8),
        }
        handle, tmp = tempfile.mkstemp(dir=folder, prefix=".", suffix=".npz")
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez(out, **arrays)
            os.replace(tmp, folder / f"{key_of(raw, options)}.npz")
        finally:
            Path(tmp).unlink(missing_ok=True)
        _trim(folder)


def _trim(folder: Path) -> None:
    """Drop the least recently used entries beyond ``KEEP`` (only files named as this module
    names them: the cache folder is xwsat's own)."""
    ours = [p for p in folder.glob("*.npz") if len(p.stem) == 40
            and all(ch in "0123456789abcdef" for ch in p.stem)]
    entries = sorted(ours, key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[KEEP:]:
        old.unlink(missing_ok=True)
