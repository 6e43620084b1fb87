"""The region probe (``xwsat plan --probe``): windows, narrowing, the time limit, the CLI."""

from __future__ import annotations

import json
import time

import pytest
from typer.testing import CliRunner

from xwsat import probe as probe_mod
from xwsat.cli import app
from xwsat.grid import parse_grid
from xwsat.probe import Attempt, probe, starts, window_slots
from xwsat.problem import build_problem
from xwsat.words import build_wordlist

# A 2x2 corner that fills (DE/FG across, DF/EG down) and a 3x3 corner that cannot: its six
# slots would need six different words and the list has three 3-letter words.
GRID = "..##...\n..##...\n####...\n"
WORDS = ["DE", "FG", "DF", "EG", "ABC", "BCA", "CAB"]


def _words(words: list[str]):
    return build_wordlist({w: (50, None) for w in words}, None, source="inline")


def _problem(text: str = GRID, words: list[str] = WORDS):
    grid = parse_grid(text, "g.txt")
    return grid, build_problem(grid, _words(words)).problem


def test_starts_cover_the_side_and_end_flush() -> None:
    assert starts(21, 13, 4) == [0, 4, 8]
    assert starts(15, 9, 4) == [0, 4, 6]
    assert starts(5, 5, 1) == [0]


def test_window_slots_are_the_slots_touching_the_window() -> None:
    grid, problem = _problem()
    names = problem.slot_names
    left = {names[s] for s in window_slots(problem, grid.width, 0, 0, 2)}
    right = {names[s] for s in window_slots(problem, grid.width, 0, 4, 3)}
    assert len(left) == 4 and len(right) == 6 and not left & right


def test_a_window_with_no_fill_is_found_and_named() -> None:
    grid, problem = _problem()
    found = probe(problem, len(grid.rows), grid.width, 5.0)
    dead = found.unfillable
    # the first dead window: the 3x3 corner's three across slots and its first down, four
    # 3-letter slots for three words; the windows over the 2x2 corner fill
    assert dead is not None and (dead.left, dead.size) == (2, 3)
    assert sorted(problem.slot_length(s) for s in dead.slots) == [3, 3, 3, 3]
    assert [w.verdict for w in found.windows if w.left < 2] == ["filled", "filled"]
    text = found.as_text(problem.slot_names)
    assert "No fill" in text and "so the grid has none" in text


def test_hard_windows_are_narrowed_to_the_smallest(monkeypatch) -> None:
    """A 12x12 grid of 2x2 corners; only parts holding the top-left cell are hard (a fake
    search): the scan narrows from the 7x7 windows to the 5x5 one at the top left."""
    rows = ["#" * 12 if r % 3 == 2 else "..#" * 4 for r in range(12)]
    grid = parse_grid("\n".join(rows) + "\n", "g.txt")
    problem = build_problem(grid, _words(["AB", "CD", "AC", "BD"])).problem

    def fake(part, seconds, seed):
        hard = any(int(c) == 0 for cells in part.slot_cells for c in part.cell_ids[cells])
        return Attempt("undecided" if hard else "filled", 7)

    monkeypatch.setattr(probe_mod, "decide", fake)
    monkeypatch.setattr(probe_mod, "restricted", _keep)
    found = probe(problem, 12, 12, 1.0)
    assert [(w.top, w.left, w.size) for w in found.hardest()] == [(0, 0, 5)]
    assert [w.size for w in found.windows if w.hard] == [7, 5]
    assert found.unfillable is None and not found.cut_short
    assert "Hard: rows 1-5, columns 1-5, 16 slots" in found.as_text(problem.slot_names)


def test_the_time_left_goes_to_the_hardest_windows(monkeypatch) -> None:
    """With a deadline the smallest hard window is probed again for longer; here it is then
    refuted (a fake search that needs more than the scan's seconds), which proves the grid."""
    rows = ["#" * 12 if r % 3 == 2 else "..#" * 4 for r in range(12)]
    grid = parse_grid("\n".join(rows) + "\n", "g.txt")
    problem = build_problem(grid, _words(["AB", "CD", "AC", "BD"])).problem

    def fake(part, seconds, seed):
        if not any(int(c) == 0 for cells in part.slot_cells for c in part.cell_ids[cells]):
            return Attempt("filled", 0)
        return Attempt("unfillable" if seconds > 1.0 else "undecided", 9)

    monkeypatch.setattr(probe_mod, "decide", fake)
    monkeypatch.setattr(probe_mod, "restricted", _keep)
    found = probe(problem, 12, 12, 1.0, deadline=time.monotonic() + 30)
    dead = found.unfillable
    assert dead is not None and (dead.top, dead.left, dead.size) == (0, 0, 5)
    assert found.windows[-1] is dead and found.hardest() == [dead]
    assert "so the grid has none" in found.as_text(problem.slot_names)


def test_when_a_deepened_window_fills_the_one_around_it_gets_its_turn(monkeypatch) -> None:
    rows = ["#" * 12 if r % 3 == 2 else "..#" * 4 for r in range(12)]
    grid = parse_grid("\n".join(rows) + "\n", "g.txt")
    problem = build_problem(grid, _words(["AB", "CD", "AC", "BD"])).problem
    asked: list[tuple[int, float]] = []

    def fake(part, seconds, seed):
        asked.append((part.n_slots, seconds))
        if not any(int(c) == 0 for cells in part.slot_cells for c in part.cell_ids[cells]):
            return Attempt("filled", 0)
        small = part.n_slots <= 16  # the 5x5 window: fills given more time; the 7x7 never does
        return Attempt("filled" if small and seconds > 1.0 else "undecided", 3)

    monkeypatch.setattr(probe_mod, "decide", fake)
    monkeypatch.setattr(probe_mod, "restricted", _keep)
    found = probe(problem, 12, 12, 1.0, deadline=time.monotonic() + 4)
    assert [(w.top, w.left, w.size) for w in found.hardest()] == [(0, 0, 7)]
    assert asked[-1][0] > 16 and asked[-1][1] > 1.0  # the last search: the 7x7, given longer


def test_the_time_left_resumes_the_scan_s_search_of_a_window() -> None:
    """Going on with an undecided window keeps its search: after a further hundredth of a
    second it has at least the failures of its first tenth (a search started over would not)."""
    from pathlib import Path

    from xwsat.words import load_words

    small = Path(__file__).resolve().parents[2] / "grids" / "small"
    grid = parse_grid((small / "open5.txt").read_text(), "open5.txt")
    problem = build_problem(grid, load_words(str(small / "words5_sub3.txt"))).problem
    first = probe_mod.decide(problem, 0.1, 0)  # the refutation takes some 9,000 failures
    if first.more is None:
        pytest.skip("refuted within 0.1 s on this machine")
    again = first.more(0.01)
    assert first.failures > 0 and again.failures >= first.failures


def _keep(problem, slots):
    from dataclasses import replace

    return replace(problem, slot_cells=tuple(problem.slot_cells[s] for s in slots))


def test_the_deadline_cuts_the_scan_short() -> None:
    grid, problem = _problem()
    found = probe(problem, len(grid.rows), grid.width, 5.0, deadline=time.monotonic() - 1)
    assert found.cut_short and found.windows == ()
    assert "cut short" in found.as_text(problem.slot_names)


def test_plan_probe_from_the_command_line(tmp_path) -> None:
    grid = tmp_path / "g.txt"
    grid.write_text(GRID)
    words = tmp_path / "w.txt"
    words.write_text("\n".join(WORDS) + "\n")
    result = CliRunner().invoke(app, ["plan", str(grid), "--dict", str(words), "--probe", "2"])
    assert result.exit_code == 0, result.output
    assert "Probe:" in result.output and "No fill" in result.output
    as_json = CliRunner().invoke(app, ["plan", str(grid), "--dict", str(words), "--probe", "2",
                                       "--json"])
    data = json.loads(as_json.output)["probe"]
    assert data["unfillable"] is True
    assert {w["verdict"] for w in data["windows"]} == {"filled", "unfillable"}


def test_plan_exits_3_when_the_time_limit_cuts_the_probe_short(tmp_path, monkeypatch) -> None:
    grid = tmp_path / "g.txt"
    grid.write_text(GRID)
    words = tmp_path / "w.txt"
    words.write_text("\n".join(WORDS) + "\n")

    def slow(part, seconds, seed):
        time.sleep(seconds)
        return Attempt("undecided", 0)

    monkeypatch.setattr(probe_mod, "decide", slow)
    result = CliRunner().invoke(app, ["plan", str(grid), "--dict", str(words), "--probe", "0.5",
                                      "--time-limit", "2"])
    assert result.exit_code == 3, result.output
    assert "cut short by the time limit" in result.output
    as_json = CliRunner().invoke(app, ["plan", str(grid), "--dict", str(words), "--probe", "0.5",
                                       "--time-limit", "2", "--json"])
    assert as_json.exit_code == 3 and json.loads(as_json.stdout)["stop"] == "time"


def test_plan_outlines_the_hardest_windows_in_its_pictures(tmp_path) -> None:
    grid = tmp_path / "g.txt"
    grid.write_text(GRID)
    words = tmp_path / "w.txt"
    words.write_text("\n".join(WORDS) + "\n")
    svg, png = tmp_path / "p.svg", tmp_path / "p.png"
    result = CliRunner().invoke(app, ["plan", str(grid), "--dict", str(words), "--probe", "2",
                                      "--svg", str(svg), "--png", str(png)])
    assert result.exit_code == 0, result.output
    # the window with no fill: rows 1-3, columns 3-5 (counted from 1), 32 pixels a cell
    assert '<rect x="64" y="0" width="96" height="96" fill="none" stroke="#d00"' in svg.read_text()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    plain = tmp_path / "q.svg"
    CliRunner().invoke(app, ["plan", str(grid), "--dict", str(words), "--svg", str(plain)])
    assert 'stroke="#d00"' not in plain.read_text()


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf"])
def test_plan_refuses_a_bad_probe_time(tmp_path, seconds) -> None:
    grid = tmp_path / "g.txt"
    grid.write_text(GRID)
    words = tmp_path / "w.txt"
    words.write_text("\n".join(WORDS) + "\n")
    result = CliRunner().invoke(app, ["plan", str(grid), "--dict", str(words),
                                      "--probe", seconds])
    assert result.exit_code == 2 and "--probe" in result.output


def test_an_undecided_fill_names_the_probe_command_with_its_word_options() -> None:
    from pathlib import Path

    from xwsat.commands.fill import _probe_hint
    from xwsat.commands.options import Rules, Words

    hint = _probe_hint(Path("my grid.txt"), Words("words.txt", min_score=30), Rules(min_length=3))
    assert hint == ("where it is hard: xwsat plan 'my grid.txt' --dict words.txt --min-score 30 "
                    "--min-length 3 --probe 5")


def test_ctrl_c_keeps_the_windows_already_probed(monkeypatch) -> None:
    grid, problem = _problem()
    calls = []

    def stop_second(part, seconds, seed):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return Attempt("filled", 0)

    monkeypatch.setattr(probe_mod, "decide", stop_second)
    found = probe(problem, len(grid.rows), grid.width, 5.0)
    assert found.interrupted and len(found.windows) == 1
    assert "interrupted after 1 windows" in found.as_text(problem.slot_names)


def test_a_grid_with_no_hard_window_says_so() -> None:
    grid, problem = _problem("..\n..\n", ["DE", "FG", "DF", "EG"])
    found = probe(problem, len(grid.rows), grid.width, 5.0)
    assert [w.verdict for w in found.windows] == ["filled"] and found.hardest() == []
    assert "No window is hard on its own: each filled alone" in found.as_text(problem.slot_names)
