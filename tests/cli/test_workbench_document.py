"""The workbench's document and session, without a server: the reducer, undo, locks, files."""

from __future__ import annotations

import json

import pytest

from xwsat.errors import XwsatError
from xwsat.formats import Puzzle, puzzle_from_bytes, render_puzzle
from xwsat.grid import parse_grid
from xwsat.workbench.dictionaries import Dictionaries
from xwsat.workbench.document import blank, reduce
from xwsat.workbench.session import Limits, Session


def rows_of(doc):
    return "\n".join(doc.rows)


def test_a_block_is_mirrored_by_the_chosen_symmetry():
    doc = blank(5, 5)
    assert rows_of(reduce(doc, {"type": "block", "cell": 0})).count("#") == 2
    rotated = reduce(doc, {"type": "block", "cell": 1, "symmetry": "rotational"})
    assert rotated.rows[0][1] == "#" and rotated.rows[4][3] == "#"
    mirrored = reduce(doc, {"type": "block", "cell": 1, "symmetry": "mirror"})
    assert mirrored.rows[0] == ".#.#."
    alone = reduce(doc, {"type": "block", "cell": 1, "symmetry": "none"})
    assert rows_of(alone).count("#") == 1
    assert reduce(rotated, {"type": "block", "cell": 1}).rows == doc.rows  # toggles back


def test_a_clue_stays_with_its_entry_when_a_block_renumbers_the_grid():
    doc = reduce(blank(5, 5), {"type": "letters", "cells": {"5": "S", "6": "T", "7": "E",
                                                            "8": "A", "9": "M"}})
    doc = reduce(doc, {"type": "clue", "slot": "6A", "text": "Hot vapour"})
    doc = reduce(doc, {"type": "clue", "slot": "1D", "text": "First down"})
    doc = reduce(doc, {"type": "block", "cell": 0, "symmetry": "none"})
    clues = dict(doc.clues)  # STEAM is 5A now; 1D lost its first cell and is 5D's rest
    assert clues["5A"] == "Hot vapour" and "6A" not in clues
    assert clues["5D"] == "First down" and len(clues) == 2
    gone = reduce(blank(3, 3), {"type": "clue", "slot": "4A", "text": "Middle"})
    gone = reduce(gone, {"type": "block", "cell": 4, "symmetry": "none"})
    assert dict(gone.clues) == {}  # a 3-letter run cut into two 1-letter runs: no entry


def test_bad_actions_are_refused_with_a_sentence_and_change_nothing():
    doc = blank(5, 5)
    for action in ({"type": "letter", "cell": 25, "letter": "A"},
                   {"type": "letter", "cell": 0, "letter": "AB"},
                   {"type": "new", "width": 30, "height": 30},
                   {"type": "meta", "field": "path", "value": "/etc/passwd"},
                   {"type": "explode"}):
        with pytest.raises(XwsatError):
            reduce(doc, action)


def test_a_locked_entry_cannot_be_typed_over_blocked_or_stretched():
    doc = reduce(blank(5, 5), {"type": "lock", "slot": "1A", "word": "ZYZZX"})
    assert doc.rows[0] == "ZYZZX" and doc.locks[0].word == "ZYZZX"
    with pytest.raises(XwsatError, match="locked"):
        reduce(doc, {"type": "letter", "cell": 0, "letter": "A"})
    with pytest.raises(XwsatError, match="locked"):
        reduce(doc, {"type": "block", "cell": 2, "symmetry": "none"})
    unlocked = reduce(doc, {"type": "unlock", "slot": "1A"})
    assert unlocked.locks == () and unlocked.rows[0] == "ZYZZX"


async def _quiet(message):
    return None


@pytest.fixture
def session():
    made = Session(Dictionaries(), _quiet, Limits(), "en")
    yield made
    made.close()


def test_undo_and_redo_walk_the_action_list(session):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.dispatch({"type": "letter", "cell": 0, "letter": "c"})
    session.dispatch({"type": "block", "cell": 4})
    assert session.doc.rows[0] == "C...#"
    session.undo()
    assert session.doc.rows[0] == "C...."
    session.undo()
    assert session.doc.rows[0] == "....."
    session.redo()
    assert session.doc.rows[0] == "C...."
    session.dispatch({"type": "letter", "cell": 1, "letter": "A"})  # a new edit drops redo
    session.redo()
    assert session.doc.rows[0] == "CA..."


def test_a_theme_entry_outside_the_list_joins_it_as_lock_does(session):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.dispatch({"type": "lock", "slot": "1A", "word": "QZXJV"})
    words = session.words()
    assert "QZXJV" in words.placed_only
    view = session.view()
    assert view["insight"]["slots"][0]["candidates"] == 1


def test_a_letter_outside_the_dictionary_is_refused(session):
    with pytest.raises(XwsatError, match="not a letter of the dictionary"):
        session.dispatch({"type": "letter", "cell": 0, "letter": "Ж"})


def test_saved_puz_reads_back_with_its_clues_and_credits(session):
    session.dispatch({"type": "new", "width": 3, "height": 3})
    session.dispatch({"type": "letters", "cells": {str(i): ch for i, ch in
                                                  enumerate("CATAREten")}})
    session.dispatch({"type": "meta", "field": "title", "value": "Tiny"})
    session.dispatch({"type": "clue", "slot": "1A", "text": "Feline"})
    data, name, _, note = session.save("puz")
    assert name == "Tiny.puz"  # the list's clues fill 1D, 5A, 3D; 4A and 2D are left
    assert note == "2 of 6 entries have no clue yet"
    back = puzzle_from_bytes(data, name)
    assert back.solution.rows == ("CAT", "ARE", "TEN") and back.title == "Tiny"
    assert back.clues["1A"] == "Feline"
    with pytest.raises(XwsatError):
        session.save("exe")
    for title, stem in (("Puzzle ★ 1", "Puzzle 1"), ("a/b: c?", "a b c"), ("★", "puzzle")):
        session.dispatch({"type": "meta", "field": "title", "value": title})
        assert session.save("txt")[1] == f"{stem}.txt"


def test_a_saved_puz_says_what_its_one_byte_text_cannot_hold(session):
    session.dispatch({"type": "new", "width": 3, "height": 3})
    session.dispatch({"type": "letters", "cells": {str(i): ch for i, ch in
                                                  enumerate("CATAREten")}})
    for slot in ("1A", "4A", "5A", "1D", "2D", "3D"):
        session.dispatch({"type": "clue", "slot": slot, "text": "Plain — dashes fit"})
    assert session.save("puz")[3] is None  # a dash is spelt "--": nothing is lost
    session.dispatch({"type": "clue", "slot": "1A", "text": "Кот"})
    note = session.save("puz")[3]
    assert note and "1 clue, title, credit or note text uses characters a .puz cannot hold" in note
    assert session.save("ipuz")[3] is None  # .ipuz keeps the text as it is
    assert session.save("txt")[3] == "a .txt keeps the grid alone, not its clues"


def test_an_opened_file_with_letters_the_list_lacks_is_refused(session):
    # letters no embedded list has (a Cyrillic file switches to ru: see below)
    with pytest.raises(XwsatError, match="not in the dictionary"):
        session.open("ΖΥΓ\n...\n...\n".encode(), "greek.txt")
    with pytest.raises(XwsatError, match="25x25"):
        session.open((("." * 30 + "\n") * 30).encode(), "big.txt")
    for side in (60, 300):  # over the command line's limit too: the workbench's is the one said
        with pytest.raises(XwsatError, match=f"the grid is {side}x{side}; the workbench takes "
                                             "3x3 to 25x25"):
            session.open((("." * side + "\n") * side).encode(), "huge.txt")


def test_the_view_is_json_ready(session):
    import json

    assert json.loads(json.dumps(session.view()))["doc"]["rows"][0] == "." * 15


def test_autofill_of_a_selection_needs_the_rest_filled(session):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    with pytest.raises(XwsatError, match="autofill the grid first"):
        session.autofill([0, 0, 1, 1])
    with pytest.raises(XwsatError, match="not inside the grid"):
        session.autofill([0, 0, 9, 9])
    job = session.autofill(None)
    assert job.kind == "autofill" and job.rev == session.rev


def test_a_picked_word_that_differs_from_the_suggested_fill_drops_it(session):
    session.dispatch({"type": "new", "width": 4, "height": 4})
    session.suggestion = {"letters": {"0": "B", "1": "A", "2": "L", "3": "E"}}
    session.dispatch({"type": "letters", "cells": {"0": "B", "1": "A"}})  # as suggested
    assert session.suggestion is not None
    session.dispatch({"type": "letters", "cells": {"4": "", "5": "x"}})  # not in the suggestion
    assert session.suggestion is not None
    session.dispatch({"type": "letters", "cells": {"0": "a", "1": "b"}})  # ABEL over BALE
    assert session.suggestion is None
    with pytest.raises(XwsatError, match="no suggested fill"):
        session.accept(None)  # "Accept all" cannot write BALE back over the picked word


def test_uploads_no_page_uses_are_forgotten(monkeypatch):
    from xwsat.workbench import dictionaries as module

    shelf = Dictionaries()
    kept = shelf.add_upload(b"CAT\nARE\nTEN\n", "a.txt")
    dropped = shelf.add_upload(b"DOG\nEAR\n", "b.txt")
    shelf.get(dropped, 0)
    shelf.keep_uploads({kept})
    assert shelf.get(dropped).words  # too recent: its page may not have chosen it yet
    monkeypatch.setattr(module, "FRESH_S", -1.0)
    shelf.keep_uploads({kept, "en"})
    assert len(shelf.get(kept)) == 3
    with pytest.raises(XwsatError, match="unknown dictionary"):
        shelf.get(dropped)


def test_an_upload_that_unpacks_past_the_cap_is_refused():
    import gzip

    bomb = gzip.compress(b"A" * (40 << 20))  # 40 KiB packed
    with pytest.raises(XwsatError, match="unpacks to more than 32 MiB"):
        Dictionaries().add_upload(bomb, "bomb.txt.gz")


def test_an_upload_scored_past_100_is_refused_without_a_command_line_remedy():
    with pytest.raises(XwsatError) as refused:
        Dictionaries().add_upload(b"CAT;500\nDOG;20\n", "big.txt")
    said = str(refused.value)
    assert said.startswith("big.txt: line 1: score 500 is outside 0-100; the workbench reads")
    assert "--dict" not in said


def test_a_kept_document_is_restored_and_checked_as_an_edit(session):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.dispatch({"type": "lock", "slot": "1A", "word": "QZXJV"})
    session.dispatch({"type": "block", "cell": 12})
    session.dispatch({"type": "clue", "slot": "1A", "text": "a theme"})
    session.dispatch({"type": "meta", "field": "title", "value": "Kept"})
    kept = session.view()["doc"]
    session.dispatch({"type": "new", "width": 15, "height": 15})
    session.dispatch({"type": "restore", "doc": kept})
    assert session.view()["doc"] == kept
    session.undo()
    assert len(session.doc.rows) == 15
    for bad in (None, {"rows": ["ABC", "AB"]}, {**kept, "rows": ["Q1XJV"] + kept["rows"][1:]}):
        with pytest.raises(XwsatError):
            session.dispatch({"type": "restore", "doc": bad})
    assert len(session.doc.rows) == 15
    # a part the server refuses is left out or cut, never the grid: a title pasted over the
    # limit, kept by the page as it went away, once made the reload lose the whole grid
    for part, left in (({"locks": [{"word": "QZ", "cells": ["x"]}]}, {"locks": []}),
                       ({"clues": {"9D": "no such entry", "1A": ["x"]}}, {"clues": {}}),
                       ({"title": "T" * 2500}, {"title": "T" * 2000})):
        session.dispatch({"type": "restore", "doc": {**kept, **part}})
        assert session.view()["doc"] == {**kept, **left}


@pytest.mark.parametrize("full", [False, True])
def test_a_saved_json_reopens_with_its_locked_entries(session, full):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.dispatch({"type": "lock", "slot": "1A", "word": "QZXJV"})
    if full:  # a complete grid is saved as a blank pattern and a solution
        session.dispatch({"type": "letters", "cells": {str(i): "A" for i in range(5, 25)}})
    data, name, _, _ = session.save("json")
    session.dispatch({"type": "new", "width": 15, "height": 15})
    session.open(data, name)
    assert session.doc.rows[0] == "QZXJV"
    assert [(lock.word, lock.direction) for lock in session.doc.locks] == [("QZXJV", "A")]


def test_an_all_block_grid_saves_as_ipuz(session):
    # taken as a complete solution, which .ipuz drops: "refusing to write: ... would not read
    # back", a message about xwsat's own check, not the constructor's grid
    session.dispatch({"type": "new", "width": 3, "height": 3})
    session.dispatch({"type": "pattern", "rows": ["###"] * 3})
    data, _, _, _ = session.save("ipuz")
    assert puzzle_from_bytes(data, "x.ipuz").pattern.rows == ("###",) * 3


def test_a_saved_json_reopens_with_its_list_and_minimum_score(session):
    # the list and the minimum score were kept in the browser only: a .json opened in
    # another tab (or sent to a co-constructor) came back at whatever the page had
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.set_dictionary("en", 50)
    data, name, _, _ = session.save("json")
    assert json.loads(data)["word_list"] == {"name": "en", "min_score": 50}
    session.set_dictionary("en", 0)
    said = session.open(data, name)
    assert (session.dictionary, session.min_score) == ("en", 50)
    assert f"{name}: made with en at minimum score 50, in use again" in said
    lost = Puzzle(parse_grid("OC...\n" + ".....\n" * 4), locked=frozenset({"1A"}))
    said = session.open(render_puzzle(lost, "l.json").encode(), "l.json")
    assert "l.json: 1 of its locked entries is not locked here: the grid does not hold its " \
        "letters" in said and not session.doc.locks
    elsewhere = Puzzle(parse_grid(".....\n" * 5), word_list=("mine.txt", 40))
    said = session.open(render_puzzle(elsewhere, "m.json").encode(), "m.json")
    assert "made with the list mine.txt at minimum score 40, which this page does not have" \
        in said and session.min_score == 50


def test_saving_where_locks_are_not_marked_says_so(session):
    # the page said the bans were kept in .json only, and nothing of the locks a .puz drops
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.dispatch({"type": "lock", "slot": "1A", "word": "QZXJV"})
    for fmt in ("ipuz", "txt"):
        _, _, _, note = session.save(fmt)
        assert note and "the locked entry is marked locked in .json only" in note, fmt
    _, _, _, note = session.save("json")
    assert not note or "locked" not in note


def test_a_saved_json_keeps_the_banned_words_and_reopens_them_banned(session):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.set_bans(["OCEAN", "ARENA"])
    data, name, _, note = session.save("json")
    assert note and "banned" not in note  # a .json keeps them
    _, _, _, note = session.save("ipuz")
    assert "the 2 banned words are kept in .json only" in note
    session.set_bans([])
    session.open(data, name)
    assert session.bans == {"OCEAN", "ARENA"}
    session.set_bans([])  # a file edited by hand: a ban of its locked entry, one in Cyrillic
    theme = Puzzle(parse_grid("OCEAN\n" + ".....\n" * 4), locked=frozenset({"1A"}),
                   bans=("OCEAN", "ARENA", "ЖУК"))
    said = session.open(render_puzzle(theme, "theme.json").encode(), "theme.json")
    assert session.bans == {"ARENA"} and session.doc.locks[0].word == "OCEAN"
    assert "its banned word ARENA is banned again (2 not: a locked entry" in said


def test_an_accented_letter_is_read_as_an_opened_file_reads_it(session):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.dispatch({"type": "letter", "cell": 0, "letter": "é"})
    session.dispatch({"type": "letters", "cells": {"1": "Ç"}})
    assert session.doc.rows[0] == "EC..."
    session.dispatch({"type": "lock", "slot": "1D", "word": "ébène"})
    assert session.doc.locks[0].word == "EBENE"
    with pytest.raises(XwsatError, match="not a letter of the dictionary"):
        session.dispatch({"type": "letter", "cell": 2, "letter": "Ж"})


def test_an_autofill_that_proves_no_fill_settles_the_verdict():
    """The verdict search has a short limit; an autofill that proves the whole grid has no
    fill (in its longer one) is the verdict, with the entries to blame."""
    import asyncio

    from xwsat.grid import parse_grid
    from xwsat.pipeline import FillOptions
    from xwsat.words import build_wordlist
    from xwsat.workbench import searches

    words = build_wordlist({"AB": (50, None), "CD": (50, None)})
    grid = parse_grid("..\n..\n")
    answer = searches.autofill(grid, words, FillOptions("mac", 10.0), 0.0, explain_s=5.0)
    assert answer["status"] == "unfillable" and answer["core"], answer
    sent = []

    async def keep(message):
        sent.append(message)

    made = Session(Dictionaries(), keep, Limits(), "en")
    try:
        message = {"type": "job", "kind": "autofill", "rev": made.rev, "final": True,
                   "result": answer, "region": None, "whole": True}
        asyncio.run(made._job_message(message))
        assert made.verdict == "unfillable"
        decided = [m for m in sent if m["kind"] == "decide"]
        assert decided and decided[0]["result"]["status"] == "unfillable"
        assert decided[0]["result"]["core"] == answer["core"]
        made.verdict = None  # a selection's autofill, or one with words banned: not the verdict
        asyncio.run(made._job_message({**message, "whole": False}))
        assert made.verdict is None
    finally:
        made.close()


def test_a_selections_refill_changes_an_entry():
    """The selection's autofill never suggests the letters already there (as fill --region)."""
    from xwsat.grid import parse_grid
    from xwsat.pipeline import FillOptions
    from xwsat.words import build_wordlist
    from xwsat.workbench import searches

    words = build_wordlist({w: (50, None) for w in ("AB", "CD", "AC", "BD")})
    grid = parse_grid("..\n..\n")  # two fills: AB/CD and its transpose AC/BD
    for seed in (0, 1, 2):
        answer = searches.autofill(grid, words, FillOptions("mac", 10.0, seed=seed), 1.0,
                                   current=("AB", "CD", "AC", "BD"))
        assert answer["letters"] == {"0": "A", "1": "C", "2": "B", "3": "D"}, answer


def test_another_fill_that_finds_none_keeps_the_fill_shown_and_bans_nothing():
    """Every fill needs the weakest word: "Another fill" finds none, and the fill shown stays
    acceptable (it used to vanish on the server while the page still showed it), with a note
    naming the word; the next plain autofill leaves nothing out."""
    import asyncio

    sent = []

    async def keep(message):
        sent.append(message)

    made = Session(Dictionaries(), keep, Limits(), "en")
    try:
        made.dispatch({"type": "new", "width": 3, "height": 3})
        shown = {"status": "filled", "letters": {"0": "C"}, "weakest": [{"word": "TED",
                                                                        "score": 10}]}
        made.suggestion = shown
        job = made.autofill(None, another=True)
        assert job.tag["another"] == "TED" and "TED" in made.banned and made.suggestion is None
        message = {"type": "job", "kind": "autofill", "rev": made.rev, "final": True,
                   "result": {"status": "unfillable", "why": "exhausted"}, **job.tag}
        asyncio.run(made._job_message(message))
        assert made.suggestion == shown and not made.banned
        told = sent[-1]["result"]
        assert told["letters"] == shown["letters"] and "No other fill without TED" in told["note"]
        made.banned.add("OTHER")
        assert made.autofill(None).tag["another"] is None and not made.banned
    finally:
        made.close()


def test_an_entry_below_the_minimum_score_is_said_so():
    made = Session(Dictionaries(), _quiet, Limits(), "en")
    try:
        words = made.dictionaries.get("en", 0)
        low = next(w for w, s in zip(words.words, words.scores) if len(w) == 5 and s < 50)
        made.dispatch({"type": "new", "width": 5, "height": 5})
        made.dispatch({"type": "letters", "cells": {str(i): ch for i, ch in enumerate(low)}})
        made.set_dictionary("en", 50)
        dead = made.view()["insight"]["dead"]
        assert "below the minimum score 50" in dead["1A"] and low in dead["1A"]
    finally:
        made.close()


def test_a_partly_typed_entry_whose_words_are_all_left_out_says_which_and_why():
    # "no dictionary word matches F...U", though FONDU is in the list (below the minimum)
    made = Session(Dictionaries(), _quiet, Limits(), "en")
    try:
        words = made.dictionaries.get("en", 0)
        fives = [(w, int(s)) for w, s in zip(words.words, words.scores) if len(w) == 5]
        ends = {}
        for w, s in fives:
            ends.setdefault((w[0], w[-1]), []).append((w, s))
        (first, last), found = next((k, v) for k, v in sorted(ends.items())
                                    if len(v) == 1 and 0 < v[0][1] < 60)
        word, score = found[0]
        made.dispatch({"type": "new", "width": 5, "height": 5})
        made.dispatch({"type": "letters", "cells": {"0": first, "4": last}})
        made.set_dictionary("en", score + 10)
        pattern = f"{first}...{last}"
        said = made.view()["insight"]["dead"]["1A"]
        cut = f"no word scored {score + 10} or more matches {pattern}"
        assert f"{cut} ({word} scores {score}" in said
        made.set_dictionary("en", 0)
        made.set_bans([word])
        said = made.view()["insight"]["dead"]["1A"]
        assert f"no word matches {pattern} but the banned {word}" in said
    finally:
        made.close()


def test_autofill_of_a_full_grid_says_there_is_nothing_to_fill():
    made = Session(Dictionaries(), _quiet, Limits(), "en")
    try:
        made.dispatch({"type": "new", "width": 3, "height": 3})
        made.dispatch({"type": "letters", "cells": {str(i): ch
                                                   for i, ch in enumerate("CATOREWED")}})
        with pytest.raises(XwsatError, match="every square is filled already"):
            made.autofill(None)
        assert made.autofill([0, 0, 2, 2]).kind == "autofill"  # a selection's refill is asked
        made.dispatch({"type": "restore", "doc": {"rows": ["###", "###", "###"]}})
        with pytest.raises(XwsatError, match="the grid has no entries to fill"):
            made.autofill(None)  # all blocks: not "every square is filled already"
    finally:
        made.close()


def test_using_a_suggested_pattern_locks_the_theme_entries_it_was_searched_with():
    # a typed entry the list lacks (the suggestion's search took it as --lock does) stayed
    # unlocked, so the autofill of the chosen pattern said "no dictionary word matches"
    doc = reduce(blank(7, 7), {"type": "letters",
                               "cells": {str(21 + i): ch for i, ch in enumerate("XWQZ")}})
    rows = ["...#...", "...#...", "...#...", "XWQZ###", "...#...", "...#...", "...#..."]
    used = reduce(doc, {"type": "pattern", "rows": rows})
    assert [(lk.cell, lk.direction, lk.word) for lk in used.locks] == [(21, "A", "XWQZ")]
    with pytest.raises(XwsatError, match="'1X' is not a word: a locked entry holds letters"):
        reduce(blank(3, 3), {"type": "lock", "slot": "1A", "word": "1X"})


def test_a_list_that_lacks_the_grids_letters_is_refused_and_the_list_in_use_stays(session):
    # switching to it was accepted, and every click then failed on the grid's letters
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.dispatch({"type": "letter", "cell": 0, "letter": "q"})
    with pytest.raises(XwsatError, match="the grid has letters Q that ru lacks"):
        session.set_dictionary("ru", 0)
    with pytest.raises(XwsatError, match="minimum score is a whole number"):
        session.set_dictionary("en", True)
    assert (session.dictionary, session.min_score) == ("en", 0)


def test_a_long_title_makes_a_file_name_a_file_system_takes(session):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.dispatch({"type": "meta", "field": "title", "value": "Ab " * 600})
    name = session.save("txt")[1]
    assert name.endswith(".txt") and len(name) <= 84
    with pytest.raises(XwsatError, match=r"the title: at most 2,000 characters \(2,100 given\)"):
        session.dispatch({"type": "meta", "field": "title", "value": "x" * 2100})


def test_the_weakest_entries_of_a_selection_fill_are_entries_it_filled():
    # POSEUR, outside the selection, was named weakest, and "Another fill" left it out
    from xwsat.grid import parse_grid
    from xwsat.problem import build_problem
    from xwsat.words import build_wordlist
    from xwsat.workbench.quality import weakest

    words = build_wordlist({"CAT": (90, None), "ORE": (20, None), "WED": (60, None),
                            "COW": (80, None), "ARE": (70, None), "TED": (50, None)})
    built = build_problem(parse_grid("CAT\nORE\n...\n"), words)
    fill = tuple(built.words.words.index(w) for w in ("CAT", "ORE", "WED", "COW", "ARE",
                                                      "TED"))
    named = [word for _, word, _ in weakest(built, fill, count=6)]
    assert "ORE" not in named and "CAT" not in named and named[0] == "TED"


def test_a_banned_word_is_offered_to_no_entry_and_a_typed_one_is_said_banned(session):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.set_bans(["ocean", "Océan"])  # read as a typed letter is: folded where it must be
    assert session.bans == {"OCEAN"}
    words = session.words()
    assert "OCEAN" not in {words.words[int(i)] for i in words.ids_of_length(5)}
    assert session.view()["dictionary"]["bans"] == ["OCEAN"]
    session.dispatch({"type": "letters", "cells": {str(i): ch for i, ch in enumerate("OCEAN")}})
    assert "OCEAN is banned for this puzzle" in session.view()["insight"]["dead"]["1A"]
    session.set_bans([])
    assert "1A" not in session.view()["insight"]["dead"]
    for bad, message in ((["Q2"], "not a word of en"), ("OCEAN", "list of at most"),
                         (["A"] * 501, "list of at most")):
        with pytest.raises(XwsatError, match=message):
            session.set_bans(bad)
    session.dispatch({"type": "lock", "slot": "1A"})  # a locked entry is unlocked first
    with pytest.raises(XwsatError, match="OCEAN is a locked entry"):
        session.set_bans(["OCEAN"])
    assert session.bans == frozenset()


def test_a_ban_drops_a_suggested_fill_only_when_the_fill_uses_the_word(session):
    session.dispatch({"type": "new", "width": 3, "height": 3})
    session.suggestion = {"letters": {str(i): ch for i, ch in enumerate("CATOREWED")}}
    session.set_bans(["ZZZ"])
    assert session.suggestion is not None
    session.set_bans(["ZZZ", "ORE"])
    assert session.suggestion is None


def test_a_kept_suggestion_is_shown_again_only_when_it_still_fills_the_grid(session):
    """A reload lost the suggested fill (a 21x21's took a minute to find); the page now sends
    the one it kept, which the server checks as it checks any fill before showing it."""
    session.dispatch({"type": "new", "width": 3, "height": 3})
    session.dispatch({"type": "letter", "cell": 0, "letter": "C"})
    fill = {str(i): ch for i, ch in enumerate("CATOREWED") if i}
    for bad in ({**fill, "4": "Q"}, {k: v for k, v in fill.items() if k != "8"},
                {**fill, "0": "B"}, {**fill, "x": "A"}, {**fill, "4": "RE"}, "CATOREWED"):
        assert not session.suggest_again({"letters": bad}) and session.suggestion is None
    session.set_bans(["WED"])
    assert not session.suggest_again({"letters": fill})
    session.set_bans([])
    assert session.suggest_again({"letters": fill, "level": 99, "proven": True})
    shown = session.suggestion
    assert shown["letters"] == fill and shown["level"] < 99 and not shown["proven"]
    assert shown["total"] > 0 and shown["weakest"] and shown["kept"]
    session.accept(None)
    assert session.doc.rows == ("CAT", "ORE", "WED")


def test_locking_a_banned_word_lifts_its_ban_and_later_bans_still_work(session):
    # the ban stayed beside the lock: every later ban was refused ("OPAL is a locked entry"),
    # and the saved .json made fill, prove and candidates refuse the file
    session.dispatch({"type": "new", "width": 4, "height": 4})
    session.set_bans(["OPAL"])
    session.dispatch({"type": "lock", "slot": "1A", "word": "OPAL"})
    assert session.bans == frozenset()
    session.set_bans(["ARIA"])
    assert session.bans == {"ARIA"}


def test_a_ban_is_an_undo_step_and_undo_brings_back_the_ban_a_lock_lifted(session):
    # Ctrl+Z after a ban undid the edit before it (an Open: the whole grid) and left the ban
    session.dispatch({"type": "new", "width": 4, "height": 4})
    session.dispatch({"type": "letter", "cell": 5, "letter": "R"})
    session.set_bans(["OPAL"])
    session.undo()
    assert session.bans == frozenset() and session.doc.rows[1] == ".R.."
    session.redo()
    assert session.bans == {"OPAL"}
    session.dispatch({"type": "lock", "slot": "1A", "word": "OPAL"})  # lifts the ban
    assert session.bans == frozenset()
    session.undo()
    assert session.bans == {"OPAL"} and not session.doc.locks


def test_a_restored_grid_comes_back_with_its_bans_in_one_undo_step(session):
    # a reloaded page sent its bans after the grid: the first Undo took the bans away and
    # left the grid, though the page said "Undo gives a blank one"
    session.dispatch({"type": "restore", "doc": {"rows": ["....."] * 5}, "bans": ["OCEAN"]})
    assert session.bans == {"OCEAN"} and len(session.doc.rows) == 5
    session.undo()
    assert session.bans == frozenset() and len(session.doc.rows) == 15
    session.redo()
    session.dispatch({"type": "restore", "doc": {"rows": ["...."] * 4}, "bans": ["ЖУК"]})
    assert len(session.doc.rows) == 4 and session.bans == frozenset()  # not words of en


def test_new_starts_without_bans_open_with_the_files_and_undo_brings_the_old_ones_back(session):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.set_bans(["OCEAN"])
    session.dispatch({"type": "new", "width": 4, "height": 4})
    assert session.bans == frozenset()
    session.undo()
    assert session.bans == {"OCEAN"} and len(session.doc.rows) == 5
    saved = Puzzle(parse_grid(".....\n" * 5), bans=("ARENA",))
    said = session.open(render_puzzle(saved, "p.json").encode(), "p.json")
    assert session.bans == {"ARENA"} and "its banned word ARENA is banned again" in said
    session.undo()  # the Open and its bans are one step
    assert session.bans == {"OCEAN"}
    theme = Puzzle(parse_grid("OCEAN\n" + ".....\n" * 4), locked=frozenset({"1A"}),
                   bans=("OCEAN",))
    said = session.open(render_puzzle(theme, "t.json").encode(), "t.json")
    assert session.bans == frozenset()
    assert "t.json: its banned word stays allowed (a locked entry, or not a word of" in said


def test_a_kept_suggestion_comes_back_after_one_of_its_entries_was_accepted(session):
    session.dispatch({"type": "new", "width": 3, "height": 3})
    fill = {str(i): ch for i, ch in enumerate("CATOREWED")}
    session.dispatch({"type": "letters", "cells": {"0": "C", "1": "A", "2": "T"}})  # 1A taken
    assert session.suggest_again({"letters": fill})
    assert set(session.suggestion["letters"]) == {str(i) for i in range(3, 9)}


def test_an_entry_typed_whole_that_the_list_lacks_is_said_lockable(session):
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.dispatch({"type": "letters", "cells": {str(i): ch for i, ch in enumerate("QXZQX")}})
    assert session.view()["insight"]["dead"]["1A"] == (
        "slot 1A: QXZQX is not in the dictionary (Lock keeps it as an entry of your own)")


def test_a_selection_of_an_entry_a_block_just_ended_selects_nothing_in_silence(session):
    # a quick double click: the first click's selection reached the server after the block
    session.dispatch({"type": "new", "width": 5, "height": 5})
    session.dispatch({"type": "block", "cell": 12})  # the centre: the grid is renumbered
    session.select("12A")  # raised "the grid has no entry 12A", shown in red
    assert session.selected is None


@pytest.mark.parametrize("width, height, said", [
    (2.5, 5, "3 to 25 whole cells a side; 2.5x5 asked"),
    (None, 5, "needs its width and height"),
    (26, 15, "3 to 25 cells a side; 26x15 asked"),
])
def test_a_new_grid_of_a_size_it_cannot_have_is_refused_for_what_is_wrong(width, height, said):
    with pytest.raises(XwsatError, match=said):
        reduce(blank(5, 5), {"type": "new", "width": width, "height": height})


def test_a_clue_or_a_title_typed_during_an_autofill_leaves_the_search_and_verdict_be(session):
    # a clue typed while a 21x21 autofilled made its answer "for a grid that is gone": the
    # search was stopped and never said anything
    import asyncio

    session.dispatch({"type": "new", "width": 5, "height": 5})
    job = session.autofill(None)
    session.verdict = "fillable"
    session.dispatch({"type": "clue", "slot": "1A", "text": "Written while it searches"})
    session.dispatch({"type": "meta", "field": "title", "value": "Mine"})
    assert session.rev == job.rev + 2 and session.asked == job.rev  # same question
    assert session.verdict == "fillable"
    view = session.view()
    assert view["asked"] == job.rev and view["doc"]["title"] == "Mine"
    letters = {str(c): "A" for c in range(25)}
    asyncio.run(session._job_message({"type": "job", "kind": "autofill", "rev": job.rev,
                                      "final": True, "result": {"letters": letters},
                                      "region": None}))
    assert session.suggestion == {"letters": letters}  # its answer still counts
    session.dispatch({"type": "letter", "cell": 0, "letter": "B"})  # the grid: a new question
    assert session.asked == job.rev + 1 and session.verdict is None


def test_an_opened_file_keeps_its_circles_and_says_what_it_dropped(session, tmp_path):
    # opening dropped circled squares in silence, and every file saved after lacked them
    import json

    from xwsat.formats import puzzle_from_bytes, render_puzzle

    solution = [["C", "A", "T", "S", "#"], ["A", "R", "E", "N", "A"], ["R", "E", "N", "O", "W"],
                ["T", "A", "N", "G", "O"], ["#", "S", "T", "E", "P"]]
    numbers = {(0, 0): 1, (0, 1): 2, (0, 2): 3, (0, 3): 4, (1, 0): 5, (1, 4): 6, (2, 0): 7,
               (3, 0): 8, (4, 1): 9}
    cells = [["#" if solution[r][c] == "#" else
              {"cell": numbers.get((r, c), 0),
               **({"style": {"shapebg": "circle"}} if r == c < 3 else {})}
              for c in range(5)] for r in range(5)]
    ipuz = {"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/crossword#1"],
            "dimensions": {"width": 5, "height": 5}, "intro": "Circled squares spell CRN.",
            "puzzle": cells, "solution": solution,
            "clues": {"Across": [[1, "Felines"]], "Down": [[1, "Wagon"]]}}
    note = session.open(json.dumps(ipuz).encode(), "theme.ipuz")
    assert session.doc.circles == (0, 6, 12)
    assert "theme.ipuz: fields xwsat does not keep: intro" in note
    assert session.view()["doc"]["circles"] == [0, 6, 12]
    for ext in (".ipuz", ".json", ".puz"):
        saved = render_puzzle(session.doc.puzzle(), f"out{ext}")
        data = saved.encode() if isinstance(saved, str) else saved
        assert puzzle_from_bytes(data, f"out{ext}").circles == {0, 6, 12}, ext
    session.dispatch({"type": "restore", "doc": session.view()["doc"]})  # the page's kept copy
    assert session.doc.circles == (0, 6, 12)


def test_a_page_closed_while_answered_is_no_error(caplog):
    # closing a tab right after selecting an entry logged "workbench message failed", then
    # an ASGI traceback from the error sent on the closed socket
    import asyncio
    import json

    from starlette.websockets import WebSocketDisconnect

    from xwsat.workbench.app import _handle

    async def closed(message):
        raise WebSocketDisconnect(1006)

    async def select_then_close() -> None:
        made = Session(Dictionaries(), closed, Limits(), "en")
        try:
            made.dispatch({"type": "new", "width": 5, "height": 5})
            await _handle(made, json.dumps({"type": "select", "slot": "1A"}), closed)
        finally:
            made.close()

    with pytest.raises(WebSocketDisconnect):
        asyncio.run(select_then_close())
    assert "workbench message failed" not in caplog.text


def test_a_lock_in_another_alphabet_is_questioned_and_a_list_switch_names_every_letter():
    # КОТЫ typed with en (a keyboard left in Russian) was locked in silence; switching a grid
    # holding a Russian lock to en named only the letters the lock had not brought
    made = Session(Dictionaries(), _quiet, Limits(), "en")
    try:
        made.dispatch({"type": "new", "width": 4, "height": 4})
        with pytest.raises(XwsatError, match="КОТЫ has no letter of the dictionary"):
            made.dispatch({"type": "lock", "slot": "1A", "word": "коты"})
        assert not made.doc.locks
        made.dispatch({"type": "lock", "slot": "1A", "word": "QZQZ"})  # a theme entry: kept
        assert made.doc.locks
        made.dispatch({"type": "new", "width": 4, "height": 4})
        made.set_dictionary("ru", 0)
        made.dispatch({"type": "lock", "slot": "1A", "word": "ЛЕКС"})
        with pytest.raises(XwsatError, match="the grid has letters ЕКЛС that en lacks"):
            made.set_dictionary("en", 0)
    finally:
        made.close()


def test_opening_a_russian_puzzle_on_an_english_page_switches_the_list():
    # it took New grid, then ru, then Open again: ru was refused while the grid held CAT
    made = Session(Dictionaries(), _quiet, Limits(), "en")
    try:
        made.dispatch({"type": "new", "width": 3, "height": 3})
        made.dispatch({"type": "letters", "cells": {"0": "C", "1": "A", "2": "T"}})
        note = made.open("КОТ\n...\n...\n".encode(), "kot.txt")
        assert made.dictionary == "ru" and made.doc.rows[0] == "КОТ"
        assert "kot.txt: its letters are those of ru, now the list in use" in note
        with pytest.raises(XwsatError, match="letters ΓΑΤ|letters ΑΓΤ"):
            made.open("ΓΑΤ\n...\n...\n".encode(), "greek.txt")  # no embedded list has them
        assert made.dictionary == "ru"
    finally:
        made.close()


def test_undoing_an_open_that_switched_the_list_switches_it_back():
    # the English grid came back with ru still in use: "letter 'C' ... is not in the
    # dictionary's alphabet", no verdict, no candidates, until the list was switched by hand
    made = Session(Dictionaries(), _quiet, Limits(), "en")
    try:
        made.dispatch({"type": "new", "width": 3, "height": 3})
        made.dispatch({"type": "letters", "cells": {"0": "C", "1": "A", "2": "T"}})
        made.open("КОТ\n...\n...\n".encode(), "kot.txt")
        assert made.dictionary == "ru"
        assert made.undo() == "the grid's letters are those of en, now the list in use"
        assert made.dictionary == "en" and made.doc.rows[0] == "CAT"
        assert made.view()["insight"]["slots"]  # the grid is checked again
        assert made.redo().endswith("those of ru, now the list in use")
        assert made.dictionary == "ru" and made.undo() and made.undo() == ""  # blank: any list
    finally:
        made.close()
