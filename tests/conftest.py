"""Shared helpers: tiny word lists and files written inline, never the big dictionaries."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from xwsat.grid import Grid, parse_grid
from xwsat.words import WordList, build_wordlist


@pytest.fixture(scope="session", autouse=True)
def compiled_search() -> None:
    """Compile the numba search and the trail proof checker once, before any test runs them
    under a time limit."""
    from xwsat.backends.mac import MacBackend, warm_up
    from xwsat.evidence import rup_check

    if MacBackend.available():
        warm_up()
    if rup_check.available():
        # `python -m pytest` imports the checkout, while the tests' `xwsat` processes run the
        # installed package (CI installs it as a copy): compile the checker for both
        import subprocess
        import sys
        import tempfile

        subprocess.run([sys.executable, "-c", "from xwsat.evidence import rup_check as r; "
                        "r.compiled() or r.warm_up()"], cwd=tempfile.gettempdir(), check=False,
                       timeout=600)
        if not rup_check.compiled():
            rup_check.warm_up()


@pytest.fixture
def make_words() -> Callable[..., WordList]:
    """Build a WordList straight from upper-case words (all scored 50), no file involved."""

    def make(words: Iterable[str], alphabet: str | None = None) -> WordList:
        return build_wordlist({w: (50, None) for w in words}, alphabet, source="inline")

    return make


@pytest.fixture
def make_grid() -> Callable[[str], Grid]:
    """Parse a grid from its text form."""
    return parse_grid


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str | bytes], Path]:
    """Write text (UTF-8) or bytes to a file under tmp_path and return its path."""

    def write_file(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return write_file


@pytest.fixture
def fake_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register ``fake:ACTION`` (tests/fake_backends.py) in the back-end registry."""
    from xwsat.backends import registry

    monkeypatch.setitem(registry._MODULES, "fake", "fake_backends")


@pytest.fixture(autouse=True)
def no_word_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests load their tiny lists afresh (tests/unit/test_words.py tests the cache itself)."""
    monkeypatch.setenv("XWSAT_NO_CACHE", "1")
