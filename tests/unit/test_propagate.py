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


def reference_fixed_point(problem) -> tuple[list[set[int]], list[int]] | None:
    """Arc consistency by plain sets, revising every slot until nothing changes; None when a
    slot empties. Slow and obviously right: the yardstick for ``propagate``."""
    cands = [set(c.tolist()) for c in problem.candidates]
    word_letters = [{int(w): row.tolist() for w, row in zip(c, m)}
                    for c, m in zip(problem.candidates, problem.letters)]
    masks = [int(m) for m in problem.cell_masks]
    changed = True
    while changed:
        changed = False
        for s, cells in enumerate(problem.slot_cells):
            cells = cells.tolist()
            taken = set() if problem.allow_repeats else {
                next(iter(cands[t])) for t in range(problem.n_slots)
                if t != s and len(cands[t]) == 1 and len(problem.slot_cells[t]) == len(cells)}
            keep = {w for w in cands[s] if w not in taken
                    and all(masks[c] >> word_letters[s][w][p] & 1 for p, c in enumerate(cells))}
            if not keep:
                return None
            if keep != cands[s]:
                cands[s], changed = keep, True
            for p, c in enumerate(cells):
                used = 0
                for w in keep:
                    used |= 1 << word_letters[s][w][p]
                if masks[c] & used != masks[c]:
                    masks[c] &= used
                    changed = True
    return cands, masks


def random_problem(seed: int, english: list[str]):
    """A 4x4 or 5x5 with a block or two, a few given letters and often a whole word given in its
    top row (a slot with one candidate: the no-repeat rule's case), from a thinned word list."""
    import random

    from xwsat.grid import parse_grid
    from xwsat.words import build_wordlist

    rng = random.Random(seed)
    size = rng.choice((4, 5))
    share = rng.choice((0.02, 0.1, 0.3))
    words = [w for w in english if 2 <= len(w) <= size and rng.random() < share]
    rows = [["." for _ in range(size)] for _ in range(size)]
    for _ in range(rng.randint(0, 2)):
        rows[rng.randrange(1, size)][rng.randrange(size)] = "#"
    full = [w for w in words if len(w) == size]
    if full and rng.random() < 0.6:
        rows[0] = list(rng.choice(full))
    for _ in range(rng.randint(0, 2)):
        r, c = rng.randrange(1, size), rng.randrange(size)
        if rows[r][c] == ".":
            rows[r][c] = rng.choice("AEST")
    wordlist = build_wordlist({w: (50, None) for w in words}, source="sample")
    grid = parse_grid("\n".join("".join(r) for r in rows))
    return build_problem(grid, wordlist, min_length=2, allow_repeats=seed % 3 == 0).problem


def test_fixed_point_equals_the_plain_sets_reference() -> None:
    from xwsat.words import load_words

    english = [w for w in load_words("en").words if len(w) <= 5]
    wiped = kept = 0
    for seed in range(120):
        problem = random_problem(seed, english)
        if any(len(c) == 0 for c in problem.candidates):
            continue
        result = propagate(problem)
        expected = reference_fixed_point(problem)
        if expected is None:
            assert result.wiped is not None, seed
            wiped += 1
            continue
        assert result.wiped is None, seed
        cands, masks = expected
        assert [set(c.tolist()) for c in result.problem.candidates] == cands, seed
        assert [int(m) for m in result.problem.cell_masks] == masks, seed
        kept += 1
    assert wiped >= 5 and kept >= 5  # both outcomes were checked
