"""Creating output files that never replace a file by accident, for the command line and any
other front end (a web application writes through the same functions).

A check that the name is free, made before a long run, leaves the whole run as a window: a file
another program creates meanwhile would be replaced at the end. So the data go to a temporary
file beside the target (a short name, so a legal 255-byte target name stays legal), and the
temporary file is then moved in by a rename that refuses an existing name: Linux's
``renameat2(RENAME_NOREPLACE)``, else a hard link (which fails on an existing name) and the
temporary's removal, else an exclusive create and a copy. Only ``replace=True`` (``--force``)
lets a rename replace a file, and never a link, device or pipe.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
import tempfile
from pathlib import Path

from xwsat.errors import XwsatError

TEMP_PREFIX = ".xwsat-"  # + 8 random characters + ".tmp": 19 bytes whatever the target's name
_NOREPLACE_FLAG = 1  # RENAME_NOREPLACE (linux/fs.h)
_AT_FDCWD = -100
# the file system cannot do this way of moving without replacing: try the next one
_UNSUPPORTED = frozenset({errno.EINVAL, errno.ENOSYS, errno.EPERM, errno.EOPNOTSUPP,
                          errno.ENOTSUP, errno.EMLINK, errno.EXDEV})


class OutputExists(XwsatError):
    """The output's name was taken, before the run or during it, and replacing was not asked."""


def exists_message(path: Path) -> str:
    return f"{path}: exists; add --force to replace it"


def folder_of(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def check_plain(path: Path) -> None:
    """Refuse a name that holds a link (dangling too), device, pipe or folder: replacing it
    would turn it into a plain file (and a link's target would never be written)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise XwsatError(f"{path}: cannot write ({exc.strerror})") from None
    if stat.S_ISDIR(mode):
        raise XwsatError(f"{path}: is a directory; give a file name to write")
    if not stat.S_ISREG(mode):
        raise XwsatError(f"{path}: is not a plain file (a link, device or pipe); give a "
                         "plain file name to write")


def temporary_file(folder: Path) -> tuple[int, Path]:
    """A new, empty, private file in ``folder`` (open descriptor and path), its name short."""
    handle, name = tempfile.mkstemp(dir=folder, prefix=TEMP_PREFIX, suffix=".tmp")
    return handle, Path(name)


def _renameat2(source: Path, target: Path) -> bool:
    """Rename without replacing, in one system call; False when this system cannot."""
    try:
        call = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    call.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                     ctypes.c_uint]
    if call(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target),
            _NOREPLACE_FLAG) == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), str(target))


def move_new(source: Path, target: Path) -> None:
    """Move ``source`` to the free name ``target`` (same file system); ``FileExistsError``
    when the name is taken, whenever it was taken: the file there is left as it was."""
    if _renameat2(source, target):
        return
    try:
        os.link(source, target)
    except OSError as exc:
        if exc.errno not in _UNSUPPORTED:
            raise
    else:
        os.unlink(source)
        return
    # no hard links here (some network and FAT file systems): create exclusively, copy in
    with open(source, "rb") as src, open(target, "xb") as dst:
        try:
            while chunk := src.read(1 << 20):
                dst.write(chunk)
            os.fchmod(dst.fileno(), stat.S_IMODE(os.fstat(src.fileno()).st_mode))
        except BaseException:
            os.unlink(target)  # ours, just made: never half a file
            raise
    os.unlink(source)


def place(source: Path, target: Path, replace: bool = False) -> None:
    """Move a finished temporary file in: over an existing plain file only with ``replace``.
    Raises ``OutputExists`` for a taken name."""
    if replace:
        check_plain(target)
        os.replace(source, target)
        return
    try:
        move_new(source, target)
    except FileExistsError:
        raise OutputExists(exists_message(target)) from None


def write_file(path: Path | str, data: str | bytes, replace: bool = False) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` all at once or not at all: via a temporary
    file, moved in without replacing anything unless ``replace``. A replaced file keeps its
    permissions; a new one gets the usual (the umask's), not the temporary file's 0600.
    ``OutputExists`` for a taken name, ``XwsatError`` for any other failure (one line)."""
    path = Path(path)  # a library caller's string too
    check_plain(path)
    try:
        handle, tmp = temporary_file(folder_of(path))
    except OSError as exc:
        raise XwsatError(f"{path}: cannot write in {folder_of(path)} ({exc.strerror})"
                         ) from None
    try:
        with os.fdopen(handle, "wb") as out:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(out.fileno(), stat.S_IMODE(path.stat().st_mode)
                      if replace and path.is_file() else 0o666 & ~umask)
            out.write(data if isinstance(data, bytes) else data.encode("utf-8"))
        place(tmp, path, replace)
    except OSError as exc:
        raise XwsatError(f"{path}: cannot write ({exc.strerror})") from None
    finally:
        tmp.unlink(missing_ok=True)  # gone already when it was moved in
