"""One open page: its document and undo history, its word list, its searches.

Pages share nothing but the loaded word lists: each has its own session (a random id), so two
pages editing at once never see each other's grids. Everything the page shows comes from the
library: ``xwsat.insight`` after every edit, ``xwsat.pattern_stats``, and the searches of
``xwsat.workbench.searches`` in the background.
"""

from __future__ import annotations

import bisect
import contextlib
import io
import secrets
import shutil
import tempfile
import time
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from xwsat.candidates import ranked
from xwsat.errors import GridTooLarge, XwsatError
from xwsat.formats import puzzle_from_bytes, render_puzzle
from xwsat.formats.across_lite import lost_text_note, puzzle_texts
from xwsat.formats.puzzle import Puzzle
from xwsat.grid import BLOCK, EMPTY, Grid, extract_slots
from xwsat.insight import insight_of
from xwsat.lock import Region, region_grid, with_words, without_words
from xwsat.pattern_stats import SYMMETRIES, pattern_stats
from xwsat.pipeline import FillOptions
from xwsat.problem import Built, build_problem
from xwsat.words import EMBEDDED, WordList, normalize_word
from xwsat.workbench import searches
from xwsat.workbench.dictionaries import Dictionaries
from xwsat.workbench.document import Document, blank, from_puzzle, reduce, slot_named, too_large
from xwsat.workbench.jobs import Job, Jobs, Send

SAVE_FORMATS = {"ipuz": "application/json", "puz": "application/octet-stream",
                "txt": "text/plain; charset=utf-8", "json": "application/json",
                "html": "text/html; charset=utf-8"}
MAX_PUZZLE_BYTES = 4 << 20
SHOWN_CANDIDATES = 60
MAX_HISTORY = 2000
SETTLE_S = 0.08  # the search starts once the grid has not changed for this long
NAME_MOST = 80  # characters of the title in a saved file's name
MAX_BANS = 500  # words banned for one puzzle


@dataclass(frozen=True)
class Limits:
    """Seconds each background search may take, and the memory of a search's processes."""

    decide_s: float = 3.0
    explain_s: float = 5.0
    candidates_s: float = 10.0
    autofill_s: float = 10.0
    improve_s: float = 10.0
    certificate_s: float = 60.0
    patterns_s: float = 30.0
    pattern_try_s: float = 5.0
    memory_mb: int | None = 2048


class Session:
    """The state of one page; every method is called from the server's event loop."""

    def __init__(self, dictionaries: Dictionaries, send: Send, limits: Limits,
                 dictionary: str = "en") -> None:
        self.id = secrets.token_urlsafe(16)
        self.dictionaries = dictionaries
        self.send = send
        self.limits = limits
        self.jobs = Jobs(self._job_message, limits.memory_mb)
        self.states: list[Document] = [blank(15, 15)]
        self.actions: list[dict[str, Any]] = [{"type": "new", "width": 15, "height": 15}]
        # the words banned for the puzzle in each state: a ban is an undo step, New starts
        # with none, Open with the file's, and Undo brings back the bans of the state it reaches
        self.ban_states: list[frozenset[str]] = [frozenset()]
        self.cursor = 0
        self.rev = 0  # the document's revision: every edit
        # the question's revision: the grid, its locks and its word list, which a clue, a title
        # or notes leave as they were; searches, their answers and the verdict belong to it
        self.asked = 0
        self.symmetry = "rotational"
        self.dictionary = dictionary
        self.min_score = 0
        self.selected: str | None = None
        self.suggestion: dict[str, Any] | None = None
        self.banned: set[str] = set()  # left out by "Another fill", for the next fill only
        self.before_another: dict[str, Any] | None = None  # the fill "Another fill" replaces
        self.seed = 0
        self.folder = Path(tempfile.mkdtemp(prefix="xwsat-workbench-"))
        self.certificate: bytes | None = None
        self.verdict: str | None = None  # the background search's word on this revision
        self.explained = False  # an "unfillable" verdict came with its entries to blame
        self.acked = 0  # the page's last message handled (its own edits shown ahead of ours)
        self.buildable = False  # the last view built the grid's problem (else: said there)

    # --- the document --------------------------------------------------------------------
    @property
    def doc(self) -> Document:
        return self.states[self.cursor]

    @property
    def bans(self) -> frozenset[str]:
        """The words banned for this puzzle, by the constructor (those of the current state)."""
        return self.ban_states[self.cursor]

    @bans.setter
    def bans(self, words: frozenset[str]) -> None:
        self.ban_states[self.cursor] = words

    def dispatch(self, action: dict[str, Any]) -> None:
        """Apply an edit (``document.reduce``); the redo branch is dropped."""
        if action.get("type") in ("letter", "letters", "lock"):
            action = self._fit_letters(action)
        if action.get("type") == "block":
            action = {**action, "symmetry": self.symmetry}
        after = reduce(self.doc, action)
        if after == self.doc:
            return
        restored = action.get("type") == "restore" and "bans" in action
        self._step(after, action,
                   frozenset() if action.get("type") == "new" or restored else self.bans)
        if restored:  # a reloaded page's grid comes back with its own bans, in the same
            # undo step; bans that no longer apply (another list): the grid comes back alone
            with contextlib.suppress(XwsatError):
                self.set_bans(action["bans"], step=False)
        if locked := self.bans & {lock.word for lock in after.locks}:
            self.bans -= locked  # a lock wins over a ban: the word is the constructor's now
        self._changed(text_only=action.get("type") in ("clue", "meta"),
                      keep_suggestion=action.get("type") == "letters"
                      and not self._overrides_suggestion(action))

    def _overrides_suggestion(self, action: dict[str, Any]) -> bool:
        """Whether a ``letters`` edit (a picked candidate, say) writes a letter other than the
        suggested fill's in one of its cells: that fill is no longer what "Accept all" would
        give, so it goes, as it does when a letter is typed. (The action's letters are already
        fitted to the list: ``_fit_letters``.)"""
        if not self.suggestion or "letters" not in self.suggestion:
            return False
        suggested: dict[str, str] = self.suggestion["letters"]
        return any(value and suggested.get(str(cell), value) != value
                   for cell, value in (action.get("cells") or {}).items())

    def undo(self) -> str:
        """One step back; what changed beyond the grid, in a sentence ('' when nothing)."""
        if self.cursor == 0:
            return ""
        self.cursor -= 1
        said = self._list_for_grid()
        self._changed()
        return said

    def redo(self) -> str:
        """One step forward; as ``undo``."""
        if self.cursor == len(self.states) - 1:
            return ""
        self.cursor += 1
        said = self._list_for_grid()
        self._changed()
        return said

    def _list_for_grid(self) -> str:
        """When the grid now shown has letters the list in use lacks (an Open in another
        alphabet switched the list, then was undone), the embedded list that has them, as Open
        chooses it; else nothing changes."""
        if not self._fitted(self.doc, self.dictionary)[1]:
            return ""
        other = next((lang for lang in EMBEDDED if lang != self.dictionary
                      and not self._fitted(self.doc, lang)[1]), None)
        if other is None:
            return ""
        self.dictionary = other
        return f"the grid's letters are those of {other}, now the list in use"

    def _changed(self, keep_suggestion: bool = False, text_only: bool = False) -> None:
        """After an edit. A clue, a title or notes (``text_only``) change the document but not
        the question: the searches under way, the verdict and the suggested fill stay."""
        self.rev += 1
        if text_only:
            return
        self.asked += 1
        self.verdict = None
        self.explained = False
        self.certificate = None
        if not keep_suggestion:
            self.suggestion = None
            self.banned = set()

    def _fit_letters(self, action: dict[str, Any]) -> dict[str, Any]:
        """The action with each letter the word list lacks read without its accent when the
        list has that (É as E in ``en``), as an opened file's letters are; a letter that has
        no such reading is refused (a locked word may bring its own: it joins the list)."""
        known = set(self.words().alphabet.letters)

        def fit(value: Any) -> str:
            letter = normalize_word(str(value or ""))
            if letter and letter not in known:
                folded = normalize_word(letter, fold_accents=True)
                if folded in known:
                    return folded
                raise XwsatError(f"{letter!r} is not a letter of the dictionary "
                                 f"{self.dictionary_name()}")
            return letter

        kind = action["type"]
        if kind == "letter":
            return {**action, "letter": fit(action.get("letter"))}
        if kind == "letters" and isinstance(action.get("cells"), dict):
            return {**action, "cells": {k: fit(v) for k, v in action["cells"].items()}}
        if kind == "lock" and action.get("word"):
            word = normalize_word(str(action["word"]))
            folded = normalize_word(word, fold_accents=True)
            if word and known.isdisjoint(word) and known.isdisjoint(folded):
                # a theme entry brings the letters the list lacks, but one with no letter of
                # the list at all is a keyboard in another layout, most likely
                raise XwsatError(f"{word} has no letter of the dictionary "
                                 f"{self.dictionary_name()}: choose a list in its alphabet "
                                 "first")
            return {**action, "word": word if set(word) <= known else folded}
        return action

    def open(self, data: bytes, name: str) -> str:
        """Open an uploaded puzzle file as a new, undoable state; what the file held that the
        workbench does not keep (rebus squares, shading, other fields: ``Puzzle.dropped``),
        as a note ('' when nothing)."""
        if len(data) > MAX_PUZZLE_BYTES:
            raise XwsatError(f"{name}: larger than {MAX_PUZZLE_BYTES >> 20} MiB; not a puzzle")
        try:
            puzzle = puzzle_from_bytes(data, Path(name).name)
        except GridTooLarge as error:  # said with the workbench's own limit
            raise XwsatError(too_large(error.width, error.height)) from None
        doc = from_puzzle(puzzle)
        fitted, unknown = self._fitted(doc, self.dictionary)
        switched = ""
        if unknown:  # a Russian puzzle opened on an English page: the list whose letters it has
            other = next((lang for lang in EMBEDDED if lang != self.dictionary
                          and not self._fitted(doc, lang)[1]), None)
            if other is None:
                raise XwsatError(f"{name}: letters {''.join(unknown)} are not in the dictionary "
                                 f"{self.dictionary_name()}; choose one that has them")
            self.dictionary = other
            fitted = self._fitted(doc, other)[0]
            switched = f"{Path(name).name}: its letters are those of {other}, now the list in use"
        doc = replace(doc, rows=fitted.rows)
        doc = replace(doc, locks=tuple(  # a locked entry's word as its letters now read
            replace(lock, word="".join(fitted.cell(c) for c in cells))
            for lock, cells in doc.locked_slots()))
        if unmarked := len(puzzle.locked) - len(doc.locks):  # no letters, or no such entry
            switched = "; ".join(filter(None, [switched, (
                f"{Path(name).name}: {unmarked} of its locked entries "
                f"{'is' if unmarked == 1 else 'are'} not locked here: the grid does not hold "
                f"{'its' if unmarked == 1 else 'their'} letters")]))
        self._push(doc, {"type": "open", "name": name})
        made = self._open_list(puzzle.word_list, Path(name).name)
        banned = self._open_bans(puzzle.bans, Path(name).name)
        return "; ".join([*([switched] if switched else []), *([made] if made else []),
                          *([banned] if banned else []),
                          *(f"{Path(name).name}: {what}" for what in puzzle.dropped)])

    def _open_list(self, made: tuple[str, int] | None, name: str) -> str:
        """Use again the list and minimum score an opened .json was made with, when this
        server has that list; say what was done ('' when nothing changed)."""
        if made is None:
            return ""
        label, score = made
        key = self.dictionaries.key_of(label)
        if key is None:
            return (f"{name}: made with the list {label} at minimum score {score}, which this "
                    "page does not have: upload it, then choose the score")
        if (key, score) == (self.dictionary, self.min_score):
            return ""
        try:
            self.set_dictionary(key, score)
        except XwsatError as exc:
            return f"{name}: made with {label} at minimum score {score}, not used ({exc})"
        return f"{name}: made with {label} at minimum score {score}, in use again"

    def _open_bans(self, words: tuple[str, ...], name: str) -> str:
        """Ban again the words an opened .json banned (with those banned already), and say
        so; a word that is now a locked entry, or not a word of the list, stays allowed."""
        if not words:
            return ""
        locked = {lock.word for lock in self.doc.locks}
        known = set(self.words().alphabet.letters)
        wanted = [w for w in dict.fromkeys(normalize_word(w) for w in words)
                  if w and w not in locked and not set(w) - known]
        every = sorted(wanted)
        self.set_bans(every[:MAX_BANS], step=False)  # part of the Open, undone with it
        skipped = len(words) - len(wanted)
        why = f"a locked entry, or not a word of {self.dictionary_name()}"
        if not wanted:
            return (f"{name}: its banned word stays allowed ({why})" if skipped == 1 else
                    f"{name}: its {skipped} banned words stay allowed ({why})")
        said = (f"{name}: its banned word {wanted[0]} is banned again" if len(wanted) == 1
                else f"{name}: its {len(wanted)} banned words are banned again")
        if skipped:
            said += f" ({skipped} not: {why})"
        if len(every) > MAX_BANS:  # the page's own limit
            said += f"; only the first {MAX_BANS} in alphabetical order are kept"
        return said

    def _fitted(self, doc: Document, name: str) -> tuple[Grid, list[str]]:
        """``doc``'s grid with each letter the list ``name`` lacks read without its accent when
        the list has that, and the letters still outside it (a locked entry's join the list)."""
        locked = frozenset(lock.word for lock in doc.locks)
        letters = set(self.dictionaries.with_entries(name, self.min_score, locked,
                                                     self.bans - locked).alphabet.letters)
        fitted = doc.grid.map_letters(lambda ch: ch if ch in letters else
                                      normalize_word(ch, fold_accents=True))
        unknown = sorted({ch for row in fitted.rows for ch in row} - {BLOCK, EMPTY} - letters)
        return fitted, unknown

    def _step(self, doc: Document, action: dict[str, Any], bans: frozenset[str]) -> None:
        """A new undo step (the redo branch dropped), the oldest ones beyond MAX_HISTORY too."""
        keep = self.cursor + 1
        self.states = self.states[:keep] + [doc]
        self.actions = self.actions[:keep] + [action]
        self.ban_states = self.ban_states[:keep] + [bans]
        if len(self.states) > MAX_HISTORY:
            self.states, self.actions = self.states[-MAX_HISTORY:], self.actions[-MAX_HISTORY:]
            self.ban_states = self.ban_states[-MAX_HISTORY:]
        self.cursor = len(self.states) - 1

    def _push(self, doc: Document, action: dict[str, Any]) -> None:
        self._step(doc, action, frozenset())  # an opened file bans its own words, or none
        self._changed()

    # --- the word list -------------------------------------------------------------------
    def set_dictionary(self, name: str, min_score: int) -> None:
        if (not isinstance(min_score, int) or isinstance(min_score, bool)
                or not 0 <= min_score <= 100):
            raise XwsatError("the minimum score is a whole number from 0 to 100")
        self.dictionaries.get(name, min_score)  # a bad choice is said now, nothing changed
        locked = frozenset(lock.word for lock in self.doc.locks)
        letters = set(self.dictionaries.with_entries(name, min_score, locked).alphabet.letters)
        used = {ch for row in self.doc.grid.rows for ch in row} - {BLOCK, EMPTY}
        own = set(self.dictionaries.get(name, min_score).alphabet.letters)
        # else every later click fails on the grid's letters; a lock brings its own letters,
        # but not a whole alphabet (as a lock with no letter of the list is refused)
        if used - letters or any(own.isdisjoint(word) for word in locked):
            label = name if name in EMBEDDED else "the uploaded list"
            raise XwsatError(f"the grid has letters {''.join(sorted(used - own))} that {label} "
                             "lacks; clear them first, or keep the list in use")
        self.dictionary, self.min_score = name, min_score
        self._changed()

    def set_bans(self, words: Any, step: bool = True) -> None:
        """The words banned for this puzzle (``fill --ban``): no search offers them to any
        entry. A suggested fill that uses one goes; one the grid holds is shown as banned.
        A change is an undo step of its own (``step``), or part of the last one (an Open's)."""
        if (not isinstance(words, list) or len(words) > MAX_BANS
                or not all(isinstance(w, str) for w in words)):
            raise XwsatError(f"banned words are a list of at most {MAX_BANS} words")
        known = set(self.dictionaries.get(self.dictionary, self.min_score).alphabet.letters)
        bans = set()
        for raw in words:
            word = normalize_word(raw)
            if set(word) - known:  # as a typed letter: read without its accent if that fits
                word = normalize_word(raw, fold_accents=True)
            if not word or len(word) > 30 or set(word) - known:
                raise XwsatError(f"{raw[:30]!r} is not a word of {self.dictionary_name()}")
            bans.add(word)
        if locked := sorted(bans & {lock.word for lock in self.doc.locks}):
            raise XwsatError(f"{locked[0]} is a locked entry: unlock it before banning it")
        if frozenset(bans) == self.bans:
            return
        added = bans - self.bans
        if step:
            self._step(self.doc, {"type": "bans"}, frozenset(bans))
        else:
            self.bans = frozenset(bans)
        self._changed(keep_suggestion=not added & set(self._suggested_words()))

    def _suggested_words(self) -> list[str]:
        """The entries of the grid with the suggested fill's letters in it."""
        letters = (self.suggestion or {}).get("letters") or {}
        grid = self.doc.grid
        if not letters:
            return []
        cells = [letters.get(str(i), grid.cell(i)) for i in range(grid.width * grid.height)]
        return ["".join(cells[c] for c in slot.cells) for slot in extract_slots(grid, 2)]

    def dictionary_name(self) -> str:
        return self.dictionaries.label(self.dictionary)

    def words(self) -> WordList:
        locked = frozenset(lock.word for lock in self.doc.locks)  # a lock wins over a ban
        return self.dictionaries.with_entries(self.dictionary, self.min_score, locked,
                                              self.bans - locked)

    def options(self, seconds: float) -> FillOptions:
        return FillOptions(time_limit=seconds, seed=self.seed)

    # --- what the page shows -------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """The whole state after an edit: the document, the insight, the pattern's figures."""
        started = time.perf_counter()
        doc = self.doc
        words = self.words()
        state: dict[str, Any] = {
            "type": "state", "rev": self.rev, "asked": self.asked, "session": self.id,
            "acked": self.acked,
            "doc": {"rows": list(doc.rows), "clues": doc.clue_map, "title": doc.title,
                    "author": doc.author, "copyright": doc.copyright, "notes": doc.notes,
                    "circles": list(doc.circles),
                    "locks": [{"word": lock.word, "cells": list(cells)}
                              for lock, cells in doc.locked_slots()]},
            "can_undo": self.cursor > 0, "can_redo": self.cursor < len(self.states) - 1,
            "symmetry": self.symmetry,
            "dictionary": {"name": self.dictionary, "label": self.dictionary_name(),
                           "words": len(words), "min_score": self.min_score,
                           "bans": sorted(self.bans)},
            "suggestion": self.suggestion, "selected": self.selected,
        }
        slots = None
        self.buildable = False
        try:
            built = build_problem(doc.grid, words)
            self.buildable = True
            slots = built.slots
            state["insight"] = insight_of(built, started).as_dict()
            self._complete_entries(built, state["insight"]["dead"])
            state["numbers"] = {str(s.cells[0]): s.number for s in built.slots}
            state["clue_hints"] = _hints(built)
        except XwsatError as exc:
            state["insight"] = {"error": str(exc), "slots": [], "forced": {}, "dead": {}}
            state["numbers"] = {}
        state["stats"] = pattern_stats(doc.grid, self.symmetry, slots).as_dict()
        state["ms"] = round((time.perf_counter() - started) * 1000, 1)
        return state

    def _complete_entries(self, built: Built, dead: dict[str, str]) -> None:
        """Why a complete entry no word matches, in the constructor's terms: banned for this
        puzzle; in the list, but below the page's minimum score; or not in the list at all
        (a theme entry, most likely: a lock keeps it)."""
        full = self.dictionaries.get(self.dictionary, 0) if dead else None
        for index, slot in enumerate(built.slots):
            entry = "".join(built.grid.cell(c) for c in slot.cells)
            if full is None or slot.name not in dead:
                continue
            if EMPTY in entry:  # (only where no word of the page's list matches at all)
                if (len(built.problem.candidates[index]) == 0
                        and (said := self._left_out(full, slot.name, entry))):
                    dead[slot.name] = said
                continue
            if entry in self.bans:
                dead[slot.name] = (f"slot {slot.name}: {entry} is banned for this puzzle "
                                   "(clear it, or lift the ban)")
                continue
            score = _score_of(full, entry)
            if score is not None and score < self.min_score:
                dead[slot.name] = (f"slot {slot.name}: {entry} scores {score}, below the "
                                   f"minimum score {self.min_score}")
            elif score is None and len(built.problem.candidates[index]) == 0:
                dead[slot.name] = (f"slot {slot.name}: {entry} is not in the dictionary (Lock "
                                   "keeps it as an entry of your own)")

    def _left_out(self, full: WordList, name: str, pattern: str) -> str | None:
        """Why no word matches a partly typed entry when the list has words that do, all left
        out by the page: below the minimum score, or banned ("no word scored 40 or more
        matches F...U (FONDU scores 30)"); None when no word of the whole list matches."""
        if pattern.count(EMPTY) == len(pattern):
            return None
        codes = full.codes_of_length(len(pattern))
        keep = np.ones(len(codes), dtype=bool)
        for p, ch in enumerate(pattern):
            if ch != EMPTY:
                if ch not in full.alphabet.letters:
                    return None
                keep &= codes[:, p] == full.alphabet.code(ch)
        ids = full.ids_of_length(len(pattern))[keep]
        if not len(ids):
            return None
        best = sorted(((int(full.scores[i]), full.words[i]) for i in ids), reverse=True)
        banned = [w for _, w in best if w in self.bans]
        low = [(score, w) for score, w in best if w not in self.bans and score < self.min_score]
        if not low and not banned:
            return None
        if not low:
            return (f"slot {name}: no word matches {pattern} but the banned "
                    f"{', '.join(banned[:3])}{', ...' if len(banned) > 3 else ''} (lift a ban, "
                    "or clear letters)")
        shown = ", ".join(f"{w} scores {score}" for score, w in low[:3])
        more = ", ..." if len(low) > 3 else ""
        also = f"; {', '.join(banned[:3])} banned" if banned else ""
        return (f"slot {name}: no word scored {self.min_score} or more matches {pattern} "
                f"({shown}{more}{also}; lower the minimum score, or clear letters)")

    def candidates_now(self, slot: str) -> dict[str, Any]:
        """The slot's words ranked by score, marked by arc consistency (at once), or all
        unfillable when the search has shown the grid has no fill."""
        built = build_problem(self.doc.grid, self.words())
        index = next((s.index for s in built.slots if s.name == slot), None)
        if index is None:
            raise XwsatError(f"the grid has no entry {slot}")
        found = ranked(built, index, self.verdict == "unfillable")
        return {"type": "job", "kind": "candidates", "rev": self.asked, "final": False,
                "slot": slot, "result": {"slot": slot, "total": len(found), "candidates":
                                         [c.as_dict() for c in found[:SHOWN_CANDIDATES]]}}

    # --- searches ------------------------------------------------------------------------
    def decide(self) -> None:
        """After an edit: decide the grid in the background, then the selected slot's words
        (a grid the insight could not build is said there, and not searched)."""
        if not self.buildable:
            self.jobs.cancel()
            return
        self.jobs.start(*self._background(), delay=SETTLE_S)

    def _background(self) -> list[Job]:
        """The searches that keep the page's verdict and candidate marks current: the verdict
        unless it is known for this revision, the selected slot's words."""
        if not self.buildable:
            return []
        jobs = []
        if self.verdict is None or self._unexplained():
            jobs.append(Job("decide", self.asked, searches.decide,
                            (self.doc.grid, self.words(), self.options(self.limits.decide_s),
                             self.limits.explain_s),
                            self.limits.decide_s + self.limits.explain_s))
        if self.selected and self.verdict != "unfillable":
            jobs.append(self._candidates_job(self.selected))
        return jobs

    def _unexplained(self) -> bool:
        """An "unfillable" verdict still without its entries to blame: the search that was
        looking for them was stopped (by an autofill, say), so it is run again."""
        return self.verdict == "unfillable" and not self.explained

    def start(self, job: Job) -> None:
        """Run ``job`` (an autofill, patterns, a certificate), then what it interrupted: the
        verdict (with its entries to blame) and candidate marks of this revision, so they do
        not wait for the next edit."""
        self.jobs.start(job, *self._background())

    def select(self, slot: str | None) -> None:
        """The page's selected entry; one the grid no longer has (a selection sent before an
        edit that renumbered the grid reached the page) selects nothing, in silence."""
        if slot:
            try:
                slot_named(self.doc.grid, slot)
            except XwsatError:
                slot = None
        self.selected = slot
        if slot and self.verdict != "unfillable":  # else every word is unfillable: said at once
            self.jobs.then(self._candidates_job(slot), replacing="candidates")

    def _candidates_job(self, slot: str) -> Job:
        limit = self.limits.candidates_s
        return Job("candidates", self.asked, searches.candidates,
                   (self.doc.grid, self.words(), slot, self.options(limit), limit,
                    SHOWN_CANDIDATES), limit + 1.0, {"slot": slot})

    def autofill(self, region: list[int] | None, another: bool = False) -> Job:
        """The search that fills the grid, or the rectangle ``region`` (top, left, bottom,
        right, 0-based), keeping locked entries; ``another`` asks for a different fill than
        the last. Prepared anywhere, started by ``jobs.start`` on the event loop."""
        if not region and not another and not extract_slots(self.doc.grid, 2):
            raise XwsatError("the grid has no entries to fill: clear some blocks first")
        if not region and not another and all(EMPTY not in row for row in self.doc.grid.rows):
            raise XwsatError("every square is filled already: select a rectangle to refill "
                             "it, or clear some entries")  # (before any state changes)
        left_out = None  # "Another fill": the word the next fill does without
        if another and self.suggestion and self.suggestion.get("weakest"):
            left_out = self.suggestion["weakest"][0]["word"]
            self.banned.add(left_out)
            self.seed += 1
            self.before_another = self.suggestion  # shown again if no other fill comes
        elif not another:
            self.banned = set()  # a new autofill, not another one: nothing left out
            self.before_another = None
        doc, words = self.doc, self.words()
        grid = doc.grid
        current: tuple[str, ...] | None = None  # a selection's entries now: a refill changes one
        if region:
            top, left, bottom, right = _rectangle(region, grid)
            outside = [i for i in range(grid.height * grid.width) if grid.cell(i) == EMPTY
                       and not (top <= i // grid.width <= bottom
                                and left <= i % grid.width <= right)]
            if outside:
                r, c = divmod(outside[0], grid.width)
                raise XwsatError(f"autofill of a selection refills it in a filled grid, and row "
                                 f"{r + 1}, column {c + 1} outside it is empty: autofill the "
                                 "grid first, or select more")
            locked = doc.locked_cells()
            pattern = Grid(tuple("".join(ch if r * grid.width + c in locked else EMPTY
                                         for c, ch in enumerate(row))
                                 for r, row in enumerate(grid.rows)))
            start = grid
            grid, fixed = region_grid(grid, Region(top + 1, left + 1, bottom + 1, right + 1),
                                      pattern)
            words = with_words(words, ["".join(grid.cell(c) for c in s.cells) for s in fixed])
            current = tuple("".join(start.cell(c) for c in s.cells)
                            for s in extract_slots(grid, 2))
        build_problem(grid, words)  # bad input said now, not by the child
        whole = not region and not self.banned  # its "no fill" is the grid's verdict
        words = without_words(words, self.banned)
        self.suggestion = None
        explain_s = self.limits.explain_s if whole else 0.0
        return Job("autofill", self.asked, searches.autofill,
                   (grid, words, self.options(self.limits.autofill_s), self.limits.improve_s,
                    explain_s, current),
                   self.limits.autofill_s + self.limits.improve_s + explain_s + 2.0,
                   {"region": region, "whole": whole, "another": left_out})

    def suggest_patterns(self, count: int = 3) -> Job:
        """The search for block patterns around the grid's letters (its theme entries) by
        constructors' rules, each kept only with a fill at the page's minimum score."""
        from xwsat.pattern_suggest import theme_start

        theme_start(self.doc.grid)  # bad input said now, not by the child
        limit = self.limits.patterns_s
        return Job("patterns", self.asked, searches.patterns,
                   (self.doc.grid, self.words(), count, self.seed, limit,
                    self.limits.pattern_try_s), limit + 5.0)

    def accept(self, slot: str | None) -> None:
        """Take the suggested fill's letters: all of them, or one entry's."""
        if not self.suggestion or "letters" not in self.suggestion:
            raise XwsatError("no suggested fill to accept")
        letters: dict[str, str] = self.suggestion["letters"]
        if slot:
            cells = slot_named(self.doc.grid, slot).cells
            letters = {k: v for k, v in letters.items() if int(k) in cells}
        locked = self.doc.locked_cells()
        letters = {k: v for k, v in letters.items() if int(k) not in locked}
        self.dispatch({"type": "letters", "cells": letters})
        if not slot:
            self.suggestion = None

    def suggest_again(self, kept: Any) -> bool:
        """Show again the suggested fill a reloaded page kept, when the restored grid has none
        and that fill still fills it with the list in use (``searches.fill_again``)."""
        if self.suggestion or not isinstance(kept, dict):
            return False
        try:
            again = searches.fill_again(self.doc.grid, self.words(), kept.get("letters"))
        except XwsatError:
            return False
        if again is None:
            return False
        self.suggestion = again
        return True

    def reject(self) -> None:
        """Drop the suggested fill, or stop the search for one; the verdict and candidate
        searches it had interrupted start again."""
        self.suggestion = None
        self.banned = set()
        self.jobs.start(*self._background())

    def certify(self) -> None:
        limit = self.limits.certificate_s
        words = self.words()
        self.start(Job("certificate", self.asked, searches.certificate,
                       (self.doc.grid, words, self.options(limit), str(self.folder),
                        self._question(words)), limit + 5.0))

    def _question(self, words: WordList) -> dict[str, Any]:
        """What the certificate records of the question, as ``prove`` records it, so that
        ``check-proof`` rebuilds the same formula from the constructor's own list: the score
        cut, the bans, and the locked entries (those the list lacks offered to their own slot
        only)."""
        options = self.options(0.0)
        names = {(s.cells[0], s.direction): s.name
                 for s in extract_slots(self.doc.grid, options.min_length)}
        locked = {names[(lock.cell, lock.direction)]: lock.word for lock in self.doc.locks
                  if (lock.cell, lock.direction) in names}
        from xwsat.evidence.certificate import question_rules

        return question_rules(min_length=options.min_length, min_score=self.min_score,
                              allow_repeats=options.allow_repeats,
                              banned=sorted(self.bans - frozenset(locked.values())),
                              locked=locked, placed_only=words.placed_only)

    async def _job_message(self, message: dict[str, Any]) -> None:
        if message["rev"] != self.asked:
            return  # computed for a grid that is gone
        result = message.get("result") or {}
        if message["kind"] == "decide":
            self.verdict = result.get("status")
            self.explained = message["final"] and "core" in result
            if self.verdict == "unfillable":
                self.jobs.queue = [j for j in self.jobs.queue if j.kind != "candidates"]
                if self.selected:
                    await self.send(self.candidates_now(self.selected))
        if message["kind"] == "autofill" and "letters" in result:
            self.suggestion = result
            if self.verdict in (None, "unknown") and not message.get("region"):
                # a verified fill of the whole grid at this revision settles the verdict: the
                # search queued to decide it is not needed
                self.verdict = "fillable"
                self.jobs.queue = [j for j in self.jobs.queue if j.kind != "decide"]
                await self.send({"type": "job", "kind": "decide", "rev": self.asked,
                                 "final": True, "result": {
                                     "status": "fillable", "method": "autofill",
                                     "seconds": result.get("first_s")}})
        if (message["kind"] == "autofill" and message.get("whole")
                and result.get("status") == "unfillable"
                and (self.verdict in (None, "unknown") or self._unexplained())):
            # the autofill proved the grid has no fill (its limit is longer than the verdict
            # search's): that is the verdict, with the entries to blame once they are found
            if message["final"]:
                self.verdict, self.explained = "unfillable", "core" in result
                self.jobs.queue = [j for j in self.jobs.queue if j.kind not in ("decide",
                                                                               "candidates")]
            await self.send({"type": "job", "kind": "decide", "rev": self.asked,
                             "final": message["final"], "result": {
                                 **result, "method": "autofill"}})
        if (message["kind"] == "autofill" and message["final"] and "letters" not in result
                and message.get("another") and self.before_another is not None):
            # no other fill: the one shown stays, acceptable, and the word is no longer left out
            word = message["another"]
            self.banned.discard(word)
            self.suggestion, self.before_another = self.before_another, None
            proven = result.get("status") == "unfillable"
            note = (f"No other fill without {word}: every fill at this level needs it"
                    if proven else f"No other fill without {word} found in time")
            message = {**message, "result": {**self.suggestion, "note": note}}
        if message["kind"] == "certificate" and message["final"] and result.get("directory"):
            self.certificate = _zipped(Path(result["directory"]))
            result = {k: v for k, v in result.items() if k != "directory"}
            message = {**message, "result": result}
        await self.send(message)

    # --- files ---------------------------------------------------------------------------
    def save(self, fmt: str) -> tuple[bytes, str, str, str | None]:
        """The puzzle as a file: (bytes, file name, media type, a note for the page or None).
        The note tells what the file does not hold: entries still without a clue, and text a
        .puz cannot spell (its one-byte encoding turns it into '?')."""
        if fmt not in SAVE_FORMATS:
            raise XwsatError(f"save as one of {', '.join(SAVE_FORMATS)}")
        doc = self.doc
        kept = "".join(ch if ch.isalnum() or ch in "-_" else " " for ch in doc.title)
        stem = " ".join(kept.split()) or "puzzle"  # "Puzzle ★ 1" -> "Puzzle 1"
        stem = stem[:NAME_MOST].rstrip() or "puzzle"  # a file system takes 255 bytes a name
        name = f"{stem}.{fmt}"
        lang = self.dictionary if self.dictionary in ("en", "ru", "es") else None
        puzzle = doc.puzzle()
        hints = self.view_hints()
        puzzle = replace(puzzle, clues={**hints, **puzzle.clues},  # the list's clues fill gaps
                         bans=tuple(sorted(self.bans)),
                         word_list=(self.dictionary_name(), self.min_score))
        data = render_puzzle(puzzle, name, lang)
        return (data.encode("utf-8") if isinstance(data, str) else data), name, \
            SAVE_FORMATS[fmt], _save_note(puzzle, name)

    def view_hints(self) -> dict[str, str]:
        try:
            return _hints(build_problem(self.doc.grid, self.words()))
        except XwsatError:
            return {}

    def close(self) -> None:
        self.jobs.cancel()
        shutil.rmtree(self.folder, ignore_errors=True)

    def set_symmetry(self, symmetry: str) -> None:
        if symmetry not in SYMMETRIES:
            raise XwsatError(f"symmetry is one of {', '.join(SYMMETRIES)}")
        self.symmetry = symmetry


def _rectangle(region: Any, grid: Grid) -> tuple[int, int, int, int]:
    """(top, left, bottom, right), 0-based and inside ``grid``, from the page's selection."""
    try:
        top, left, bottom, right = (int(v) for v in region)
    except (TypeError, ValueError):
        raise XwsatError("a selection is four numbers: top, left, bottom, right") from None
    if not (0 <= top <= bottom < grid.height and 0 <= left <= right < grid.width):
        raise XwsatError("the selection is not inside the grid")
    return top, left, bottom, right


def _score_of(words: WordList, entry: str) -> int | None:
    """The list's score of ``entry``, None when the list lacks it."""
    ids = words.ids_of_length(len(entry))
    if len(ids) == 0:
        return None
    lo, hi = int(ids[0]), int(ids[-1]) + 1  # one length's words: sorted, together
    at = bisect.bisect_left(words.words, entry, lo, hi)
    return int(words.scores[at]) if at < hi and words.words[at] == entry else None


def _save_note(puzzle: Puzzle, name: str) -> str | None:
    """What a saved file lacks, in one sentence: clues still to write, '?' in a .puz, which
    entries are locked and the banned words (a .json keeps them)."""
    notes = []
    if name.endswith(".txt"):  # the grid alone, by design
        if any(text.strip() for text in puzzle.clues.values()):
            notes.append("a .txt keeps the grid alone, not its clues")
    elif unclued := puzzle.unclued():
        notes.append(f"{unclued} of {len(puzzle.slots)} entries have no clue yet")
    lost = lost_text_note(name, puzzle_texts(puzzle))
    if lost:
        notes.append(lost.removeprefix("note: "))
    if puzzle.locked and not name.endswith(".json"):  # the letters stay, not the lock
        notes.append("the locked entry is marked locked in .json only" if len(puzzle.locked) == 1
                     else f"the {len(puzzle.locked)} locked entries are marked locked in .json "
                     "only")
    if puzzle.bans and not name.endswith(".json"):
        notes.append("the banned word is kept in .json only" if len(puzzle.bans) == 1 else
                     f"the {len(puzzle.bans)} banned words are kept in .json only")
    return "; ".join(notes) or None


def _hints(built: Built) -> dict[str, str]:
    """The word list's clue for each complete entry that has one."""
    hints = {}
    for index, slot in enumerate(built.slots):
        ids = built.problem.candidates[index]
        if len(ids) == 1 and all(built.grid.cell(c) != EMPTY for c in slot.cells):
            clue = built.words.clues.get(int(ids[0]))
            if clue:
                hints[slot.name] = clue
    return hints


def _zipped(directory: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(directory.rglob("*")):
            if path.is_file():
                archive.write(path, f"certificate/{path.relative_to(directory)}")
    return buffer.getvalue()
