"""The lift of plain fill's weakest entries (``xwsat.quality.lift``): every lifted fill is a fill
(checked by the verifier, not by the lift), never lower or with more entries at its level than
the fill it started from, the same for the same seed, and left alone when the list has one
score, when the caller excludes words, when another back-end than the compiled search found the
fill, or when it is turned off."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from xwsat.grid import parse_grid
from xwsat.pipeline import FillOptions, fill_grid
from xwsat.problem import fill_letters
from xwsat.quality.levels import exempt_slots, fill_level, fill_scores
from xwsat.quality.lift import lift
from xwsat.verify import check_fill
from xwsat.words import build_wordlist

ROOT = Path(__file__).resolve().parents[2]
THREE = sorted({w.upper() for w in (ROOT / "grids" / "dictionaries" / "wamerican.txt")
                .read_text(encoding="utf-8").split()
                if len(w) == 3 and w.isalpha() and w.isascii() and w.islower()})
OPEN = "....#\n.....\n.....\n#....\n"  # slots of 3 to 5 letters, every cell checked
FOURS = sorted({w.upper() for w in (ROOT / "grids" / "dictionaries" / "wamerican.txt")
                .read_text(encoding="utf-8").split()
                if 4 <= len(w) <= 5 and w.isalpha() and w.isascii() and w.islower()})


def scored(seed: int, tiers: tuple[int, ...] = (10, 20, 30, 40, 50)) -> dict[str, int]:
    rng = random.Random(seed)
    return {w: rng.choice(tiers) for w in THREE + FOURS}


def plain(words: dict[str, int], seed: int, **options):
    """Plain fill without the upper look and the lift: the lift's starting point."""
    dictionary = build_wordlist({w: (s, None) for w, s in words.items()}, None, "t")
    result = fill_grid(parse_grid(OPEN), dictionary,
                       FillOptions("mac", 10, seed=seed, upper_first=False, **options))
    assert result.verified
    return result


def standing(built, fill) -> tuple[int, int]:
    """(level, minus the entries at it): higher is better."""
    exempt = exempt_slots(built)
    level = fill_level(built, fill, exempt)
    return level, -fill_scores(built, fill, exempt).count(level)


def profile(built, fill) -> tuple[int, ...]:
    """Minus the entries at each score, from the lowest up: higher is better, as constructors
    rank fills (the level first, then the entries at it, then at the next score, ...)."""
    scores = fill_scores(built, fill, exempt_slots(built))
    return tuple(-scores.count(v) for v in (5, 10, 20, 30, 40, 50))


@pytest.mark.parametrize("seed", range(4))
def test_a_lifted_fill_is_a_fill_and_never_worse(seed):
    result = plain(scored(seed), seed)
    built, start = result.built, result.outcome.fill
    done = lift(built.problem, start, built.words.scores, exempt_slots(built), seed)
    rows = built.grid.with_letters(fill_letters(built, done.fill)).rows
    assert check_fill(built.grid.rows, rows, frozenset(built.words.words)) == []
    assert standing(built, done.fill) >= standing(built, start)
    assert profile(built, done.fill) >= profile(built, start)
    if done.refilled:
        assert profile(built, done.fill) > profile(built, start)
    again = lift(built.problem, start, built.words.scores, exempt_slots(built), seed)
    assert again.fill == done.fill  # the same seed, the same lift


def test_some_weak_entry_is_lifted_on_these_grids():
    lifted = 0
    for seed in range(4):
        result = plain(scored(seed), seed)
        built = result.built
        lifted += lift(built.problem, result.outcome.fill, built.words.scores,
                       exempt_slots(built), seed).refilled
    assert lifted > 0  # otherwise the test above checks nothing


@pytest.mark.parametrize("most", [1, 2, 3, 5])
def test_the_lift_searches_at_most_the_neighbourhoods_it_is_given(most):
    """The wider second try of a neighbourhood counts too: never one past the cap."""
    heard: list[tuple[int, int]] = []
    for seed in range(4):
        result = plain(scored(seed), seed)
        built = result.built
        done = lift(built.problem, result.outcome.fill, built.words.scores, exempt_slots(built),
                    seed, regions=most, on_progress=lambda t, m, _r: heard.append((t, m)))
        assert done.regions <= most
    assert all(t <= m == most for t, m in heard)
    from xwsat.problem import build_problem  # ZZA cannot rise: both its tries fail

    scores = {"ZZA": 10, "CAT": 30, "DOG": 50, "EMU": 20}
    built = build_problem(parse_grid("ZZ.#...\n"), build_wordlist(
        {w: (s, None) for w, s in scores.items()}, None, "t"))
    ids = {w: i for i, w in enumerate(built.words.words)}
    done = lift(built.problem, (ids["ZZA"], ids["CAT"]), built.words.scores,
                exempt_slots(built), regions=most)
    assert done.regions <= most


def test_one_score_is_left_alone():
    result = plain(dict.fromkeys(THREE + FOURS, 50), 0)
    built = result.built
    done = lift(built.problem, result.outcome.fill, built.words.scores, exempt_slots(built))
    assert done.fill == result.outcome.fill and done.regions == 0


def test_plain_fill_lifts_unless_told_not_to(monkeypatch):
    words = scored(1)
    dictionary = build_wordlist({w: (s, None) for w, s in words.items()}, None, "t")
    lifted = fill_grid(parse_grid(OPEN), dictionary, FillOptions("mac", 10, seed=1))
    assert lifted.verified and "lift" in lifted.outcome.stats.extra
    monkeypatch.setenv("XWSAT_LIFT", "0")
    off = fill_grid(parse_grid(OPEN), dictionary, FillOptions("mac", 10, seed=1))
    assert off.verified and "lift" not in off.outcome.stats.extra
    monkeypatch.delenv("XWSAT_LIFT")
    first = lifted.outcome.fill
    excluded = fill_grid(parse_grid(OPEN), dictionary,
                         FillOptions("mac", 10, seed=1, exclude=((0, first[0]),)))
    # an alternative is lifted too, within the words its search may use: its exclusion holds
    assert excluded.verified and "lift" in excluded.outcome.stats.extra
    assert excluded.outcome.fill[0] != first[0]
    other = fill_grid(parse_grid(OPEN), dictionary, FillOptions("native", 10, seed=1))
    assert other.verified and "lift" not in other.outcome.stats.extra  # its own fill, as found


def test_ctrl_c_during_the_lift_keeps_a_whole_fill(monkeypatch):
    result = plain(scored(2), 2)
    built = result.built
    from xwsat.compiled_search import aot

    real = aot.runner()
    calls = []

    def interrupted_second_time(model, state, budget):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(model, state, budget)

    monkeypatch.setattr("xwsat.compiled_search.aot.runner", lambda: interrupted_second_time)
    from xwsat import guard

    with guard.one_command():  # within a command, the Ctrl-C is the command's: it ends stopped
        done = lift(built.problem, result.outcome.fill, built.words.scores, exempt_slots(built),
                    2)
        assert guard.user_stopped()
    assert len(calls) == 2 and done.regions == 2
    assert standing(built, done.fill) >= standing(built, result.outcome.fill)


def test_ctrl_c_while_the_lift_is_set_up_keeps_the_fill_found(monkeypatch):
    from xwsat import guard

    def stop(*_args):
        raise KeyboardInterrupt

    dictionary = build_wordlist({w: (s, None) for w, s in scored(3).items()}, None, "t")
    monkeypatch.setattr("xwsat.quality.lift._Rows", stop)  # in the lift's model build
    with guard.one_command():
        result = fill_grid(parse_grid(OPEN), dictionary, FillOptions("mac", 10, seed=3))
        assert guard.user_stopped()
    assert result.verified and result.outcome.fill is not None  # the search's fill stands


def test_ctrl_c_while_a_look_is_set_up_is_a_stop_not_an_escape(monkeypatch):
    from xwsat import guard
    from xwsat.outcome import Limits
    from xwsat.quality.upper import look_at

    def stop(*_args):
        raise KeyboardInterrupt

    built = plain(scored(4), 4).built
    monkeypatch.setattr("xwsat.quality.upper.propagate", stop)  # the cut's propagation
    with guard.one_command():
        outcome = look_at(built.problem, exempt_slots(built), 30, Limits(5.0))
        assert guard.user_stopped()
    assert outcome is not None and outcome.fill is None and outcome.stop is not None


def test_the_report_says_what_the_lift_did(tmp_path):
    from typer.testing import CliRunner

    from xwsat.cli import app

    grid = tmp_path / "g.txt"
    grid.write_text(OPEN)
    said = []
    for seed in range(4):
        words = tmp_path / f"w{seed}.txt"
        words.write_text("".join(f"{w};{s}\n" for w, s in scored(seed).items()))
        result = CliRunner().invoke(app, ["fill", str(grid), "-d", str(words), "--seed",
                                          str(seed), "-t", "20"])
        assert result.exit_code == 0, result.output
        said += [line for line in result.output.splitlines() if line.startswith("lift: ")]
    assert said and all("neighbourhoods of the weakest entries refilled" in s for s in said)


def test_the_search_fill_is_heard_before_the_lift(monkeypatch):
    """A page shows the search's own fill at once and the lifted one when it comes; the
    status line says how far the lift is."""
    words = scored(1)
    dictionary = build_wordlist({w: (s, None) for w, s in words.items()}, None, "t")
    heard, ticks = [], []
    lifted = fill_grid(parse_grid(OPEN), dictionary, FillOptions("mac", 10, seed=1),
                       on_tick=lambda seconds, text: ticks.append(text), on_first=heard.append)
    assert len(heard) == 1 and heard[0].verified
    regions = lifted.outcome.stats.extra["lift"]["regions"]  # the status line follows the lift
    assert (f"lifting the weakest entries ({regions} of at most 40 neighbourhoods, "
            "2 refilled)") in ticks
    monkeypatch.setenv("XWSAT_LIFT", "0")
    unlifted = fill_grid(parse_grid(OPEN), dictionary, FillOptions("mac", 10, seed=1))
    assert heard[0].outcome.fill == unlifted.outcome.fill
    assert standing(lifted.built, lifted.outcome.fill) >= standing(lifted.built,
                                                                    heard[0].outcome.fill)
    assert lifted.outcome.stats.extra["lift"]["refilled"]  # so the page sees two fills
    assert lifted.outcome.fill != heard[0].outcome.fill
    heard.clear()
    fill_grid(parse_grid(OPEN), dictionary, FillOptions("native", 10, seed=1),
              on_first=heard.append)
    assert heard == []  # no lift to wait for: the fill itself is the answer


def test_the_workbench_shows_the_first_fill_before_the_lift(monkeypatch):
    from xwsat.workbench import searches

    words = scored(1)
    dictionary = build_wordlist({w: (s, None) for w, s in words.items()}, None, "t")
    shown = []
    monkeypatch.setattr("xwsat.guard.report_partial", shown.append)
    final = searches.autofill(parse_grid(OPEN), dictionary, FillOptions("mac", 10, seed=1), 0)
    assert [s["status"] for s in shown] == ["improving", "filled"]
    assert shown[0]["letters"] != final["letters"]  # the lifted fill came second
    assert shown[0]["first_s"] == final["first_s"]  # timed at the first fill
    assert final["level"] >= shown[0]["level"]


def test_an_entry_that_cannot_rise_does_not_stop_the_others():
    """ZZ?'s slot has one word, at the lowest score: the lift goes on to the entry above it."""
    from xwsat.problem import build_problem

    scores = {"ZZA": 10, "CAT": 30, "DOG": 50, "EMU": 20}
    dictionary = build_wordlist({w: (s, None) for w, s in scores.items()}, None, "t")
    built = build_problem(parse_grid("ZZ.#...\n"), dictionary)
    ids = {w: i for i, w in enumerate(built.words.words)}
    start = (ids["ZZA"], ids["CAT"])
    done = lift(built.problem, start, built.words.scores, exempt_slots(built))
    assert done.fill == (ids["ZZA"], ids["DOG"]) and done.refilled == 1
    assert profile(built, done.fill) > profile(built, start)


def _plain_fill(words, seed):
    """(built, the search's fill, exempt slots): ``fill_scores``' arguments."""
    result = plain(words, seed)
    return result.built, result.outcome.fill, exempt_slots(result.built)


def test_a_fill_left_with_the_lowest_level_is_found_again_without_it(monkeypatch):
    """When the lift cannot move an entry at the list's lowest level (the embedded list's
    flagged words), a short search without that level gives a fresh fill, lifted in turn."""
    import xwsat.quality.lift as lift_module
    from xwsat.outcome import Outcome, Stats, Status
    from xwsat.quality.levels import rank
    from xwsat.quality.lift import lifted

    tiers = (5, 10, 20, 30, 40, 50)
    seed = next(s for s in range(20)
                if 5 in fill_scores(*_plain_fill(scored(s, tiers), s)))
    result = plain(scored(seed, tiers), seed)
    built, start = result.built, result.outcome.fill
    stuck = lambda problem, fill, *args, **kwargs: lift_module.Lifted(fill, 1, 0, 0.0)  # noqa: E731
    monkeypatch.setattr(lift_module, "lift", stuck)  # as if nothing gave way
    outcome = Outcome(Status.FILLED, "mac", start, Stats())
    done = lifted(built, built.problem, outcome, FillOptions("mac", 10, seed=seed),
                  time.perf_counter())
    exempt = exempt_slots(built)
    assert done.stats.extra["lift"]["fresh"] == 1 and 5 not in fill_scores(built, done.fill,
                                                                             exempt)
    scores = built.words.scores
    assert rank(built.problem, done.fill, scores, exempt) > rank(built.problem, start, scores,
                                                                 exempt)
    rows = built.grid.with_letters(fill_letters(built, done.fill)).rows
    assert check_fill(built.grid.rows, rows, frozenset(built.words.words)) == []
