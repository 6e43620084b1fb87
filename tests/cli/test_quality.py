"""fill --optimize: the highest score level with its proof, then the best fill there; and the
upper look that makes plain fill prefer the upper tier. Checked against brute force on an open
3x3 (rows and columns are six distinct words)."""

from __future__ import annotations

import itertools
import json
import random
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.grid import parse_grid
from xwsat.lock import apply_locks
from xwsat.optimize import Valuation
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.quality import ladder
from xwsat.quality.best import best_at_level
from xwsat.quality.branch_bound import branch_and_bound
from xwsat.quality.levels import exempt_slots, fill_level, levels
from xwsat.quality.run import improve
from xwsat.quality.upper import upper_level
from xwsat.words import build_wordlist

ROOT = Path(__file__).resolve().parents[2]
OPEN3 = "...\n...\n...\n"
runner = CliRunner()

# tiers 10-90: the greedy first fill is poor; the highest level is below the top
WORDS = {
    "CAT": 90, "ARE": 20, "TEN": 20, "ACE": 60, "ERA": 70, "ATE": 30, "TAN": 40, "NET": 50,
    "EAT": 80, "TEA": 10, "ART": 30, "RAT": 60, "ANT": 40, "TAR": 20, "CAR": 50, "ERE": 30,
    "AGE": 30, "GEE": 30, "TOE": 40, "ONE": 70, "EON": 20, "NEE": 10, "OAT": 30, "COT": 60,
}


def fills(words: dict[str, int], first: str | None = None) -> list[list[int]]:
    """The scores of the six entries of every fill of the open 3x3 (its first row ``first``,
    when given, left out: a locked entry)."""
    by_prefix: dict[str, list[str]] = {}
    for w in words:
        by_prefix.setdefault(w[:2], []).append(w)
    found = []
    for a in words:
        for b in words:
            for cols in itertools.product(*[by_prefix.get(a[i] + b[i], []) for i in range(3)]):
                c = "".join(col[2] for col in cols)
                used = [a, b, c, *cols]
                if c in words and len(set(used)) == 6 and first in (None, a):
                    found.append([words[x] for x in used[first is not None:]])
    return found


def truth(words: dict[str, int]) -> tuple[int, int, int]:
    """The highest level, the fewest entries there, and the best total at that count."""
    every = fills(words)
    level = max(min(f) for f in every)
    at = [f for f in every if min(f) == level]
    fewest = min(f.count(level) for f in at)
    return level, fewest, max(sum(f) for f in at if f.count(level) == fewest)


def wordlist(words: dict[str, int]):
    return build_wordlist({w: (s, None) for w, s in words.items()}, None, "t")


def first_fill(words: dict[str, int], grid: str = OPEN3, seed: int = 0):
    result = fill_grid(parse_grid(grid), wordlist(words),
                       FillOptions("mac", 10, seed=seed, upper_first=False))
    assert result.outcome.fill is not None
    return result


def many_scores(seed: int) -> dict[str, int]:
    three = sorted({w.upper() for w in (ROOT / "grids" / "dictionaries" / "wamerican.txt")
                    .read_text(encoding="utf-8").split() if len(w) == 3 and w.isalpha()
                    and w.isascii() and w.islower()})
    rng = random.Random(seed)
    return {w: rng.randrange(101) for w in rng.sample(three, 300)}


def test_climb_reaches_the_highest_level_and_refutes_the_next():
    result = first_fill(WORDS)
    climbed = ladder.climb(result.built, result.outcome.fill, FillOptions("mac"), 10)
    level = truth(WORDS)[0]
    assert climbed.level == level and climbed.level >= climbed.start_level
    assert climbed.proven and climbed.ceiling == climbed.next_level == level + 10
    assert climbed.evidence is not None and climbed.evidence.method
    assert fill_level(result.built, climbed.fill, frozenset()) == level


@pytest.mark.parametrize("seed", [1, 2])
def test_many_scores_are_climbed_by_bisection(seed):
    words = many_scores(seed)
    result = first_fill(words)
    built = result.built
    climbed = ladder.climb(built, result.outcome.fill, FillOptions("mac"), 20)
    assert climbed.level == truth(words)[0] and climbed.proven
    n_levels = len([v for v in levels(built.problem, frozenset()) if v > climbed.start_level])
    assert len(n_levels * [0]) > 20  # many levels above the first fill ...
    assert len(climbed.steps) <= 2 * (n_levels.bit_length() + 1)  # ... few searches


def test_each_raised_fill_is_handed_on_as_it_comes():
    words = many_scores(2)
    result = first_fill(words)
    heard: list[tuple[tuple[int, ...], int]] = []
    climbed = ladder.climb(result.built, result.outcome.fill, FillOptions("mac"), 20,
                           on_fill=lambda fill, level: heard.append((fill, level)))
    assert heard and heard[-1] == (climbed.fill, climbed.level)
    assert [level for _, level in heard] == sorted({level for _, level in heard})
    assert all(fill_level(result.built, fill, frozenset()) == level for fill, level in heard)


def test_the_workbench_shows_the_ladder_level_and_its_proof():
    from xwsat.workbench import searches

    words = many_scores(1)
    answer = searches.autofill(parse_grid(OPEN3), wordlist(words),
                               FillOptions("mac", 10, upper_first=False), 10)
    assert answer["status"] == "filled"
    assert answer["level"] == truth(words)[0] and answer["proven"] is True
    assert min(w["score"] for w in answer["weakest"]) == answer["level"]
    why = answer["why_not"]  # the slots that cannot all reach the level above (brute force)
    names = ["1A", "4A", "5A", "1D", "2D", "3D"]
    assert why["level"] > answer["level"] and why["minimal"] and set(why["slots"]) <= set(names)
    assert all(any(score < why["level"] for name, score in zip(names, f) if name in why["slots"])
               for f in fills(words))
    assert why["cells"] and set(why["cells"]) <= set(range(9))


def test_locked_entries_do_not_count_toward_the_level():
    words = many_scores(1)
    assert words["MPG"] == 1  # locked as the first row, the rest fills at level 34
    level = max(min(f) for f in fills(words, "MPG"))
    grid, grown, _ = apply_locks(parse_grid(OPEN3), wordlist(words), ["1A=MPG"])
    result = fill_grid(grid, grown, FillOptions("mac", 10, upper_first=False))
    assert result.outcome.fill is not None
    built = result.built
    assert [built.slots[s].name for s in exempt_slots(built)] == ["1A"]
    climbed = ladder.climb(built, result.outcome.fill, FillOptions("mac"), 10)
    assert level == 34 and climbed.level == level and climbed.proven


def test_a_limit_returns_the_fill_it_started_from():
    result = first_fill(WORDS)
    climbed = ladder.climb(result.built, result.outcome.fill, FillOptions("mac"), 0.0)
    assert climbed.fill == result.outcome.fill and climbed.level == climbed.start_level
    assert not climbed.steps and not climbed.proven


def test_an_unproven_level_above_is_offered_with_a_longer_limit_not_as_a_certificate():
    from xwsat.commands.fill import LONGER_PROOF_S, _prove_hint, _why_lines
    from xwsat.commands.options import Rules, Words
    from xwsat.quality.report import quality_lines
    from xwsat.quality.run import Quality
    from xwsat.quality.why import why_not_higher

    result = first_fill(WORDS)
    grid, words, rules = Path("g.txt"), Words(dictionary=["w.txt"]), Rules()
    for limit in (0.0, 10.0):
        climbed = ladder.climb(result.built, result.outcome.fill, FillOptions("mac"), limit)
        quality = Quality(climbed, None, frozenset(), {}, 90)
        hint = _prove_hint(grid, words, rules, quality, [], "")
        lines = "\n".join(quality_lines(result.built, quality, hint))
        assert hint is not None and hint.endswith("--certificate DIR")
        longer = f"-t {LONGER_PROOF_S:g}"
        if climbed.proven:
            assert f"the certificate of level {climbed.next_level}: " in lines
            assert longer not in hint
        else:
            assert f"to decide level {climbed.next_level} with a longer limit: " in lines
            assert longer in hint and "certificate of level" not in lines
            explain = _prove_hint(grid, words, rules, quality, [], "", ("--explain",))
            why = _why_lines(quality, why_not_higher(result.built, quality, 5.0), explain)
            assert why[0].startswith("why not higher: ") and "not proven unfillable" in why[0]
            assert why[1].endswith(f"{longer} --explain") and "--certificate" not in why[1]


@pytest.mark.parametrize(("fewest", "says"), [(0, "none is proven needed"),
                                              (2, "at least 2 must be at 30")])
def test_an_unproven_best_fill_says_how_many_entries_at_its_level_are_proven_needed(fewest, says):
    from xwsat.optimize import Optimized
    from xwsat.quality.best import Best
    from xwsat.quality.report import quality_lines
    from xwsat.quality.run import Quality

    result = first_fill(WORDS)
    climbed = ladder.climb(result.built, result.outcome.fill, FillOptions("mac"), 0.0)
    fill = result.outcome.fill
    best = Best(fill, 30, 4, fewest, 200, None, False, Optimized(fill, 200, 300, False, 0, 0.1,
                                                                 200, decisions=9))
    lines = quality_lines(result.built, Quality(climbed, best, frozenset(), {}, 90), None)
    line = next(x for x in lines if x.startswith("best fill at level 30"))
    assert f"4 entries at 30, total score 200 (not proven the fewest: {says}; 9 " in line


def test_ctrl_c_returns_the_best_fill_so_far(monkeypatch):
    words = many_scores(3)
    result = first_fill(words)
    real = ladder.solve_built
    calls = []

    def second_call_interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(ladder, "solve_built", second_call_interrupted)
    climbed = ladder.climb(result.built, result.outcome.fill, FillOptions("mac"), 20)
    assert climbed.interrupted and [s.status for s in climbed.steps][1:] == ["interrupted"]
    assert fill_level(result.built, climbed.fill, frozenset()) == climbed.level
    assert climbed.level >= climbed.start_level


def test_best_fill_at_the_level_has_the_fewest_entries_there_then_the_best_total():
    result = first_fill(WORDS)
    improved, found = improve(result, FillOptions("mac"), 10)
    level, fewest, total = truth(WORDS)
    assert improved.verified and found.best is not None
    assert (found.best.level, found.best.at_level, found.best.total) == (level, fewest, total)
    assert found.best.optimal and found.best.fewest == fewest


def test_the_record_of_a_climb_stopped_before_its_best_fill_has_every_field():
    """Scripts read the documented fields: a stop before the best fill gives the counts of the
    fill it has (they were null, where the text said them), and null for what needs a bound."""
    from dataclasses import replace

    from xwsat.quality.report import quality_json

    result = first_fill(WORDS)
    improved, found = improve(result, FillOptions("mac"), 10)
    whole = quality_json(improved.built, found, None)
    cut = quality_json(improved.built, replace(found, best=None), None)
    assert set(cut) == set(whole)
    assert (cut["at_level"], cut["total_score"]) == (whole["at_level"], whole["total_score"])
    assert (cut["fewest_at_level"], cut["total_bound"], cut["optimal"]) == (None, None, False)


def test_optimize_stops_when_the_bound_is_met():
    words = {w: 50 for w in WORDS}  # one score: the first fill is optimal
    result = first_fill(words)
    started = time.monotonic()
    _, found = improve(result, FillOptions("mac"), 20)
    assert time.monotonic() - started < 5
    assert found.best is not None and found.best.optimal and found.best.search.rounds == 0
    assert found.climb.next_level is None and found.climb.proven


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_optimize_is_never_worse_than_plain_fill(seed):
    words = many_scores(10 + seed)
    result = first_fill(words, seed=seed)
    plain = sorted(words[result.built.words.words[w]] for w in result.outcome.fill)
    improved, found = improve(result, FillOptions("mac", seed=seed), 5)
    assert improved.verified and improved.outcome.fill == found.fill
    better = sorted(words[result.built.words.words[w]] for w in found.fill)
    assert (better[0], -better.count(better[0]), sum(better)) >= (
        plain[0], -plain.count(plain[0]), sum(plain))


def test_upper_level_is_the_top_tier_that_keeps_a_third():
    result = first_fill(WORDS)
    assert upper_level(result.built.problem, frozenset()) == 50  # 50+ keeps 9 of 24 words
    one = first_fill({w: 50 for w in WORDS})
    assert upper_level(one.built.problem, frozenset()) is None  # one score: no look


def test_plain_fill_takes_an_upper_tier_fill_when_there_is_one():
    level = truth(WORDS)[0]  # the words scored 20 or more fill the grid: the upper tier
    words = {w: (50 if s >= level else 40) for w, s in WORDS.items()}
    grid, dictionary = parse_grid(OPEN3), wordlist(words)
    result = fill_grid(grid, dictionary, FillOptions("auto", 10))
    assert result.verified and result.outcome.stats.extra.get("upper_level") == 50
    assert {words[result.built.words.words[w]] for w in result.outcome.fill} == {50}
    # named as the look that found it, whatever the back-end (-b mac:words read "by mac")
    for backend in ("auto", "mac:words"):
        found = fill_grid(grid, dictionary, FillOptions(backend, 10)).outcome
        assert found.method == "mac (upper look)", (backend, found.method)
    plain = fill_grid(grid, dictionary, FillOptions("auto", 10, upper_first=False))
    assert "upper_level" not in plain.outcome.stats.extra


@pytest.fixture()
def files(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("".join(f"{w};{s}\n" for w, s in WORDS.items()), encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text(OPEN3, encoding="utf-8")
    return grid, words


def test_cli_optimize_reports_the_level_its_proof_and_the_tiers(files):
    grid, words = files
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "10",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)["optimize"]
    level, fewest, total = truth(WORDS)
    assert (data["level"], data["proven"], data["next_level"]) == (level, True, level + 10)
    assert (data["at_level"], data["total_score"], data["optimal"]) == (fewest, total, True)
    assert sum(data["tiers"].values()) == 6 and len(data["weak"]) == 6
    assert f"--min-score {level + 10} --certificate DIR" in data["prove_command"]
    text = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "10"])
    assert f"level {level} reached, proven the highest: no fill at {level + 10}" in text.output
    assert "entries per score:" in text.output and "weak entries" in text.output


def test_a_fill_whose_later_stage_was_stopped_says_so_and_exits_3(files, monkeypatch):
    """Ctrl-C in the climb or its explanation: the fill found is printed and written, and
    the command ends as stopped (exit 3, "stop"), as docs/limits.md says of a later stage."""
    from xwsat import guard

    grid, words = files
    monkeypatch.setattr(guard, "user_stopped", lambda: True)
    out = grid.parent / "out.txt"
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "10",
                                 "--json", "--out", str(out)])
    assert result.exit_code == 3, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "filled" and record["stop"] == "interrupted"
    assert record["optimize"]["interrupted"] is True and out.exists()
    assert result.stderr.strip() == "xwsat: interrupted"


def test_the_time_limit_in_the_climbs_own_work_keeps_the_fill_found(files, monkeypatch):
    """The command's limit raised in the climb's bookkeeping (outside its searches) ended the
    command as undecided, with no grid and no --out file, where plain fill printed a fill."""
    from xwsat import guard
    from xwsat.outcome import Stop
    from xwsat.quality import run

    def late(*args, **kwargs):
        raise guard.LimitReached(Stop.TIME, "time limit of 10 s reached")

    monkeypatch.setattr(run, "improve", late)
    grid, words = files
    out = grid.parent / "out.txt"
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "10",
                                 "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "filled" and record["grid"] and out.exists()
    assert "time limit of 10 s reached before the climb had a level" in result.stderr


def test_a_rule_prove_cannot_check_gets_no_prove_command(files):
    """prove checks the standard rules: offering it for a climb under --max-shared-substring
    would answer another question (and could come back fillable)."""
    grid, words = files
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "10",
                                 "--max-shared-substring", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["optimize"]["prove_command"] is None
    explain = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize",
                                  "--explain", "--max-shared-substring", "2"])
    assert explain.exit_code == 2 and "standard rules" in explain.output


def test_cli_optimize_explain_names_slots_that_cannot_all_reach_the_level_above(files):
    grid, words = files
    level = truth(WORDS)[0]
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "--explain",
                                 "-t", "20", "--json"])
    assert result.exit_code == 0, result.output
    why = json.loads(result.output)["optimize"]["why"]
    assert why["level"] == level + 10 and why["reason"] is None and why["core"]["minimal"]
    core = why["core"]["slots"]
    names = ["1A", "4A", "5A", "1D", "2D", "3D"]  # the entries of ``fills``, in its order
    assert core and set(core) <= set(names)
    # checked by brute force: in every fill of the grid, one of the core's entries is below it
    every = fills(WORDS)
    assert every and all(any(score < level + 10 for name, score in zip(names, f)
                             if name in core) for f in every)
    text = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "--explain",
                               "-t", "20"]).output
    assert f"why not {level + 10}: the slots that cannot be filled together at" in text
    assert "EXPLANATION (minimal)" in text


def test_the_explanation_of_a_locked_grid_is_of_the_level_above_not_of_the_whole_list(files):
    # with given letters the explanation searched the grid without them, built again from the
    # whole list: the level was lost, the grid found fillable, and --explain ended in an
    # internal error (exit 4) with no fill printed
    grid, words = files
    every = fills(WORDS, "TEA")  # the only first row that fills: its level is 10
    assert every and max(min(f) for f in every) == 10
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--lock", "1A=TEA",
                                 "--optimize", "--explain", "-t", "20", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    why = record["optimize"]["why"]
    assert record["optimize"]["level"] == 10 and why["level"] == 20 and why["core"]["minimal"]
    core = why["core"]["slots"]
    names = ["4A", "5A", "1D", "2D", "3D"]  # the entries of ``fills`` after the first
    assert core and set(core) <= set(names)
    assert all(any(score < 20 for name, score in zip(names, f) if name in core) for f in every)


def test_an_explanation_that_fails_keeps_the_fill_and_says_so(files, monkeypatch):
    from xwsat.evidence import cores

    def contradicted(*args, **kwargs):
        raise ValueError("the grid is fillable: there is nothing to explain")

    monkeypatch.setattr(cores, "explain_anytime", contradicted)
    grid, words = files
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "--explain",
                                 "-t", "20"])
    assert result.exit_code == 0, result.output
    assert "FILLED" in result.output and "contradicts the climb" in result.output


def test_cli_explain_on_fill_needs_optimize(files):
    grid, words = files
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--explain"])
    assert result.exit_code == 2 and "give --optimize too" in result.output


def test_nothing_to_explain_when_the_level_above_is_undecided():
    from xwsat.quality.run import Quality
    from xwsat.quality.why import unexplained, why_not_higher

    result = first_fill(WORDS)
    climbed = ladder.climb(result.built, result.outcome.fill, FillOptions("mac"), 0.0)
    quality = Quality(climbed, None, frozenset(), {}, 90)
    assert not climbed.proven and "not proven unfillable" in (unexplained(quality) or "")
    assert why_not_higher(result.built, quality, 5.0).core is None


def test_cli_optimize_certificate_proves_the_level_above(files, tmp_path):
    grid, words = files
    folder = tmp_path / "cert"
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "20",
                                 "--certificate", str(folder)])
    assert result.exit_code == 0, result.output
    level = truth(WORDS)[0]
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["result"] == "unfillable" and manifest["rules"]["min_score"] == level + 10
    checked = runner.invoke(app, ["check-proof", str(folder), "--grid", str(grid), "--dict",
                                  str(words)])  # the formula rebuilt from the user's own files
    assert checked.exit_code == 1 and "VERIFIED" in checked.output, checked.output
    alone = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--certificate",
                                str(tmp_path / "c2")])
    assert alone.exit_code == 2 and "--optimize" in alone.output


def test_cli_optimize_certificate_with_a_lock_names_the_locked_word(files, tmp_path):
    # the manifest held the word's id ({"1A": 3}): check-proof said "the manifest's locked
    # entries are malformed", exit 4, where the run had said "certificate checked"
    grid, words = files
    best = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "10",
                               "--json"])
    first = json.loads(best.stdout)["grid"][0]
    folder = tmp_path / "cert"
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "20",
                                 "--lock", f"1A={first}", "--certificate", str(folder)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["rules"]["locked"] == {"1A": first}
    checked = runner.invoke(app, ["check-proof", str(folder), "--grid", str(grid), "--dict",
                                  str(words)])
    assert checked.exit_code == 1 and "VERIFIED" in checked.output, checked.output


def test_cli_optimize_certificate_keeps_its_explanation_as_prove_does(files, tmp_path):
    # fill --optimize --certificate --explain printed the explanation but kept none of it
    grid, words = files
    folder = tmp_path / "cert"
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "20",
                                 "--certificate", str(folder), "--explain"])
    assert result.exit_code == 0 and "EXPLANATION (minimal)" in result.output, result.output
    kept = (folder / "explanation.txt").read_text(encoding="utf-8")
    assert kept.startswith("EXPLANATION (minimal)")
    assert (folder / "explanation.svg").read_text(encoding="utf-8").startswith("<svg")
    checked = runner.invoke(app, ["check-proof", str(folder)])
    assert checked.exit_code == 1 and "sha256 ok: explanation.txt" in checked.output
    # as prove --certificate --explain says (here the level's proof is about the same slots)
    assert "its certificate: the one above, which is about these" in result.output


def test_cli_optimize_explanation_has_its_own_certificate_on_the_cut_list(files, tmp_path,
                                                                         monkeypatch):
    # the explanation of the level above was kept but not certified; certified from the whole
    # list, check-proof would find the folder's words are not the level's
    import xwsat.commands.prove as prove

    lowest: list[int] = []
    real = prove.certify_explanation

    def seen(built, *args, **kwargs):
        lowest.append(int(built.words.scores.min()))
        return real(built, *args, **kwargs)

    monkeypatch.setattr(prove, "certify_explanation", seen)
    grid, words = files
    folder = tmp_path / "cert"
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "20",
                                 "--certificate", str(folder), "--explain", "--json"])
    assert result.exit_code == 0, result.output
    why = json.loads(result.stdout)["optimize"]["why"]
    own = why["certificate"]
    assert own["checked"] and own["slots"] == why["core"]["slots"], own
    checked = runner.invoke(app, ["check-proof", own["folder"], "--grid", str(grid), "--dict",
                                  str(words)])
    assert checked.exit_code == 1 and "VERIFIED" in checked.stdout, checked.output
    level = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["rules"]
    assert f"only words scored {level['min_score']} or more" in checked.stdout
    assert lowest == [level["min_score"]]  # the explanation's question is the level's


def test_the_certificate_leaves_the_explanation_its_share(files, tmp_path, monkeypatch):
    import xwsat.quality.certify as certify

    given: list[float] = []
    real = certify.level_certificate

    def timed(built, fill, exempt, level, directory, source, seconds, *args, **kwargs):
        given.append(seconds)
        return real(built, fill, exempt, level, directory, source, seconds, *args, **kwargs)

    monkeypatch.setattr(certify, "level_certificate", timed)
    grid, words = files
    for explain in ([], ["--explain"]):  # alone, the certificate has all the climb left
        runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "20",
                            "--certificate", str(tmp_path / f"cert{len(explain)}"), *explain])
    alone, shared = given
    assert shared < 0.7 * alone, given


@pytest.mark.parametrize("stop", ["limit", "ctrl-c"])
def test_a_certificate_stopped_keeps_the_fill(files, tmp_path, monkeypatch, stop):
    """The time limit or Ctrl-C while the certificate is written: the fill is printed and
    written, and the folder is left as it was (the whole record was once lost)."""
    import xwsat.quality.certify as certify
    from xwsat import guard
    from xwsat.outcome import Stop

    def stopped(*args, **kwargs):
        if stop == "limit":
            raise guard.LimitReached(Stop.TIME, "time limit of 10 s reached")
        raise KeyboardInterrupt

    monkeypatch.setattr(certify, "level_certificate", stopped)
    grid, words = files
    folder, out = tmp_path / "cert", tmp_path / "out.txt"
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "10",
                                 "--certificate", str(folder), "--json", "--out", str(out)])
    record = json.loads(result.stdout)
    assert record["status"] == "filled" and out.exists() and not folder.exists()
    assert "no certificate of level" in record["optimize"]["certificate"][0]
    assert (result.exit_code, record["stop"]) == ((0, None) if stop == "limit"
                                                  else (3, "interrupted")), result.output


def test_cli_certificate_at_the_top_score_says_there_is_nothing_above(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("".join(f"{w};50\n" for w in WORDS), encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text(OPEN3, encoding="utf-8")
    folder = tmp_path / "cert"
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "10",
                                 "--certificate", str(folder)])
    assert result.exit_code == 0, result.output
    assert "the top score among this grid's candidates" in result.output
    assert "no certificate: the level reached is the top score" in result.output
    assert not (folder / "manifest.json").exists()


def test_cli_optimize_certificate_refuses_an_output_inside_its_folder(files, tmp_path):
    grid, words = files
    folder = tmp_path / "cert"
    folder.mkdir()  # new or empty: a certificate folder, but no place for the puzzle
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize",
                                 "--certificate", str(folder), "--out", str(folder / "f.txt")])
    assert result.exit_code == 2 and "lies in the certificate folder" in result.output


@pytest.mark.parametrize("words_mode", [True, False])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_branch_and_bound_finds_the_best_total_and_proves_it(seed, words_mode):
    words = many_scores(seed)
    result = first_fill(words)
    built = result.built
    value = Valuation(built.words.scores.astype(np.int64))
    heard: list[int] = []
    found = branch_and_bound(built.problem, value, result.outcome.fill, 20, seed,
                             words=words_mode, on_better=lambda fill, worth: heard.append(worth))
    best = max(sum(f) for f in fills(words))
    assert found.optimal and found.total == best and value.total(found.fill) == best
    assert heard == sorted(set(heard)) and (not heard or heard[-1] == best)
    assert len(set(found.fill)) == 6  # six distinct words


def test_branch_and_bound_leaves_locked_entries_out_of_the_worth():
    words = many_scores(1)
    grid, grown, _ = apply_locks(parse_grid(OPEN3), wordlist(words), ["1A=MPG"])
    result = fill_grid(grid, grown, FillOptions("mac", 10, upper_first=False))
    built = result.built
    exempt = exempt_slots(built)
    value = Valuation(built.words.scores.astype(np.int64), exempt)
    found = branch_and_bound(built.problem, value, result.outcome.fill, 20)
    assert found.optimal and found.total == max(sum(f) for f in fills(words, "MPG"))


@pytest.mark.parametrize("seed", [1, 2])
def test_both_engines_of_the_best_fill_agree_with_brute_force(seed):
    words = many_scores(seed)
    result = first_fill(words)
    built = result.built
    climbed = ladder.climb(built, result.outcome.fill, FillOptions("mac"), 20)
    level, fewest, total = truth(words)
    for engine in ("bnb", "cpsat"):
        best = best_at_level(built, climbed.fill, climbed.level, frozenset(), climbed.proven, 20,
                             engine=engine)
        assert (best.level, best.at_level, best.total, best.optimal) == (level, fewest, total,
                                                                         True), engine


def test_a_branch_and_bound_limit_returns_the_fill_it_started_from():
    result = first_fill(many_scores(2))
    built = result.built
    value = Valuation(built.words.scores.astype(np.int64))
    found = branch_and_bound(built.problem, value, result.outcome.fill, 0.0)
    assert found.fill == result.outcome.fill and not found.optimal


def test_ctrl_c_in_the_branch_and_bound_returns_its_best_fill(monkeypatch):
    from xwsat.quality import branch_bound

    words = many_scores(3)
    result = first_fill(words)
    built = result.built
    value = Valuation(built.words.scores.astype(np.int64))
    real = branch_bound.aot.runner()
    calls = []

    def interrupted_second_time(model, state, budget):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(model, state, 1)  # one decision: the first call cannot finish the search

    monkeypatch.setattr(branch_bound.aot, "runner", lambda: interrupted_second_time)
    found = branch_and_bound(built.problem, value, result.outcome.fill, 20)
    assert found.interrupted and not found.optimal and len(calls) == 2
    assert found.total == value.total(found.fill) >= value.total(result.outcome.fill)


def test_cli_optimize_says_how_the_best_fill_was_searched(files):
    grid, words = files
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "10",
                                 "--json"])
    data = json.loads(result.output)["optimize"]
    assert data["decisions"] > 0 and data["rounds"] == 0
    text = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "-t", "10"])
    assert "branch-and-bound decisions in" in text.output and "neighbourhoods" not in text.output


def test_optimize_explain_on_an_unfillable_grid_points_at_prove_explain(tmp_path):
    # it printed the verdict alone: --explain explains a level, and there was none
    grid, words = tmp_path / "g.txt", tmp_path / "w.txt"
    grid.write_text("..\n..\n")
    words.write_text("AB;50\nCD;40\n")
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--optimize", "--explain"])
    assert result.exit_code == 1, result.output
    assert "which slots cannot be filled together: xwsat prove" in result.stdout
    assert result.stdout.rstrip().endswith("--explain")


def test_a_few_favourites_scored_above_the_list_do_not_make_its_top_tier_weak(tmp_path):
    # a personal list scoring two favourites 100 over a list scored up to 50 made every 50 of
    # the grid "weak (below the top score 100)"
    words = tmp_path / "w.txt"
    words.write_text("".join(f"{w};50\n" for w in WORDS), encoding="utf-8")
    mine = tmp_path / "mine.txt"
    mine.write_text("AXOLOTL;100\nQUETZAL;100\n", encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("...####\n...####\n...####\n#######\n.......\n", encoding="utf-8")
    result = runner.invoke(app, ["fill", str(grid), "-d", str(mine), "-d", str(words),
                                 "--optimize", "-t", "10", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)["optimize"]
    assert (data["top"], data["top_tier"], data["level"]) == (100, 50, 50)
    assert data["weak"] == []


def test_why_not_higher_holds_an_open_slot_to_the_level_as_prove_does():
    """Without its letters, a locked slot is an open one: at the level above it takes only the
    words at that level (as ``prove --min-score`` reads the list), but with its letters it keeps
    its own word at any score, which the constructor chose."""
    from xwsat.evidence.explain import blank_problem
    from xwsat.problem import build_problem
    from xwsat.quality.why import _blank_at_level

    words = build_wordlist({"CAT": (10, None), "BAT": (10, None), "DOG": (60, None)})
    built = build_problem(parse_grid("CAT\n"), words)
    blank = _blank_at_level(built, blank_problem(built), 50, exempt_slots(built))
    assert [words.words[i] for i in blank.candidates[0]] == sorted(["CAT", "DOG"])
    open_slot = _blank_at_level(built, blank_problem(built), 50, frozenset())
    assert [words.words[i] for i in open_slot.candidates[0]] == ["DOG"]
