"""Word lists: normalisation, alphabet, scores and clues, and per-length letter-code arrays.

After loading, solvers see only integer word ids and ``uint8`` letter codes; strings return at the
edges (output and messages).
"""

from __future__ import annotations

import math
import re
import unicodedata
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import replace
from importlib import resources
from pathlib import Path

import numpy as np

from xwsat import wordcache
from xwsat.errors import ScoreOutOfRange, XwsatError
from xwsat.word_list import Alphabet, WordList

MAX_WORDS = 5_000_000
MAX_TEXT_BYTES = 512 << 20  # a dictionary's text (unpacked): 5M words with clues fit
SNIFF_BYTES = 65536
GZIP_MAGIC = b"\x1f\x8b"
DEFAULT_SCORE = 50
EMBEDDED = {"en": "en.txt.gz", "ru": "ru.txt.gz", "es": "es.txt.gz"}
# Unicode's spaces (category Zs: no-break, thin, ideographic...) fold like the ASCII space, and
# byte order marks and zero-width spaces (anywhere: concatenated files carry them) vanish
_SPACES = "".join(map(chr, (0xA0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000)))
_DROPPED = str.maketrans("", "", " -'’‘ʼ‐‑_." + _SPACES + "\ufeff\u200b")
_DESCRIPTION_SEPARATORS = (" — ", " – ", "\t")
_MAY_DESCRIBE = re.compile("[\t\u2013\u2014]")  # one scan rules out every separator
_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")  # ASCII digits only


def normalize_word(raw: str, fold_accents: bool = False, fold_yo: bool = False) -> str:
    """NFC, upper case, spaces/hyphens/apostrophes removed; optionally accents and Ё folded.

    Accent folding keeps Ñ (Spanish treats it as its own letter) and Ё unless ``fold_yo``.
    """
    word = unicodedata.normalize("NFC", raw.strip()).upper().translate(_DROPPED)
    if fold_yo:
        word = word.replace("Ё", "Е")
    if fold_accents:
        kept = []
        for ch in word:
            if ch in "ÑЁЙ":
                kept.append(ch)
                continue
            base = unicodedata.normalize("NFD", ch)
            kept.append("".join(b for b in base if not unicodedata.combining(b)))
        word = unicodedata.normalize("NFC", "".join(kept))
    return word


LINES_CHUNK = 1 << 22  # characters split at a time: no single split holds up the time limit


def text_lines(text: str) -> Iterator[str]:
    """Lines split at ``\\n`` only (a trailing ``\\r`` dropped), or at ``\\r`` in a file
    with no ``\\n`` at all (old Mac line ends). ``str.splitlines`` also breaks at vertical
    tab, form feed, the file/group/record separators and U+2028/U+2029, which would let a
    clue's text start a new dictionary entry. Split a few MB at a time: one split of a
    260 MB list is a 4 s call that neither the time limit nor Ctrl-C can cut short."""
    sep = "\r" if "\n" not in text and "\r" in text else "\n"
    crlf = sep == "\n" and "\r" in text
    start = 0
    while True:
        end = text.find(sep, start + LINES_CHUNK) if len(text) - start > LINES_CHUNK else -1
        lines = (text[start:] if end < 0 else text[start:end]).split(sep)
        yield from ([line[:-1] if line.endswith("\r") else line for line in lines]
                    if crlf else lines)
        if end < 0:
            return
        start = end + 1


_LINE_BREAKING = {cp: " " for cp in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]}


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # from JSON's "\ud800": no UTF-8 for it


def clean_clue(text: str) -> str | None:
    """A clue on one line: control characters and line/paragraph separators become spaces, and
    a lone surrogate (which no file can be written with) the replacement character."""
    if not text.isprintable():
        text = _LONE_SURROGATE.sub("\ufffd", text)
    cleaned = text if text.isprintable() else text.translate(_LINE_BREAKING)
    if "  " in cleaned or cleaned != cleaned.strip():
        cleaned = " ".join(cleaned.split())
    return cleaned or None


def build_wordlist(
    entries: dict[str, tuple[int, str | None]],
    alphabet: str | None = None,
    source: str = "",
) -> WordList:
    """Index normalised entries (word -> (score, clue)) by length, with letter codes per length."""
    if not entries:
        raise XwsatError(f"{source or 'dictionary'}: no usable words")
    letters = alphabet or "".join(sorted(set("".join(entries))))
    try:
        alpha = Alphabet(letters)
    except XwsatError as error:  # said with the list it is about
        raise XwsatError(f"{source}: {error}" if source else str(error)) from None
    words = tuple(sorted(sorted(entries), key=len))  # stable: by length, then alphabetical
    values = [entries[w] for w in words]
    scores = np.fromiter((score for score, _ in values), dtype=np.int16, count=len(words))
    clues = {i: clue for i, (_, clue) in enumerate(values) if clue}
    by_length: dict[int, np.ndarray] = {}
    codes: dict[int, np.ndarray] = {}
    start = 0
    while start < len(words):
        length = len(words[start])
        end = start
        while end < len(words) and len(words[end]) == length:
            end += 1
        by_length[length] = np.arange(start, end, dtype=np.int32)
        codes[length] = alpha.encode(list(words[start:end]), length)
        start = end
    return WordList(alpha, words, scores, clues, source, by_length, codes)


def parse_entries(
    lines: Iterable[str],
    source: str,
    min_score: int = 0,
    alphabet: str | None = None,
    fold_accents: bool = False,
    fold_yo: bool = False,
    scale: tuple[int, int] | None = None,
) -> tuple[dict[str, tuple[int, str | None]], Skipped]:
    """Parse dictionary lines; returns entries and the number of lines skipped as unusable.

    Formats: ``WORD``, ``WORD;SCORE``, ``WORD;SCORE;CLUE``, and ``word — description``. With
    ``scale`` (low, high), scores are read on that scale and mapped onto 0-100.
    """
    allowed = set(alphabet) if alphabet else None
    entries: dict[str, tuple[int, str | None]] = {}
    skipped = 0
    first_skipped: tuple[int, str] | None = None
    below = 0  # words under min_score
    dashed = 0  # lines read as one word though they hold " - ": a description, most likely
    first_dashed = ""
    may_describe = _MAY_DESCRIBE.search
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line or line[0] == "#":
            continue
        score, clue = DEFAULT_SCORE, None
        described = _split_description(line) if may_describe(line) else None
        if described is not None:
            raw, clue = described
            if clue is not None and "\t" in line and line.find("\t") == len(raw):
                first, _, rest = clue.partition("\t")  # WORD<tab>SCORE[<tab>CLUE]: a
                if _NUMBER.fullmatch(first.strip()):  # spreadsheet's export, not a description
                    score = _parse_score(first.strip(), f"{source}: line {number}", scale)
                    clue = rest.strip() or None
        elif ";" in line:
            raw, _, rest = line.partition(";")
            text, _, clue_text = rest.partition(";")
            text = text.strip()
            if (scale is None and text.isascii() and text.isdigit() and len(text) < 4
                    and int(text) <= 100):
                score = int(text)  # the common case, without float()'s detour
            elif text:
                score = _parse_score(text, f"{source}: line {number}", scale)
            clue = clue_text.strip() or None
        else:
            raw = line
        if clue is not None:
            clue = clean_clue(clue)
        if raw.isascii() and raw.isalpha() and raw.isupper():
            word = raw
        else:
            word = normalize_word(raw, fold_accents, fold_yo)
            if not word.isalpha():
                skipped += 1
                first_skipped = first_skipped or (number, line)
                continue
        if allowed is not None and not allowed.issuperset(word):
            skipped += 1
            first_skipped = first_skipped or (number, line)
            continue
        if raw is line and " - " in line:
            dashed += 1
            first_dashed = first_dashed or f"line {number}: {_shown(line)} read as {word}"
        if score < min_score:
            below += 1
            continue
        previous = entries.get(word)
        if previous is None:
            entries[word] = (score, clue)
            if len(entries) > MAX_WORDS:
                raise XwsatError(f"{source}: more than {MAX_WORDS:,} words; split the dictionary")
        elif previous[0] < score:
            entries[word] = (score, clue or previous[1])
        elif previous[1] is None and clue is not None:  # the higher score stays, and a clue
            entries[word] = (previous[0], clue)  # given only with another spelling is kept
    first = ""
    if first_skipped is not None:
        number, line = first_skipped
        first = f"line {number}: {_shown(line)}"
    if not entries and not below and first:  # say why, not only "no usable words"
        why = "not words, or letters outside --alphabet" if allowed else "not words"
        raise XwsatError(  # (a CSV, another separator...)
            f"{source}: no usable words: {skipped:,} line{'s' if skipped != 1 else ''} left "
            f"out ({why}), the first {first} (lines are WORD, WORD;SCORE or "
            "WORD;SCORE;CLUE: docs/word-lists.md)")
    return entries, Skipped(skipped, first, dashed, first_dashed)


def _shown(line: str) -> str:
    """A line as a note quotes it: 40 characters at most."""
    return repr(line if len(line) <= 40 else line[:37] + "...")


def dashed_note(word_list: WordList) -> str:
    """The lines holding " - " that were read as one word: most likely a description after a
    plain hyphen, which only an em or en dash or a tab sets apart."""
    lines = "line holds" if word_list.dashed == 1 else "lines hold"
    return (f"{word_list.dashed:,} {lines} ' - ', read as one word, the first "
            f"{word_list.first_dashed}; a description goes after ' — ', ' – ' or a tab "
            "(docs/word-lists.md)")


class Skipped(int):
    """How many lines were left out, and the first of them (``line 12: 'NEW YORK'``), so
    that a note can show the user what kind of line it was; and the lines read as one word
    that hold " - " (``trifle - a dessert``: a description after a plain hyphen, which only
    an em or en dash or a tab sets apart), with the first of them."""

    first: str
    dashed: int
    first_dashed: str

    def __new__(cls, count: int, first: str = "", dashed: int = 0,
                first_dashed: str = "") -> Skipped:
        value = super().__new__(cls, count)
        value.first, value.dashed, value.first_dashed = first, dashed, first_dashed
        return value


def _split_description(line: str) -> tuple[str, str | None] | None:
    """``word — description`` (or a tab) when the separator comes before any ';'."""
    for sep in _DESCRIPTION_SEPARATORS:
        at = line.find(sep)
        if at > 0 and ";" not in line[:at]:
            return line[:at], line[at + len(sep):].strip() or None
    return None


def _parse_score(text: str, where: str, scale: tuple[int, int] | None = None) -> int:
    """A score on ``scale`` (0-100 by default) mapped onto 0-100, decimals rounded; anything
    else is a one-line error."""
    low, high = scale or (0, 100)
    if not _NUMBER.fullmatch(text):  # float() takes nan, inf, 1_0 and other scripts' digits
        raise XwsatError(f"{where}: score {text!r} is not a number")
    value = float(text)
    if not low <= value <= high:
        bare = f"{where}: score {text} is outside {low}-{high}"
        hint = "" if scale else " (give the list's scale, e.g. --dict FILE:0-50)"
        raise ScoreOutOfRange(bare + hint, bare)
    return math.floor((value - low) * 100 / (high - low) + 0.5)  # halves up: 44.5 is 45


def read_bytes(path: Path, most: int = MAX_TEXT_BYTES, too_big: str = "split it") -> bytes:
    """A file's bytes, with a one-line error for every way reading can fail. Read in pieces,
    so an endless or huge input (``/dev/zero``, a wrong path) is refused at its first binary
    bytes or at ``most``, before it fills the memory."""
    try:
        with path.open("rb") as handle:
            first = handle.read(SNIFF_BYTES)
            if first[:2] != GZIP_MAGIC and b"\x00" in first and not wide_encoding(first):
                raise XwsatError(f"{path}: looks like a binary file, not text")
            rest = handle.read(most + 1 - len(first))  # b"" at the end (a pipe may be short)
    except FileNotFoundError:
        raise XwsatError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise XwsatError(f"{path}: is a directory, not a file") from None
    except OSError as exc:
        raise XwsatError(f"{path}: cannot read ({exc.strerror})") from None
    if len(first) + len(rest) > most:
        raise XwsatError(f"{path}: larger than {most >> 20} MiB; {too_big}")
    return first + rest


def gunzip(data: bytes, path: Path | str, most: int = MAX_TEXT_BYTES,
            too_big: str = "split it") -> bytes:
    """Every gzip member of ``data``, refused past ``most`` bytes unpacked (a small file can
    unpack to gigabytes)."""
    out: list[bytes] = []
    size = 0
    try:
        while data:
            unpack = zlib.decompressobj(wbits=31)
            while data:
                piece = unpack.decompress(data, 1 << 20)
                data = unpack.unconsumed_tail
                size += len(piece)
                if size > most:
                    raise XwsatError(f"{path}: unpacks to more than {most >> 20} MiB; "
                                     f"{too_big}")
                out.append(piece)
                if unpack.eof:
                    break
            if not unpack.eof:
                raise XwsatError(f"{path}: damaged gzip file (cut short)")
            data = unpack.unused_data.lstrip(b"\x00")  # members may follow; padding may too
    except zlib.error:
        raise XwsatError(f"{path}: damaged gzip file") from None
    return b"".join(out)


_WIDE_MARKS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
               (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def wide_encoding(head: bytes) -> str | None:
    """UTF-16 or UTF-32 (with its byte order) by its byte order mark or, without one, by where
    its NUL bytes fall: text's NULs are the high bytes of its characters, all in the same
    place of each 2- or 4-byte unit (a binary file's fall anywhere), and a list without a mark
    must break a line in that encoding too. None: neither."""
    for mark, name in _WIDE_MARKS:
        if head.startswith(mark):
            return name
    guess = _unmarked_wide(head)
    if guess is None or "\n".encode(guess) not in head:
        return None
    return guess


def _unmarked_wide(head: bytes) -> str | None:
    """The wide encoding the NUL bytes of ``head`` point at, if any."""
    if b"\x00" not in head or b"\x00" * 8 in head:  # no text has two NUL characters running
        return None
    quads = head[:len(head) // 4 * 4]
    if quads and quads[3::4].count(0) == len(quads) // 4 and max(quads[2::4]) <= 0x10:
        return "utf-32-le"  # each character's top byte zero, the next at most 0x10
    if quads and quads[0::4].count(0) == len(quads) // 4 and max(quads[1::4]) <= 0x10:
        return "utf-32-be"
    pairs = head[:len(head) // 2 * 2]
    even, odd = pairs[0::2].count(0), pairs[1::2].count(0)
    few, most = sorted((even, odd))
    if most >= 4 * few and (few == 0 or most >= 32):  # NULs the high bytes of characters
        return "utf-16-le" if odd > even else "utf-16-be"  # (a few U+xx00 letters aside)
    return None


def decode_text(data: bytes, path: Path | str, most: int = MAX_TEXT_BYTES,
                too_big: str = "split it") -> str:
    """UTF-8 (optionally gzip, unpacked to at most ``most`` bytes) text, or UTF-16/32 told by
    its byte order mark or the place of its NUL bytes, refusing binaries with a clear
    message."""
    if data[:2] == GZIP_MAGIC:
        data = gunzip(data, path, most, too_big)
    wide = wide_encoding(data[:SNIFF_BYTES])
    if wide is None and b"\x00" in data[:SNIFF_BYTES]:
        raise XwsatError(f"{path}: looks like a binary file, not text")
    try:
        return data.decode(wide or "utf-8-sig")
    except UnicodeDecodeError as exc:
        named = wide.upper().replace("-LE", " (little-endian)").replace("-BE", " (big-endian)"
                                                                       ) if wide else "UTF-8"
        line = data.count(b"\n", 0, exc.start) + 1
        where = f"line {line}, " if not wide else ""
        hint = "; save it as UTF-8" if not wide else ""
        raise XwsatError(f"{path}: not {named} text ({where}bad byte at offset {exc.start})"
                         f"{hint}") from None


def read_text_file(path: Path) -> str:
    """Read a UTF-8 (optionally gzip) text file, refusing binaries with a clear message."""
    return decode_text(read_bytes(path), path)


def load_words(
    spec: str = "en",
    min_score: int = 0,
    alphabet: str | None = None,
    fold_accents: bool = False,
    fold_yo: bool = False,
    scale: tuple[int, int] | None = None,
) -> WordList:
    """Load an embedded dictionary by language code, or a dictionary file by path; ``scale``
    (low, high): the range its scores are written on (0-100 when None)."""
    if alphabet is not None:
        declared = alphabet
        alphabet = normalize_word(alphabet)
        if (not alphabet or len(set(alphabet)) != len(alphabet) or not alphabet.isalpha()
                or len(alphabet) != len(unicodedata.normalize("NFC", declared.strip()))):
            raise XwsatError("--alphabet must list distinct letters, nothing else (e.g. "
                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ)")
    if spec in EMBEDDED:
        raw = (resources.files("xwsat") / "data" / EMBEDDED[spec]).read_bytes()
        source = f"embedded:{spec}"
    else:
        path = Path(spec)
        if not path.exists() and "/" not in spec and "." not in spec:
            known = ", ".join(sorted(EMBEDDED))
            raise XwsatError(f"unknown dictionary {spec!r}: give a file path or one of {known}")
        raw = read_bytes(path)
        source = str(path)
    return words_from_bytes(raw, source, min_score, alphabet, fold_accents, fold_yo, scale)


def words_from_bytes(raw: bytes, source: str, min_score: int = 0, alphabet: str | None = None,
                     fold_accents: bool = False, fold_yo: bool = False,
                     scale: tuple[int, int] | None = None,
                     most: int = MAX_TEXT_BYTES) -> WordList:
    """A dictionary from its file's bytes (plain or gzip, unpacked to at most ``most``), as
    ``load_words`` reads a file: the workbench's uploads come this way, never through a
    path."""
    options = {"min_score": min_score, "alphabet": alphabet, "fold_accents": fold_accents,
               "fold_yo": fold_yo}
    if scale is not None:
        options["scale"] = list(scale)
    cached = wordcache.load(raw, options, source)
    if cached is not None:
        return replace(cached, min_score=min_score)
    entries, skipped = parse_entries(
        text_lines(decode_text(raw, source, most)), source, min_score, alphabet, fold_accents,
        fold_yo, scale)
    if not entries:
        raise XwsatError(
            f"{source}: no usable words"
            + (f" with score >= {min_score}" if min_score else "")
        )
    words = replace(build_wordlist(entries, alphabet, source), skipped=int(skipped),
                    first_skipped=skipped.first, dashed=skipped.dashed,
                    first_dashed=skipped.first_dashed, min_score=min_score)
    wordcache.save(words, raw, options)
    return words
