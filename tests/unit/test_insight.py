"""The live insight after an edit (``xwsat.insight``): counts, forced letters, dead slots."""

from __future__ import annotations

from xwsat.insight import grid_insight


def test_counts_after_arc_consistency_and_forced_letters(make_words, make_grid):
    words = make_words(["CAT", "COT", "ACE", "TEN", "ATE", "TON", "OAT"])
    insight = grid_insight(make_grid("C..\n...\n...\n"), words)
    by_name = {s.name: s for s in insight.slots}
    assert by_name["1A"].matching == 2  # CAT, COT match C..
    assert by_name["1A"].candidates <= by_name["1A"].matching
    assert not insight.unfillable or insight.dead


def test_a_single_candidate_forces_its_letters(make_words, make_grid):
    # 1A and 1D are AB or AC, 2D and 3A are BD or CD: only the last cell is settled
    words = make_words(["AB", "CD", "AC", "BD", "XY"])
    insight = grid_insight(make_grid("A.\n..\n"), words)
    assert insight.forced == {3: "D"}
    assert not insight.unfillable and insight.settled


def test_every_slot_no_word_matches_is_named_with_its_reason(make_words, make_grid):
    words = make_words(["AB", "CD", "AC", "BD"], alphabet="ABCDQZ")
    insight = grid_insight(make_grid("Q.\n.Z\n"), words)
    assert set(insight.dead) == {"1A", "1D", "2D", "3A"}
    assert "no dictionary word matches Q." in insight.dead["1A"]
    assert insight.as_dict()["unfillable"] is True


def test_the_no_repeat_count_names_its_slots(make_words, make_grid):
    words = make_words(["AB", "CD"])  # three separate 2-letter slots, two words
    insight = grid_insight(make_grid("..\n##\n..\n##\n..\n"), words)
    assert insight.conflict is not None
    assert set(insight.conflict[0]) == {"1A", "2A", "3A"}
