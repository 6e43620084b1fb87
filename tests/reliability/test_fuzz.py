"""Fuzzing the command line (slow: ``pytest -m slow tests/reliability/test_fuzz.py``).

Hypothesis (seeded: ``derandomize=True``) makes grids (text, .json, .ipuz, .puz, with
malformed bytes), dictionaries (random words, scores and clues with control characters; gzip,
truncated gzip, other encodings) and option values (time limits, seeds, min-length, min-score,
alphabets, back-ends), and runs the commands on them. Every run must end with exit 0, 1, 2 or
3 (``check-proof`` may also say NOT VERIFIED, exit 4); exit 2 with exactly one line on stderr;
never a traceback or an internal error; and no input file changed (hashed before and after).
``XWSAT_FUZZ_EXAMPLES`` scales the number of examples; ``XWSAT_TALLIES`` receives the counts.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
import tallies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from xwsat import cli
from xwsat.cli import app

pytestmark = pytest.mark.slow

SCALE = float(os.environ.get("XWSAT_FUZZ_EXAMPLES", "1"))
XWSAT = shutil.which("xwsat", path=os.path.dirname(sys.executable)) or "xwsat"


def fuzz(examples: int):
    return settings(derandomize=True, database=None, deadline=None,
                    max_examples=max(1, int(examples * SCALE)),
                    suppress_health_check=list(HealthCheck))


# --- what is checked after every run -----------------------------------------------------------

SEEN: Counter = Counter()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "-"


def check_run(argv: list[str], inputs: list[Path], target: str) -> int:
    """Run ``xwsat argv`` in-process (``xwsat.cli.run``: what ``main`` runs, usage errors
    included) and check the outcome; returns the exit code."""
    before = {p: digest(p) for p in inputs}
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="replace", write_through=True)
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.run(argv)
    out.flush()
    stdout, stderr = raw.getvalue().decode("utf-8", "replace"), err.getvalue()
    SEEN[f"{target}: tried"] += 1
    SEEN[f"{target}: exit {code}"] += 1
    if "Traceback" in stdout + stderr or "internal error" in stderr:
        SEEN[f"{target}: tracebacks"] += 1
        raise AssertionError(f"traceback or internal error for {argv}:\n{stderr[-800:]}")
    rejected = code == 4 and argv[0] == "check-proof" and "NOT VERIFIED" in stdout
    assert code in (0, 1, 2, 3) or rejected, (argv, code, stdout[-400:], stderr[-400:])
    if code == 2:
        lines = stderr.strip().splitlines()
        if len(lines) != 1 or not lines[0].startswith("xwsat: error: "):
            SEEN[f"{target}: bad error lines"] += 1
            raise AssertionError(f"exit 2 without one error line for {argv}:\n{stderr}")
    changed = [str(p) for p in inputs if digest(p) != before[p]]
    if changed:
        SEEN[f"{target}: inputs changed"] += 1
        raise AssertionError(f"{argv} changed its inputs {changed}")
    SEEN[f"{target}: handled cleanly"] += 1
    return code


def record(target: str) -> None:
    tallies.put("fuzz", target, {k.split(": ", 1)[1]: v for k, v in sorted(SEEN.items())
                                 if k.startswith(target + ": ")})


# --- strategies --------------------------------------------------------------------------------

CELL_CHARS = list(".#_?ABCZabé") + ["ß", "Ё", "Ñ", "1", " ", "\t", "\x00", "\x0c", "\u200b",
                                      "\u0301", "\r", "\x1c", "😀", "Ǆ", "ﬁ"]
WORD_CHARS = list("ABCDEabcdeÉéÑñЁёЖж") + [" ", "-", "'", "’", ".", "\t", "\x00", "\u0301", "ß",
                                          "ﬁ", "1", "😀", ";", "—"]
CLUE_CHARS = list("ab xyz") + ["\x1c", "\x1d", "\x1e", "\x0b", "\x0c", "\u2028", "\u2029",
                              "\x85", "\x00", "\r", "\t", "<", ">", "&", "\"", "</script>"]

def pieces(chars: list[str], max_size: int, min_size: int = 0):
    """Text made of ``chars`` (some of which are longer than one character)."""
    return st.lists(st.sampled_from(chars), min_size=min_size, max_size=max_size).map("".join)


grid_rows = st.lists(pieces(CELL_CHARS, 6), min_size=0,
                     max_size=6)
simple_rows = st.lists(st.text(st.sampled_from(list(".#ABC")), min_size=2, max_size=5),
                       min_size=1, max_size=5)


def _wrapped(draw, data: bytes) -> bytes:
    """The bytes as they are, gzipped, or gzipped and cut short (a download that stopped)."""
    wrap = draw(st.sampled_from(["none", "none", "gzip", "cut-gzip"]))
    if wrap != "none":
        data = gzip.compress(data)
        if wrap == "cut-gzip":
            data = data[: draw(st.integers(0, len(data)))]
    return data


@st.composite
def grid_bytes(draw) -> bytes:
    rows = draw(st.one_of(grid_rows, simple_rows))
    text = draw(st.sampled_from(["\n", "\r\n", "\r"])).join(rows)
    if draw(st.booleans()):
        text += "\n"
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1"]))
    data = text.encode(encoding, errors="replace")
    return _wrapped(draw, data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.floats(allow_nan=False)
    | pieces(CELL_CHARS, 6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["pattern", "grid", "solution", "entries", "clue", "slot", "title",
                         "author", "x"]), inner, max_size=4),
    max_leaves=12)


SOLVED = [("AB", "CD"), ("ABC", "D#E", "FGH"), ("CAT", "ORE", "WEB"), ("ÑA", "AÑ")]


def _mutate(draw, value):
    """Replace a few random parts of a JSON value with random values."""
    for _ in range(draw(st.integers(0, 3))):
        parent, key = None, None
        node = value
        for _ in range(draw(st.integers(1, 4))):
            if isinstance(node, dict) and node:
                choice = draw(st.sampled_from(sorted(node)))
            elif isinstance(node, list) and node:
                choice = draw(st.integers(0, len(node) - 1))
            else:
                break
            parent, key, node = node, choice, node[choice]
        if parent is not None:
            parent[key] = draw(json_values)
    return value


def _solved_puzzle(draw):
    from xwsat.formats.puzzle import Puzzle
    from xwsat.grid import parse_grid

    rows = draw(st.sampled_from(SOLVED))
    filled = parse_grid("\n".join(rows))
    blank = parse_grid("\n".join("".join("#" if c == "#" else "." for c in r) for r in rows))
    clue = draw(pieces(CLUE_CHARS, 8))
    return Puzzle(blank, filled if draw(st.booleans()) else None, {"1A": clue})


@st.composite
def json_puzzle(draw) -> bytes:
    kind = draw(st.sampled_from(["random", "shaped", "deep", "valid", "valid"]))
    if kind == "valid":
        from xwsat.formats import write_json

        return json.dumps(_mutate(draw, json.loads(write_json(_solved_puzzle(draw))))).encode()
    if kind == "deep":
        depth = draw(st.integers(100, 50_000))
        return ("[" * depth + "]" * draw(st.sampled_from([depth, 0, depth // 2]))).encode()
    if kind == "random":
        value = draw(json_values)
    else:
        value = {"pattern": draw(st.one_of(simple_rows, json_values)),
                 "solution": draw(st.one_of(st.none(), simple_rows, json_values)),
                 "entries": draw(st.one_of(st.none(), json_values, st.lists(st.fixed_dictionaries(
                     {"slot": st.sampled_from(["1A", "2D", 3]),
                      "clue": pieces(CLUE_CHARS, 8)}), max_size=3))),
                 "title": draw(st.one_of(st.text(max_size=5), json_values))}
    return json.dumps(value).encode()


@st.composite
def ipuz_puzzle(draw) -> bytes:
    if draw(st.booleans()):
        from xwsat.formats import write_ipuz

        return json.dumps(_mutate(draw, json.loads(write_ipuz(_solved_puzzle(draw))))).encode()
    width, height = draw(st.integers(-1, 6)), draw(st.integers(-1, 6))
    cell = st.one_of(st.sampled_from([0, "#", None, 1, 2, "A", {"cell": 1, "value": "B"},
                                      {"cell": "#"}, {"value": "ß"}, {"value": 7}, [1], ""]),
                     json_values)
    puzzle = draw(st.one_of(st.lists(st.lists(cell, max_size=6), max_size=6), json_values))
    data = {"version": draw(st.sampled_from(["http://ipuz.org/v2", "http://ipuz.org/v1", 5])),
            "kind": draw(st.sampled_from([["http://ipuz.org/crossword#1"], ["x"], "crossword",
                                          5])),
            "dimensions": draw(st.one_of(st.just({"width": width, "height": height}),
                                         json_values)),
            "puzzle": puzzle, "block": draw(st.sampled_from(["#", None, 0, "."])),
            "solution": draw(st.one_of(st.none(), st.lists(st.lists(cell, max_size=6),
                                                            max_size=6), json_values)),
            "clues": draw(st.one_of(st.none(), json_values, st.just(
                {"Across": [[1, "a\x1cclue"], {"number": 2, "clue": "x"}, "bare"],
                 "Down:Down": [[1, 2, 3]]})))}
    return json.dumps(data).encode()


@st.composite
def puz_bytes(draw) -> bytes:
    from xwsat.formats import render_puzzle
    from xwsat.formats.puzzle import Puzzle
    from xwsat.grid import parse_grid

    rows = draw(st.sampled_from(SOLVED[:3]))
    filled = parse_grid("\n".join(rows))
    blank = parse_grid("\n".join("".join("#" if c == "#" else "." for c in r) for r in rows))
    data = bytearray(render_puzzle(Puzzle(blank, filled, {"1A": "x"}), "p.puz"))
    for _ in range(draw(st.integers(0, 4))):
        action = draw(st.sampled_from(["flip", "cut", "insert", "zero"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if action == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif action == "cut":
            del data[at:]
        elif action == "insert":
            data[at:at] = bytes(draw(st.lists(st.integers(0, 255), max_size=8)))
        else:
            data[at:at + 4] = b"\x00\x00\x00\x00"
    return bytes(data)


@st.composite
def dictionary_bytes(draw) -> bytes:
    lines = []
    clean = draw(st.integers(0, 2)) > 0
    for _ in range(draw(st.integers(0, 25))):
        word = draw(pieces(list("ABCTabct") if clean else WORD_CHARS, 6))
        form = draw(st.sampled_from(["word", "score", "clue", "dash"]))
        score = draw(st.sampled_from(["50", "0", "100", "-3", "101", "1e999", "nan", "inf", "",
                                      "x", "7.5", " 40 ", "99999999999999999999"]))
        clue = draw(pieces(CLUE_CHARS, 10))
        lines.append({"word": word, "score": f"{word};{score}", "clue": f"{word};{score};{clue}",
                      "dash": f"{word} — {clue}"}[form])
    base = ["AB", "BA", "AA", "BB", "ABA", "BAB", "AAB", "ABB", "BBA", "CAT", "ACT", "TAC"]
    if clean or draw(st.booleans()):
        lines += base
    text = draw(st.sampled_from(["\n", "\r\n"])).join(lines) + "\n"
    encoding = "utf-8" if clean else draw(st.sampled_from(
        ["utf-8", "utf-8-sig", "utf-16", "latin-1", "cp1251"]))
    data = text.encode(encoding, errors="replace")
    return _wrapped(draw, data)


def mostly(valid: list[str], invalid: list[str]):
    """A valid value about nine times in ten."""
    return st.sampled_from(valid * max(1, 9 * len(invalid) // len(valid)) + invalid)


TIME = mostly(["0.5", "1", "2", "0.001"], ["0", "-1", "nan", "inf", "1e9", "abc"])
SEED = mostly(["0", "1", "99999999999"], ["-5", "x"])
MIN_LENGTH = mostly(["2", "3", "1", "12"], ["0", "-1", "101"])
MIN_SCORE = mostly(["0", "50", "100"], ["-10", "200"])
ALPHABETS = st.sampled_from(["", "", "", "ABCT", "ABCTX", "AA", "A B", "1", "ЁЖ", "abct", "A-B",
                             "ABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäå"
                             "æçèéêëìíîïðñòóôõöøùúûüýþÿ"])
BACKENDS = mostly(["auto", "native", "sat", "cpsat", "mac", "native:letters", "sat:glucose4",
                   "native:balanced", "cpsat:plan"], ["auto:race", "magic", "sat:", ":",
                                                      "native:nope"])
GRID_COMMANDS = ["fill", "prove", "info", "plan", "count", "encode", "convert"]


def grid_command(command: str, grid: Path, words: Path, out_dir: Path) -> list[str]:
    if command == "convert":
        return ["convert", str(grid), str(out_dir / "out.ipuz")]
    argv = [command, str(grid), "--dict", str(words)]
    if command in ("fill", "prove", "count"):
        argv += ["-t", "2"]
    if command == "encode":
        argv += ["-o", str(out_dir / "out.cnf")]
    return argv


WORDS = "AB\nBA\nAA\nBB\nABA\nBAB\nAAB\nABB\nBBA\nCAT\nACT\nTAC\nAC\nCA\n"


def _example(grid_data: bytes, suffix: str, command: str, target: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        grid = folder / f"grid{suffix}"
        grid.write_bytes(grid_data)
        words = folder / "words.txt"
        words.write_text(WORDS)
        check_run(grid_command(command, grid, words, folder), [grid, words], target)


# --- the fuzz tests ----------------------------------------------------------------------------

GRID_FILES = [  # (what the tally calls it, the bytes, the file name endings, examples)
    ("text grids", grid_bytes, [".txt", ".txt.gz", ""], 300),
    ("json grids", json_puzzle, [".json"], 200),
    ("ipuz grids", ipuz_puzzle, [".ipuz"], 200),
    ("puz grids", puz_bytes, [".puz"], 200),
]


@pytest.mark.parametrize("target, data, suffixes, examples", GRID_FILES,
                         ids=[row[0] for row in GRID_FILES])
def test_fuzz_grid_files(target, data, suffixes, examples) -> None:
    @fuzz(examples)
    @given(data(), st.sampled_from(GRID_COMMANDS), st.sampled_from(suffixes))
    def run(grid_data, command, suffix):
        _example(grid_data, suffix, command, target)

    run()
    record(target)


DICT_COMMANDS = ["fill", "prove", "dict-info", "dict-export", "freeform", "generate", "convert"]


def test_fuzz_dictionaries() -> None:
    @fuzz(300)
    @given(dictionary_bytes(), st.sampled_from(DICT_COMMANDS),
           st.sampled_from([".txt", ".txt.gz", ".csv"]))
    def run(data, command, suffix):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            words = folder / f"words{suffix}"
            words.write_bytes(data)
            grid = folder / "grid.txt"
            grid.write_text("...\n.#.\n...\n" if command != "convert" else "CAT\nA#C\nT.T\n")
            argv = {
                "fill": ["fill", str(grid), "--dict", str(words), "-t", "2", "--json"],
                "prove": ["prove", str(grid), "--dict", str(words), "-t", "2", "--explain"],
                "dict-info": ["dict", "info", str(words)],
                "dict-export": ["dict", "export", str(words), "-o", str(folder / "e.txt")],
                "freeform": ["freeform", str(words), "--method", "greedy", "-t", "2",
                             "-o", str(folder / "f.html")],
                "generate": ["generate", "--size", "3x3", "--min-length", "2", "--dict",
                             str(words), "-t", "2", "-o", str(folder / "g.puz")],
                "convert": ["convert", str(grid), str(folder / "c.html"), "--dict", str(words)],
            }[command]
            check_run(argv, [grid, words], "dictionaries")

    run()
    record("dictionaries")


def test_fuzz_option_values() -> None:
    @fuzz(300)
    @given(st.sampled_from(["fill", "prove", "count", "info", "plan", "generate", "encode"]),
           TIME, SEED, MIN_LENGTH, MIN_SCORE, ALPHABETS, BACKENDS, st.booleans())
    def run(command, time_limit, seed, min_length, min_score, alphabet, backend, repeats):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            grid = folder / "grid.txt"
            grid.write_text("...\n.#.\n...\n")
            words = folder / "words.txt"
            words.write_text("CAT;60\nACT;40\nTAC;10\nCAB;90;a clue\nTAB\nBAT\nABC\n")
            argv = [command] if command == "generate" else [command, str(grid)]
            argv += ["--dict", str(words), "--min-score", min_score]
            if alphabet:
                argv += ["--alphabet", alphabet]
            if command in ("fill", "prove", "generate", "info", "plan", "count", "encode"):
                argv += ["--time-limit", time_limit]
            if command in ("fill", "prove", "plan", "generate"):
                argv += ["--seed", seed]
            if command != "generate":
                argv += ["--min-length", min_length]
            else:
                argv += ["--size", "3x3", "--min-length", min_length]
            if command in ("fill", "prove"):
                argv += ["--backend", backend]
            if repeats and command in ("fill", "prove", "count", "info", "generate"):
                argv += ["--allow-repeats"]
            check_run(argv, [grid, words], "options")

    run()
    record("options")


def test_fuzz_certificate_folders() -> None:
    """check-proof on folders whose files are random bytes or shuffled real ones."""
    with tempfile.TemporaryDirectory() as tmp:
        real = Path(tmp) / "real"
        (Path(tmp) / "g.txt").write_text("...\n...\n")
        (Path(tmp) / "w.txt").write_text("AAB\nABA\nBAA\nAB\nBA\n")
        assert CliRunner().invoke(app, ["prove", str(Path(tmp) / "g.txt"), "--dict",
                                        str(Path(tmp) / "w.txt"), "--certificate",
                                        str(real)]).exit_code == 1
        names = sorted(p.name for p in real.iterdir())

        @fuzz(150)
        @given(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(
            ["random", "swap", "delete", "cut", "json"]), st.binary(max_size=40)), max_size=4))
        def run(edits):
            folder = Path(tempfile.mkdtemp(dir=tmp))
            shutil.rmtree(folder)
            shutil.copytree(real, folder)
            for name, action, data in edits:
                path = folder / name
                if action == "random":
                    path.write_bytes(data)
                elif action == "swap":
                    path.write_bytes((real / names[len(data) % len(names)]).read_bytes())
                elif action == "delete":
                    path.unlink(missing_ok=True)
                elif action == "cut" and path.exists():
                    path.write_bytes(path.read_bytes()[: len(data)])
                else:
                    path.write_text(json.dumps({"result": "unfillable", "files": len(data),
                                                "rules": data.decode("latin-1")}))
            files = [p for p in folder.iterdir() if p.is_file()]
            code = check_run(["check-proof", str(folder), "-t", "20"], files, "certificates")
            if sorted(p.name for p in files) != names or any(
                    digest(p) != digest(real / p.name) for p in files):
                SEEN["certificates: tampered"] += 1
                SEEN[f"certificates: tampered, exit {code}"] += 1
                assert code != 1, f"a tampered certificate verified: {edits}"
            shutil.rmtree(folder)

        run()
    record("certificates")


def test_fuzz_through_the_real_executable() -> None:
    """A sample through ``xwsat`` itself: usage errors, the exit path, stderr as a user sees
    it."""
    @fuzz(40)
    @given(grid_bytes(), st.sampled_from(["fill", "prove", "info", "--nope", "fill --json"]),
           st.sampled_from(["", "-t abc", "--min-length x", "--backend", "-t 1"]))
    def run(data, command, extra):
        with tempfile.TemporaryDirectory() as tmp:
            grid = Path(tmp) / "g.txt"
            grid.write_bytes(data)
            words = Path(tmp) / "w.txt"
            words.write_text(WORDS)
            before = digest(grid), digest(words)
            argv = [XWSAT, *command.split(), str(grid), "--dict", str(words), *extra.split()]
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                                  errors="replace")
            SEEN["executable: tried"] += 1
            SEEN[f"executable: exit {proc.returncode}"] += 1
            assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
            assert proc.returncode in (0, 1, 2, 3), (argv, proc.stderr)
            if proc.returncode == 2:
                assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
            assert (digest(grid), digest(words)) == before
            SEEN["executable: handled cleanly"] += 1

    run()
    record("executable")
