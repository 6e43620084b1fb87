"""The CP-SAT optimiser (best total score, checked against brute force), --lock and --region;
fill --optimize as a whole is tested in test_quality.py."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.errors import XwsatError
from xwsat.formats import read_puzzle
from xwsat.grid import parse_grid
from xwsat.lock import apply_locks, parse_lock, parse_region, region_grid
from xwsat.optimize import optimize_fill, weakest_entries
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.verify import check_fill
from xwsat.words import build_wordlist

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

# 3x3 open grid: rows and columns are 3-letter words. Scores make the greedy choice poor.
WORDS = {
    "CAT": 90, "ARE": 20, "TEN": 20, "ACE": 60, "ERA": 70, "ATE": 30, "TAN": 40, "NET": 50,
    "EAT": 80, "TEA": 10, "ART": 30, "RAT": 60, "ANT": 40, "TAR": 20, "CAR": 50, "ERE": 30,
    "AGE": 30, "GEE": 30, "TOE": 40, "ONE": 70, "EON": 20, "NEE": 10, "OAT": 30, "COT": 60,
}


def brute_force_best(words: dict[str, int]) -> int:
    """The best total over every distinct-word fill of the open 3x3 grid."""
    best = -1
    for rows in itertools.permutations(words, 3):
        cols = ["".join(r[i] for r in rows) for i in range(3)]
        used = list(rows) + cols
        if all(c in words for c in cols) and len(set(used)) == 6:
            best = max(best, sum(words[w] for w in used))
    return best


@pytest.fixture()
def dictionary():
    return build_wordlist({w: (s, f"clue {w}") for w, s in WORDS.items()}, None, "t")


def test_optimize_reaches_the_brute_force_optimum(dictionary):
    grid = parse_grid("...\n...\n...\n")
    result = fill_grid(grid, dictionary, FillOptions("cpsat", 10))
    assert result.outcome.fill is not None
    best = optimize_fill(result.built, result.outcome.fill, 10)
    assert best.total == brute_force_best(WORDS)
    assert best.optimal and best.total >= best.start_total
    filled = result.built.grid.with_letters(
        {c: ch for s, w in zip(result.built.slots, best.fill)
         for c, ch in zip(s.cells, dictionary.words[w])})
    assert check_fill(grid.rows, filled.rows, frozenset(dictionary.words)) == []
    weak = weakest_entries(result.built, best.fill, 2)
    assert len(weak) == 2 and weak[0][2] <= weak[1][2]


def _best_open3(words: dict[str, int]) -> int:
    """The best total of an open 3x3 fill with six distinct words: two rows, then each column
    from the words that start with its two letters (the third row is what they spell)."""
    by_prefix: dict[str, list[str]] = {}
    for w in words:
        by_prefix.setdefault(w[:2], []).append(w)
    best = -1
    for a in words:
        for b in words:
            columns = [by_prefix.get(a[i] + b[i], []) for i in range(3)]
            for cols in itertools.product(*columns):
                c = "".join(col[2] for col in cols)
                used = [a, b, c, *cols]
                if c in words and len(set(used)) == 6:
                    best = max(best, sum(words[x] for x in used))
    return best


def test_optimal_is_claimed_only_when_proven(monkeypatch) -> None:
    # a 3x3 with 400 scored words: the whole-grid model ran out of time before any
    # solution, CP-SAT's bound was then 0, which made the first fill's total the "bound" and a
    # better fill found later "optimal" (461) while 522 was possible
    import random

    from xwsat import optimize

    three = sorted({w.upper() for w in (ROOT / "grids" / "dictionaries" / "wamerican.txt")
                    .read_text(encoding="utf-8").split() if len(w) == 3 and w.isalpha()
                    and w.isascii() and w.islower()})
    rng = random.Random(7)
    words = {w: rng.randrange(101) for w in rng.sample(three, 400)}
    dictionary = build_wordlist({w: (s, None) for w, s in words.items()}, None, "t")
    grid = parse_grid("...\n...\n...\n")
    result = fill_grid(grid, dictionary, FillOptions("mac", 10))
    assert result.outcome.fill is not None
    monkeypatch.setattr(optimize, "FIRST_SHARE", 1e-6)  # the whole model: no time for a fill
    best = optimize.optimize_fill(result.built, result.outcome.fill, 1.0)
    truth = _best_open3(words)
    assert best.total <= truth <= best.bound
    assert not best.optimal or best.total == truth


def test_parse_lock_and_region():
    assert parse_lock("1a=ocean") == ("1A", "ocean")
    assert parse_lock(" 12 down = Río ") == ("12D", "Río")
    assert parse_region("2,3-4,5").contains(1, 2) and not parse_region("2,3-4,5").contains(0, 2)
    for bad in ("1=WORD", "A1=W", "1A"):
        with pytest.raises(XwsatError):
            parse_lock(bad)
    with pytest.raises(XwsatError):
        parse_region("3,3-1,1")


def test_lock_places_a_word_outside_the_dictionary(dictionary):
    grid = parse_grid("...\n...\n...\n")
    locked, words, placed = apply_locks(grid, dictionary, ["1A=ZZZ"])
    assert placed == {"1A": "ZZZ"} and "ZZZ" in words.words and locked.rows[0] == "ZZZ"
    assert words.alphabet.letters.startswith(dictionary.alphabet.letters)  # Z appended
    with pytest.raises(XwsatError, match="has 3 cells"):
        apply_locks(grid, dictionary, ["1A=CATS"])
    with pytest.raises(XwsatError, match="already"):
        apply_locks(grid, dictionary, ["1A=CAT", "1D=ERA"])
    with pytest.raises(XwsatError, match="no slot 9A"):
        apply_locks(grid, dictionary, ["9A=CAT"])


def test_region_keeps_the_outside_and_refills_the_inside():
    start = parse_grid("CAT\nARE\nTEN\n")
    grid, fixed = region_grid(start, parse_region("2,1-3,3"))
    assert grid.rows == ("CAT", "...", "...")
    assert [s.name for s in fixed] == ["1A"]
    with pytest.raises(XwsatError, match="outside the region and is empty"):
        region_grid(parse_grid("C.T\nARE\nTEN\n"), parse_region("3,1-3,3"))


@pytest.fixture()
def files(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("".join(f"{w};{s};clue {w.lower()}\n" for w, s in WORDS.items()),
                     encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("...\n...\n...\n", encoding="utf-8")
    return grid, words


def test_cli_lock_theme_word_outside_the_dictionary(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("AB\nTE\nCAT\nCB\n", encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("...\n.#.\n", encoding="utf-8")
    out = tmp_path / "locked.json"
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--lock", "1a=axt",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output  # AXT (and its X) joined the list, verified
    notes = [line for line in result.output.splitlines() if line.startswith("note:")]
    assert all("have no clue" in note for note in notes), notes  # nothing crosses the X
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["solution"] == ["AXT", "B#E"]
    plain = runner.invoke(app, ["fill", str(grid), "-d", str(words)])
    assert plain.exit_code == 0 and "C A T" in plain.output  # without the lock: CAT
    clash = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--lock", "1A=AXT",
                                "--lock", "1D=CB"])
    assert clash.exit_code == 2 and "already A, not C" in clash.output
    bad = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--lock", "1A=CATS"])
    assert bad.exit_code == 2 and "has 3 cells" in bad.output


def test_cli_a_locked_word_outside_the_dictionary_stays_in_its_slot(tmp_path):
    # with repeats allowed, the theme word joined the list for every slot and filled them all;
    # it is offered only where all its letters are given
    words = tmp_path / "w.txt"
    words.write_text("ABC\nBCA\nCAB\nACB\nBAC\nCBA\n", encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("...\n...\n...\n", encoding="utf-8")
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--lock", "1A=ZZZ",
                                 "--allow-repeats", "--json"])
    assert result.exit_code == 1, result.output  # no dictionary word starts with Z
    from xwsat.lock import apply_locks
    from xwsat.problem import build_problem
    from xwsat.words import load_words

    locked, grown, _ = apply_locks(parse_grid("...\n...\n...\n"), load_words(str(words)),
                                   ["1A=ZZZ"])
    built = build_problem(locked, grown, allow_repeats=True)
    zzz = grown.words.index("ZZZ")
    assert [zzz in c.tolist() for c in built.problem.candidates] == [
        name == "1A" for name in built.problem.slot_names]


def test_verifier_accepts_a_constructors_word_only_where_it_is_given():
    from xwsat.verify import check_fill

    words = frozenset({"AB", "BA", "AA", "BB"})
    assert check_fill(["ZZ", ".."], ["ZZ", "AB"], words - {"ZZ"}, True, 2, {"ZZ"}) == [
        "down at row 1, column 1: ZA is not a word", "down at row 1, column 2: ZB is not a word"]
    assert check_fill(["ZZ", "##"], ["ZZ", "##"], words, True, 2, {"ZZ"}) == []
    assert check_fill(["..", "##"], ["ZZ", "##"], words, True, 2, {"ZZ"}) == [
        "across at row 1, column 1: ZZ is not a word"]


def test_cli_lock_with_letters_the_dictionary_lacks_says_so(files):
    # a Latin word locked with -d ru ends as "unfillable": the note says why before it
    grid, words = files
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--lock", "1A=ZQX"])
    assert result.exit_code == 1
    assert "puts letters no dictionary word has (QXZ) where other entries cross" in result.output


def test_cli_lock_can_make_a_grid_unfillable(files):
    grid, words = files
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--lock", "1A=ZZZ"])
    assert result.exit_code == 1 and "UNFILLABLE" in result.output


# Two fills share the first row and the last column: ABC/DEF/GHI and ABC/JKF/LMI.
TWINS = ["ABC", "DEF", "GHI", "ADG", "BEH", "CFI", "JKF", "LMI", "AJL", "BKM"]
FIRST = ["--lock", "1A=ABC", "--lock", "4A=DEF", "--lock", "5A=GHI"]


@pytest.fixture()
def twins(tmp_path):
    words = tmp_path / "twins.txt"
    words.write_text("\n".join(TWINS) + "\n", encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("...\n...\n...\n", encoding="utf-8")
    return grid, words


def test_cli_region_refills_only_the_rectangle(twins, tmp_path):
    grid, words = twins
    filled = tmp_path / "filled.txt"
    first = runner.invoke(app, ["fill", str(grid), "-d", str(words), *FIRST, "--out", str(filled)])
    assert first.exit_code == 0, first.output
    again = tmp_path / "again.txt"
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "2,1-3,3",
                                 "--optimize", "-t", "5", "--out", str(again)])
    assert result.exit_code == 0, result.output  # the other fill with the same first row
    assert again.read_text(encoding="utf-8").split() == ["ABC", "JKF", "LMI"]
    assert "J K F" in result.output and "L M I" in result.output  # printed as written
    record = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "2,1-3,3",
                                 "--optimize", "-t", "5", "--json"])
    data = json.loads(record.stdout)  # one fill: the improved one, not the refill before it
    assert data["grid"] == ["ABC", "JKF", "LMI"] and "optimize" in data
    assert "alternatives" not in data
    bad = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--region", "1,1-1,1"])
    assert bad.exit_code == 2 and "outside the region" in bad.output


def test_cli_region_reads_the_solution_of_an_ipuz(twins, tmp_path):
    grid, words = twins
    filled = tmp_path / "filled.ipuz"
    assert runner.invoke(app, ["fill", str(grid), "-d", str(words), *FIRST, "--out",
                               str(filled)]).exit_code == 0
    before = read_puzzle(filled).solution
    again = tmp_path / "again.json"
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "1,1-3,2",
                                 "--out", str(again)])
    assert result.exit_code == 0, result.output
    after = json.loads(again.read_text(encoding="utf-8"))["solution"]
    assert before is not None and [row[2] for row in after] == [row[2] for row in before.rows]
    assert ["".join(row) for row in after] == ["ABC", "JKF", "LMI"]


class _SlowSolver:
    """Stands in for CpSolver: solves until asked to stop (or 5 s), like CP-SAT's search."""

    def __init__(self) -> None:
        import threading

        self.stop = threading.Event()

    def solve(self, model: object) -> int:
        return 7 if self.stop.wait(5.0) else 9

    def stop_search(self) -> None:
        self.stop.set()


def test_cpsat_stops_on_ctrl_c_and_only_then_says_interrupted() -> None:
    """The one CP-SAT runner of generate, freeform and optimise (xwsat.cpsat_thread)."""
    import signal
    import threading
    import time

    from xwsat.cpsat_thread import solve_stoppable

    quick = _SlowSolver()
    quick.stop.set()  # ends on its own: not an interruption
    assert solve_stoppable(quick, None) == (7, False)
    slow = _SlowSolver()
    timer = threading.Timer(0.2, signal.raise_signal, (signal.SIGINT,))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        started = time.monotonic()
        timer.start()
        assert solve_stoppable(slow, None) == (7, True)
        assert time.monotonic() - started < 2.0  # stopped at once, not at its own limit
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_a_stop_or_a_deadline_ends_the_solve_without_counting_as_ctrl_c() -> None:
    import threading
    import time

    from xwsat.cpsat_thread import solve_stoppable

    stop = threading.Event()
    stop.set()
    assert solve_stoppable(_SlowSolver(), None, stop) == (7, False)
    started = time.monotonic()
    assert solve_stoppable(_SlowSolver(), None, deadline=started + 0.2) == (7, False)
    assert time.monotonic() - started < 2.0


def test_cli_region_keeps_the_puzzles_own_clues_and_credits(twins, tmp_path):
    # --region replaced every clue with the dictionary's (or none) and the title and author with
    # the file name, although "the rest stays as it is"
    grid, words = twins
    filled = tmp_path / "filled.json"
    assert runner.invoke(app, ["fill", str(grid), "-d", str(words), *FIRST, "--out",
                               str(filled)]).exit_code == 0
    data = json.loads(filled.read_text(encoding="utf-8"))
    data.update(title="My puzzle", author="Me", copyright="(c) Me", notes="for Sunday")
    for entry in data["entries"]:
        entry["clue"] = f"my clue for {entry['answer']}"
    filled.write_text(json.dumps(data), encoding="utf-8")
    again = tmp_path / "again.json"
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "2,1-3,3",
                                 "--seed", "1", "--out", str(again)])
    assert result.exit_code == 0, result.output
    after = json.loads(again.read_text(encoding="utf-8"))
    assert (after["title"], after["author"], after["copyright"], after["notes"]) == (
        "My puzzle", "Me", "(c) Me", "for Sunday")
    for entry in after["entries"]:
        mine = f"my clue for {entry['answer']}"
        kept = any(e["slot"] == entry["slot"] and e["answer"] == entry["answer"]
                   for e in data["entries"])
        assert (entry["clue"] == mine) == kept, entry
    assert after["entries"][0]["clue"] == f"my clue for {after['entries'][0]['answer']}"
