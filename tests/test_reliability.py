"""Hostile-user classes: no input is ever lost, words come only from word lines,
outputs xwsat writes read back. Each test runs the real CLI and checks files byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest
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
    assert run(*argv).exit_code == 2
    assert run(*argv, "--force").exit_code == 0 and out.read_text() == first


def test_an_output_through_a_link_to_an_input_is_refused(files) -> None:
    link = files["dir"] / "link.txt"
    link.symlink_to(files["grid"])
    result = run("fill", files["grid"], "--dict", files["dict"], "--out", link, "--force")
    assert result.exit_code == 2 and files["grid"].read_text() == GRID


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
