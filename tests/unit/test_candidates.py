"""A slot's candidates ranked and marked (``xwsat.candidates``) and ``xwsat candidates``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from xwsat.candidates import FILLABLE, UNFILLABLE, decide_candidates, find_slot, ranked
from xwsat.cli import app
from xwsat.pipeline import FillOptions
from xwsat.problem import build_problem
from xwsat.words import build_wordlist

# 1A across the top of a 2x2: AB fills with AC, BD and CD; XY with XQ, YV and QV; CD, BD, QV
# and YV start no down word (arc consistency removes them); ZZ passes arc consistency (ZZ
# crosses ZZ) but the no-repeat rule refutes it, which only the search finds
WORDS = {"AB": 90, "CD": 40, "AC": 50, "BD": 50, "ZZ": 95, "XY": 70, "XQ": 10, "YV": 10,
         "QV": 10}


def words():
    return build_wordlist({w: (s, None) for w, s in WORDS.items()}, source="inline")


def test_ranked_puts_arc_consistent_words_first_best_score_first(make_grid):
    built = build_problem(make_grid("..\n..\n"), words())
    found = ranked(built, find_slot(built, "1a"))
    alive = [c.word for c in found if c.verdict != UNFILLABLE]
    assert alive == ["ZZ", "AB", "XY", "AC", "XQ"]
    removed = {c.word: c.how for c in found if c.verdict == UNFILLABLE}
    assert set(removed) == {"BD", "CD", "QV", "YV"}
    assert all("arc consistency" in how for how in removed.values())


def test_each_word_is_decided_by_the_search_and_the_marks_are_right(make_grid):
    found = decide_candidates(make_grid("..\n..\n"), words(), "1A", FillOptions(), 20.0)
    marks = {c.word: c.verdict for c in found}
    assert marks["AB"] == FILLABLE and marks["XY"] == FILLABLE
    assert all(c.how for c in found)


def test_a_word_that_only_the_search_refutes_is_unfillable(make_grid):
    found = decide_candidates(make_grid("..\n..\n"), words(), "1A", FillOptions(), 20.0)
    zz = next(c for c in found if c.word == "ZZ")
    assert zz.verdict == UNFILLABLE and zz.how.startswith("proven by")


def test_time_limit_leaves_words_not_yet_known(make_grid):
    found = decide_candidates(make_grid("..\n..\n"), words(), "1A", FillOptions(), 0.0)
    assert [c.word for c in found if c.verdict == "unknown"] == ["ZZ", "AB", "XY", "AC", "XQ"]


def test_candidates_command_prints_the_marks_and_refuses_an_unknown_slot(tmp_path):
    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n")
    listing = tmp_path / "w.txt"
    listing.write_text("\n".join(f"{w};{s}" for w, s in WORDS.items()))
    result = CliRunner().invoke(app, ["candidates", str(grid), "1A", "--dict", str(listing),
                                      "-t", "20"])
    assert result.exit_code == 0, result.output
    assert "AB  90  fillable" in result.output and "ZZ  95  unfillable (proven" in result.output
    bad = CliRunner().invoke(app, ["candidates", str(grid), "9D", "--dict", str(listing)])
    assert bad.exit_code == 2 and "no slot" in bad.output
    assert "(its slots: across 1A to 3A, down 1D to 2D)" in bad.output


def test_candidates_command_cut_by_the_time_limit_exits_3(tmp_path, monkeypatch):
    from xwsat.commands import candidates as command

    real = command.decide_candidates
    monkeypatch.setattr(command, "decide_candidates",  # the limit reached inside the search
                        lambda grid, words, slot, options, seconds, *rest, **kw:
                        real(grid, words, slot, options, 0.0, *rest, **kw))
    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n")
    listing = tmp_path / "w.txt"
    listing.write_text("\n".join(f"{w};{s}" for w, s in WORDS.items()))
    result = CliRunner().invoke(app, ["candidates", str(grid), "1A", "--dict", str(listing),
                                      "--json"])
    assert result.exit_code == 3, result.output
    record = json.loads(result.output)
    assert record["undecided"] == 5 and record["interrupted"] is False


def test_a_word_another_entry_holds_is_unfillable_by_the_no_repeat_rule(make_grid):
    from xwsat.lock import apply_locks

    grid, listing, _ = apply_locks(make_grid("..\n..\n"), words(), ["1D=AC"])
    built = build_problem(grid, listing)
    found = {c.word: c for c in ranked(built, find_slot(built, "1A"))}
    assert found["AC"].verdict == UNFILLABLE
    assert found["AC"].how == "no repeats: it is the only word for 1D"


def test_a_ctrl_c_a_search_caught_stops_the_ranking(make_grid, monkeypatch):
    # a search that caught Ctrl-C answered with what it had (its lift's fill); the next word,
    # decided in-process with no child to refuse to start, went on for seconds, then exit 0
    import pytest

    from xwsat import guard

    seen: list[int] = []
    monkeypatch.setitem(guard._interrupted, "yes", True)
    with pytest.raises(KeyboardInterrupt):
        decide_candidates(make_grid("..\n..\n"), words(), "1A", FillOptions(), 20.0,
                          on_change=lambda found: seen.append(len(found)))
    assert seen == [len(WORDS)]  # ranked, then stopped before any search
