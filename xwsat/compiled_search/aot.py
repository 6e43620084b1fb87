"""The compiled search built ahead of time as a C extension, so a solver process never imports
numba.

Each process that ran the numba-jitted kernel paid about 0.35 s before its first decision
(importing numba, then loading the cached machine code through numba's typing machinery): more
than the whole search on a small grid. numba's ``pycc`` compiles the same kernel functions into
an ordinary extension module once (at the first run, with the jitted warm-up, before any clock
starts); loading it costs a few milliseconds. The module is keyed by a hash of the kernel's
sources and numba's version, like the jit cache, so an edited kernel is rebuilt, never reused.
When the build fails (no C compiler, or a numba without ``pycc``), everything falls back to the
jitted kernel.

The export takes the fields of ``Model`` and ``State`` as separate arrays (pycc exports plain
signatures) and rebuilds the two tuples inside, then calls ``kernel.run``.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from pathlib import Path

import numpy as np

from xwsat.compiled_search.model import Model
from xwsat.compiled_search.state import State

MODULE = "xwsat_mac_aot"
SOURCES = ("kernel.py", "model.py", "state.py", "aot.py")
_TYPES = {np.dtype(np.int64): "i8", np.dtype(np.uint64): "u8", np.dtype(np.float64): "f8",
          np.dtype(np.int32): "i4", np.dtype(np.int8): "i1", np.dtype(np.bool_): "b1"}

Runner = Callable[[Model, State, int], int]


def numba_stamp() -> bytes:
    """What identifies the installed numba, read without importing it or
    ``importlib.metadata`` (together about 20 ms of every run's start): its version file."""
    spec = importlib.util.find_spec("numba")
    origin = Path(spec.origin) if spec is not None and spec.origin else None
    if origin is not None:
        with suppress(OSError):
            return (origin.parent / "_version.py").read_bytes()
    from importlib import metadata

    return metadata.version("numba").encode()


def _digest() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(numba_stamp())
    digest.update(sys.version.encode())
    for name in SOURCES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


def cache_base(package: Path) -> Path:
    """Where compiled things of the sources in ``package`` go: its ``__pycache__`` when
    writable, else the user's cache."""
    here = package / "__pycache__"
    return here if os.access(here if here.is_dir() else package, os.W_OK) else \
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "xwsat"


def compiled_marker(package: Path, sources: tuple[str, ...], prefix: str) -> Path:
    """A file whose presence says "these sources were compiled by this numba": named by a hash
    of both, so an edited source or a new numba compiles again; checked without importing
    numba (about 0.2 s)."""
    digest = hashlib.sha256(numba_stamp())
    for name in sources:
        digest.update((package / name).read_bytes())
    return cache_base(package) / f"{prefix}-{digest.hexdigest()[:16]}"


def folder() -> Path:
    """Where the module for this source lives: beside the package when writable, else the
    user's cache."""
    return cache_base(Path(__file__).resolve().parent) / f"aot-{_digest()}"


def _library(where: Path) -> Path | None:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = [p for p in where.glob(f"{MODULE}*") if p.name.endswith(suffixes)] \
        if where.is_dir() else []
    return found[0] if found else None


def built() -> bool:
    try:
        return _library(folder()) is not None
    except OSError:
        return False


def _failure_note() -> Path:
    where = folder()
    return where.with_name(where.name + ".failed")


def failed() -> bool:
    """Whether the build was tried for this source and failed (then the jitted kernel serves)."""
    try:
        return _failure_note().exists()
    except OSError:
        return False


def build_or_record(model: Model, state: State) -> bool:
    """Build; on failure leave a note with the reason, so later runs do not try again."""
    try:
        build(model, state)
        return True
    except Exception as exc:  # noqa: BLE001  (any failure of the C toolchain: use the jit)
        with suppress(OSError):
            note = _failure_note()
            note.parent.mkdir(parents=True, exist_ok=True)
            note.write_text(f"{type(exc).__name__}: {exc}\n", encoding="utf-8")
        return False


def _signature(model: Model, state: State) -> str:
    """pycc's signature of the export: each array as C-contiguous of its dtype and rank."""
    def one(value) -> str:
        if isinstance(value, np.ndarray):
            return f"{_TYPES[value.dtype]}[{', '.join([':'] * (value.ndim - 1) + ['::1'])}]"
        return "i8"

    return "i8(" + ", ".join([one(v) for v in model] + [one(v) for v in state] + ["i8"]) + ")"


def _export_source() -> str:
    m = [f"m{i}" for i in range(len(Model._fields))]
    s = [f"s{i}" for i in range(len(State._fields))]
    return (f"def run_flat({', '.join(m + s)}, budget):\n"
            f"    return run(Model({', '.join(m)}), State({', '.join(s)}), budget)\n")


def build(model: Model, state: State) -> Path:
    """Compile the extension for the shapes of ``model`` and ``state`` (any sample: only dtypes
    and ranks matter) into a fresh folder, then move it into place (another process building
    at the same time only wastes its work)."""
    import shutil
    import tempfile

    with warnings.catch_warnings():  # pycc's pending deprecation is numba's news, not the user's
        warnings.filterwarnings("ignore", message="The 'pycc' module is pending deprecation")
        from numba.pycc import CC

    from xwsat.compiled_search import kernel

    target = folder()
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".aot-build-", dir=target.parent))
    try:
        namespace = {"run": kernel.run, "Model": Model, "State": State}
        exec(compile(_export_source(), "<xwsat.compiled_search.aot export>", "exec"), namespace)
        cc = CC(MODULE)
        cc.output_dir = str(work)
        cc.target_cpu = "host"  # built and run on this machine
        cc.verbose = False
        cc.export("run_flat", _signature(model, state))(namespace["run_flat"])
        cc.compile()
        if _library(work) is None:
            raise RuntimeError("pycc wrote no module")
        try:
            os.rename(work, target)
        except OSError:
            if _library(target) is None:
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


@cache
def _load():
    library = _library(folder())
    if library is None:
        return None
    loader = importlib.machinery.ExtensionFileLoader(MODULE, str(library))
    spec = importlib.util.spec_from_file_location(MODULE, library, loader=loader)
    if spec is None:
        return None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def runner() -> Runner:
    """``run(model, state, budget)``: the ahead-of-time build when there is one for this source,
    else the numba-jitted kernel."""
    module = None
    try:
        module = _load()
    except (OSError, ImportError):
        module = None
    if module is None:
        from xwsat.compiled_search import kernel

        return kernel.run
    flat = module.run_flat
    return lambda model, state, budget: int(flat(*model, *state, budget))
