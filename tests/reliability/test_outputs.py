"""xwsat.outputs: a file is written whole or not at all, and never over a file that is there,
whichever way the file system lets it be moved in."""

from __future__ import annotations

import errno
import os

import pytest

from xwsat import outputs
from xwsat.errors import XwsatError
from xwsat.outputs import OutputExists, write_file

WAYS = ["renameat2", "link", "exclusive copy"]


@pytest.fixture(params=WAYS)
def way(request, monkeypatch) -> str:
    """Force each way of moving without replacing in turn (as on file systems without it)."""
    if request.param != "renameat2":
        monkeypatch.setattr(outputs, "_renameat2", lambda source, target: False)
    if request.param == "exclusive copy":
        def no_links(source, target):
            raise OSError(errno.EPERM, "Operation not permitted")
        monkeypatch.setattr(os, "link", no_links)
    return request.param


def test_a_new_file_is_written(tmp_path, way) -> None:
    target = tmp_path / "out.txt"
    write_file(target, "ABC\n")
    assert target.read_text() == "ABC\n" and os.listdir(tmp_path) == ["out.txt"]


def test_an_existing_file_is_never_replaced(tmp_path, way) -> None:
    target = tmp_path / "out.txt"
    target.write_text("the user's\n")
    with pytest.raises(OutputExists, match="--force"):
        write_file(target, b"ours\n")
    assert target.read_text() == "the user's\n" and os.listdir(tmp_path) == ["out.txt"]


def test_replace_replaces_a_plain_file_only(tmp_path, way) -> None:
    target = tmp_path / "out.txt"
    target.write_text("earlier\n")
    write_file(target, "ours\n", replace=True)
    assert target.read_text() == "ours\n"
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    with pytest.raises(XwsatError, match="not a plain file"):
        write_file(link, "ours\n", replace=True)
    assert link.is_symlink()


def test_the_renameat2_way_is_the_one_taken_on_linux(tmp_path) -> None:
    source, target = tmp_path / "a", tmp_path / "b"
    source.write_text("x")
    target.write_text("y")
    if not outputs._renameat2(source, tmp_path / "c"):
        pytest.skip("no renameat2 here")
    with pytest.raises(FileExistsError):
        outputs._renameat2(tmp_path / "c", target)
    assert target.read_text() == "y"


def test_a_255_byte_name_is_written(tmp_path) -> None:
    target = tmp_path / ("n" * 251 + ".txt")
    write_file(target, "ABC\n")
    assert target.read_text() == "ABC\n"


def test_write_file_takes_a_string_path_as_its_documentation_shows(tmp_path, monkeypatch):
    # the library example (docs/files-and-hostile-input.md) with a string path raised an
    # AttributeError traceback
    monkeypatch.chdir(tmp_path)
    write_file("ow.txt", "hello")
    with pytest.raises(OutputExists):
        write_file("ow.txt", "again")
    write_file("ow.txt", "again", replace=True)
    assert (tmp_path / "ow.txt").read_text() == "again"
