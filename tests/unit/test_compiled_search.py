"""The compiled MAC back-end: verdicts equal the native search's, valid fills, checked proofs."""

from __future__ import annotations

import json
import random

import pytest
from oracle import valid_fill as valid

from xwsat.backends.native import from_spec
from xwsat.evidence.certificate import certify, sha256_file
from xwsat.evidence.recheck import recheck
from xwsat.grid import parse_grid
from xwsat.outcome import Limits, Status
from xwsat.problem import FillProblem, build_problem
from xwsat.propagate import propagate
from xwsat.words import build_wordlist, load_words

pytest.importorskip("numba")

from xwsat.backends import mac as mac_backend  # noqa: E402
from xwsat.backends.mac import (  # noqa: E402
    PLANNED_WEIGHT,
    MacBackend,
    add_planned_weights,
    epoch_seed,
)
from xwsat.compiled_search import kernel  # noqa: E402
from xwsat.compiled_search import model as model_module  # noqa: E402
from xwsat.compiled_search.model import build_model, slot_rows, word_of_row  # noqa: E402
from xwsat.compiled_search.state import new_state  # noqa: E402
from xwsat.planner import placement_difficulty  # noqa: E402


@pytest.fixture(scope="module")
def english():
    return load_words("en")


def random_problem(english, seed: int, size: int, share: float, repeats: bool) -> FillProblem:
    """A blank or lightly blocked square with a random share of the embedded list's words."""
    rng = random.Random(seed)
    rows = [["." for _ in range(size)] for _ in range(size)]
    if seed % 3 == 0:  # a block in two opposite corners
        rows[0][0] = rows[size - 1][size - 1] = "#"
    lengths = {size, size - 1}
    words = [w for w in english.words if len(w) in lengths and rng.random() < share]
    wordlist = build_wordlist({w: (50, None) for w in words}, source="sample")
    grid = parse_grid("\n".join("".join(r) for r in rows))
    return build_problem(grid, wordlist, allow_repeats=repeats).problem


# shares that keep each sample near 400 (4x4) and 1,400 (5x5) words of the embedded list
CASES = [(seed, size, share) for seed in range(12) for size, share in ((4, 0.06), (5, 0.13))]


@pytest.mark.parametrize("variant", ["letters", "words", "phase", "planned", "reseed", "renew"])
@pytest.mark.parametrize(("seed", "size", "share"), CASES)
def test_verdict_equals_native_search(english, seed: int, size: int, share: float,
                                      variant: str, monkeypatch) -> None:
    monkeypatch.setattr(mac_backend, "RESEED_UNIT", 100)  # many fresh searches, even here
    problem = random_problem(english, seed, size, share, repeats=seed % 4 == 1)
    limits = Limits(time_limit=60, seed=seed)
    mine = MacBackend(words=variant == "words", phase=variant == "phase",
                      planned=variant == "planned", reseed=variant == "reseed",
                      renew=variant == "renew").solve(problem, limits)
    theirs = from_spec("csp").solve(problem, limits)
    assert theirs.status.definitive and mine.status.definitive
    assert mine.status == theirs.status
    if mine.status is Status.FILLED:
        assert mine.fill is not None and valid(problem, mine.fill)


@pytest.mark.parametrize("variant", ["phase", "planned"])
def test_variant_is_a_different_letter_search(english, variant: str) -> None:
    """``mac:phase`` and ``mac:planned`` are other searches (their verdicts are checked above),
    not aliases of ``mac``."""
    differ = 0
    for seed, size, share in CASES:
        problem = random_problem(english, seed, size, share, repeats=False)
        limits = Limits(time_limit=60, seed=seed)
        plain = MacBackend().solve(problem, limits)
        other = MacBackend(phase=variant == "phase", planned=variant == "planned").solve(
            problem, limits)
        assert other.method == f"mac:{variant}"
        differ += plain.stats.nodes != other.stats.nodes
    assert differ >= 1


@pytest.mark.parametrize("variant", ["reseed", "renew"])
def test_reseed_starts_fresh_searches_the_same_way_for_a_seed(english, variant: str,
                                                             monkeypatch) -> None:
    """With short epochs the reseeding searches start over several times on the sample; the
    same seed gives the same search, and no later epoch starts from the run's own seed (the
    ``mac`` that ``mac:reseed`` races starts there; ``mac:renew``'s first epoch does)."""
    monkeypatch.setattr(mac_backend, "RESEED_UNIT", 100)
    several = 0
    for seed, size, share in CASES:
        problem = random_problem(english, seed, size, share, repeats=False)
        limits = Limits(time_limit=60, seed=seed)
        first = mac_backend.from_spec(variant).solve(problem, limits)
        again = mac_backend.from_spec(variant).solve(problem, limits)
        assert first.method == f"mac:{variant}"
        assert (first.status, first.fill, first.stats.nodes, first.stats.conflicts) == \
            (again.status, again.fill, again.stats.nodes, again.stats.conflicts)
        epochs = int(first.stats.extra["epochs"])
        several += epochs > 2
        if first.status is Status.UNFILLABLE and epochs > 1:
            said = "searches in fresh orders" if variant == "renew" else "fresh searches"
            assert f"over {epochs} {said}" in first.evidence.detail
    assert several >= 3
    assert all(epoch_seed(seed, k) != seed for seed in (0, 1, 7) for k in range(50))


@pytest.mark.parametrize("variant", ["reseed", "renew"])
def test_reseed_variant_is_listed_and_not_sharing(variant: str) -> None:
    backend = mac_backend.from_spec(variant)
    assert backend.label == f"mac:{variant}" and not backend.traits.shares_nogoods
    assert variant in mac_backend.LISTED
    assert mac_backend.from_spec(None).traits.shares_nogoods


def test_what_a_search_proved_is_its_nogoods_and_its_root_removals(english) -> None:
    """``share.learned`` finds the root domains by undoing the trail on a copy: the same
    domains the kernel itself goes back to; its units are the letters gone at the root."""
    from xwsat.compiled_search import share
    from xwsat.compiled_search import state as mstate

    checked, with_units = 0, 0
    for seed, size, share_of_words in CASES:
        problem = random_problem(english, seed, size, share_of_words, repeats=False)
        model, start = build_model(problem)
        state = new_state(model, start, seed)
        for budget in (7, 13, 29):
            if kernel.run(model, state, budget) != mstate.BUDGET:  # decided: nothing to carry
                break
            proved = share.learned(state, start.dom)
            units, i = [], 0
            while i < len(proved) and proved[i] == 1:
                units.append((int(proved[i + 1]), int(proved[i + 2])))
                i += 3
            root = state.dom.copy()
            kept = [a.copy() for a in state]
            kernel.undo(state, 0)
            gone = {(c, a) for c in range(len(start.dom)) for a in range(model.n_letters)
                    if start.dom[c] >> a & 1 and not state.dom[c] >> a & 1}
            assert set(units) == gone
            with_units += bool(units)
            assert share.count(proved) == len(units) + int(state.sc[mstate.NG])
            for array, copy in zip(state, kept, strict=True):
                array[...] = copy
            assert (state.dom == root).all()
            checked += 1
    assert checked >= 10 and with_units >= 1


def test_planned_weights_follow_the_planner_and_the_seed(english) -> None:
    """A harder slot (placement difficulty) starts heavier, by at most PLANNED_WEIGHT; slots of
    equal difficulty keep the order of the seeded tie-break, so two seeds rank them apart."""
    problem = random_problem(english, 3, 5, 0.12, repeats=False)
    place = placement_difficulty(problem)
    model, start = build_model(problem)
    orders = set()
    for seed in (1, 2, 3):
        state = new_state(model, start, seed)
        before = state.weight.copy()
        add_planned_weights(problem, state)
        after = state.weight
        assert all(0 <= after[s] - before[s] <= PLANNED_WEIGHT + 1e-9 for s in range(len(after)))
        pairs = [(s, t) for s in range(len(after)) for t in range(len(after)) if s != t]
        assert all(after[s] < after[t] for s, t in pairs if place[s] < place[t])
        assert all(after[s] < after[t] for s, t in pairs
                   if place[s] == place[t] and before[s] < before[t])
        tied = sorted((s for s in range(len(after)) if place[s] == place[0]),
                      key=lambda s: after[s])
        orders.add(tuple(tied))
    assert len(orders) > 1  # the random 5x5's tied slots are ranked differently by the seeds


def test_word_decisions_restart_and_learn_nogoods_over_letters(english) -> None:
    """Refuted words become nogoods over their letters; the verdicts above show they hold."""
    restarted = nogoods = 0
    for seed, size, share in CASES:
        problem = random_problem(english, seed, size, share, repeats=False)
        outcome = MacBackend(words=True).solve(problem, Limits(time_limit=60))
        restarted += int(outcome.stats.extra["restarts"]) > 0
        nogoods += int(outcome.stats.extra["nogoods"])
    assert restarted >= 1 and nogoods > 0


def test_sample_has_both_verdicts_and_restarts(english) -> None:
    """Guard on CASES: both answers occur and some searches restart and record nogoods."""
    verdicts, restarted, nogoods = set(), 0, 0
    for seed, size, share in CASES:
        problem = random_problem(english, seed, size, share, repeats=False)
        outcome = MacBackend().solve(problem, Limits(time_limit=60))
        verdicts.add(outcome.status)
        restarted += int(outcome.stats.extra["restarts"]) > 0
        nogoods += int(outcome.stats.extra["nogoods"])
    assert verdicts == {Status.FILLED, Status.UNFILLABLE}
    assert restarted >= 3 and nogoods > 0


def test_tiny_budgets_give_the_same_verdict(english) -> None:
    """The kernel resumes exactly where a budget stopped it."""
    problem = random_problem(english, 7, 5, 0.12, repeats=False)
    model, start = build_model(problem)
    whole = kernel.new_state(model, start, 0)
    expected = kernel.run(model, whole, 1 << 30)
    sliced = kernel.new_state(model, start, 0)
    code = kernel.BUDGET
    while code == kernel.BUDGET:
        code = kernel.run(model, sliced, 1)
    assert code == expected
    assert sliced.sc[kernel.NODES] == whole.sc[kernel.NODES]


def letters_left(problem: FillProblem) -> list[int]:
    """Each cell's letters that some candidate of each of its slots still has there."""
    masks = [(1 << problem.alphabet_size) - 1] * problem.n_cells
    for cells, letters in zip(problem.slot_cells, problem.letters, strict=True):
        for p, c in enumerate(cells.tolist()):
            used = 0
            for a in set(letters[:, p].tolist()):
                used |= 1 << a
            masks[c] &= used
    return masks


@pytest.mark.parametrize("share", [0.02, 0.06, 0.2, 0.5])
def test_root_filtering_reaches_the_arc_consistent_letters(english, share: float) -> None:
    """The kernel's filtering at the root (rows listed when a slot has few, supports checked
    otherwise) leaves each cell exactly the letters that ``propagate``'s independent arc
    consistency leaves, or fails where it wipes a slot out."""
    decided = 0
    for seed in range(10):
        for size in (4, 5, 6):
            problem = random_problem(english, seed, size, share, repeats=seed % 2 == 1)
            model, start = build_model(problem)
            st = kernel.new_state(model, start, 0)
            code = kernel.run(model, st, 0)  # a budget of 0: the root's propagation only
            reference = propagate(problem)
            if reference.wiped is not None:
                assert code == kernel.UNSAT
                continue
            assert code == kernel.BUDGET
            assert [int(d) for d in st.dom] == letters_left(reference.problem)
            decided += 1
    assert decided >= 5


def given_letters_problem(english) -> FillProblem:
    """A 5x5 with two given letters, propagated: slots of one length keep different rows."""
    words = [w for w in english.words if len(w) == 5][::3]
    wordlist = build_wordlist({w: (50, None) for w in words}, source="sample")
    grid = parse_grid("S....\n.....\n..A..\n.....\n.....")
    return propagate(build_problem(grid, wordlist).problem).problem


def test_shared_tables_start_each_slot_with_its_own_rows(english) -> None:
    problem = given_letters_problem(english)
    model, start = build_model(problem)
    for slot in range(problem.n_slots):
        rows = slot_rows(model, start.ct, slot)
        words = {word_of_row(model, slot, int(r)) for r in rows}
        assert words == {int(w) for w in problem.candidates[slot]}
    sizes = sorted(len(c) for c in problem.candidates)
    assert sizes[0] < sizes[-1]  # the slots' rows differ, yet the open ones share a table
    assert len(set(model.slot_table.tolist())) < problem.n_slots


def test_shared_tables_keep_the_search(english, monkeypatch) -> None:
    """A table per slot (each slot's rows only) and the shared tables: the same decisions."""
    problem = given_letters_problem(english)
    runs = []
    for share_below in (model_module.SHARE_BELOW, 0):  # 0: no slot shares
        monkeypatch.setattr(model_module, "SHARE_BELOW", share_below)
        model, start = build_model(problem)
        state = kernel.new_state(model, start, 1)
        runs.append((kernel.run(model, state, 1 << 30), int(state.sc[kernel.NODES]),
                     len(set(model.slot_table.tolist()))))
    assert runs[0][:2] == runs[1][:2] and runs[0][1] > 1
    assert runs[0][2] < runs[1][2] == problem.n_slots
    outcome = MacBackend().solve(problem, Limits(time_limit=60, seed=1))
    assert outcome.status == from_spec("csp").solve(problem, Limits(time_limit=60)).status


def test_same_seed_same_search(english) -> None:
    problem = random_problem(english, 4, 5, 0.12, repeats=False)
    runs = [MacBackend().solve(problem, Limits(time_limit=60, seed=3))
            for _ in range(2)]
    assert runs[0].fill == runs[1].fill and runs[0].stats.nodes == runs[1].stats.nodes


def test_time_limit_returns_unknown(english) -> None:
    problem = random_problem(english, 1, 5, 0.5, repeats=False)
    outcome = MacBackend().solve(problem, Limits(time_limit=1e-6))
    assert outcome.status is Status.UNKNOWN


def test_proof_with_restarts_and_nogoods_is_checked(english, tmp_path) -> None:
    """A blank 5x5 refuted after dozens of restarts: the trail checker and dratify both accept
    the compiled search's proof, so every lemma, the restart nogoods included, is RUP on the
    certificate CNF."""

    rng = random.Random(3)
    words = [w for w in english.words if len(w) == 5 and rng.random() < 0.12]
    wordlist = build_wordlist({w: (50, None) for w in words}, source="sample")
    built = build_problem(parse_grid("\n".join(["....."] * 5)), wordlist)
    run = certify(built, tmp_path / "cert", "blank5.txt", 120, proof="mac")
    assert run.outcome.status is Status.UNFILLABLE and run.checked is True, run.outcome.message
    stats = run.manifest["proof"]["solver_stats"]
    assert stats["restarts"] >= 10 and run.manifest["proof"]["lines"] == stats["failures"]
    assert run.manifest["check"]["engine"] == "trail"
    assert recheck(tmp_path / "cert", "dratify", 120)[1] == "verified"


def test_forged_lemma_is_rejected(english, tmp_path) -> None:
    """The check is not vacuous: a proof missing its lemmas does not verify."""

    rng = random.Random(3)
    words = [w for w in english.words if len(w) == 5 and rng.random() < 0.12]
    built = build_problem(parse_grid("\n".join(["....."] * 5)),
                          build_wordlist({w: (50, None) for w in words}, source="sample"))
    folder = tmp_path / "cert"
    certify(built, folder, "blank5.txt", 120, proof="mac")
    proof = (folder / "proof.drat").read_text().splitlines()
    (folder / "proof.drat").write_text("\n".join(proof[len(proof) // 2:]) + "\n")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"]["proof.drat"]["sha256"] = sha256_file(folder / "proof.drat")
    (folder / "manifest.json").write_text(json.dumps(manifest))
    for engine in ("trail", "dratify"):
        lines, verdict = recheck(folder, engine, 60)
        assert verdict == "rejected" and lines[-1].startswith("NOT VERIFIED"), (engine, lines)


@pytest.mark.parametrize("words_variant", [False, True])
def test_the_64th_letter_of_an_alphabet_is_searched(words_variant) -> None:
    # a cell mask using bit 63 once overflowed a signed conversion
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "ΑΒΓΔΕΖ" + "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
    assert len(letters) == 64
    words = build_wordlist({w: (50, None) for w in ("AЯ", "BЯ", "ЯA", "ЯB")}, letters)
    problem = propagate(build_problem(parse_grid("..\n.#\n"), words).problem).problem
    outcome = MacBackend(words=words_variant).solve(problem, Limits(time_limit=10))
    assert outcome.status is Status.FILLED
    fill = [words.words[w] for w in outcome.fill]
    assert len(set(fill)) == 2 and all("Я" in w for w in fill)
