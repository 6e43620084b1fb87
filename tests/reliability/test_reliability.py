"""Hostile-user classes: no input is ever lost, words come only from word lines,
outputs xwsat writes read back. Each test runs the real CLI and checks files byte for byte."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import tallies
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.formats import read_puzzle
from xwsat.words import load_words

GRID = "...\n...\n"
WORDS = "AAB;50;first\nABA;50;second\nBAA\nAB\nBA\nAA\nBB\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "g.txt").write_text(GRID)
    (tmp_path / "w.txt").write_text(WORDS)
    return {"grid": tmp_path / "g.txt", "dict": tmp_path / "w.txt", "dir": tmp_path}


def run(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


# Each command that writes a file, with the places its output could name one of its inputs.
WRITERS = [
    ("fill", ["fill", "{grid}", "--dict", "{dict}", "--allow-repeats", "--out"], ["grid", "dict"]),
    ("prove", ["prove", "{grid}", "--dict", "{dict}", "--allow-repeats", "--out"],
     ["grid", "dict"]),
    ("explain-svg", ["prove", "{grid}", "--dict", "{dict}", "--explain-svg"], ["grid", "dict"]),
    ("encode", ["encode", "{grid}", "--dict", "{dict}", "--out"], ["grid", "dict"]),
    ("plan-svg", ["plan", "{grid}", "--dict", "{dict}", "--svg"], ["grid", "dict"]),
    ("generate", ["generate", "--size", "3x3", "--min-length", "2", "--dict", "{dict}",
                  "--out"], ["dict"]),
    ("dict-export", ["dict", "export", "{dict}", "--out"], ["dict"]),
    ("convert", ["convert", "{grid}"], ["grid"]),
    ("freeform", ["freeform", "{dict}", "--method", "greedy", "--out"], ["dict"]),
]


@pytest.mark.parametrize("name,argv,inputs", WRITERS, ids=[w[0] for w in WRITERS])
def test_no_command_writes_over_its_input(files, name, argv, inputs) -> None:
    before = {k: files[k].read_bytes() for k in ("grid", "dict")}
    for target in inputs:
        args = [a.format(**{k: str(v) for k, v in files.items()}) for a in argv]
        for force in ([], ["--force"]):
            result = run(*args, files[target], *force)
            assert result.exit_code == 2, (name, target, result.output)
            assert "input" in result.stderr and "Traceback" not in result.output
            assert len(result.stderr.strip().splitlines()) == 1
    assert {k: files[k].read_bytes() for k in ("grid", "dict")} == before


@pytest.mark.parametrize("name,argv,inputs", WRITERS, ids=[w[0] for w in WRITERS])
def test_a_gz_output_name_is_refused_since_nothing_is_written_compressed(files, name, argv,
                                                                         inputs) -> None:
    target = files["dir"] / "out.txt.gz"
    args = [a.format(**{k: str(v) for k, v in files.items()}) for a in argv]
    result = run(*args, target)
    assert result.exit_code == 2, result.output  # prove says it writes .txt only
    assert "writes no compressed files" in result.stderr or name == "prove", result.output
    assert not target.exists()


@pytest.mark.parametrize("name,argv,inputs", WRITERS, ids=[w[0] for w in WRITERS])
def test_an_existing_file_is_replaced_only_with_force(files, name, argv, inputs) -> None:
    suffix = {"convert": ".ipuz", "encode": ".cnf", "plan-svg": ".svg",
              "explain-svg": ".svg"}.get(name, ".txt")
    target = files["dir"] / f"mine{suffix}"
    target.write_text("a file of the user's\n")
    args = [a.format(**{k: str(v) for k, v in files.items()}) for a in argv]
    result = run(*args, target)
    assert result.exit_code == 2 and "--force" in result.stderr, result.output
    assert target.read_text() == "a file of the user's\n"


def test_force_replaces_an_earlier_output(files) -> None:
    out = files["dir"] / "out.txt"
    argv = ["fill", files["grid"], "--dict", files["dict"], "--allow-repeats", "--out", out]
    assert run(*argv).exit_code == 0
    first = out.read_text()
    assert run(*argv).exit_code == 2 and out.read_text() == first  # refused: left as it was
    out.write_text("an earlier file\n")
    # auto's two racers may each find a fill first, so the fill itself can differ between runs
    assert run(*argv, "--force").exit_code == 0
    rows = out.read_text().split()
    assert len(rows) == 2 and all(row in ("AAB", "ABA", "BAA") for row in rows)
    assert all(a + b in ("AB", "BA", "AA", "BB") for a, b in zip(*rows))


def test_an_output_through_a_link_to_an_input_is_refused(files) -> None:
    link = files["dir"] / "link.txt"
    link.symlink_to(files["grid"])
    result = run("fill", files["grid"], "--dict", files["dict"], "--out", link, "--force")
    assert result.exit_code == 2 and files["grid"].read_text() == GRID


@pytest.mark.parametrize("name,argv,inputs", WRITERS, ids=[w[0] for w in WRITERS])
def test_a_link_pipe_or_device_as_output_is_refused_even_with_force(files, name, argv,
                                                                   inputs) -> None:
    # replacing one would turn a device, a pipe or a link into a plain file (--force once
    # turned /dev/null into a file)
    args = [a.format(**{k: str(v) for k, v in files.items()}) for a in argv]
    target = files["dir"] / "mine.txt"
    target.write_text("a file of the user's\n")
    link = files["dir"] / "link.txt"
    link.symlink_to(target)
    dangling = files["dir"] / "dangling.txt"
    dangling.symlink_to(files["dir"] / "nowhere.txt")
    pipe = files["dir"] / "pipe.txt"
    os.mkfifo(pipe)
    for path in (link, dangling, pipe):
        result = run(*args, path, "--force")
        assert result.exit_code == 2 and "not a plain file" in result.stderr, (name, result.output)
        assert len(result.stderr.strip().splitlines()) == 1
    assert link.is_symlink() and dangling.is_symlink() and pipe.is_fifo()
    assert target.read_text() == "a file of the user's\n"


def test_a_replaced_file_keeps_its_permissions(files) -> None:
    out = files["dir"] / "private.txt"
    out.write_text("an earlier file\n")
    out.chmod(0o600)
    argv = ["fill", files["grid"], "--dict", files["dict"], "--allow-repeats", "--out", out]
    assert run(*argv, "--force").exit_code == 0
    assert out.read_text() != "an earlier file\n" and (out.stat().st_mode & 0o777) == 0o600


def test_a_folder_as_output_is_refused_before_any_work(files) -> None:
    result = run("fill", files["grid"], "--dict", files["dict"], "--out", files["dir"])
    assert result.exit_code == 2 and "is a directory" in result.stderr
    assert "FILLED" not in result.stdout


@pytest.mark.parametrize("separator", ["\x1c", "\x1d", "\x1e", "\x0b", "\x0c", "\u2028",
                                       "\u2029", "\x85"])
def test_clue_text_never_makes_a_word(tmp_path, separator) -> None:
    path = tmp_path / "w.txt"
    path.write_text(f"ACE;50;one{separator}TWO\nBEE;40;plain\n", encoding="utf-8")
    words = load_words(str(path))
    assert words.words == ("ACE", "BEE")
    assert separator not in words.clues[0] and "TWO" in words.clues[0]


def test_crlf_and_lf_dictionaries_read_alike(tmp_path) -> None:
    (tmp_path / "a.txt").write_bytes(b"ACE;50;one\r\nBEE\r\n")
    (tmp_path / "b.txt").write_bytes(b"ACE;50;one\nBEE\n")
    a, b = load_words(str(tmp_path / "a.txt")), load_words(str(tmp_path / "b.txt"))
    assert a.words == b.words and a.clues == b.clues


def test_a_nul_in_a_clue_past_the_sniffed_prefix_still_gives_a_readable_puz(tmp_path) -> None:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXY"
    filler = "".join("Z" + "".join(letters[(i // 25 ** k) % 25] for k in range(4)) + ";10\n"
                     for i in range(15000))
    text = filler + "AB;90;first\x00word\nCD;90;sec\nAC;90;x\nBD;90;y\n"
    assert text.index("\x00") > 65536
    (tmp_path / "w.txt").write_text(text)
    (tmp_path / "g.txt").write_text("..\n..\n")
    out = tmp_path / "p.puz"
    result = run("fill", tmp_path / "g.txt", "--dict", tmp_path / "w.txt", "--out", out)
    assert result.exit_code == 0, result.output
    back = read_puzzle(out)
    assert back.solution is not None and "\x00" not in "".join(back.clues.values())
    assert back.clues.get("1A") == "first word"


# --- bad ground and bad input: exit 2 in one line, never 4, never a traceback ------------------

def one_line_error(result) -> str:
    tallies.add("bad input", {"tried": 1, f"exit {result.exit_code}": 1})
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("xwsat: error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


# Every command that writes, each with a file name to write (in {dir}).
OUTPUTS = [
    ["fill", "{grid}", "--dict", "{dict}", "--allow-repeats", "--out", "{dir}/out.txt"],
    ["prove", "{grid}", "--dict", "{dict}", "--allow-repeats", "--out", "{dir}/out.txt"],
    ["prove", "{grid}", "--dict", "{dict}", "--certificate", "{dir}/cert"],
    ["prove", "{grid}", "--dict", "{dict}", "--explain-svg", "{dir}/x.svg"],
    ["encode", "{grid}", "--dict", "{dict}", "--out", "{dir}/x.cnf"],
    ["plan", "{grid}", "--dict", "{dict}", "--svg", "{dir}/x.svg"],
    ["plan", "{grid}", "--dict", "{dict}", "--png", "{dir}/x.png"],
    ["generate", "--size", "3x3", "--min-length", "2", "--dict", "{dict}", "--out",
     "{dir}/g.txt"],
    ["freeform", "{dict}", "--method", "greedy", "--out", "{dir}/f.txt"],
    ["dict", "export", "{dict}", "--out", "{dir}/d.txt"],
    ["convert", "{grid}", "{dir}/c.ipuz"],
    ["grids", "generate", "--out-dir", "{dir}/grids", "--count", "1", "--size", "5"],
    ["bench", "{suite}", "-b", "native", "-t", "5", "--out", "{dir}/bench"],
]
OUTPUT_IDS = ["fill", "prove", "certificate", "explain-svg", "encode", "plan-svg", "plan-png",
              "generate", "freeform", "dict-export", "convert", "grids", "bench"]


@pytest.fixture
def suite(files) -> Path:
    folder = files["dir"] / "suite"
    folder.mkdir()
    (folder / "g.txt").write_text(GRID)
    (folder / "suite.json").write_text(json.dumps({
        "suite": "s", "source": "test", "licence": "CC0", "dictionaries": [str(files["dict"])],
        "grids": [{"file": "g.txt"}]}))
    return folder


def _args(argv: list[str], files: dict[str, Path], folder: Path, suite: Path) -> list[str]:
    return [a.format(grid=files["grid"], dict=files["dict"], dir=folder, suite=suite)
            for a in argv]


@pytest.mark.parametrize("argv", OUTPUTS, ids=OUTPUT_IDS)
def test_a_folder_without_write_permission_is_one_line(files, suite, argv,
                                                       monkeypatch) -> None:
    """As root the kernel would let the write through: the permission is taken away where
    xwsat asks for it (os.access) and where the OS answers (creating files and folders)."""
    folder = files["dir"] / "locked"
    folder.mkdir()
    real_access = os.access

    def no_write(path, mode, *args, **kwargs):
        if Path(path).resolve() == folder.resolve() and mode & os.W_OK:
            return False
        return real_access(path, mode, *args, **kwargs)

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    real_mkdir = Path.mkdir

    def mkdir(self, *args, **kwargs):
        if self.resolve().parent == folder.resolve():
            denied()
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(os, "access", no_write)
    monkeypatch.setattr(Path, "mkdir", mkdir)
    monkeypatch.setattr(tempfile, "mkstemp", denied)
    message = one_line_error(run(*_args(argv, files, folder, suite)))
    assert "ermission denied" in message
    assert list(folder.iterdir()) == []


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root to run the check as another user")
def test_a_read_only_folder_is_one_line_for_another_user(files, suite, tmp_path) -> None:
    """The real thing: the writers run as 'nobody' against a folder only root may write."""
    import pwd
    import subprocess
    import sys

    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user 'nobody'")
    folder = files["dir"] / "locked"
    folder.mkdir(mode=0o755)
    for path in (tmp_path, *tmp_path.parents):
        if path == Path("/"):
            break
        path.chmod(path.stat().st_mode | 0o005)  # others may enter and read the inputs
    for path in tmp_path.rglob("*"):
        path.chmod(path.stat().st_mode | 0o005)
    as_nobody = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}",
                 "--clear-groups", sys.executable]
    env = {**os.environ, "HOME": str(tmp_path)}
    probe = subprocess.run([*as_nobody, "-c", "import typer.testing, xwsat.cli"],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    if probe.returncode != 0:  # e.g. CI's virtual environment sits in a folder only root may read
        pytest.skip(f"'nobody' cannot run this Python: {probe.stderr.strip()[-200:]}")
    commands = [_args(argv, files, folder, suite) for argv in OUTPUTS]
    script = ("import json, sys\nfrom typer.testing import CliRunner\nfrom xwsat.cli import app\n"
              "out = []\nfor argv in json.loads(sys.argv[1]):\n"
              "    r = CliRunner().invoke(app, argv)\n"
              "    out.append([r.exit_code, r.stderr])\nprint(json.dumps(out))\n")
    proc = subprocess.run([*as_nobody, "-c", script, json.dumps(commands)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout)
    for name, (code, stderr) in zip(OUTPUT_IDS, results):
        lines = stderr.strip().splitlines()
        assert code == 2 and len(lines) == 1 and "ermission denied" in lines[0], (name, stderr)
    assert list(folder.iterdir()) == []


def test_a_full_disk_during_a_certificate_is_one_line_and_leaves_nothing(files,
                                                                        monkeypatch) -> None:
    from xwsat.evidence import certificate

    def full(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(certificate.Path, "write_bytes", full)
    folder = files["dir"] / "cert"
    message = one_line_error(run("prove", files["grid"], "--dict", files["dict"],
                                 "--certificate", folder))
    assert "No space left" in message and not folder.exists()


def test_a_full_disk_before_a_sweeps_first_row_leaves_no_folder(files, suite,
                                                              monkeypatch) -> None:
    from xwsat.commands import bench

    def full(path, *args, **kwargs):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(bench, "write_atomic", full)
    folder = files["dir"] / "new" / "bench"
    message = one_line_error(run("bench", suite, "-b", "native", "-t", "5", "--out", folder))
    assert "No space left" in message and not (files["dir"] / "new").exists()


def test_a_proof_that_cannot_be_written_is_one_line(files, monkeypatch) -> None:
    """The proof is written by a child: its OSError reaches the command as bad ground too."""
    from xwsat.evidence.producers import SearchProducer

    def full(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(SearchProducer, "prove", full)
    folder = files["dir"] / "cert"
    message = one_line_error(run("prove", files["grid"], "--dict", files["dict"],
                                 "--certificate", folder, "--proof-method", "search"))
    assert "No space left" in message and not folder.exists()


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"pattern": ' * 50_000 + "1" + "}" * 50_000,
    json.dumps({"pattern": 5}),
    json.dumps({"pattern": [1, 2]}),
    json.dumps({"pattern": ["..", None]}),
    json.dumps({"pattern": ["..", ".."], "solution": [1, 2]}),
    json.dumps({"pattern": ["..", ".."], "solution": "AB"}),
    json.dumps({"pattern": ["..", ".."], "entries": 7}),
    json.dumps({"pattern": ["..", ".."], "entries": {"a": 1}}),
    json.dumps([["."]]),
    json.dumps("text"),
    json.dumps(None),
])
def test_json_puzzles_of_the_wrong_shape_are_one_line(files, text) -> None:
    path = files["dir"] / "p.json"
    path.write_text(text)
    for argv in (["fill", path, "--dict", files["dict"]], ["convert", path,
                                                          files["dir"] / "o.txt"]):
        one_line_error(run(*argv))


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    json.dumps({"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/crossword#1"],
                "dimensions": {"width": 2, "height": 2}, "puzzle": [3, 4]}),
    json.dumps({"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/crossword#1"],
                "dimensions": {"width": 2, "height": 2}, "puzzle": [[0, 0], [0, 0]],
                "clues": ["x"]}),
    json.dumps({"version": "http://ipuz.org/v2", "kind": 5}),
])
def test_ipuz_puzzles_of_the_wrong_shape_are_one_line(files, text) -> None:
    path = files["dir"] / "p.ipuz"
    path.write_text(text)
    one_line_error(run("fill", path, "--dict", files["dict"]))


def test_a_truncated_puz_is_one_line(files) -> None:
    from xwsat.formats import render_puzzle
    from xwsat.formats.puzzle import Puzzle
    from xwsat.grid import parse_grid

    whole = render_puzzle(Puzzle(parse_grid("..\n.."), parse_grid("AB\nBA")), "p.puz")
    assert isinstance(whole, bytes)
    path = files["dir"] / "p.puz"
    for data in (b"ACROSS&DOWN\n", whole[:60], whole[: len(whole) // 2]):
        path.write_bytes(data)
        one_line_error(run("fill", path, "--dict", files["dict"]))
    for cut in range(1, len(whole), 5):  # wherever it is cut: a grid, or one line saying not
        path.write_bytes(whole[:cut])
        result = run("fill", path, "--dict", files["dict"])
        if result.exit_code == 2:
            one_line_error(result)
        else:
            assert result.exit_code in (0, 1), (cut, result.output)


def _damaged_gzip(path: Path) -> Path:
    data = gzip.compress(("AB\nBA\nAA\nBB\nAAB\nABA\nBAA\n" * 2000).encode())
    path.write_bytes(data[: len(data) // 2])
    return path


# Every command that takes --dict (or a dictionary argument).
DICT_TAKERS = {
    "fill": ["fill", "{grid}", "--dict", "{gz}"],
    "prove": ["prove", "{grid}", "--dict", "{gz}"],
    "info": ["info", "{grid}", "--dict", "{gz}"],
    "plan": ["plan", "{grid}", "--dict", "{gz}"],
    "encode": ["encode", "{grid}", "--dict", "{gz}"],
    "count": ["count", "{grid}", "--dict", "{gz}"],
    "generate": ["generate", "--size", "3x3", "--dict", "{gz}"],
    "convert": ["convert", "{grid}", "{dir}/c.ipuz", "--dict", "{gz}"],
    "dict-info": ["dict", "info", "{gz}"],
    "dict-export": ["dict", "export", "{gz}", "--out", "{dir}/d.txt"],
    "freeform": ["freeform", "{gz}"],
    "check-proof": ["check-proof", "{cert}", "--dict", "{gz}"],
    "bench": ["bench", "{suite}", "--dict", "{gz}", "-b", "native", "--out", "{dir}/bench"],
}


@pytest.mark.parametrize("name", list(DICT_TAKERS))
def test_a_damaged_gzip_dictionary_is_one_line_for_every_command(files, suite, name) -> None:
    gz = _damaged_gzip(files["dir"] / "words.txt.gz")
    cert = files["dir"] / "cert"
    if name == "check-proof":
        (files["dir"] / "u.txt").write_text("...\n...\n")
        (files["dir"] / "uw.txt").write_text("AAB\nABA\nBAA\nAB\nBA\n")
        assert run("prove", files["dir"] / "u.txt", "--dict", files["dir"] / "uw.txt",
                   "--certificate", cert).exit_code == 1
    args = [a.format(grid=files["grid"], gz=gz, dir=files["dir"], cert=cert, suite=suite)
            for a in DICT_TAKERS[name]]
    assert "damaged gzip" in one_line_error(run(*args))
    if name == "bench":
        assert not (files["dir"] / "bench").exists()  # refused before anything ran


def test_bench_report_reads_past_non_utf8_and_broken_rows(files, suite) -> None:
    out = files["dir"] / "bench"
    assert run("bench", suite, "-b", "native", "-t", "10", "--out", out,
               "--no-report").exit_code == 0
    with (out / "rows.jsonl").open("ab") as rows:
        rows.write(b"\xff\xfe\x80 not text\n{\"key\": \xc3\n" + b"[" * 100_000 + b"\n"
                   + b'{"key": [1], "status": "filled"}\n{"key": "k", "status": 5}\n')
    result = run("bench", "report", out)
    assert result.exit_code == 0, result.output
    assert (out / "report.md").is_file()
    (files["dir"] / "junk").mkdir()
    (files["dir"] / "junk" / "rows.jsonl").write_text("garbage\n\nmore garbage\n")
    junk = run("bench", "report", files["dir"] / "junk")
    assert junk.exit_code == 2 and "none of its 2 lines is a result row" in junk.stderr


def test_a_usage_error_points_to_the_subcommand_help(capsys) -> None:
    from xwsat.cli import run as run_command_line

    assert run_command_line(["dict", "export", "en"]) == 2
    assert "(see 'xwsat dict export --help')" in capsys.readouterr().err


def test_an_option_of_one_value_given_twice_is_refused(capsys, tmp_path) -> None:
    # fill --out a.puz --out a.svg wrote a.svg alone, in silence
    from xwsat.cli import run as run_command_line

    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n")
    first, second = tmp_path / "a.puz", tmp_path / "a.svg"
    assert run_command_line(["fill", str(grid), "--out", str(first), f"--out={second}"]) == 2
    assert "--out is given 2 times" in capsys.readouterr().err
    assert not first.exists() and not second.exists()
    assert run_command_line(["bench", "run", "small", "-t", "1", "--time-limit", "2"]) == 2
    assert "--time-limit is given 2 times" in capsys.readouterr().err


def test_a_non_ascii_grid_path_makes_a_certificate(tmp_path) -> None:
    folder = tmp_path / "grïd ✓ ñ" / "дир\nline"
    folder.mkdir(parents=True)
    grid = folder / "грид \"x\" --.txt"
    grid.write_text("...\n...\n")
    words = tmp_path / "w.txt"
    words.write_text("AAB\nABA\nBAA\nAB\nBA\n")
    cert = folder / "сертификат"
    result = run("prove", grid, "--dict", words, "--certificate", cert)
    assert result.exit_code == 1, result.output
    assert run("check-proof", cert, "--grid", grid, "--dict", words).exit_code == 1
    for fmt in ("dimacs", "xcsp3", "xcsp3-cells", "cpsat"):
        assert run("encode", grid, "--dict", words, "-f", fmt).exit_code == 0, fmt


def test_convert_with_a_missing_dictionary_is_one_line(files) -> None:
    for missing in ("MISSING", str(files["dir"] / "missing.txt")):
        one_line_error(run("convert", files["grid"], files["dir"] / "c.ipuz", "--dict", missing))
    assert not (files["dir"] / "c.ipuz").exists()


FILE_WRITERS = [i for i in OUTPUT_IDS if i not in ("certificate", "grids", "bench")]


@pytest.mark.parametrize("argv", [a for a, i in zip(OUTPUTS, OUTPUT_IDS) if i in FILE_WRITERS],
                         ids=FILE_WRITERS)
def test_an_output_that_is_a_folder_is_refused(files, suite, argv) -> None:
    folder = files["dir"] / "taken"
    folder.mkdir()
    argv = [folder.as_posix() if a.startswith("{dir}/") else a for a in argv]
    message = one_line_error(run(*_args(argv, files, folder, suite)))
    assert "folder" in message or "directory" in message, message


def test_a_certificate_folder_that_is_a_file_is_refused(files) -> None:
    target = files["dir"] / "afile"
    target.write_text("mine\n")
    one_line_error(run("prove", files["grid"], "--dict", files["dict"], "--certificate",
                       target))
    assert target.read_text() == "mine\n"


def test_freeform_on_300_words_without_a_size(tmp_path) -> None:
    import random

    rng = random.Random(3)
    letters = "ABCDEFGHIKLMNOPRSTU"
    words = {"".join(rng.choice(letters) for _ in range(rng.randint(4, 10)))
             for _ in range(400)}
    path = tmp_path / "w.txt"
    path.write_text("".join(f"{w};50;clue {i}\n" for i, w in enumerate(sorted(words)[:300])))
    result = run("freeform", path, "--method", "greedy", "--boards", "3", "-t", "20")
    assert result.exit_code == 0, result.output
    head = result.stdout.splitlines()[0]
    assert head.startswith("PLACED ") and " of 300 words" in head and "verified" in head
    notes = [line for line in result.stdout.splitlines() if line.startswith("note: ")]
    assert all("would need" in n or "CP-SAT" in n for n in notes), notes
    side = int(head.split("(")[1].split("x")[0])
    assert side <= 40  # the largest board freeform lays out


def test_a_grid_too_large_is_refused_at_once(tmp_path) -> None:
    import time

    from xwsat.grid import MAX_SIDE

    path = tmp_path / "g.txt"
    path.write_text("\n".join(["....#" * 40] * 200) + "\n")
    start = time.monotonic()
    message = one_line_error(run("fill", path, "-t", "60"))
    assert "200x200" in message and time.monotonic() - start < 5
    path.write_text("\n".join(["." * MAX_SIDE] * MAX_SIDE) + "\n")
    assert run("info", path, "--dict", tmp_path / "none.txt").exit_code == 2  # the dictionary
    big = tmp_path / "g.ipuz"
    big.write_text(json.dumps({"version": "http://ipuz.org/v2",
                               "kind": ["http://ipuz.org/crossword#1"],
                               "dimensions": {"width": 60, "height": 60},
                               "puzzle": [[0] * 60] * 60}))
    assert "60x60" in one_line_error(run("fill", big))


def test_messages_with_line_breaks_become_one_line(files) -> None:
    path = files["dir"] / "g.txt"
    path.write_text("..\n.\x01\n")
    one_line_error(run("fill", path, "--dict", files["dict"]))


@pytest.mark.parametrize("where", ["folder", "inside"])
@pytest.mark.parametrize("option", ["--out", "--explain-svg"])
def test_an_output_in_the_certificate_folder_is_refused_before_any_work(files, where,
                                                                        option) -> None:
    # it was written after the certificate, or over its manifest
    folder = files["dir"] / "cert"
    if where == "inside":
        folder.mkdir()
    name = "fill.txt" if option == "--out" else "explanation.svg"  # the certificate's own
    target = folder if where == "folder" else folder / name
    result = run("prove", files["grid"], "--dict", files["dict"], "--certificate", folder,
                 option, target)
    assert result.exit_code == 2 and "certificate folder" in result.stderr, result.output
    assert not folder.exists() or not any(folder.iterdir())


def test_prove_writes_text_only_and_says_so(files) -> None:
    out = files["dir"] / "fill.puz"
    result = run("prove", files["grid"], "--dict", files["dict"], "--allow-repeats", "-o", out)
    assert result.exit_code == 2 and "xwsat fill --out" in result.stderr and not out.exists()


def test_a_grid_from_a_pipe_is_read_once(files) -> None:
    # the second read of a pipe found it empty: "the grid is empty"
    pipe = files["dir"] / "grid.pipe"
    os.mkfifo(pipe)
    import threading

    def feed() -> None:
        with pipe.open("w") as handle:
            handle.write(GRID)

    writer = threading.Thread(target=feed)
    writer.start()
    result = run("fill", pipe, "--dict", files["dict"], "--allow-repeats")
    writer.join()
    assert result.exit_code == 0, result.output


def test_proof_options_without_a_certificate_are_refused(files) -> None:
    result = run("prove", files["grid"], "--dict", files["dict"], "--proof-checker", "dratify")
    assert result.exit_code == 2 and "--certificate" in result.stderr


def test_encode_dash_is_standard_output(files, monkeypatch) -> None:
    monkeypatch.chdir(files["dir"])  # a file named "-" was written here
    result = run("encode", files["grid"], "--dict", files["dict"], "-o", "-")
    assert result.exit_code == 0 and result.stdout.startswith("c xwsat")
    assert not (files["dir"] / "-").exists()


# The command module that checks each writer's outputs before its run (where the file appears).
CHECKED_IN = {"fill": "fill", "prove": "prove", "explain-svg": "prove", "encode": "evidence",
              "plan-svg": "inspect", "plan-png": "inspect", "generate": "generate",
              "freeform": "freeform", "dict-export": "dictionary", "convert": "convert",
              "grids": "grids"}


@pytest.mark.parametrize("argv", [a for a, i in zip(OUTPUTS, OUTPUT_IDS) if i in CHECKED_IN],
                         ids=list(CHECKED_IN))
def test_a_file_that_appears_during_the_run_is_never_replaced(files, suite, argv,
                                                              monkeypatch) -> None:
    """Another program creates the output after xwsat checked the name was free: the write at
    the end must not replace it (once, the whole run was a window: a fill over the file)."""
    import importlib

    name = OUTPUT_IDS[OUTPUTS.index(argv)]
    if name == "explain-svg":  # an explanation is drawn for an unfillable grid only
        files["dict"].write_text("AAB\nABA\nBAA\nAB\nBA\n")
    if name == "generate":  # 3x3 has no grid of these words: 2x3 has
        argv = [a.replace("3x3", "2x3") for a in argv]
    module = importlib.import_module(f"xwsat.commands.{CHECKED_IN[name]}")
    real = module.check_outputs
    planted: list[Path] = []

    def then_someone_writes(outputs, inputs, force=False):
        real(outputs, inputs, force)
        for path in outputs:
            if path is not None and not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("a file of the user's\n")
                planted.append(path)

    monkeypatch.setattr(module, "check_outputs", then_someone_writes)
    folder = files["dir"] / "out"
    (folder / "grids").mkdir(parents=True)  # grids generate checks names in a folder it has
    result = run(*_args(argv, files, folder, suite))
    assert result.exit_code == 2, result.output
    message = result.stderr.strip().splitlines()[-1]  # after freeform's progress lines
    assert message.startswith("xwsat: error: ") and "exists; add --force" in message, message
    assert planted and all(p.read_text() == "a file of the user's\n" for p in planted)
    assert not list(folder.glob("**/.xwsat-*"))  # no temporary file left
    if name in ANSWERS:  # what the search found is printed all the same, and said unwritten
        assert ANSWERS[name] in result.stdout, result.stdout
        assert "the answer above is not written to it" in message
        assert "wrote " not in result.stdout and "no clue in" not in result.stderr


# What each command that writes its answer prints of it, on standard output.
ANSWERS = {"fill": "FILLED", "prove": "FILLABLE", "generate": "Across", "freeform": "Across"}


def test_a_file_that_appears_in_a_certificate_folder_is_never_replaced(files,
                                                                       monkeypatch) -> None:
    from xwsat.evidence import certificate

    folder = files["dir"] / "cert"
    real = certificate.sha256_file

    def then_someone_writes(path):
        if not (folder / certificate.GRID_FILE).exists():
            (folder / certificate.GRID_FILE).write_text("a file of the user's\n")
        return real(path)

    monkeypatch.setattr(certificate, "sha256_file", then_someone_writes)
    files["dict"].write_text("AAB\nABA\nBAA\nAB\nBA\n")  # unfillable: a proof is written
    message = one_line_error(run("prove", files["grid"], "--dict", files["dict"],
                                 "--certificate", folder))
    assert "appeared" in message and "replaced" in message, message
    assert [p.name for p in folder.iterdir()] == [certificate.GRID_FILE]
    assert (folder / certificate.GRID_FILE).read_text() == "a file of the user's\n"


def test_a_legal_254_byte_output_name_is_written(files) -> None:
    out = files["dir"] / ("o" * 250 + ".txt")
    result = run("fill", files["grid"], "--dict", files["dict"], "--allow-repeats", "--out", out)
    assert result.exit_code == 0, result.output
    assert len(out.read_text().split()) == 2


@pytest.mark.parametrize("option", ["--out", "--dict", "grid"])
def test_a_path_too_long_is_one_line(files, option) -> None:
    long = files["dir"] / ("x" * 300 + ".txt")
    argv = ["fill", files["grid"], "--dict", files["dict"], "--allow-repeats"]
    if option == "grid":
        argv[1] = long
    elif option == "--dict":
        argv[3] = long
    else:
        argv += ["--out", long]
    assert "too long" in one_line_error(run(*argv)).lower()


@pytest.mark.parametrize("ext", [".ipuz", ".json", ".puz"])
def test_a_puzzle_too_large_is_refused_from_its_header(tmp_path, ext, monkeypatch) -> None:
    """3000x3000 .ipuz once cost seconds and 200 MB to refuse: its whole text was parsed and
    validated first. The declared size is read before anything is built."""
    import importlib.util

    import ipuz
    import puz

    from xwsat.formats import jsonfile

    def never(*args, **kwargs):
        raise AssertionError("the whole puzzle was parsed before its size was checked")

    spec = importlib.util.spec_from_file_location(
        "attacks", Path(__file__).resolve().parents[2] / "scripts" / "attacks.py")
    attacks = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(__import__("sys").modules, "attacks", attacks)  # for its dataclasses
    spec.loader.exec_module(attacks)
    side = 60 if ext == ".puz" else 3000  # a .puz header holds sides up to 255
    path = attacks.oversized(tmp_path / f"big{ext}", side)
    monkeypatch.setattr(*{".ipuz": (ipuz, "read"), ".json": (jsonfile, "parse_grid"),
                          ".puz": (puz, "load")}[ext], never)
    assert f"{side}x{side}" in one_line_error(run("info", path, "--dict", "en"))


def test_a_json_row_holding_a_line_break_is_not_two_rows(tmp_path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"pattern": ["...\n...", "..."]}))
    assert "line break" in one_line_error(run("info", path, "--dict", "en"))


@pytest.mark.parametrize("both", [False, True])
def test_a_reader_that_goes_away_is_exit_2_never_a_verdict(both: bool) -> None:
    """``xwsat fill ... | head -0``: the answer is lost, so the exit says so, also when the
    error message itself cannot be written (stderr into the same closed pipe, ``2>&1``)."""
    import subprocess
    import sys

    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    xwsat = shutil.which("xwsat", path=os.path.dirname(sys.executable)) or "xwsat"
    done = subprocess.run([xwsat, "info", "grids/american/step_two.txt"],
                          stdout=write, stderr=write if both else subprocess.DEVNULL,
                          timeout=120, check=False)
    os.close(write)
    assert done.returncode == 2
