"""xwsat freeform: greedy and CP-SAT layouts checked independently, the checker, the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.freeform.layout import read_entries
from xwsat.freeform.layout_check import check_layout
from xwsat.freeform.placer import freeform

WORDS = """pelota;50;Se juega con ella
pelo — Lo cortan en la peluqueria
pato;50;Ave acuatica
tapa;50;Cubre la olla
lapiz;50;Escribe
pelota;40;Repetida
"""


def verify(result) -> None:
    layout = result.layout
    words = [e.word for e in layout.entries]
    placed = [(p.entry, p.row, p.col, p.direction) for p in layout.placed]
    assert check_layout(layout.width, layout.height, words, placed) == []
    assert result.verified


def test_entries_parse_both_formats_and_merge_duplicates() -> None:
    entries, _ = read_entries(WORDS, "inline")
    by_word = {e.word: e for e in entries}
    assert set(by_word) == {"PELOTA", "PELO", "PATO", "TAPA", "LAPIZ"}
    assert by_word["PELO"].clue == "Lo cortan en la peluqueria"
    assert by_word["PELOTA"].clue == "Se juega con ella"


@pytest.mark.parametrize("method", ["greedy", "cpsat"])
def test_layouts_pass_the_independent_checker(method) -> None:
    entries, _ = read_entries(WORDS, "inline")
    result = freeform(entries, 7, 7, method, time_limit=2, seed=1)
    verify(result)
    assert len(result.layout.placed) >= 3


def test_cpsat_places_at_least_as_many_as_greedy_and_handles_contained_words() -> None:
    entries, _ = read_entries(WORDS, "inline")
    greedy = freeform(entries, 7, 7, "greedy", time_limit=2, seed=0)
    exact = freeform(entries, 7, 7, "cpsat", time_limit=3, seed=0)
    verify(exact)
    assert len(exact.layout.placed) >= len(greedy.layout.placed)
    # PELO is inside PELOTA: both may be placed, never overlapping (the checker would object).
    assert len(exact.layout.placed) == 5


def test_a_board_of_no_chosen_size_is_cropped_to_its_words() -> None:
    """The default board kept a column of blocks no word reached."""
    entries, _ = read_entries(WORDS, "inline")
    result = freeform(entries, 12, 12, "greedy", time_limit=2, seed=0, crop=True)
    verify(result)
    rows = result.layout.rows()
    assert any(ch != "#" for ch in rows[0]) and any(ch != "#" for ch in rows[-1])
    assert any(row[0] != "#" for row in rows) and any(row[-1] != "#" for row in rows)
    assert (result.layout.width, result.layout.height) == result.layout.bounding_box()


def test_checker_catches_bad_layouts() -> None:
    words = ["CAT", "TOE", "ACE", "EAT"]
    good = [(0, 0, 0, "across"), (1, 0, 2, "down")]
    assert check_layout(5, 5, words, good) == []
    assert any("leaves the board" in p for p in check_layout(5, 5, words, [(0, 0, 3, "across")]))
    assert any("clashes" in p for p in check_layout(5, 5, words, [(0, 0, 0, "across"),
                                                                  (2, 0, 2, "down")]))
    # EAT right under CAT, side by side: reads down "CE", "AA", "TT".
    touching = [(0, 0, 0, "across"), (3, 1, 0, "across")]
    assert any("not a placed word" in p for p in check_layout(5, 5, words, touching))
    running = [(0, 0, 0, "across"), (3, 0, 3, "across")]   # CATEAT
    assert any("runs into" in p or "not a placed word" in p
               for p in check_layout(6, 5, words, running))
    apart = [(0, 0, 0, "across"), (3, 4, 0, "across")]
    assert any("connected" in p for p in check_layout(5, 5, words, apart))
    assert any("twice" in p for p in check_layout(5, 5, words, [(0, 0, 0, "across"),
                                                                (0, 3, 0, "across")]))


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_cli_json_lists_placed_words_with_clues(write) -> None:
    path = write("words.txt", WORDS)
    result = invoke("freeform", path, "--size", "8x8", "--method", "greedy", "--json", "-q")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verified"] and data["placed_count"] == len(data["placed"])
    words = [e for e in ["PELOTA", "PELO", "PATO", "TAPA", "LAPIZ"]]
    index = {w: i for i, w in enumerate(words)}
    placed = [(index[p["word"]], p["row"], p["col"], p["direction"]) for p in data["placed"]]
    assert check_layout(8, 8, words, placed) == []
    assert all(p["clue"] for p in data["placed"])
    assert len(data["grid"]) == 8


def test_cli_text_has_grid_and_numbered_clues(write, tmp_path) -> None:
    path = write("words.txt", WORDS)
    out = tmp_path / "board.txt"
    result = invoke("freeform", path, "--size", "8x8", "--method", "greedy", "--out", out, "-q")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("PLACED") and "Across:" in lines and "Down:" in lines
    assert len(out.read_text().splitlines()) == 8


@pytest.mark.parametrize("args,message", [
    (["--size", "8"], "--size"),
    (["--method", "annealing"], "--method"),
    (["--time-limit", "0"], "--time-limit"),
    (["--size", "1x1"], "--size"),
    (["--out", "board.pdf"], "unknown output format"),
])
def test_cli_bad_input_is_one_line(write, args, message) -> None:
    path = write("words.txt", WORDS)
    result = invoke("freeform", path, *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("xwsat: error: ") and message in lines[0]


def test_cli_missing_or_empty_word_list(write, tmp_path) -> None:
    result = invoke("freeform", tmp_path / "none.txt")
    assert result.exit_code == 2 and "no such file" in result.stderr
    empty = write("empty.txt", "# nothing\n")
    result = invoke("freeform", empty)
    assert result.exit_code == 2 and "no words" in result.stderr


def test_cli_writes_a_puz_file_with_the_clues(write, tmp_path) -> None:
    pytest.importorskip("xwsat.formats")
    puz = pytest.importorskip("puz")
    path = write("words.txt", WORDS)
    out = tmp_path / "board.puz"
    result = invoke("freeform", path, "--size", "8x8", "--method", "greedy", "--out", out, "-q")
    assert result.exit_code == 0, result.output
    loaded = puz.load(out.read_bytes())
    numbering = loaded.clue_numbering()
    clues = {c["clue"] for c in numbering.across + numbering.down}
    assert clues and clues <= {"Se juega con ella", "Lo cortan en la peluqueria", "Ave acuatica",
                               "Cubre la olla", "Escribe"}


def test_ctrl_c_prints_the_best_board_so_far(write) -> None:
    import os
    import shutil
    import signal
    import subprocess
    import sys
    import time

    xwsat = shutil.which("xwsat", path=os.path.dirname(sys.executable)) or "xwsat"
    path = write("words.txt", WORDS)
    proc = subprocess.Popen(
        [xwsat, "freeform", str(path), "--size", "8x8", "--method", "greedy", "--boards",
         "1000000", "--time-limit", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 3, err  # stopped, as every command Ctrl-C stops, with its board
    assert out.startswith("PLACED") and "verified" in out.splitlines()[0]


def test_ctrl_c_before_any_board_is_undecided_not_an_empty_board(monkeypatch) -> None:
    # an empty board passes the layout check, and was printed as "PLACED 0 ... verified", exit 0
    import threading

    from xwsat.freeform import greedy, placer
    from xwsat.freeform.layout import Entry
    from xwsat.outcome import Status

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(greedy, "one_board", interrupted)
    entries = [Entry("CAT", "feline"), Entry("TOE", "digit")]
    result = placer.freeform(entries, 6, 6, "greedy", 5.0, stop=threading.Event())
    assert result.outcome.status is Status.UNKNOWN and not result.verified
    assert "interrupted" in result.outcome.message


@pytest.mark.parametrize("stop", ["limit", "ctrl-c"])
def test_a_stop_after_the_first_board_prints_and_writes_it(tmp_path, monkeypatch, stop) -> None:
    # the time limit arriving after the greedy board (CP-SAT's model being built past it) made
    # the command print "unknown" and lose the board; a Ctrl-C there exited 0 as if done
    from xwsat.freeform import placer
    from xwsat.guard import LimitReached
    from xwsat.outcome import Stop

    def stopped_here(*_args, **_kwargs):
        if stop == "ctrl-c":
            raise KeyboardInterrupt
        raise LimitReached(Stop.TIME, "time limit of 20 s reached")

    monkeypatch.setattr(placer, "_key", stopped_here)  # right after CP-SAT's turn
    monkeypatch.setattr(placer, "cpsat_layout", lambda *args: (args[5], {"status": "optimal"}))
    words, out = tmp_path / "w.txt", tmp_path / "board.json"
    words.write_text(WORDS, encoding="utf-8")
    result = CliRunner().invoke(app, ["freeform", str(words), "-t", "20", "--json", "-q",
                                      "-o", str(out)])
    record = json.loads(result.stdout)
    assert record["placed_count"] > 1 and record["verified"] and out.is_file()
    if stop == "ctrl-c":
        assert result.exit_code == 3 and record["stop"] == "interrupted"
    else:
        assert result.exit_code == 0 and record["stop"] == "timeout"
        assert any("time limit of 20 s reached before the placement ended" in n
                   for n in record["notes"])


def test_a_word_with_no_clue_is_never_clued_by_its_own_answer(write, tmp_path) -> None:
    # "pelota" was the clue of PELOTA, in the .puz a solver gets: the answer given away
    path = write("bare.txt", "PELOTA\nPELO\nPATO\nTAPA\nLAPIZ\n")
    result = invoke("freeform", path, "--size", "8x8", "--method", "greedy", "--json", "-q")
    data = json.loads(result.stdout)
    assert data["placed"] and all(p["clue"] == "" for p in data["placed"])
    out = tmp_path / "board.ipuz"
    result = invoke("freeform", path, "--size", "8x8", "--method", "greedy", "-o", out, "-q")
    assert result.exit_code == 0 and "(no clue)" in result.stdout
    assert result.stdout.rstrip().endswith(f"wrote {out}")
    assert "have no clue in" in result.stderr
    assert '"pelota"' not in out.read_text(encoding="utf-8").lower()  # as a clue
