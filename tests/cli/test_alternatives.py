"""Other fills: --count K --differ D (pairwise different, verified, best first) and --region
refills that must change, judged against the brute-force oracle."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from oracle import brute_fills, runs
from typer.testing import CliRunner

from xwsat.alternatives import find_alternatives, quality
from xwsat.cli import app
from xwsat.grid import parse_grid
from xwsat.pipeline import FillOptions
from xwsat.verify import check_fill
from xwsat.words import build_wordlist

runner = CliRunner()
# the open 3x3 has exactly 4 fills from these words, and each pair differs in every entry
WORDS = {
    "CAT": 90, "ARE": 20, "TEN": 20, "ACE": 60, "ERA": 70, "ATE": 30, "TAN": 40, "NET": 50,
    "EAT": 80, "TEA": 10, "ART": 30, "RAT": 60, "ANT": 40, "TAR": 20, "CAR": 50, "ERE": 30,
    "AGE": 30, "GEE": 30, "TOE": 40, "ONE": 70, "EON": 20, "NEE": 10, "OAT": 30, "COT": 60,
}
OPEN = "...\n...\n...\n"
# three fills share the first row: ABC/DEF/GHI, ABC/DEX/GHY (the same down entries but the
# last) and ABC/JKF/LMI (the same last down entry)
TRIPLETS = ["ABC", "DEF", "GHI", "ADG", "BEH", "CFI", "DEX", "GHY", "CXY", "JKF", "LMI", "AJL",
            "BKM"]
FIRST = ["--lock", "1A=ABC", "--lock", "4A=DEF", "--lock", "5A=GHI"]


def entries(rows: list[str]) -> list[str]:
    """The grid's entries in the oracle's run order (its own extraction)."""
    return ["".join(rows[r][c] for r, c in run) for run in runs(tuple(rows))]


def apart(first: list[str], second: list[str]) -> int:
    return sum(a != b for a, b in zip(entries(first), entries(second)))


@pytest.fixture()
def files(tmp_path: Path) -> tuple[Path, Path]:
    words = tmp_path / "w.txt"
    words.write_text("".join(f"{w};{s}\n" for w, s in WORDS.items()), encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text(OPEN, encoding="utf-8")
    return grid, words


def test_count_fills_differ_pairwise_are_verified_and_come_best_first(files):
    grid, words = files
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--count", "3",
                                 "--differ", "2", "-t", "30", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    fills = data["alternatives"]["fills"]
    assert data["alternatives"]["found"] == 3 and len(fills) == 3
    truth = brute_fills(OPEN, list(WORDS), allow_repeats=False)
    for i, fill in enumerate(fills):
        assert tuple(fill["grid"]) in truth
        assert check_fill(OPEN.split(), fill["grid"], WORDS) == []
        for other in fills[i + 1:]:
            assert apart(fill["grid"], other["grid"]) >= 2
    keys = [(-f["lowest"], f["at_lowest"], -f["total"]) for f in fills]
    assert keys == sorted(keys)
    assert data["grid"] == fills[0]["grid"]  # the record's own fill is the best


def test_a_count_beyond_the_fills_that_exist_is_reported_never_faked(files):
    grid, words = files
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--count", "6",
                                 "-t", "30"])
    assert result.exit_code == 0, result.output
    truth = brute_fills(OPEN, list(WORDS), allow_repeats=False)
    assert result.output.count("FILLED by") == len(truth) == 4
    assert "4 fills, best first; the time under each is its own search's" in result.output
    assert ("fill 5 of 6: none exists: no fill differs from the fills above in at least 1 entry"
            in result.output)


def test_find_alternatives_with_the_library(make_words):
    words = build_wordlist({w: (s, None) for w, s in WORDS.items()})
    found = find_alternatives(parse_grid(OPEN), words, FillOptions(backend="mac"), 2, 3,
                              lambda: 10.0)
    assert len(found.found) == 2 and all(r.verified for r in found.found)
    first, second = (r.filled.rows for r in found.found if r.filled is not None)
    assert apart(list(first), list(second)) >= 3
    assert quality(found.found[0]).key() <= quality(found.found[1]).key()


@pytest.fixture()
def triplets(tmp_path: Path) -> tuple[Path, Path, Path]:
    words = tmp_path / "triplets.txt"
    words.write_text("\n".join(TRIPLETS) + "\n", encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text(OPEN, encoding="utf-8")
    filled = tmp_path / "filled.txt"
    made = runner.invoke(app, ["fill", str(grid), "-d", str(words), *FIRST, "-o", str(filled)])
    assert made.exit_code == 0, made.output
    return grid, words, filled


def test_region_refill_differs_from_what_is_there(triplets, tmp_path):
    _, words, filled = triplets
    out = tmp_path / "again.txt"
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "2,1-3,3",
                                 "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = out.read_text(encoding="utf-8").split()
    assert rows[0] == "ABC" and rows != ["ABC", "DEF", "GHI"]
    assert check_fill(OPEN.split(), rows, set(TRIPLETS)) == []


def refill(words: Path, filled: Path, seed: int) -> tuple[str, ...]:
    """The rows of the refill of rows 2-3 under ``seed``."""
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "2,1-3,3",
                                 "--seed", str(seed), "--json"])
    assert result.exit_code == 0, result.output
    return tuple(json.loads(result.output)["grid"])


def test_seed_changes_the_region_refill(triplets):
    _, words, filled = triplets
    refills = {refill(words, filled, seed) for seed in range(8)}
    assert refills == {("ABC", "JKF", "LMI"), ("ABC", "DEX", "GHY")}


def test_region_refill_that_must_change_everything_it_can(triplets):
    _, words, filled = triplets
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "2,1-3,3",
                                 "--differ", "4", "--json"])
    assert result.exit_code == 0, result.output
    grid = json.loads(result.output)["grid"]  # the only one: the other changes 3 entries
    assert grid == ["ABC", "JKF", "LMI"] and apart(grid, ["ABC", "DEF", "GHI"]) == 4


def test_region_with_no_other_refill_is_proven_so(files, tmp_path):
    grid, words = files
    filled = tmp_path / "filled.txt"
    assert runner.invoke(app, ["fill", str(grid), "-d", str(words), "-o",
                               str(filled)]).exit_code == 0
    top = filled.read_text(encoding="utf-8").split()[0]
    others = [f for f in brute_fills(OPEN, list(WORDS), False) if f[0] == top]
    assert len(others) == 1  # the oracle: no other fill keeps the first row
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "2,1-3,3"])
    assert result.exit_code == 1 and "UNFILLABLE: no refill of the region" in result.output


def test_a_region_with_no_refill_at_all_says_so_not_that_none_differs(triplets):
    # a ban that leaves no refill, the entries there now included, was blamed on --differ
    _, words, filled = triplets
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "2,1-3,3",
                                 "--ban", "DEF", "--ban", "DEX", "--ban", "JKF"])
    assert result.exit_code == 1, result.output
    assert "UNFILLABLE: no refill of the region at all from the word list, which lacks 4A DEF " \
        "there now" in result.output


def test_a_region_with_no_fill_at_all_is_answered_by_one_search_more_not_by_every_choice(
        triplets, monkeypatch):
    # a kept entry the list lacks (its score below --min-score, or banned) and no refill at
    # all: the first choice of slots to change is refuted, then the grid itself, and that is
    # the answer (it took every choice of slots in turn, the whole limit on a 21x21)
    from xwsat import alternatives

    real, calls = alternatives.fill_grid, []

    def counted(*args, **kwargs):
        calls.append(args[2].exclude)
        return real(*args, **kwargs)

    monkeypatch.setattr(alternatives, "fill_grid", counted)
    _, words, filled = triplets
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "2,1-3,3",
                                 "--differ", "2", "--ban", "DEF", "--ban", "DEX", "--ban",
                                 "JKF"])
    assert result.exit_code == 1, result.output
    assert "no refill of the region at all from the word list, which lacks 4A DEF" in \
        result.output
    assert len(calls) == 2 and calls[0] and not calls[1]  # one choice, then none


def test_a_region_below_the_minimum_score_with_no_refill_is_refuted_at_once(tmp_path,
                                                                           monkeypatch):
    from xwsat import alternatives

    real, calls = alternatives.fill_grid, []
    monkeypatch.setattr(alternatives, "fill_grid",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    words = tmp_path / "scored.txt"  # DEF and DEX, the middle row's words, below 50
    words.write_text("".join(f"{w};{20 if w in ('DEF', 'DEX') else 60}\n" for w in TRIPLETS),
                     encoding="utf-8")
    filled = tmp_path / "filled.txt"
    filled.write_text("ABC\nDEF\nGHI\n", encoding="utf-8")
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--min-score", "50",
                                 "--region", "2,1-2,3"])
    assert result.exit_code == 1, result.output
    assert "which lacks 4A DEF there now" in result.output and len(calls) == 1


@pytest.mark.parametrize("args, message", [
    (["--count", "0"], "--count must be between"),
    (["--count", "101"], "--count must be between"),
    (["--count", "2", "--differ", "0"], "--differ must be"),
    (["--differ", "2"], "give --count K or --region"),
    (["--count", "2", "--optimize"], "--optimize improves one fill"),
    (["--count", "2", "--differ", "7"], "only 6 entries can change"),
])
def test_bad_count_and_differ_values_are_one_line_errors(files, args, message):
    grid, words = files
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), *args])
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_an_interruption_keeps_the_fills_found(monkeypatch):
    from xwsat import alternatives
    from xwsat.outcome import Status, Stop

    real, calls = alternatives.fill_grid, []

    def stopped_after_one(*args, **kwargs):
        calls.append(1)
        if len(calls) > 1:
            raise KeyboardInterrupt  # Ctrl-C, or the command's limit, during the second search
        return real(*args, **kwargs)

    monkeypatch.setattr(alternatives, "fill_grid", stopped_after_one)
    words = build_wordlist({w: (s, None) for w, s in WORDS.items()})
    found = find_alternatives(parse_grid(OPEN), words, FillOptions(backend="mac"), 3, 1,
                              lambda: 10.0)
    assert len(found.found) == 1 and found.found[0].verified
    assert found.status is Status.FILLED and found.last.outcome.stop is Stop.INTERRUPTED
    assert "not found within the limits (interrupted)" in found.text(3, 1, False)


def test_the_same_seed_gives_the_same_refill(triplets):
    _, words, filled = triplets
    for seed in (0, 1):
        assert refill(words, filled, seed) == refill(words, filled, seed), seed


@pytest.mark.parametrize("scores_seed", range(8))
def test_a_region_refill_climbed_claims_only_what_holds_for_every_refill(tmp_path, scores_seed):
    # the climb once ran on the refill's own search problem, where the entry there now was
    # taken out of one slot: it "proved" no refill at a level that another refill reached
    import random

    draw = random.Random(scores_seed)
    scores = {w: draw.choice([10, 20, 30, 40, 50, 60]) for w in TRIPLETS}
    words = tmp_path / "w.txt"
    words.write_text("".join(f"{w};{s}\n" for w, s in scores.items()), encoding="utf-8")
    filled = tmp_path / "filled.txt"
    filled.write_text("ABC\nDEF\nGHI\n", encoding="utf-8")
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "2,1-3,3",
                                 "--optimize", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    counted = [e for e in entries(data["grid"]) if e != "ABC"]  # 1A is kept: no level of its own
    assert apart(data["grid"], ["ABC", "DEF", "GHI"]) >= 1
    refills = [f for f in brute_fills(OPEN, TRIPLETS, False)
               if f[0] == "ABC" and apart(list(f), ["ABC", "DEF", "GHI"]) >= 1]
    best = max(min(scores[e] for e in entries(list(f)) if e != "ABC") for f in refills)
    record = data["optimize"]
    if record.get("improved") is False:  # the refill kept as found
        return
    assert record["level"] == min(scores[e] for e in counted)
    if record["proven"]:
        assert best == record["level"], (scores, record)
    assert record["level"] <= best


def test_a_stop_before_the_first_fill_is_answered_as_undecided(monkeypatch):
    # the KeyboardInterrupt went up to the command, which printed nothing on standard output
    import xwsat.alternatives as alternatives
    from xwsat.outcome import Status, Stop

    def stopped_search(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(alternatives, "fill_grid", stopped_search)
    words = build_wordlist({w: (50, None) for w in WORDS}, source="inline")
    found = find_alternatives(parse_grid(OPEN), words, FillOptions("mac"), 2, 1, lambda: 5.0)
    assert found.found == () and found.status is Status.UNKNOWN
    assert found.last.outcome.stop is Stop.INTERRUPTED


def test_a_locked_entry_is_left_out_of_the_ranking_of_the_fills(files):
    grid, words = files  # TEA scores 10, the lowest of the list: locked, it is not the fill's
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--count", "2",
                                 "--lock", "1A=TEA", "-t", "30", "--json"])
    data = json.loads(result.output)
    assert data["alternatives"]["fills"], result.output
    for fill in data["alternatives"]["fills"]:
        chosen = [w for w in entries(fill["grid"]) if w != "TEA"]
        scores = [WORDS[w] for w in chosen]
        assert (fill["lowest"], fill["at_lowest"], fill["total"]) == (
            min(scores), scores.count(min(scores)), sum(scores))
    text = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--count", "2",
                               "--lock", "1A=TEA", "-t", "30"]).output
    assert "(locked and kept entries not counted)" in text


def optimized_refill(filled: Path, tmp_path: Path, at_50: tuple[str, ...]) -> dict:
    """The --json record of rows 2-3 refilled with --optimize, the words ``at_50`` scored 50
    and the other triplets 10."""
    scored = tmp_path / "scored.txt"
    scored.write_text("".join(f"{w};{50 if w in at_50 else 10}\n" for w in TRIPLETS),
                      encoding="utf-8")
    result = runner.invoke(app, ["fill", str(filled), "-d", str(scored), "--region", "2,1-3,3",
                                 "--optimize", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_region_refill_optimize_finds_the_better_of_two_refills(triplets, tmp_path):
    # the two refills of rows 2-3: DEX/GHY (3 entries at 10) and JKF/LMI (4 at 10); the one
    # found first was kept, whichever it was
    _, _, filled = triplets
    record = optimized_refill(filled, tmp_path, ("ABC", "DEF", "GHI", "ADG", "BEH", "CFI"))
    assert record["grid"] == ["ABC", "DEX", "GHY"] and record["optimize"]["at_level"] == 3


def test_a_region_refill_optimize_could_not_better_says_so_in_its_record(triplets, tmp_path):
    _, _, filled = triplets  # the two other refills have 3 entries at 10 each, the same total
    record = optimized_refill(filled, tmp_path, ("ABC", "DEF", "GHI", "ADG", "BEH", "CFI", "AJL"))
    assert record["grid"] != ["ABC", "DEF", "GHI"]
    assert record["optimize"] == {"improved": False, "message": (
        "no better refill of the region (changing at least 1 of its entries) was found; the "
        "refill is kept as found")}


def drawn_words(draw_seed: int) -> dict[str, int]:
    """150 three-letter words of the embedded list, with its scores, drawn by the seed."""
    import random

    from xwsat.words import load_words

    en = load_words("en", 0)
    three = [(w, int(s)) for w, s in zip(en.words, en.scores) if len(w) == 3]
    return dict(random.Random(draw_seed).sample(three, 150))


def ranked_fills(scores: dict[str, int]) -> tuple[list[tuple[str, ...]], Callable]:
    """Every fill of the open 3x3 from the words, best first as constructors rank them."""

    def key(fill: tuple[str, ...]) -> tuple[int, int, int]:
        got = [scores[e] for e in entries(list(fill))]
        return -min(got), got.count(min(got)), -sum(got)

    return sorted(brute_fills(OPEN, list(scores), False), key=key), key


def test_a_region_refill_optimized_is_the_best_that_changes_an_entry(tmp_path):
    scores = drawn_words(3)
    every, key = ranked_fills(scores)
    current = every[0]  # the best fill there is: the region's whole grid
    others = [f for f in every if apart(list(f), list(current)) >= 1]
    words = tmp_path / "w.txt"
    words.write_text("".join(f"{w};{s}\n" for w, s in scores.items()), encoding="utf-8")
    filled = tmp_path / "filled.txt"
    filled.write_text("\n".join(current) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "1,1-3,3",
                                 "--optimize", "-t", "30", "--json"])
    assert result.exit_code == 0, result.output
    grid = tuple(json.loads(result.stdout)["grid"])
    assert apart(list(grid), list(current)) >= 1 and key(grid) == key(others[0])


@pytest.mark.parametrize("draw_seed", [3, 8, 15])
def test_the_refill_that_differs_is_bettered_to_the_best_that_differs(draw_seed):
    # the first refill that differs from the best fill (here the worst one) was kept as it
    # was found: 16 entries at 50 on a NYT grid where a refill as good as the grid existed
    from xwsat.grid import parse_grid
    from xwsat.problem import build_problem
    from xwsat.quality.refill import _best_changing

    scores = drawn_words(draw_seed)
    every, key = ranked_fills(scores)
    current = every[0]
    level = -key(current)[0]
    others = [f for f in every if apart(list(f), list(current)) >= 1 and -key(f)[0] == level]
    assert len({key(f) for f in others}) > 1  # a worse one to start from
    built = build_problem(parse_grid(OPEN), build_wordlist({w: (s, None)
                                                            for w, s in scores.items()}))
    index = {w: i for i, w in enumerate(built.words.words)}

    def ids(fill: tuple[str, ...]) -> tuple[int, ...]:
        return tuple(index["".join(fill[c // 3][c % 3] for c in slot.cells)]
                     for slot in built.slots)

    now = tuple(built.words.words[i] for i in ids(current))
    best = _best_changing(built, ids(others[-1]), now, range(6), 1, level, False,
                          frozenset(), 20.0, FillOptions(backend="mac"), None)
    got = [scores[built.words.words[i]] for i in best]
    assert best != ids(current)
    assert (-min(got), got.count(min(got)), -sum(got)) == key(others[0])
