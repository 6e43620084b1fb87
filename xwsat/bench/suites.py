"""Benchmark suites: a folder of grid files with a ``suite.json`` manifest.

A manifest names the grids, where they come from and under which licence, the dictionaries to pair
them with (a suite default, or per grid), and the status the literature knows for a pairing. One
instance is a (grid, dictionary) pair; the bench multiplies instances by back-ends and seeds.

Dictionary names: ``en`` is the embedded list; a bare name such as ``lex`` is
``grids/dictionaries/lex.txt`` (or ``.txt.gz``); a name with a suffix (``words5_sub2.txt``,
``../x/y.txt``) is a file relative to the suite folder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.words import EMBEDDED

MANIFEST = "suite.json"
VERDICTS = ("filled", "unfillable")


@dataclass(frozen=True)
class Instance:
    """One (grid, dictionary) pairing of a suite, with the literature's status if known."""

    suite: str
    grid: str  # grid id: the file name without .txt
    grid_path: Path
    dictionary: str  # the label used in tables and rows
    dictionary_path: str  # what load_words takes
    known: str | None = None

    @property
    def key(self) -> str:
        return f"{self.suite}/{self.grid}@{self.dictionary}"


@dataclass(frozen=True)
class Suite:
    name: str
    folder: Path
    description: str
    source: str
    licence: str
    instances: tuple[Instance, ...]
    meta: dict = field(default_factory=dict)


def grids_root() -> Path:
    """``./grids`` when run from a checkout, else the grids folder next to the package."""
    here = Path("grids")
    if (here / "dictionaries").is_dir():
        return here
    return Path(__file__).resolve().parent.parent.parent / "grids"


def find_suite(spec: str) -> Path:
    """A suite folder from a name (``classic``), a folder, or a manifest path."""
    path = Path(spec)
    if path.is_file() and path.name == MANIFEST:
        return path.parent
    named = grids_root() / spec
    if "/" not in spec and (named / MANIFEST).is_file():
        if (path / MANIFEST).is_file() and path.resolve() != named.resolve():
            raise XwsatError(f"{spec!r} is both the suite {named} and a folder here; give "
                             f"./{spec} for the folder")
        return named
    if (path / MANIFEST).is_file():
        return path
    known = ", ".join(list_suites())
    names = (f" or one of {known}" if known else
             " (the named suites are in the repository's grids/ folder: run from there)")
    raise XwsatError(f"unknown suite {spec!r}: give a folder with {MANIFEST}{names}")


def list_suites() -> list[str]:
    root = grids_root()
    if not root.is_dir():
        return []
    return sorted(p.parent.name for p in root.glob(f"*/{MANIFEST}"))


def resolve_dictionary(name: str, folder: Path) -> str:
    """The path (or embedded code) of a dictionary name, checked to exist."""
    if name in EMBEDDED:
        return name
    if Path(name).suffix:
        path = folder / name
        if not path.is_file() and (grids_root().parent / name).is_file():
            path = grids_root().parent / name  # written relative to the repository
    else:
        path = grids_root() / "dictionaries" / f"{name}.txt"
        if not path.is_file() and path.with_suffix(".txt.gz").is_file():
            path = path.with_suffix(".txt.gz")
    if not path.is_file():
        if Path(name).is_dir() or (folder / name).is_dir():
            raise XwsatError(f"dictionary {name!r} is a folder; give a word-list file")
        here = Path(name).resolve()
        places = f"{here} and {path}" if Path(name).suffix and here != path.resolve() else path
        raise XwsatError(f"dictionary {name!r} not found (looked for {places})")
    return str(path.resolve())


def dictionary_label(name: str) -> str:
    """How a dictionary shows in rows and tables: its file stem (``lex``, ``words5_sub2``,
    ``wamerican-large`` for ``wamerican-large.txt.gz``)."""
    label = Path(name).name
    for suffix in (".gz", ".txt"):
        label = label.removesuffix(suffix)
    return label


def load_suite(spec: str, dictionaries: list[str] | None = None) -> Suite:
    """Read a suite; ``dictionaries`` replaces every pairing in the manifest (``--dict``)."""
    folder = find_suite(spec)
    manifest_path = folder / MANIFEST
    try:
        data = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise XwsatError(f"{manifest_path}: not a readable JSON manifest ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("grids"), list):
        raise XwsatError(f"{manifest_path}: a manifest needs a 'grids' list")
    name = str(data.get("suite", folder.name))
    default = data.get("dictionaries", [])
    instances: list[Instance] = []
    for entry in data["grids"]:
        entry = {"file": entry} if isinstance(entry, str) else entry
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            raise XwsatError(f"{manifest_path}: each grid needs a 'file' (a path)")
        grid_path = (folder / entry["file"]).resolve()  # absolute: Dask workers may differ in cwd
        if not grid_path.is_file():
            raise XwsatError(f"{manifest_path}: grid file {entry['file']} is missing")
        names = dictionaries or entry.get("dictionaries") or default
        if not names:
            raise XwsatError(f"{manifest_path}: no dictionary for {entry['file']} (use --dict)")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise XwsatError(f"{manifest_path}: 'dictionaries' is a list of names or paths, "
                             f"e.g. [\"en\"] (for {entry['file']})")
        known = entry.get("known", {})
        if not isinstance(known, dict):
            raise XwsatError(f"{manifest_path}: 'known' maps a dictionary to a verdict, e.g. "
                             f"{{\"en\": \"filled\"}} (for {entry['file']})")
        own = {dictionary_label(n): n for n in (entry.get("dictionaries") or default)
               if isinstance(n, str)}
        known = {dictionary_label(str(key)): status for key, status in known.items()}
        if stray := sorted(set(known) - set(own)):  # "lex.txt" is "lex"; a typo is no check
            raise XwsatError(f"{manifest_path}: 'known' names {', '.join(stray)}, which "
                             f"{entry['file']} is not paired with (its dictionaries: "
                             f"{', '.join(own) or 'none'})")
        for dict_name in names:
            label = dictionary_label(dict_name)
            path = resolve_dictionary(dict_name, folder)
            status = known.get(label)
            if status is not None and status not in VERDICTS:
                raise XwsatError(f"{manifest_path}: known status {status!r} is not one of "
                                 f"{', '.join(VERDICTS)}")
            if status is not None and dictionaries and (
                    label not in own or resolve_dictionary(own[label], folder) != path):
                status = None  # a --dict list of the same name is not the one the status is for
            instances.append(Instance(name, Path(entry["file"]).stem, grid_path, label, path,
                                      status))
    return Suite(name, folder, str(data.get("description", "")), str(data.get("source", "")),
                 str(data.get("licence", "")), tuple(instances),
                 {k: v for k, v in data.items() if k not in ("grids",)})


def manifest_text(manifest: dict) -> str:
    """A manifest as written to ``suite.json``: indented JSON, UTF-8, a final newline."""
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
