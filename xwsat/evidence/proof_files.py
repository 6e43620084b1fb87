"""Reading formula and proof files, gzip-compressed or plain: shared by the checkers
(``drat_check`` for dratify, ``rup_check`` for the trail checker) and the re-check."""

from __future__ import annotations

import gzip
from pathlib import Path


def read_bytes(path: Path) -> bytes:
    """A formula or proof file's bytes, gzip-compressed or plain, as the trail checker parses
    and hashes them (no newline translation: a file with a carriage return hashes apart from
    its text and so never matches the text ``check-proof`` compared)."""
    if path.suffix == ".gz":
        with gzip.open(path, "rb") as handle:
            return handle.read()
    return path.read_bytes()


def read_text(path: Path) -> str:
    """A formula or proof file as text (what dratify parses), gzip-compressed or plain."""
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="ascii") as handle:
            return handle.read()
    return path.read_text(encoding="ascii")
