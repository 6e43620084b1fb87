"""Arc consistency on letter bitmasks: hand-computed domains, wipe-out, the no-repeat rule."""

from __future__ import annotations

from xwsat.problem import build_problem
from xwsat.propagate import propagate


def domains(built, problem) -> dict[str, set[str]]:
    words = built.words.words
    return {name: {words[int(w)] for w in cands}
            for name, cands in zip(problem.slot_names, problem.candidates)}


def letters(built, problem, cell: int) -> set[str]:
    mask = int(problem.cell_masks[cell])
    return {ch for code, ch in enumerate(built.words.alphabet.letters) if mask >> code & 1}


def test_arc_consistency_prunes_to_hand_computed_domains(make_grid, make_words) -> None:
    # 2x2: 1A = cells 0,1; 3A = cells 2,3; 1D = cells 0,2; 2D = cells 1,3.
    # First letters {A,B,C,X}, second letters {B,C,D,Y}. Cell 1 is 1A's second letter and 2D's
    # first, so it is in {B,C}; likewise cell 2. Then 1A and 1D keep AB, AC (cell 0 = A), and
    # 3A and 2D keep BD, CD (cell 3 = D). XY fits nowhere.
    built = build_problem(make_grid("..\n.."), make_words(["AB", "AC", "BD", "CD", "XY"]))
    result = propagate(built.problem)
    assert result.wiped is None
    assert domains(built, result.problem) == {
        "1A": {"AB", "AC"}, "3A": {"BD", "CD"}, "1D": {"AB", "AC"}, "2D": {"BD", "CD"},
    }
    assert [letters(built, result.problem, c) for c in range(4)] == [
        {"A"}, {"B", "C"}, {"B", "C"}, {"D"},
    ]


def test_propagation_does_not_mutate_its_input(make_grid, make_words) -> None:
    built = build_problem(make_grid("..\n.."), make_words(["AB", "AC", "BD", "CD", "XY"]))
    before = [c.copy() for c in built.problem.candidates]
    masks = built.problem.cell_masks.copy()
    propagate(built.problem)
    assert all((a == b).all() for a, b in zip(before, built.problem.candidates))
    assert (masks == built.problem.cell_masks).all()


def test_given_letters_restrict_candidates(make_grid, make_words) -> None:
    built = build_problem(make_grid("C..\n#.#"), make_words(["CAT", "COT", "DOG", "AX", "OX"]))
    assert domains(built, built.problem) == {"1A": {"CAT", "COT"}, "2D": {"AX", "OX"}}


def test_slot_without_any_candidate_is_wiped_out_by_name(make_grid, make_words) -> None:
    built = build_problem(make_grid("..\nZ."), make_words(["AB", "BA", "ZZZ"]),
                           allow_repeats=True)
    result = propagate(built.problem)
    assert result.wiped is not None
    assert built.problem.slot_names[result.wiped] in {"3A", "1D"}
    assert result.reason == "no candidate word"


def test_crossing_conflict_is_wiped_out_by_name(make_grid, make_words) -> None:
    # 1A must be ABC (B in the middle); 2D must be XY (X on top): they cannot share cell 1.
    built = build_problem(make_grid("...\n#.#"), make_words(["ABC", "XY"]))
    result = propagate(built.problem)
    assert result.wiped is not None
    assert built.problem.slot_names[result.wiped] in {"1A", "2D"}
    assert result.reason == "no word fits the crossing letters"


def test_arc_consistent_but_unfillable_is_not_wiped(make_grid, make_words) -> None:
    # Columns force row 2 to be row 1 with A and B swapped; no row word's swap is a row word.
    built = build_problem(make_grid("...\n..."), make_words(["AAB", "ABA", "BAA", "AB", "BA"]),
                          allow_repeats=True)
    result = propagate(built.problem)
    assert result.wiped is None
    assert list(result.problem.domain_sizes()) == [3, 3, 2, 2, 2]


# Two separate 3-letter slots: 1A is forced to ABC by its given letters.
SEPARATE = "AB.\n###\n..."


def test_singleton_word_removed_from_other_slots_when_repeats_forbidden(make_grid,
                                                                         make_words) -> None:
    built = build_problem(make_grid(SEPARATE), make_words(["ABC", "XYZ"]))
    result = propagate(built.problem)
    assert result.wiped is None
    assert domains(built, result.problem) == {"1A": {"ABC"}, "2A": {"XYZ"}}


def test_singleton_word_kept_in_other_slots_when_repeats_allowed(make_grid, make_words) -> None:
    built = build_problem(make_grid(SEPARATE), make_words(["ABC", "XYZ"]), allow_repeats=True)
    result = propagate(built.problem)
    assert result.wiped is None
    assert domains(built, result.problem) == {"1A": {"ABC"}, "2A": {"ABC", "XYZ"}}


def test_singleton_removal_can_wipe_out_a_slot(make_grid, make_words) -> None:
    built = build_problem(make_grid(SEPARATE), make_words(["ABC"]))
    result = propagate(built.problem)
    assert result.wiped is not None
    assert built.problem.slot_names[result.wiped] == "2A"


def test_singleton_removal_only_touches_same_length_slots(make_grid, make_words) -> None:
    built = build_problem(make_grid("AB.\n###\n..#"), make_words(["ABC", "AB", "XY"]))
    result = propagate(built.problem)
    assert domains(built, result.problem) == {"1A": {"ABC"}, "2A": {"AB", "XY"}}
