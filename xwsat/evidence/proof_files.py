"""Reading a certificate's formula and proof in bounded memory, whatever the files hold.

A certificate comes from anyone: fifteen bytes of proof naming variable 1,073,741,823, a
1 MB gzip file that unpacks to gigabytes of comment lines. So the files are read in pieces and
unpacked with the cap every other input has (``words.MAX_TEXT_BYTES``); comment lines are
dropped as they stream past (only hashed), so neither the parent nor a checker holds them; and
a checker's arrays are sized by the formula's variables, a proof literal beyond them refused
before any array is made (``variables``).
"""

from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.words import GZIP_MAGIC, MAX_TEXT_BYTES

PIECE = 1 << 20
_NUMBER = re.compile(rb"\d+")
_HEADER = re.compile(rb"^p[^\n]*", re.MULTILINE)
_AFTER_COMMENTS = re.compile(rb"\n(?=[^c])")  # the end of a run of comment lines
# Characters Python's (and so dratify's) line splitting breaks ASCII lines at, besides "\n":
# a checker could read a clause hidden in a comment, so a certificate may not hold them.
OTHER_LINE_BREAKS = (b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e")


def pieces(path: Path, most: int | None = None) -> Iterator[bytes]:
    """The file's text in pieces, gzip unpacked (every member) when it ends in ``.gz``;
    ``XwsatError`` past ``most`` bytes of text (the cap of every input), or for a damaged
    gzip file."""
    most = MAX_TEXT_BYTES if most is None else most
    size = 0
    with open(path, "rb") as handle:
        packed = path.suffix == ".gz"
        unpack, data = None, b""
        while True:
            if not data:
                data = handle.read(PIECE)
                if not data:
                    break
            if not packed:
                if size == 0 and data.startswith(GZIP_MAGIC):  # else "not ASCII text"
                    raise XwsatError(f"{path.name}: holds gzip data, but its name does not end "
                                     "in .gz")
                piece, data = data, b""
            else:
                if unpack is None:  # a member starts (zero padding may come between)
                    data = data.lstrip(b"\x00")
                    if not data:
                        continue
                    unpack = zlib.decompressobj(wbits=31)
                try:
                    piece = unpack.decompress(data, PIECE)
                except zlib.error:
                    raise XwsatError(f"{path.name}: damaged gzip file") from None
                data = unpack.unused_data if unpack.eof else unpack.unconsumed_tail
                unpack = None if unpack.eof else unpack
            size += len(piece)
            if size > most:
                raise XwsatError(f"{path.name}: " + ("unpacks to" if packed else "larger than")
                                 + f" more than {most >> 20} MiB")
            if piece:
                yield piece
        if unpack is not None:
            raise XwsatError(f"{path.name}: damaged gzip file (cut short)")


START, COMMENT, CONTENT = 0, 1, 2  # where a piece of text begins: a line, a comment, a clause


def _strip_comments(text: bytes, state: int) -> tuple[bytes, int]:
    """``text`` without its comment lines ("c" first on a line), given where it begins;
    and where the next piece begins."""
    out = []
    i = 0
    if state != START:
        end = text.find(b"\n")
        if end < 0:
            return (b"" if state == COMMENT else text), state
        if state == CONTENT:
            out.append(text[:end + 1])
        i = end + 1
    while i < len(text):
        if text[i] == ord("c"):  # skip the whole run of comment lines at once
            found = _AFTER_COMMENTS.search(text, i)
            if found is None:
                return b"".join(out), START if text.endswith(b"\n") else COMMENT
            i = found.end()
            continue
        at = text.find(b"\nc", i)
        if at < 0:
            out.append(text[i:])
            return b"".join(out), START if text.endswith(b"\n") else CONTENT
        out.append(text[i:at + 1])
        i = at + 1
    return b"".join(out), START


@dataclass
class Read:
    """What streaming a formula or proof file found: the SHA-256 of all its text (comments
    included: what a checker must have read), its non-blank lines, and, when kept, its text
    without comment lines (what a checker parses)."""

    sha256: str
    lines: int
    content: bytes = b""


def read_file(path: Path, keep: bool, strict: bool = False) -> Read:
    """Stream a formula or proof file: ASCII only, within the cap. ``keep``: also return the
    text without comment lines (cut at newlines only, the same for every checker that parses
    it). ``strict``: refuse other line breaks (a certificate's files never hold them)."""
    name = path.name
    digest = hashlib.sha256()
    lines, kept = 0, []
    state, last = START, b"\n"
    for piece in pieces(path):
        if not piece.isascii():
            raise XwsatError(f"{name}: not ASCII text")
        if strict and any(mark in piece for mark in OTHER_LINE_BREAKS):
            raise XwsatError(f"{name}: breaks lines with other characters than newlines (a "
                             "checker could read clauses hidden in a comment)")
        digest.update(piece)
        lines += piece.count(b"\n")
        if keep:
            text, state = _strip_comments(piece, state)
            kept.append(text)
        last = piece[-1:]
    if last != b"\n":
        lines += 1
    return Read(digest.hexdigest(), lines, b"".join(kept))


def same_formula(path: Path, body: bytes) -> tuple[bool, str]:
    """Whether the formula file, once its leading comment lines are skipped, is exactly
    ``body``, read in pieces and given up at the first difference; and the SHA-256 of all its
    text (meaningful when it is the same)."""
    digest = hashlib.sha256()
    skipping, in_comment, at = True, False, 0
    for piece in pieces(path):
        if not piece.isascii() or any(mark in piece for mark in OTHER_LINE_BREAKS):
            return False, ""
        digest.update(piece)
        i = 0
        while skipping and i < len(piece):
            if in_comment:
                end = piece.find(b"\n", i)
                if end < 0:
                    i = len(piece)
                    break
                i, in_comment = end + 1, False
            elif piece[i] == ord("c"):
                in_comment = True
            else:
                skipping = False
        if not skipping:
            rest = piece[i:]
            if body[at:at + len(rest)] != rest:
                return False, ""
            at += len(rest)
    return at == len(body), digest.hexdigest()


def literal_counts(content: bytes) -> tuple[int, int]:
    """The largest variable a DIMACS text (comments dropped) names, its "p cnf" header's count
    included, and how many literals its clauses hold (closing zeros left out)."""
    header = _HEADER.search(content)
    counts = [int(n) for n in _NUMBER.findall(header.group())[:1]] if header else []
    numbers = [int(n) for n in _NUMBER.findall(_HEADER.sub(b"", content, count=1))]
    return max(numbers + counts, default=0), sum(1 for n in numbers if n)


def variables(formula_lits: int, largest: int) -> int:
    """How many variables a checker sizes its arrays for: the largest the formula uses, which
    a formula xwsat writes never puts above its count of literals (each variable occurs);
    ``XwsatError`` otherwise (a tiny file naming variable 2**30 would make gigabytes)."""
    if largest > max(formula_lits, 1):
        raise XwsatError(f"the formula names variable {largest:,} but holds only "
                         f"{formula_lits:,} literals")
    return max(largest, 1)


def beyond(proof_largest: int, n_vars: int) -> str:
    """Why a proof that names a variable the formula lacks is refused ('' when it does not)."""
    if proof_largest <= n_vars:
        return ""
    return (f"the proof names variable {proof_largest:,}, beyond the formula's {n_vars:,} "
            "(no array is made for it)")
