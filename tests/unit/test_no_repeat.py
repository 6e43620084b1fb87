"""The no-repeat rule counted (``xwsat.no_repeat``): against brute force, and through the
commands."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.grid import parse_grid
from xwsat.no_repeat import hall_set
from xwsat.problem import FillProblem, build_problem
from xwsat.words import build_wordlist

# twelve separate 3-letter slots: every search tries the permutations of eleven words
SEPARATE = ["...#...#...", "###########"] * 3 + ["...#...#..."]
ELEVEN = ["cat", "dog", "eel", "fox", "gnu", "hen", "ibx", "jay", "koi", "lyn", "maw"]


def problem_of(rows: list[str], words: list[str], repeats: bool = False) -> FillProblem:
    wordlist = build_wordlist({w: (50, None) for w in words}, source="sample")
    return build_problem(parse_grid("\n".join(rows)), wordlist, allow_repeats=repeats).problem


def matchable(problem: FillProblem) -> bool:
    """Brute force: can every slot take a different candidate (crossings ignored)?"""
    slots = range(problem.n_slots)
    for length in {problem.slot_length(s) for s in slots}:
        group = [s for s in slots if problem.slot_length(s) == length]
        lists = [sorted(set(problem.candidates[s].tolist())) for s in group]
        if not any(len(set(pick)) == len(pick) for pick in itertools.product(*lists)):
            return False
    return True


def test_more_slots_than_words_is_counted() -> None:
    found = hall_set(problem_of(SEPARATE, ELEVEN))
    assert found is not None
    assert len(found.slots) == 12 and len(found.words) == 11 and found.length == 3


def test_as_many_words_as_slots_is_not_a_hall_set() -> None:
    assert hall_set(problem_of(SEPARATE, [*ELEVEN, "nun"])) is None


def test_repeats_allowed_count_nothing() -> None:
    assert hall_set(problem_of(SEPARATE, ELEVEN, repeats=True)) is None


@pytest.mark.parametrize("seed", range(60))
def test_the_count_agrees_with_brute_force(seed: int) -> None:
    # separate 3-letter slots with given letters: each slot its own list of candidates
    rng = random.Random(seed)
    rows: list[str] = []
    for _ in range(rng.randint(3, 7)):
        rows += ["".join(rng.choice("AB") if rng.random() < 0.3 else "." for _ in range(3)),
                 "###"]
    pool = sorted({"".join(rng.choice("AB") for _ in range(3))
                   for _ in range(rng.randint(2, 8))})
    problem = problem_of(rows[:-1], pool)
    found = hall_set(problem)
    assert (found is None) == matchable(problem)
    if found is not None:  # the named slots really have fewer words than their number
        union = {w for s in found.slots for w in problem.candidates[s].tolist()}
        assert union == set(found.words) and len(union) < len(found.slots)


@pytest.fixture
def separate(tmp_path: Path) -> tuple[Path, Path]:
    grid, words = tmp_path / "separate.txt", tmp_path / "eleven.txt"
    grid.write_text("\n".join(SEPARATE) + "\n")
    words.write_text("\n".join(ELEVEN) + "\n")
    return grid, words


def test_fill_says_which_slots_and_words(separate) -> None:
    grid, words = separate
    result = CliRunner().invoke(app, ["fill", str(grid), "-d", str(words), "-t", "20"])
    assert result.exit_code == 1, result.output
    assert "UNFILLABLE by matching" in result.output
    assert "the 12 slots 1A, 2A" in result.output and "only 11 words" in result.output


def test_prove_explains_with_the_count_and_cross_checks_with_cp_sat(separate) -> None:
    grid, words = separate
    result = CliRunner().invoke(app, ["prove", str(grid), "-d", str(words), "-t", "30",
                                      "--explain", "--cross-check", "--json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.output[result.output.index("{"):])
    assert data["status"] == "unfillable"
    assert data["explanation"]["minimal"] is True
    assert len(data["explanation"]["slots"]) == 12
    assert data["cross_check"]["method"] == "cpsat" and data["cross_check"]["agree"] is True


def test_a_count_after_arc_consistency_is_certified_and_counted_again(tmp_path: Path) -> None:
    grid, words = forced(tmp_path)
    folder = tmp_path / "cert"
    result = CliRunner().invoke(app, ["prove", str(grid), "-d", str(words), "-t", "60",
                                      "--certificate", str(folder)])
    assert result.exit_code == 1, result.output
    assert "checked by counting again: 3 slots, and only 2 words" in result.output
    again = CliRunner().invoke(app, ["check-proof", str(folder), "--grid", str(grid),
                                     "--dict", str(words)])
    assert again.exit_code == 1, again.output
    assert "counted again after arc consistency (redone on plain sets)" in again.output


def test_a_proof_is_written_when_asked_for_one(tmp_path: Path) -> None:
    grid, words = forced(tmp_path)
    for extra in (["--whole-formula"], ["--proof-method", "cdcl"],
                  ["--proof-checker", "trail"]):
        folder = tmp_path / f"cert{len(list(tmp_path.iterdir()))}"
        result = CliRunner().invoke(app, ["prove", str(grid), "-d", str(words), "-t", "60",
                                          "--certificate", str(folder), *extra])
        assert result.exit_code == 1, result.output
        assert (folder / "formula.cnf").is_file() and not (folder / "count.txt").exists()


def test_a_slot_no_word_fits_is_not_a_count(tmp_path: Path) -> None:
    grid, words = tmp_path / "g.txt", tmp_path / "w.txt"
    grid.write_text("....#...\n")
    words.write_text("cat\ndog\n")
    folder = tmp_path / "cert"
    result = CliRunner().invoke(app, ["prove", str(grid), "-d", str(words), "--certificate",
                                      str(folder)])
    assert result.exit_code == 1, result.output
    assert not (folder / "count.txt").exists()


def forced(tmp_path: Path) -> tuple[Path, Path]:
    """A 2-letter down under each slot's first cell, every 2-letter word starting with S: only
    arc consistency leaves the slots the S-words, one fewer than the slots."""
    grid = tmp_path / "forced.txt"
    grid.write_text("\n".join(["...#...#...", ".###.###.##"]) + "\n")
    words = tmp_path / "words.txt"
    words.write_text("\n".join(["sad", "sly", "cat", "dog", "sa", "sb", "sc"]) + "\n")
    return grid, words


def test_info_names_the_count_after_arc_consistency(tmp_path: Path) -> None:
    grid, words = forced(tmp_path)
    result = CliRunner().invoke(app, ["info", str(grid), "-d", str(words)])
    assert result.exit_code == 0, result.output
    assert "unfillable by the no-repeat count: the 3 slots 1A, 2A, 3A" in result.output
    assert "after arc consistency only 2 words" in result.output
    filled = CliRunner().invoke(app, ["fill", str(grid), "-d", str(words)])
    assert filled.exit_code == 1 and "UNFILLABLE by matching" in filled.output


def test_a_certificate_of_the_count_has_no_proof_file_and_is_counted_again(tmp_path: Path
                                                                           ) -> None:
    # twenty-four slots and twenty-three words: a DRAT proof of this pigeonhole is out of reach
    grid, words = tmp_path / "grid.txt", tmp_path / "words.txt"
    grid.write_text("\n".join(["....#....#....", "#" * 14] * 7 + ["....#....#...."]) + "\n")
    pool = [a + b + c + "s" for a in "bcd" for b in "aeiou" for c in "lmn"][:23]
    words.write_text("\n".join(pool) + "\n")
    folder = tmp_path / "cert"
    runner = CliRunner()
    made = runner.invoke(app, ["prove", str(grid), "-d", str(words), "--certificate",
                               str(folder)])
    assert made.exit_code == 1, made.output
    assert "checked by counting again: 24 slots, and only 23 words" in made.output
    assert sorted(p.name for p in folder.iterdir()) == ["count.txt", "grid.txt",
                                                        "manifest.json", "words.txt.gz"]
    again = runner.invoke(app, ["check-proof", str(folder), "--grid", str(grid), "--dict",
                                str(words)])
    assert again.exit_code == 1 and "VERIFIED: no fill exists for your grid" in again.output
    # one more word: the same certificate no longer holds for that list
    more = tmp_path / "more.txt"
    more.write_text("\n".join([*pool, "fuzz"]) + "\n")
    other = runner.invoke(app, ["check-proof", str(folder), "--grid", str(grid), "--dict",
                                str(more)])
    assert other.exit_code == 4 and "another word list" in other.output
    # a manifest edited to name slots that have enough words between them is refused
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["proof"]["slots"] = manifest["proof"]["slots"][:20]
    (folder / "manifest.json").write_text(json.dumps(manifest))
    edited = runner.invoke(app, ["check-proof", str(folder), "--grid", str(grid), "--dict",
                                 str(words)])
    assert edited.exit_code == 4 and "the count fails" in edited.output


@pytest.mark.parametrize("forgery", ["count.txt", "lower case", "proof not an object"])
def test_forged_count_certificates_are_refused_without_a_traceback(separate, tmp_path: Path,
                                                                   forgery: str) -> None:
    from xwsat.evidence.certificate import sha256_file

    grid, words = separate
    folder = tmp_path / "cert"
    runner = CliRunner()
    assert runner.invoke(app, ["prove", str(grid), "-d", str(words), "--certificate",
                               str(folder)]).exit_code == 1
    manifest = json.loads((folder / "manifest.json").read_text())
    if forgery == "count.txt":  # a word the list does not have, for the reader
        text = (folder / "count.txt").read_text().replace("CAT", "ZZZ")
        (folder / "count.txt").write_text(text)
    elif forgery == "lower case":  # the grid's letters would then match nothing
        import gzip

        listed = gzip.decompress((folder / "words.txt.gz").read_bytes()).decode()
        (folder / "words.txt.gz").write_bytes(gzip.compress(listed.lower().encode()))
        manifest["rules"]["alphabet"] = "".join(sorted(set(listed.lower()) - {"\n"}))
    else:
        manifest["proof"] = "junk"
    for name in manifest["files"]:
        manifest["files"][name]["sha256"] = sha256_file(folder / name)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    result = runner.invoke(app, ["check-proof", str(folder)])
    assert result.exit_code == 4, result.output
    assert "NOT VERIFIED" in result.output and "Traceback" not in result.output


def test_the_checks_arc_consistency_stops_at_its_deadline_and_empty_words_are_refused(
        tmp_path: Path) -> None:
    import time

    from xwsat.evidence.count_certificate import PRUNED, OutOfTime, recount
    from xwsat.evidence.recheck import normalised

    grid, words = forced(tmp_path)
    question = parse_grid(grid.read_text())
    listed = ("SA", "SB", "SC", "CAT", "DOG", "SAD", "SLY")  # xwsat's order: by length
    with pytest.raises(OutOfTime):
        recount(question, listed, "ABCDGLOSTY", 2, False, PRUNED, time.monotonic() - 1)
    counted = recount(question, listed, "ABCDGLOSTY", 2, False, PRUNED)
    assert counted.fits["1A"] == {"SAD", "SLY"}
    assert normalised(listed, counted.rebuilt)
    assert not normalised(("", *listed), ("", *listed))


def test_count_says_no_fill_at_once(separate) -> None:
    grid, words = separate
    result = CliRunner().invoke(app, ["count", str(grid), "-d", str(words), "-t", "20"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("exactly 0 fills (12 slots of length 3 fit only 11")


def test_check_proof_refuses_an_impossible_min_length_in_one_line(separate, tmp_path: Path
                                                                  ) -> None:
    grid, words = separate
    folder = tmp_path / "cert"
    assert CliRunner().invoke(app, ["prove", str(grid), "-d", str(words), "--certificate",
                                    str(folder)]).exit_code == 1
    result = CliRunner().invoke(app, ["check-proof", str(folder), "--min-length", "0"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "xwsat: error: --min-length must be between 1 and 100"
