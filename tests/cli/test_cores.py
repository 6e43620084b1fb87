"""Explanations anytime (``xwsat.evidence.cores``): a first core at once, smaller ones while
time remains, the best so far when the limit comes; each core checked unfillable on its own,
and each member of a minimal one necessary, by a brute force of the test's own."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.evidence import cores
from xwsat.evidence.cores import explain_anytime, successive_cores
from xwsat.evidence.evidence_text import CERTIFIED_CORE
from xwsat.evidence.explain import Explanation, blank_problem
from xwsat.grid import parse_grid
from xwsat.lock import apply_locks
from xwsat.problem import Built, build_problem
from xwsat.words import load_words

pytest.importorskip("numba")

SMALL = Path(__file__).resolve().parents[2] / "grids" / "small"
THREE = "...\n...\n...\n"
# blank, the square has two fills; 1A=ADA leaves none, and arc consistency alone does not see it
WORDS = ["AAA", "ABD", "ACA", "ADA", "ADD", "BAC", "DBD", "DCB", "DDA", "DDB"]
# two blank 5x5 squares side by side, neither fillable from every 10th five-letter word
TWIN = "\n".join(["....." + "#" + "....."] * 5) + "\n"


def locked(make_words, *locks: str) -> Built:
    grid, words, _ = apply_locks(parse_grid(THREE), make_words(WORDS), list(locks))
    return build_problem(grid, words)


def fills(built: Built, slots: list[int], givens: list[int]) -> bool:
    """Whether ``slots`` can take distinct words with ``givens`` (cell ids) as the grid has
    them, crossing letters agreeing: every word tried in every slot. A constructor's entry
    that is no dictionary word fits only the slot the grid spells it in."""
    grid, words = built.grid, built.words
    letters = {c: grid.cell(c) for c in givens}
    cells = [built.slots[s].cells for s in slots]

    def allowed(where: tuple[int, ...], word: str) -> bool:
        if len(word) != len(where):
            return False
        return word not in words.placed_only or "".join(grid.cell(c) for c in where) == word

    def place(i: int, used: set[str]) -> bool:
        if i == len(cells):
            return True
        for word in words.words:
            if word in used or not allowed(cells[i], word) or any(
                    letters.get(c, ch) != ch for c, ch in zip(cells[i], word)):
                continue
            new = {c: ch for c, ch in zip(cells[i], word) if c not in letters}
            letters.update(new)
            if place(i + 1, used | {word}):
                return True
            for c in new:
                del letters[c]
        return False

    return place(0, set())


def check_core(built: Built, core: Explanation) -> None:
    """Unfillable on its own; when said minimal, fillable without any one member."""
    slots, givens = list(core.slots), list(core.givens)
    assert not fills(built, slots, givens), core
    if core.minimal:
        for s in slots:
            assert fills(built, [t for t in slots if t != s], givens), (core, s)
        for c in givens:
            assert fills(built, slots, [g for g in givens if g != c]), (core, c)


def test_a_search_needing_refutation_gives_a_first_core_at_once_then_a_minimal_one(
        make_words) -> None:
    built = locked(make_words, "1A=ADA")
    found = list(successive_cores(built, 60))
    assert len(found) >= 2
    first, last = found[0], found[-1]
    assert not first.minimal and first.necessary < first.size
    assert last.minimal and last.size < first.size and not last.stopped
    assert [c.size for c in found[:-1]] == sorted({c.size for c in found[:-1]}, reverse=True)
    assert all(a.seconds <= b.seconds for a, b in zip(found, found[1:]))
    assert "complete search" in first.proof
    for core in found:
        check_core(built, core)


@pytest.mark.parametrize(("row", "needed", "pattern"), [
    ("YA...", ["Y"], "Y...."), ("YE...", ["Y"], "Y...."), ("BA..O", ["B", "O"], "B...O")])
def test_a_slot_no_word_fits_keeps_only_the_letters_that_rule_every_word_out(
        make_words, tmp_path, row: str, needed: list[str], pattern: str) -> None:
    """Its minimal core is the slot and the given letters no word fits without: no word
    starts with Y, so the A or E beside it is not needed; BERRY and MANGO each fit one of
    B...O, so both letters are."""
    words = make_words(["APPLE", "BERRY", "MANGO", "LEMON"])
    built = build_problem(parse_grid(row + "\n"), words)
    found = list(successive_cores(built, 10))
    assert found[-1].minimal and [built.grid.cell(c) for c in found[-1].givens] == needed
    check_core(built, found[-1])
    grid, listed = tmp_path / "g.txt", tmp_path / "w.txt"
    grid.write_text(row + "\n")
    listed.write_text("APPLE\nBERRY\nMANGO\nLEMON\n")
    result = CliRunner().invoke(app, ["prove", str(grid), "--dict", str(listed), "--explain",
                                      "--json"])
    said = json.loads(result.stdout)["explanation"]
    assert said["patterns"] == {"1A": pattern} and said["sentence"].endswith(f"matches {pattern}")


def test_a_locked_entry_s_letters_are_called_locked_not_given(make_words) -> None:
    from xwsat.evidence.evidence_text import core_json
    from xwsat.evidence.explain import describe_core

    built = locked(make_words, "1A=ADA")
    core = list(successive_cores(built, 60))[-1]
    assert core.givens and set(core.givens) <= built.grid.locked
    lines = describe_core(built, core)
    assert [line.split()[0] for line in lines[-len(core.givens):]] == ["locked"] * len(core.givens)
    assert all(g["locked"] for g in core_json(built, core)["givens"])
    typed = build_problem(parse_grid("ADA\n...\n...\n"), make_words(WORDS))
    assert not typed.grid.locked  # the same letters typed into the grid are the grid's own


def test_a_locked_theme_word_is_a_candidate_of_its_own_slot_only(make_words) -> None:
    built = locked(make_words, "1A=AAD")  # not in the list: it would fit 1D (A..) too
    assert "AAD" in built.words.placed_only
    # without the grid's letters, the members' question: AAD stays a candidate of 1A only
    theme = built.words.words.index("AAD")
    blank = blank_problem(built)
    assert [blank.slot_names[s] for s in range(blank.n_slots)
            if theme in blank.candidates[s].tolist()] == ["1A"]
    assert all(len(c) == len(WORDS) + (s == 0) for s, c in enumerate(blank.candidates))
    found = list(successive_cores(built, 60))
    assert found and found[-1].minimal
    for core in found:
        check_core(built, core)


def test_a_limit_during_the_refinement_returns_the_best_core_not_minimal(
        make_words, monkeypatch) -> None:
    built = locked(make_words, "1A=ADA")
    real, seen = cores._Oracle.ask, []

    def slow_after_the_first_core(self, *args: object):
        if seen:
            time.sleep(0.4)
        return real(self, *args)

    monkeypatch.setattr(cores._Oracle, "ask", slow_after_the_first_core)
    best, stop = explain_anytime(built, 1.0, seen.append)
    assert stop is None and best is not None and len(seen) >= 2
    assert not best.minimal and best.stopped == "time limit"
    assert best.necessary < best.size
    check_core(built, best)


def test_the_certificate_s_slots_are_the_first_core_then_refined(tmp_path) -> None:
    grid = tmp_path / "twin.txt"
    grid.write_text(TWIN)
    words = SMALL / "words5_sub10.txt"
    result = CliRunner().invoke(app, ["prove", str(grid), "--dict", str(words), "--certificate",
                                      str(tmp_path / "cert"), "--explain", "--json"])
    assert result.exit_code == 1, result.output
    record = json.loads(result.stdout)
    kept = record["certificate"]["manifest"]["formula"]["slots"]
    explanation = record["explanation"]
    first = explanation["first"]
    assert first["proof"] == CERTIFIED_CORE and first["slots"] == kept and not first["minimal"]
    assert explanation["minimal"] and len(explanation["slots"]) < len(kept)
    assert set(explanation["slots"]) < set(kept)
    assert explanation["steps"][0]["seconds"] <= explanation["steps"][-1]["seconds"]
    # the final core on its own, by the Python search (not the compiled one that found it)
    from xwsat.evidence.drup_search import decide
    from xwsat.evidence.slot_core import restricted
    from xwsat.outcome import Status

    built = build_problem(parse_grid(TWIN), load_words(str(words)))
    index = {name: s for s, name in enumerate(built.problem.slot_names)}
    core = [index[name] for name in explanation["slots"]]
    assert decide(restricted(built.problem, core), None) is Status.UNFILLABLE
    for drop in core:
        rest = [s for s in core if s != drop]
        assert decide(restricted(built.problem, rest), None) is Status.FILLED
    # the minimal core has a certificate of its own, which check-proof verifies on the user's
    # grid and list, and which is about those slots only
    own = explanation["certificate"]
    assert own["checked"] and own["slots"] == explanation["slots"]
    assert own["folder"] == str(tmp_path / "cert" / "explanation")
    checked = CliRunner().invoke(app, ["check-proof", own["folder"], "--grid", str(grid),
                                       "--dict", str(words)])
    assert checked.exit_code == 1 and "VERIFIED: no fill exists for your grid" in checked.stdout
    assert f"the constraints of {len(core)} slots only" in checked.stdout


def test_the_text_shows_the_first_core_before_the_minimal_one(tmp_path) -> None:
    grid, words = tmp_path / "g.txt", tmp_path / "w.txt"
    grid.write_text(THREE)
    words.write_text("\n".join(WORDS) + "\n")
    result = CliRunner().invoke(app, ["prove", str(grid), "--dict", str(words), "--lock",
                                      "1A=ADA", "--explain"])
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert out.index("FIRST EXPLANATION") < out.index("EXPLANATION (minimal)")
    assert "not yet minimal" in out and "known unfillable by the compiled MAC search" in out
    assert "     1A  length  3  .DA" in out  # the core's own letters of the locked entry


def test_the_command_s_time_limit_during_a_call_ends_it_as_its_own_would(make_words,
                                                                         monkeypatch) -> None:
    # the command's watch fires when a call overran the explanation's share: the best core
    # is kept, said stopped by the time limit, and nothing is passed on (the verdict stands)
    from xwsat.guard import LimitReached
    from xwsat.outcome import Stop

    built = locked(make_words, "1A=ADA")
    real = cores.successive_cores

    def overrun(*args: object, **options: object):
        yield next(iter(real(*args, **options)))
        raise LimitReached(Stop.TIME, "time limit of 5 s reached")

    monkeypatch.setattr(cores, "successive_cores", overrun)
    best, stop = explain_anytime(built, 30)
    assert stop is None and best is not None and best.stopped == "time limit"
    assert not best.minimal
    check_core(built, best)
    memory = LimitReached(Stop.MEMORY, "memory limit reached")

    def out_of_memory(*args: object, **options: object):
        yield next(iter(real(*args, **options)))
        raise memory

    monkeypatch.setattr(cores, "successive_cores", out_of_memory)
    best, stop = explain_anytime(built, 30)
    assert stop is memory and best is not None and best.stopped == "memory limit reached"
