"""The command line: exit codes, human and JSON output, --out, and one-line errors."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.grid import parse_grid

WORDS = "AB\nAC\nBD\nCD\nXY\n"  # 2x2 fills: AB/CD (down AC, BD) or AC/BD (down AB, CD)
FILLS = {("AB", "CD"), ("AC", "BD")}
# Arc consistent but unfillable: rows must be complements of each other (see test_contract).
UNFILLABLE_SEARCH = ("...\n...\n", "AAB\nABA\nBAA\nAB\nBA\n")
XWSAT = shutil.which("xwsat", path=os.path.dirname(sys.executable)) or "xwsat"


def invoke(*args: str | Path):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def tiny(write) -> tuple[Path, Path]:
    return write("grid.txt", "..\n..\n"), write("words.txt", WORDS)


def assert_one_line_error(result) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("xwsat: error: "), result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_fill_prints_grid_and_word_lists(tiny) -> None:
    grid, words = tiny
    result = invoke("fill", grid, "--dict", words, "--backend", "sat")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("FILLED by sat")
    rows = (lines[2].replace(" ", ""), lines[3].replace(" ", ""))
    assert rows in FILLS
    assert "Across:" in lines and "Down:" in lines
    across = lines[lines.index("Across:") + 1: lines.index("Down:")]
    assert [line.split()[0] for line in across] == ["1.", "3."]
    assert [line.split()[1] for line in across] == list(rows)


def test_fill_json_has_status_grid_words_and_times(tiny) -> None:
    grid, words = tiny
    result = invoke("fill", grid, "--dict", words, "--backend", "cpsat", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "filled" and data["verified"] is True
    assert tuple(data["grid"]) in FILLS
    assert {w["slot"] for w in data["words"]} == {"1A", "3A", "1D", "2D"}
    by_slot = {w["slot"]: w["word"] for w in data["words"]}
    assert (by_slot["1A"], by_slot["3A"]) == tuple(data["grid"])
    assert {"build_s", "propagate_s", "solve_s"} <= set(data["times"])
    assert all(v >= 0 for v in data["times"].values())


def test_deterministic_races_in_step_and_refuses_a_race_it_cannot_keep_so(tiny) -> None:
    grid, words = tiny
    result = invoke("fill", grid, "--dict", words, "--deterministic", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert tuple(data["grid"]) in FILLS and data["backend"] in ("mac:words", "mac:renew")
    refused = invoke("fill", grid, "--dict", words, "-b", "auto:race", "--deterministic")
    assert_one_line_error(refused)
    assert "--deterministic keeps a race of the compiled searches in step" in refused.stderr


def test_deterministic_gives_one_fill_whatever_the_time_limit() -> None:
    # the upper look was skipped under 4 s and cut at a quarter of the limit: -t 3 and -t 20
    # printed two fills for one seed, though the search took 0.05 s
    grid = Path(__file__).resolve().parents[2] / "grids" / "american" / "step_two.txt"
    fills = set()
    for limit in ("3", "20"):
        result = invoke("fill", grid, "--deterministic", "--seed", "1", "-t", limit, "--json")
        assert result.exit_code == 0, result.output
        fills.add(tuple(json.loads(result.stdout)["grid"]))
    assert len(fills) == 1


def test_fill_out_writes_the_grid_in_the_input_format(tiny, tmp_path) -> None:
    grid, words = tiny
    out = tmp_path / "filled.txt"
    result = invoke("fill", grid, "--dict", words, "--backend", "sat", "--out", out)
    assert result.exit_code == 0, result.output
    reparsed = parse_grid(out.read_text(encoding="utf-8"))
    assert reparsed.rows in FILLS
    assert result.output.rstrip().endswith(f"wrote {out}")  # named once it is whole
    again = invoke("fill", grid, "--dict", words, "--out", out, "--force", "--json")
    assert json.loads(again.output)["wrote"] == str(out)


def test_fill_out_keeps_blocks_and_given_letters(write, tmp_path) -> None:
    grid = write("g.txt", "C..\n#.#\n")
    words = write("w.txt", "CAT\nCOT\nAX\nOX\nTX\n")
    out = tmp_path / "filled.txt"
    result = invoke("fill", grid, "--dict", words, "--out", out)
    assert result.exit_code == 0, result.output
    rows = parse_grid(out.read_text(encoding="utf-8")).rows
    assert rows in {("CAT", "#X#"), ("COT", "#X#")}


def test_out_into_missing_directory_is_a_usage_error(tiny, tmp_path) -> None:
    grid, words = tiny
    result = invoke("fill", grid, "--dict", words, "--out", tmp_path / "nowhere" / "f.txt")
    assert_one_line_error(result)


@pytest.mark.parametrize("command", ["fill", "convert"])
def test_an_output_spelled_as_a_folder_is_refused(tiny, tmp_path, monkeypatch, command) -> None:
    grid, words = tiny
    spelled = f"{tmp_path / 'new'}/"  # the shell keeps the slash; pathlib drops it
    args = ([command, grid, "--dict", words, "--out", spelled] if command == "fill"
            else [command, grid, spelled])
    monkeypatch.setattr("sys.argv", ["xwsat", *map(str, args)])
    result = invoke(*args)
    assert_one_line_error(result)
    assert "names a folder" in result.output and not (tmp_path / "new").exists()


def test_prove_out_says_it_wrote_the_fill_as_fill_does(tiny, tmp_path) -> None:
    grid, words = tiny
    out = tmp_path / "w.txt"
    result = invoke("prove", grid, "--dict", words, "--out", out)
    assert result.exit_code == 0 and result.stdout.rstrip().endswith(f"wrote {out}"), result.output
    again = invoke("prove", grid, "--dict", words, "--out", tmp_path / "j.txt", "--json")
    assert json.loads(again.stdout)["wrote"] == str(tmp_path / "j.txt")


def test_prove_fillable_exits_0(tiny) -> None:
    grid, words = tiny
    result = invoke("prove", grid, "--dict", words, "--backend", "sat")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("FILLABLE")


def test_prove_unfillable_by_propagation_exits_1_with_evidence(write) -> None:
    grid = write("g.txt", "...\n#.#\n")
    words = write("w.txt", "ABC\nXY\n")
    result = invoke("prove", grid, "--dict", words)
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith("UNFILLABLE")
    assert "proof: arc consistency" in result.stdout
    assert "1A" in result.stdout or "2D" in result.stdout


def test_prove_unfillable_by_search_exits_1_naming_the_solver(write) -> None:
    grid = write("g.txt", UNFILLABLE_SEARCH[0])
    words = write("w.txt", UNFILLABLE_SEARCH[1])
    result = invoke("prove", grid, "--dict", words, "--backend", "sat", "--allow-repeats")
    assert result.exit_code == 1, result.output
    assert "UNFILLABLE by sat" in result.stdout
    assert "proof: sat:" in result.stdout


def test_prove_unfillable_json_has_evidence(write) -> None:
    grid = write("g.txt", UNFILLABLE_SEARCH[0])
    # BB too: three 2-letter words for the three downs, so counting words does not decide
    words = write("w.txt", UNFILLABLE_SEARCH[1] + "BB\n")
    result = invoke("prove", grid, "--dict", words, "--backend", "cpsat", "--json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "unfillable" and data["grid"] is None and data["words"] is None
    assert data["evidence"]["method"] == "cpsat"


def test_slot_longer_than_any_word_says_so(write) -> None:
    grid = write("g.txt", "." * 19 + "\n")
    words = write("w.txt", "CAT\nDOG\n")
    result = invoke("prove", grid, "--dict", words)
    assert result.exit_code == 1, result.output
    assert "no 19-letter word" in result.stdout


def test_undecided_exits_3(tiny, fake_backend) -> None:
    grid, words = tiny
    result = invoke("fill", grid, "--dict", words, "--backend", "fake:sleep", "--time-limit",
                    "0.5")
    assert result.exit_code == 3, result.output
    assert result.stdout.startswith("UNDECIDED")
    assert "time limit" in result.stdout


def test_error_exits_4(tiny, fake_backend) -> None:
    grid, words = tiny
    result = invoke("fill", grid, "--dict", words, "--backend", "fake:raise")
    assert result.exit_code == 4, result.output
    assert "kaput" in result.stdout


BAD_INPUTS = {
    "missing-file": ({}, ["fill", "{tmp}/missing.txt", "--dict", "{words}"]),
    "ragged-grid": ({"grid.txt": "...\n..\n"}, ["fill", "{tmp}/grid.txt", "--dict", "{words}"]),
    "unknown-character": ({"grid.txt": "..\n.*\n"},
                          ["fill", "{tmp}/grid.txt", "--dict", "{words}"]),
    "letter-outside-alphabet": ({"grid.txt": "Q.\n..\n"},
                                ["fill", "{tmp}/grid.txt", "--dict", "{words}"]),
    "empty-dictionary": ({"empty.txt": ""}, ["fill", "{grid}", "--dict", "{tmp}/empty.txt"]),
    "binary-dictionary": ({"bin.dat": b"AB\x00\xff\xfe\nCD\n"},
                          ["fill", "{grid}", "--dict", "{tmp}/bin.dat"]),
    "non-utf8-dictionary": ({"latin.txt": "caf\xe9\n".encode("latin-1")},
                            ["fill", "{grid}", "--dict", "{tmp}/latin.txt"]),
    "unknown-dictionary-name": ({}, ["fill", "{grid}", "--dict", "klingon"]),
    "dictionary-is-a-directory": ({}, ["fill", "{grid}", "--dict", "{tmp}"]),
    "binary-grid": ({"grid.png": b"\x89PNG\r\n\x1a\n\x00\x00"},
                    ["fill", "{tmp}/grid.png", "--dict", "{words}"]),
    "non-utf8-grid": ({"grid.txt": b"..\n.\xe9\n"},
                      ["fill", "{tmp}/grid.txt", "--dict", "{words}"]),
    "empty-grid": ({"grid.txt": "\n\n"}, ["fill", "{tmp}/grid.txt", "--dict", "{words}"]),
    "no-slots": ({"grid.txt": ".#\n#.\n"}, ["fill", "{tmp}/grid.txt", "--dict", "{words}"]),
    "all-blocks": ({"grid.txt": "##\n##\n"}, ["fill", "{tmp}/grid.txt", "--dict", "{words}"]),
    "negative-time-limit": ({}, ["fill", "{grid}", "--dict", "{words}", "--time-limit", "-1"]),
    "zero-time-limit": ({}, ["fill", "{grid}", "--dict", "{words}", "--time-limit", "0"]),
    "unknown-backend": ({}, ["fill", "{grid}", "--dict", "{words}", "--backend", "magic"]),
    "unknown-sat-solver": ({}, ["fill", "{grid}", "--dict", "{words}", "--backend", "sat:nope"]),
    "sat-extra-variant": ({}, ["fill", "{grid}", "--dict", "{words}", "--backend",
                               "sat:cadical195:x:plan"]),
    "sat-unknown-solver-plan": ({}, ["fill", "{grid}", "--dict", "{words}", "--backend",
                                     "sat:nope:plan"]),
    "unknown-cpsat-variant": ({}, ["fill", "{grid}", "--dict", "{words}", "--backend",
                                   "cpsat:nope"]),
    "negative-seed": ({}, ["fill", "{grid}", "--dict", "{words}", "--seed", "-3"]),
    "nan-time-limit": ({}, ["fill", "{grid}", "--dict", "{words}", "--time-limit", "nan"]),
    "min-score-200": ({}, ["fill", "{grid}", "--dict", "{words}", "--min-score", "200"]),
    "min-length-0": ({}, ["fill", "{grid}", "--dict", "{words}", "--min-length", "0"]),
    "tiny-memory-limit": ({}, ["fill", "{grid}", "--dict", "{words}", "--memory-limit", "10"]),
    "alphabet-repeats": ({}, ["fill", "{grid}", "--dict", "{words}", "--alphabet", "ABA"]),
    "alphabet-range": ({}, ["fill", "{grid}", "--dict", "{words}", "--alphabet", "A-Z"]),
    "alphabet-empty": ({}, ["fill", "{grid}", "--dict", "{words}", "--alphabet", ""]),
    "seed-past-32-bits": ({}, ["fill", "{grid}", "--dict", "{words}", "--seed", "2147483648"]),
    "seed-huge": ({}, ["fill", "{grid}", "--dict", "{words}", "--seed",
                       "99999999999999999999"]),
    "generate-seed-huge": ({}, ["generate", "--size", "3x3", "--dict", "{words}", "--seed",
                                "99999999999999999999"]),
    "grids-seed-range-huge": ({}, ["grids", "generate", "-o", "{tmp}/g", "--seed",
                                   "1-99999999999"]),
    "generate-pattern-only-puz": ({}, ["generate", "--size", "3x3", "--dict", "{words}",
                                       "--pattern-only", "-o", "{tmp}/p.puz"]),
    "grids-blocks-and-ratio": ({}, ["grids", "generate", "-o", "{tmp}/g", "--blocks", "30-36",
                                    "--ratio", "0.1"]),
    "grids-missing-dict": ({}, ["grids", "generate", "-o", "{tmp}/g", "--dict",
                                "{tmp}/nope.txt"]),
    "plan-png-named-jpg": ({}, ["plan", "{grid}", "--dict", "{words}", "--png", "{tmp}/p.jpg"]),
    "plan-probe-zero": ({}, ["plan", "{grid}", "--dict", "{words}", "--probe", "0"]),
    "plan-probe-past-limit": ({}, ["plan", "{grid}", "--dict", "{words}", "--probe", "9",
                                   "--time-limit", "5"]),
    "plan-probe-nan": ({}, ["plan", "{grid}", "--dict", "{words}", "--probe", "nan"]),
    "puz-with-a-cell-in-no-slot": ({"grid.txt": "..#.\n####\n"},
                                   ["fill", "{tmp}/grid.txt", "--dict", "{words}", "--out",
                                    "{tmp}/out.puz"]),
    # said before the search (it used to come after it, and the answer was lost)
    "puz-letter-of-a-lock-outside-latin-1": ({}, ["fill", "{grid}", "--dict", "{words}",
                                                  "--lock", "1A=ЖЖ", "-o", "{tmp}/o.puz"]),
    "freeform-puz-cyrillic": ({"ru.txt": "КОТ;50;кот\nТОК;50;ток\nОКО;50;око\n"},
                              ["freeform", "{tmp}/ru.txt", "-t", "5", "-o", "{tmp}/f.puz"]),
    "generate-puz-cyrillic": ({"ru.txt": "кот\nток\nоко\n"},
                              ["generate", "--size", "3x3", "--dict", "{tmp}/ru.txt", "-t", "5",
                               "-o", "{tmp}/g.puz"]),
    "out-dash": ({}, ["fill", "{grid}", "--dict", "{words}", "-o", "-"]),
    "out-empty": ({}, ["fill", "{grid}", "--dict", "{words}", "-o", ""]),
    "out-gz": ({}, ["fill", "{grid}", "--dict", "{words}", "-o", "{tmp}/o.txt.gz"]),
    "prove-missing-file": ({}, ["prove", "{tmp}/missing.txt", "--dict", "{words}"]),
    "info-ragged-grid": ({"grid.txt": "...\n..\n"},
                         ["info", "{tmp}/grid.txt", "--dict", "{words}"]),
    "info-min-score-200": ({}, ["info", "{grid}", "--dict", "{words}", "--min-score", "200"]),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_exits_2_with_one_error_line(case: str, tiny, write, tmp_path,
                                              monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # a regression of "out-dash" writes a file named "-" here
    files, args = BAD_INPUTS[case]
    for name, content in files.items():
        write(name, content)
    grid, words = tiny
    result = invoke(*(a.format(tmp=tmp_path, grid=grid, words=words) for a in args))
    assert_one_line_error(result)


def test_infinite_score_in_dictionary_exits_2(tiny, write) -> None:
    grid, _ = tiny
    words = write("inf.txt", "AB;inf\nCD\n")
    assert_one_line_error(invoke("fill", grid, "--dict", words))


def test_fold_yo_applies_to_given_letters(write) -> None:
    grid = write("g.txt", "Ё.\n")
    words = write("ru.txt", "ёж\nуж\n")
    result = invoke("fill", grid, "--dict", words, "--fold-yo")
    assert result.exit_code == 0, result.output
    assert "ЕЖ" in result.stdout


def test_an_accented_given_letter_meets_a_list_without_accents(write) -> None:
    """The embedded Spanish list folds accents (Ñ kept): a grid's Ó is read as O."""
    words = write("es.txt", "arbol\nñu\n")
    result = invoke("fill", write("g.txt", "ÁRBOL\n"), "--dict", words)
    assert result.exit_code == 0 and "A R B O L" in result.stdout, result.output
    assert invoke("fill", write("n.txt", "Ñ.\n"), "--dict", words).exit_code == 0
    assert invoke("fill", write("e.txt", "ÑÚ\n"), "--dict", words).exit_code == 0
    assert_one_line_error(invoke("fill", write("q.txt", "Q.\n"), "--dict", words))


def test_a_declared_alphabet_says_how_many_words_it_leaves_out(write) -> None:
    words = write("w.txt", "ZA\nBC\nZB\nAC\n")
    result = invoke("fill", write("g.txt", "..\n..\n"), "--dict", words, "--alphabet", "ABC")
    assert "2 lines of the dictionary left out (letters outside --alphabet" in result.stderr


def test_a_wipeout_by_the_no_repeat_rule_says_so(write) -> None:
    """Two separate rows and one word: the slots do not cross, so 'no word fits the crossing
    letters' was wrong."""
    result = invoke("prove", write("g.txt", "...\n###\n...\n"), "--dict", write("w.txt", "cat\n"))
    assert result.exit_code == 1 and "no repeats" in result.stdout, result.output


def test_generate_out_of_time_says_time_not_interrupted() -> None:
    result = invoke("generate", "--size", "21x21", "-t", "1")
    assert result.exit_code == 3
    assert "time limit" in result.output and "interrupted" not in result.output, result.output


def test_minimum_memory_limit_still_solves_a_tiny_grid(tiny) -> None:
    grid, words = tiny
    proc = subprocess.run([XWSAT, "fill", str(grid), "--dict", str(words), "--backend", "cpsat",
                           "--memory-limit", "512"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_fill_russian_with_declared_alphabet(write) -> None:
    grid = write("g.txt", "Е.\n")
    words = write("ru.txt", "ёж\nуж\n")
    result = invoke("fill", grid, "--dict", words, "--fold-yo", "--alphabet",
                    "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["grid"] == ["ЕЖ"]


def test_info_prints_the_slot_table(tiny) -> None:
    grid, words = tiny
    result = invoke("info", grid, "--dict", words)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("grid 2x2, 0 blocks, 4 slots")
    assert lines[1].split() == ["slot", "len", "cross", "words", "pruned", "pattern"]
    table = {line.split()[0]: line.split()[1:] for line in lines[2:6]}
    # 5 two-letter words, 2 left after arc consistency (see test_propagate)
    assert table == {name: ["2", "2", "5", "2", ".."] for name in ("1A", "3A", "1D", "2D")}


def test_info_json_parses(tiny) -> None:
    grid, words = tiny
    result = invoke("info", grid, "--dict", words, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["width"], data["height"], data["blocks"]) == (2, 2, 0)
    assert data["dictionary_size"] == 5
    assert [s["name"] for s in data["slots"]] == ["1A", "3A", "1D", "2D"]
    assert all(s["after_pruning"] == 2 for s in data["slots"])
    assert data["unfillable_by_propagation"] is None


def test_info_reports_wipeout(write) -> None:
    grid = write("g.txt", "." * 19 + "\n")
    words = write("w.txt", "CAT\n")
    result = invoke("info", grid, "--dict", words, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "no 19-letter word" in data["unfillable_by_propagation"]
    assert data["slots"][0]["after_pruning"] is None  # not a count when a slot was emptied
    text = invoke("info", grid, "--dict", words)
    row = next(line.split() for line in text.stdout.splitlines() if line.strip().startswith("1A"))
    assert text.exit_code == 0 and row[:5] == ["1A", "19", "0", "0", "-"], row  # was -1


def test_executable_fills_a_tiny_grid(tiny) -> None:
    grid, words = tiny
    proc = subprocess.run([XWSAT, "fill", str(grid), "--dict", str(words), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert tuple(json.loads(proc.stdout)["grid"]) in FILLS


def test_executable_usage_error_is_one_line(tiny) -> None:
    grid, words = tiny
    proc = subprocess.run([XWSAT, "fill", str(grid), "--dict", str(words), "--time-limit", "abc"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("xwsat: error: ")


def test_version_prints_the_installed_package_version() -> None:
    from importlib import metadata

    proc = subprocess.run([XWSAT, "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"xwsat {metadata.version('xwsat')}\n"
    assert proc.stderr == ""


def test_unexpected_exception_exits_4_not_1(tiny) -> None:
    grid, words = tiny
    script = (
        "import sys, xwsat.cli as cli\n"
        "def boom(*args, **kwargs):\n"
        "    raise RuntimeError('unexpected')\n"
        "import xwsat.commands.fill as fill\n"
        "fill.fill_grid = boom\n"
        f"sys.argv = ['xwsat', 'fill', {str(grid)!r}, '--dict', {str(words)!r}]\n"
        "cli.main()\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 4, (proc.returncode, proc.stderr[-500:])


def test_plan_prints_order_and_draws_svg(tmp_path) -> None:
    from xml.dom import minidom

    from typer.testing import CliRunner

    from xwsat.cli import app

    grid = tmp_path / "g.txt"
    grid.write_text("...\n.#.\n...\n")
    words = tmp_path / "w.txt"
    words.write_text("\n".join(["CAT", "COT", "TOE", "TEA", "CUT", "TAT"]) + "\n")
    svg = tmp_path / "plan.svg"
    png = tmp_path / "plan.png"
    result = CliRunner().invoke(
        app, ["plan", str(grid), "--dict", str(words), "--svg", str(svg), "--png", str(png)]
    )
    assert result.exit_code == 0, result.output
    assert "generation difficulty" in result.output
    assert len(minidom.parse(str(svg)).getElementsByTagName("rect")) >= 9
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 1000
    as_json = CliRunner().invoke(app, ["plan", str(grid), "--dict", str(words), "--json"])
    data = json.loads(as_json.output)
    assert sorted(row["order"] for row in data["slots"]) == [1, 2, 3, 4]


def test_missing_out_directory_is_refused_before_search(tmp_path) -> None:
    from typer.testing import CliRunner

    from xwsat.cli import app

    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n")
    words = tmp_path / "w.txt"
    words.write_text("AB\nCD\nAC\nBD\n")
    result = CliRunner().invoke(
        app, ["fill", str(grid), "--dict", str(words), "--out", str(tmp_path / "no" / "o.txt")]
    )
    assert result.exit_code == 2
    assert "does not exist" in result.output
    assert "FILLED" not in result.output


def test_plan_says_when_propagation_already_proves_unfillable(tmp_path) -> None:
    from typer.testing import CliRunner

    from xwsat.cli import app

    grid = tmp_path / "g.txt"
    grid.write_text("...\n")
    words = tmp_path / "w.txt"
    words.write_text("AB\nCD\n")
    result = CliRunner().invoke(app, ["plan", str(grid), "--dict", str(words)])
    assert result.exit_code == 0, result.output
    assert "no 3-letter word" in result.output


def test_written_files_follow_the_umask_not_mkstemp(tmp_path) -> None:
    import os

    from xwsat.commands.common import write_atomic

    old = os.umask(0o022)
    try:
        target = tmp_path / "out.txt"
        write_atomic(target, "ABC\n")
        assert target.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_an_answer_that_cannot_be_written_is_one_line_and_exit_2(tiny) -> None:
    """stdout on a full disk: the answer is lost, so the exit says so (not 0, not a bug)."""
    grid, words = tiny
    out = grid.parent / "kept.txt"  # the file is written first: it does not depend on stdout
    with open("/dev/full", "w") as full:
        done = subprocess.run([XWSAT, "fill", str(grid), "--dict", str(words), "--out",
                               str(out)], stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("xwsat: error: cannot write the "
                                                            "output")
    assert out.read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("command", [["count", "{grid}"], ["info", "{grid}"], ["plan", "{grid}"],
                                     ["encode", "{grid}"], ["generate", "--size", "5x5"],
                                     ["freeform", "{words}"], ["serve"]])
def test_every_searching_command_takes_a_memory_limit(tiny, command) -> None:
    grid, words = tiny
    args = [a.format(grid=grid, words=words) for a in command]
    result = invoke(*args, "--memory-limit", "100")
    assert_one_line_error(result)
    assert "--memory-limit below 512 MiB" in result.output


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_while_the_command_line_loads_ends_as_stopped(tiny, signum) -> None:
    """Before the command's handlers exist (imports take a quarter of a second): a Ctrl-C
    once ended in a traceback, SIGTERM or SIGHUP in silence; now exit 3 and a --json record."""
    grid, words = tiny
    started = subprocess.Popen([XWSAT, "fill", str(grid), "--dict", str(words), "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    status = Path(f"/proc/{started.pid}/status")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the first instant xwsat holds it (xwsat.start)
        caught = [line for line in status.read_text().splitlines() if line.startswith("SigCgt")]
        # (Python catches SIGINT from its own start: SIGTERM tells that xwsat's hold is in)
        if caught and int(caught[0].split()[1], 16) >> (signal.SIGTERM - 1) & 1:
            break
        time.sleep(0.001)
    started.send_signal(signum)
    out, err = started.communicate(timeout=120)
    if started.returncode == 0:  # (a very fast machine finished first)
        return
    assert started.returncode == 3 and "Traceback" not in err, err
    assert json.loads(out)["stop"] == "interrupted"


def test_quiet_silences_the_status_line(tiny, monkeypatch, capsys) -> None:
    from xwsat.commands import common

    monkeypatch.setattr(common, "NOT_A_TTY_EVERY_S", 0.0)
    for quiet, shown in ((True, False), (False, True)):
        common.quiet_progress(quiet)
        common.status_line(5.0, "solving with mac")
        common.clear_status_line()
        assert ("solving with mac" in capsys.readouterr().err) is shown
    grid, words = tiny  # each command that shows a status line takes -q, and sets it afresh
    for args in (("fill", grid, "-d", words, "-q"), ("prove", grid, "-d", words, "-q"),
                 ("count", grid, "-d", words, "-q")):
        assert invoke(*args).exit_code == 0
        assert common._last_line["quiet"] is True
    assert invoke("fill", grid, "-d", words).exit_code == 0
    assert common._last_line["quiet"] is False


def test_python_dash_m_runs_the_same_command_line(tiny) -> None:
    grid, words = tiny
    done = subprocess.run([sys.executable, "-m", "xwsat", "fill", str(grid), "-d", str(words),
                           "-b", "sat"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("FILLED by sat"), done.stderr
    bad = subprocess.run([sys.executable, "-m", "xwsat", "fill", "/no/such/grid.txt"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.startswith("xwsat: error: "), bad.stderr


def test_an_entry_typed_whole_that_the_list_lacks_is_named_with_the_lock_that_keeps_it(
        write) -> None:
    grid = write("typed.txt", "ZQ\n..\n")
    words = write("w.txt", "AB\nAC\nBD\nCD\nZA\nQB\n")
    result = invoke("fill", grid, "-d", words)
    assert result.exit_code == 1
    assert "slot 1A: ZQ is not in the dictionary" in result.stdout
    assert "to keep this entry of your own as typed: --lock 1A=ZQ" in result.stdout
    kept = invoke("fill", grid, "-d", words, "--lock", "1A=ZQ")
    assert kept.exit_code == 0, kept.output


def test_a_fill_names_entries_that_share_a_long_piece(write) -> None:
    grid = write("cake.txt", "CAKE#\n#####\nCAKES\n")  # CAKE inside CAKES: a dupe to an editor
    words = write("w.txt", "CAKE\nCAKES\n")
    result = invoke("fill", grid, "-d", words)
    assert result.exit_code == 0, result.output
    assert "shared pieces (dupes to an editor?): 1A/2A CAKE" in result.stdout
    record = json.loads(invoke("fill", grid, "-d", words, "--json").stdout)
    assert record["shared_pieces"] == [{"slots": ["1A", "2A"], "piece": "CAKE"}]


def test_a_puzzle_file_without_every_clue_is_said_so(tiny, tmp_path) -> None:
    grid, words = tiny  # the list has no clues: every entry of the .puz is without one
    out = tmp_path / "tiny.puz"
    result = invoke("fill", grid, "-d", words, "-o", out)
    assert result.exit_code == 0 and out.exists(), result.output
    assert f"note: 4 of 4 entries have no clue in {out}" in result.stderr
    plain = invoke("fill", grid, "-d", words, "-o", tmp_path / "tiny.txt")
    assert "no clue" not in plain.stderr  # a grid file holds no clues by design


def test_ctrl_c_before_the_command_is_loaded_still_prints_the_json_record(
        tiny, monkeypatch, capsys) -> None:
    from xwsat import cli
    from xwsat.commands import common

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    common.new_command()  # an earlier test's record, printed in this process, is not this one

    monkeypatch.setattr(cli.Commands, "get_command", interrupted)
    grid, words = tiny
    assert cli.run(["fill", str(grid), "-d", str(words), "--json"]) == 3
    out, err = capsys.readouterr()
    assert json.loads(out) == {"status": "unknown", "stop": "interrupted",
                               "message": "interrupted"}
    assert err.strip() == "xwsat: interrupted"
    common.new_command()
    assert cli.run(["generate", "--json"]) == 3  # its records' word for no verdict
    assert json.loads(capsys.readouterr().out)["status"] == "undecided"
    assert cli.run(["fill", str(grid)]) == 3 and capsys.readouterr().out == ""


@pytest.mark.parametrize("group", ["bench", "grids"])
def test_a_group_given_no_command_shows_its_help_as_help(group, capsys) -> None:
    # the whole help came squeezed into one "xwsat: error:" line
    from xwsat.cli import run

    assert run([group]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"Usage: xwsat {group} ") and "\nCommands:\n" in said
