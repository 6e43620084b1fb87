"""Qxw's deck: the problem's slots, cells shared by name, allowed letters as patterns, and its
answer read back to the slots' candidate word ids. Letter code i is spelled as the i-th letter
of A..Z (a bijection, so any alphabet of up to 26 letters goes through)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from xwsat.backends.qxw import SPELLING, QxwBackend, deck_text, read_answers, word_text
from xwsat.grid import parse_grid
from xwsat.problem import build_problem


def spelled(built, word: str) -> str:
    return "".join(SPELLING[built.words.alphabet.code(letter)] for letter in word)


WORDS3 = ["CAT", "ARE", "TEN", "ACT", "TEA", "ERA", "EAT", "ATE", "NET", "TAN", "ANT", "RAT"]


def test_deck_lists_each_slot_with_shared_cells_and_given_letters(make_words) -> None:
    built = build_problem(parse_grid("C..\n...\n...\n"), make_words(WORDS3))
    lines = deck_text(built.problem).splitlines()
    assert lines[:2] == [".UNIQUE 1", ".RANDOM 1"]
    slots = [line.split() for line in lines[2:]]
    assert len(slots) == built.problem.n_slots == 6
    given = f"=[{spelled(built, 'C')}]"
    assert slots[0][:2] == ["c0", given]  # the given C, a pattern on its cell
    assert slots[3][0] == "c0" and given not in slots[3]  # 1D shares cell c0, said once
    cells = [[t for t in s if not t.startswith("=")] for s in slots]
    assert cells[0] == ["c0", "c1", "c2"] and cells[3] == ["c0", "c3", "c6"]


def test_repeats_allowed_turns_uniqueness_off(make_words) -> None:
    built = build_problem(parse_grid("...\n"), make_words(WORDS3), allow_repeats=True)
    assert deck_text(built.problem).splitlines()[0] == ".UNIQUE 0"


def test_word_list_is_the_candidates_and_answers_map_back(make_words) -> None:
    built = build_problem(parse_grid("...\n#.#\n"), make_words(WORDS3 + ["AT", "TO"]))
    problem = built.problem
    assert set(word_text(problem).split()) == {spelled(built, w) for w in WORDS3 + ["AT", "TO"]}
    answer = f"W0 {spelled(built, 'CAT')}\n# CAT\nW1 {spelled(built, 'AT')}\n# AT\n"
    fill = read_answers(answer, problem)
    assert fill is not None and [built.words.words[w] for w in fill] == ["CAT", "AT"]
    assert read_answers(answer.split("W1")[0], problem) is None  # a slot missing
    assert read_answers("W0 ZZZ\n", problem) is None  # not a candidate: never trusted
    assert read_answers("", problem) is None


@pytest.mark.skipif(not QxwBackend.available(), reason="needs the qxw package")
def test_an_alphabet_too_large_for_qxw_is_one_line_and_exit_2(tmp_path) -> None:
    from xwsat.cli import app

    letters = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"  # 32 letters
    words = tmp_path / "w.txt"
    words.write_text("\n".join(a + b for a in letters for b in letters[:3]) + "\n",
                     encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("..\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["fill", str(grid), "--dict", str(words), "-b", "qxw"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().count("\n") == 0 and "at most 26 letters" in result.stderr
