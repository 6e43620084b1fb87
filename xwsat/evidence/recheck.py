"""Re-check a certificate against the question it claims to answer, from its files alone.

A certificate is worth only what ties it to a grid and a dictionary. ``check-proof`` therefore
trusts nothing the manifest says: it reads the grid (``grid.txt``) and the normalised word list
(``words.txt.gz``) kept in the folder, or the user's own files when given, rebuilds the formula
with the rules the manifest names, demands that ``formula.cnf`` is exactly that formula, and has
a DRUP checker check the proof against it (in a child, while the formula is rebuilt; the child
reports the hashes of the texts it read, which must be the ones compared). The verdict
names the grid, the word list and the rules by content, so a certificate moved to another
question says so.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, replace
from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.evidence.certificate import (
    GRID_FILE,
    WORDS_FILE,
    certificate_cnf,
    certificate_problem,
    sha256_file,
)
from xwsat.evidence.drat_check import check_in_parts, checker_label, parts_for
from xwsat.evidence.proof_files import read_file, same_formula
from xwsat.grid import EMPTY, Grid, extract_slots, parse_grid
from xwsat.guard import Tick
from xwsat.outcome import Stop
from xwsat.problem import build_problem
from xwsat.words import (
    GZIP_MAGIC,
    build_wordlist,
    decode_text,
    normalize_word,
    read_bytes,
    read_text_file,
)

FORMULA_NAMES = ("formula.cnf", "formula.cnf.gz")
PROOF_NAMES = ("proof.drat", "proof.drat.gz")


@dataclass(frozen=True)
class Question:
    """What the certificate claims: this grid has no fill from these words under these rules."""

    grid: Grid
    words: tuple[str, ...]
    alphabet: str
    min_length: int
    allow_repeats: bool
    slots: tuple[str, ...] | None = None  # the formula keeps only these slots' constraints
    locked: tuple[tuple[str, str], ...] = ()  # prove --lock: (slot name, word), in the grid
    placed_only: tuple[str, ...] = ()  # locked words not in the dictionary: only there

    def lines(self) -> list[str]:
        digest = hashlib.sha256("\n".join(self.words).encode("utf-8")).hexdigest()
        grid_digest = hashlib.sha256(self.grid.to_text().encode("utf-8")).hexdigest()
        return [f"  grid: {self.grid.width}x{self.grid.height}, sha256 {grid_digest[:16]}",
                *[f"    {row}" for row in self.grid.rows],
                f"  words: {len(self.words):,} (normalised list, sha256 {digest[:16]})",
                f"  rules: slots of {self.min_length}+ cells, repeated words "
                f"{'allowed' if self.allow_repeats else 'forbidden'}",
                *([f"  formula: the constraints of {len(self.slots)} "
                   f"{'slot' if len(self.slots) == 1 else 'slots'} only ("
                   f"{', '.join(self.slots[:8])}{', ...' if len(self.slots) > 8 else ''}); "
                   "any fill of the grid satisfies them"] if self.slots is not None else []),
                *([f"  locked entries: {', '.join(f'{n}={w}' for n, w in self.locked)}"
                   + (f"; not dictionary words, so only there: {', '.join(self.placed_only)}"
                      if self.placed_only else "")] if self.locked else [])]


def word_filters(rules: dict) -> tuple[int, str | None, bool, list[str]]:
    """The filters a certificate's question puts on a word list (minimum score, declared
    alphabet, Ё read as Е, words banned for the puzzle; malformed values count as absent) and
    the same in words. The list's own alphabet, also recorded, is not one of them."""
    score = rules.get("min_score", 0)
    score = score if isinstance(score, int) and not isinstance(score, bool) else 0
    declared = rules.get("alphabet_declared")
    declared = declared if isinstance(declared, str) and declared else None
    fold_yo = rules.get("fold_yo") is True
    banned = banned_words(rules)
    texts = ([f"only words scored {score} or more"] if score else []) + (
        [f"only words written with the declared alphabet {declared}"] if declared else []) + (
        ["Ё read as Е"] if fold_yo else []) + (
        [f"the banned words {', '.join(banned)} left out"] if banned else [])
    return score, declared, fold_yo, texts


def banned_words(rules: dict) -> list[str]:
    """The words the certified question banned (``--ban``); none when absent or malformed."""
    banned = rules.get("banned")
    if not isinstance(banned, list) or not all(isinstance(w, str) for w in banned):
        return []
    return banned


class Rejected(XwsatError):
    """The folder is a certificate (it has a manifest) that does not hold: NOT VERIFIED."""


def read_manifest(directory: Path) -> dict:
    """The manifest of a certificate of unfillability. A folder without one is not a
    certificate (bad input); a manifest that is damaged or claims no proof is ``Rejected``."""
    path = directory / "manifest.json"
    if directory.is_file():
        raise XwsatError(f"{directory}: a file, not a certificate folder (prove --certificate "
                         "DIR writes one)")
    if not directory.is_dir():
        raise XwsatError(f"{directory}: no such folder")
    if not path.is_file():
        raise XwsatError(f"{directory}: no manifest.json (not a certificate folder)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise Rejected(f"manifest.json is unreadable ({type(exc).__name__})") from None
    if not isinstance(manifest, dict):
        raise Rejected("manifest.json is not a certificate manifest")
    if manifest.get("result") == "fillable" and (directory / "fill.txt").is_file() and not (
            directory / GRID_FILE).exists():  # prove's folder for a grid it filled (a
        # certificate's manifest edited to say "fillable" keeps its proof files: rejected)
        raise XwsatError(f"{directory}: the record of a fill (the fill is in its fill.txt), "
                         "not a certificate of unfillability: there is no proof to check")
    if manifest.get("result") != "unfillable":
        raise Rejected(f"the manifest's result is {str(manifest.get('result'))[:40]!r}, not "
                       "'unfillable': there is no proof of unfillability to check")
    return manifest


def question_of(directory: Path, manifest: dict) -> Question:
    """The grid, words and rules the folder's own files state (read, never trusted)."""
    rules = manifest.get("rules")
    if not isinstance(rules, dict):
        raise XwsatError(f"{directory}: the manifest names no rules")
    try:
        min_length = int(rules["min_length"])
        allow_repeats = rules["allow_repeats"]
        alphabet = str(rules["alphabet"])
    except (KeyError, TypeError, ValueError):
        raise XwsatError(f"{directory}: the manifest's rules are incomplete (made by an older "
                         "xwsat? certify again)") from None
    if not isinstance(allow_repeats, bool) or not 1 <= min_length <= 100:
        raise XwsatError(f"{directory}: the manifest's rules are malformed")
    grid_path, words_path = directory / GRID_FILE, directory / WORDS_FILE
    for path in (grid_path, words_path):
        if not path.is_file():
            raise XwsatError(f"{directory}: {path.name} is missing (removed, or the folder was "
                             "made by an older xwsat: certify again)")
    # read in pieces, gzip unpacked, within the cap every input has (a bomb is refused)
    grid = parse_grid(read_text_file(grid_path), str(grid_path))
    packed = read_bytes(words_path)
    if packed[:2] != GZIP_MAGIC:
        raise XwsatError(f"{words_path}: damaged (not gzip)")
    text = decode_text(packed, words_path)
    words = tuple(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"))
    letters = set(alphabet)
    if stray := next((w for w in words if not letters.issuperset(w)), None):
        # else a rebuild fails deep inside with an IndexError, which explains nothing
        odd = next(ch for ch in stray if ch not in letters)
        raise XwsatError(f"{directory}: {WORDS_FILE} holds {stray[:40]!r}, whose letter "
                         f"{odd!r} is not in the manifest's alphabet {alphabet[:60]}: not the "
                         "normalised list a certificate keeps")
    locked, placed_only = _locks(rules)
    slots = {slot.name: slot for slot in extract_slots(grid, min_length)}
    for name, word in locked:  # a lock the grid does not hold would make the question another
        slot = slots.get(name)
        if slot is None or "".join(grid.cell(c) for c in slot.cells) != word:
            raise XwsatError(f"{directory}: the manifest locks {name}={word}, and "
                             f"{GRID_FILE} does not hold that word in {name}")
    return Question(grid, words, alphabet, min_length, allow_repeats, _kept_slots(manifest),
                    locked, placed_only)


def _list_difference(yours: tuple[str, ...], kept: tuple[str, ...]) -> list[str]:
    """How your list (as the manifest's rules read it) differs from the certificate's: the
    counts, and a few words of each side."""
    mine, theirs = set(yours), set(kept)
    lines = [f"  your list, read with its rules: {len(mine):,} words"]
    for label, words in (("only in yours", mine - theirs), ("only in the certificate's",
                                                            theirs - mine)):
        if words:
            shown = sorted(words)[:5]
            more = f" and {len(words) - 5:,} more" if len(words) > 5 else ""
            lines.append(f"  {label}: {', '.join(shown)}{more}")
    return lines


def _locks(rules: dict) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """The entries ``prove --lock`` placed, and those of them that are no dictionary word (the
    formula offers them to their own slots only: ``WordList.placed_only``). Not trusted: the
    verdict names them, and a check against the user's files places them again."""
    locked, placed_only = rules.get("locked", {}), rules.get("placed_only", [])
    if not (isinstance(locked, dict) and isinstance(placed_only, list)
            and all(isinstance(x, str) for x in [*locked, *locked.values(), *placed_only])
            and set(placed_only) <= set(locked.values())):
        raise Rejected("the manifest's locked entries are malformed")
    return tuple(sorted(locked.items())), tuple(sorted(placed_only))


def _kept_slots(manifest: dict) -> tuple[str, ...] | None:
    """The slots the manifest says the formula keeps (None: all). Not trusted: the formula is
    rebuilt from them, and the constraints of any set of slots are implied by the grid's."""
    formula = manifest.get("formula")
    if formula is None:
        return None
    slots = formula.get("slots") if isinstance(formula, dict) else None
    if not isinstance(slots, list) or not all(isinstance(name, str) for name in slots):
        raise Rejected("the manifest's formula section names no list of slots")
    return tuple(slots)


def _locked(question: Question, grid: Grid | None, words: tuple[str, ...] | None
            ) -> tuple[Grid | None, tuple[str, ...] | None, str]:
    """The user's grid and words with the certificate's locked entries placed as ``prove
    --lock`` placed them (the letters in their slots; the words the dictionary lacks added),
    so that they can be compared with the certificate's; or why they cannot be."""
    if not question.locked:
        return grid, words, ""
    if grid is not None:
        slots = {slot.name: slot for slot in extract_slots(grid, question.min_length)}
        letters: dict[int, str] = {}
        for name, word in question.locked:
            slot = slots.get(name)
            if slot is None or slot.length != len(word):
                has = f"a {name} of {slot.length} cells" if slot else f"no {name}"
                return grid, words, f"the certificate locks {name}={word}, and your grid " \
                    f"has {has}"
            for cell, letter in zip(slot.cells, word):
                if grid.cell(cell) not in (EMPTY, letter):  # prove --lock refuses it too
                    row, col = divmod(cell, grid.width)
                    return grid, words, f"the certificate locks {name}={word}, and your " \
                        f"grid has {grid.cell(cell)} at row {row + 1}, column {col + 1}, " \
                        f"not {letter}"
            letters.update(zip(slot.cells, word))
        grid = grid.with_letters(letters)
    if words is not None:
        known = set(words)
        if known & set(question.placed_only) or set(question.placed_only) != {
                w for _, w in question.locked} - known:
            return grid, words, "the certificate's locked words are not the ones your " \
                "dictionary lacks"
        words = (*words, *question.placed_only)
    return grid, words, ""


def normalised(words: tuple[str, ...], rebuilt: tuple[str, ...]) -> bool:
    """Whether a certificate's word list is as xwsat writes one: each word normalised (upper
    case, NFC: a lower-case list would make the grid's letters match nothing) and in the order
    the list rebuilt from it has."""
    return rebuilt == words and all(w and normalize_word(w) == w for w in words)


def rebuild_and_compare(question: Question, formula_path: Path, proof_sha256: str) -> dict:
    """Rebuild the formula from the question and compare it with the folder's, read in pieces
    and given up at the first difference; the formula's and the proof's text hashes bind the
    check to the files compared."""
    try:
        words = build_wordlist({w: (50, None) for w in question.words}, question.alphabet,
                               source="certificate")
        if not normalised(question.words, words.words):
            return {"verdict": "rejected",
                    "reason": f"{WORDS_FILE} is not a normalised word list in xwsat's order"}
        if not set(question.placed_only) <= set(words.words):
            return {"verdict": "rejected", "reason": f"a locked word is not in {WORDS_FILE}"}
        words = replace(words, placed_only=frozenset(question.placed_only))
        built = build_problem(question.grid, words, question.min_length, question.allow_repeats)
        problem = certificate_problem(built, question.slots)
    except XwsatError as exc:
        return {"verdict": "rejected", "reason": f"the question cannot be rebuilt: {exc}"}
    from xwsat.encode.cnf import dimacs_text

    body = dimacs_text(certificate_cnf(problem))
    try:
        same, formula_sha256 = same_formula(formula_path, body)
    except (OSError, XwsatError) as exc:
        return {"verdict": "rejected", "reason": f"formula file unreadable ({exc})"}
    if not same:
        return {"verdict": "rejected",
                "reason": "formula.cnf is not the encoding of the grid and words it claims"}
    return {"verdict": "same", "expect": (formula_sha256, proof_sha256)}


def _named(directory: Path, names: tuple[str, ...], listed: dict) -> Path | None:
    """The first of ``names`` the manifest lists (its hash checked already)."""
    return next((directory / name for name in names if name in listed), None)


def _listed_files(directory: Path, manifest: dict) -> tuple[list[str], str]:
    """Hash lines for the files the manifest lists (inside the folder only), or a rejection."""
    from xwsat.evidence.count_certificate import COUNT_FILE
    files = manifest.get("files", {})
    if not isinstance(files, dict):
        return [], "the manifest's file list is malformed"
    lines = []
    for name, info in files.items():
        if (not isinstance(name, str) or "\x00" in name or Path(name).name != name
                or name in ("", ".", "..")):
            return lines, f"the manifest names a file outside the folder: {name!r}"
        path = directory / name
        if path.is_symlink():  # a folder holds its own files, never a way to others
            return lines, f"{name} is a link, not a file of the folder"
        if not path.is_file():
            return lines, (f"{name} is missing" if not path.exists() else
                           f"{name} is not a plain file (a folder, pipe or device)")
        if not isinstance(info, dict) or sha256_file(path) != info.get("sha256"):
            return lines, f"{name} is not the file the manifest lists (hash differs)"
        checked = name in (*FORMULA_NAMES, *PROOF_NAMES, GRID_FILE, WORDS_FILE, COUNT_FILE)
        lines.append(f"sha256 ok: {name}" + ("" if checked else
                                             " (kept for reading: not part of the check)"))
    proof = manifest.get("proof")
    count = isinstance(proof, dict) and str(proof.get("format", "")).startswith("xwsat-count/")
    needed = [(GRID_FILE,), (WORDS_FILE,), *([(COUNT_FILE,)] if count else
                                              [FORMULA_NAMES, PROOF_NAMES])]
    for names in needed:  # the files the check reads are those the manifest binds by hash
        if not any(name in files for name in names):
            return lines, f"the manifest does not list {names[0]}, which the check reads"
    return lines, ""


def recheck(directory: Path, engine: str, time_limit: float, on_tick: Tick | None = None,
            grid: Grid | None = None, words: tuple[str, ...] | None = None,
            filters: list[str] | None = None, min_length: int | None = None,
            allow_repeats: bool | None = None) -> tuple[list[str], str]:
    """Lines to print and the verdict: 'verified', 'rejected' or 'undecided'.

    ``grid`` and ``words`` (the user's own, normalised with the manifest's rules) must be the
    ones the certificate is about; without them the folder's own copies are the question.
    ``filters`` say how the user's words were read (a minimum score, ...): a verdict is only
    about the filtered list, and says so. ``min_length`` and ``allow_repeats``, when given, are
    the user's rules, which the certificate's must equal.
    """
    try:
        manifest = read_manifest(directory)
    except Rejected as exc:
        return [f"NOT VERIFIED: {exc}"], "rejected"
    lines, problem = _listed_files(directory, manifest)  # first: only listed files are read
    if problem:
        return [*lines, f"NOT VERIFIED: {problem}"], "rejected"
    try:
        question = question_of(directory, manifest)
    except XwsatError as exc:
        return [*lines, f"NOT VERIFIED: {exc}"], "rejected"
    grid, words, problem = _locked(question, grid, words)
    if problem:
        return [*lines, f"NOT VERIFIED: {problem}:", *question.lines()], "rejected"
    if grid is not None and grid.rows != question.grid.rows:
        return [*lines, "NOT VERIFIED: the certificate is about another grid:",
                *question.lines()], "rejected"
    if min_length is not None and min_length != question.min_length:
        return [*lines, f"NOT VERIFIED: the certificate is about slots of {question.min_length}+"
                f" cells, not {min_length}+:", *question.lines()], "rejected"
    if allow_repeats is not None and allow_repeats != question.allow_repeats:
        rule = ("allowed, not forbidden" if question.allow_repeats
                else "forbidden, not allowed")
        return [*lines, f"NOT VERIFIED: the certificate is about repeated words {rule}:",
                *question.lines()], "rejected"
    if words is not None and tuple(sorted(words)) != tuple(sorted(question.words)):
        return [*lines, "NOT VERIFIED: the certificate is about another word list:",
                *question.lines(), *_list_difference(words, question.words)], "rejected"
    proof_facts = manifest.get("proof")
    if isinstance(proof_facts, dict) and str(proof_facts.get("format", "")).startswith(
            "xwsat-count/"):
        return _recheck_count(directory, manifest, question, lines,
                              _confirmed(question, grid, words, filters), time_limit,
                              words is not None)
    listed = manifest["files"]
    formula_path = _named(directory, FORMULA_NAMES, listed)
    proof_path = _named(directory, PROOF_NAMES, listed)
    if formula_path is None or proof_path is None:
        return [*lines, "NOT VERIFIED: the folder holds no formula or no proof"], "rejected"
    try:  # streamed: only its hash and its count of lines are kept here
        proof = read_file(proof_path, keep=False, strict=True)
    except (OSError, XwsatError) as exc:
        return [*lines, f"NOT VERIFIED: proof file unreadable ({exc})"], "rejected"
    compared: dict = {}

    def compare() -> bool:  # here, while the checker reads the files in a child
        try:
            compared.update(rebuild_and_compare(question, formula_path, proof.sha256))
        except Exception as exc:  # noqa: BLE001  (damaged files: no rebuild, no verdict)
            compared.update(verdict="rejected", reason="the question cannot be rebuilt from "
                            f"the folder's files ({type(exc).__name__}: {str(exc)[:80]})")
        return compared["verdict"] == "same"  # else the check is of no use

    parts = parts_for(proof.lines)
    run = check_in_parts(formula_path, proof_path, engine, parts, time_limit, on_tick,
                         meanwhile=compare)
    if compared and compared["verdict"] != "same":
        return [*lines, f"NOT VERIFIED: {compared['reason']}"], "rejected"
    if run.stop in (Stop.TIME, Stop.MEMORY, Stop.INTERRUPTED) or not compared:
        return [*lines, f"UNDECIDED: {run.message or 'stopped'}"], "undecided"
    if not run.ok:
        return [*lines, f"NOT VERIFIED: the check failed: {run.message}"], "rejected"
    result = run.value
    if result["read"] != tuple(compared["expect"]):
        return [*lines, "NOT VERIFIED: the formula or proof file changed while it was being "
                "checked"], "rejected"
    if not result["ok"]:
        return [*lines, f"NOT VERIFIED: {result['reason']}"], "rejected"
    head = (f"VERIFIED: no fill exists for {_confirmed(question, grid, words, filters)}: "
            "the formula rebuilt from them is "
            f"{formula_path.name}, and {checker_label(result)} checked the proof's "
            f"{result['steps']} step{'' if result['steps'] == 1 else 's'} against it"
            + (f" ({result['parts']} parts at once)"
                                                     if result.get("parts", 1) > 1 else ""))
    return [*lines, head, *question.lines(), *_read_as(manifest, words is not None)], "verified"


def _confirmed(question: Question, grid: Grid | None, words: tuple[str, ...] | None,
               filters: list[str] | None) -> str:
    """Whose grid and words a verdict is about, with the filters and rules that shape them."""
    confirmed = ("your grid and dictionary" if grid is not None and words is not None else
                 "your grid and the words kept in the folder (pass --dict to confirm they are "
                 "yours)" if grid is not None else
                 "the grid kept in the folder and your dictionary (pass --grid to confirm it "
                 "is yours)" if words is not None else
                 "the grid and words kept in the folder (pass --grid and --dict to confirm "
                 "they are yours)")
    said = list(filters) if filters and words is not None else []  # the filtered list's
    if question.locked:
        said.append("the entries " + ", ".join(f"{n}={w}" for n, w in question.locked)
                    + " locked")
    if question.min_length != 2:  # rules other than the defaults change the question too
        said.append(f"slots of {question.min_length}+ cells")
    if question.allow_repeats:
        said.append("repeated words allowed")
    if said:  # said first, not only in the lines below
        confirmed += f" with {'; '.join(said)}"
    return confirmed


def _read_as(manifest: dict, yours: bool) -> list[str]:
    """How the manifest says its word list was read: confirmed when the user's own list, read
    that way, is the folder's (``yours``); otherwise only the manifest's word."""
    kept = word_filters(manifest.get("rules") or {})[3]
    if not kept:
        return []
    if yours:
        return [f"  the word list was made with: {'; '.join(kept)}"]
    return [f"  the manifest says the word list was made with: {'; '.join(kept)} (not "
            "checked: the verdict is about the folder's words; --dict checks it on your list)"]


def _recheck_count(directory: Path, manifest: dict, question: Question, lines: list[str],
                   confirmed: str, time_limit: float, yours: bool) -> tuple[list[str], str]:
    """A certificate of the no-repeat count: the named slots rebuilt from the grid, the words
    that fit them (arc consistency redone when the manifest says it was used), counted
    (``xwsat.evidence.count_certificate``)."""
    from xwsat.evidence.count_certificate import (
        COUNT_FILE,
        COUNT_FORMAT,
        GIVEN,
        PRUNED,
        OutOfTime,
        count_check,
        recount,
    )

    proof = manifest["proof"]
    if proof.get("format") != COUNT_FORMAT:
        return [*lines, f"NOT VERIFIED: unknown count format {str(proof.get('format'))[:40]!r}"
                ], "rejected"
    names, after = proof.get("slots"), proof.get("after", GIVEN)
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        return [*lines, "NOT VERIFIED: the manifest names no list of slots"], "rejected"
    if after not in (GIVEN, PRUNED):
        return [*lines, f"NOT VERIFIED: unknown count basis {str(after)[:40]!r}"], "rejected"
    try:
        counted = recount(question.grid, question.words, question.alphabet,
                          question.min_length, question.allow_repeats, after,
                          time.monotonic() + time_limit, question.placed_only)
    except OutOfTime:
        return [*lines, "UNDECIDED: time limit reached while redoing arc consistency"
                ], "undecided"
    except Exception as exc:  # noqa: BLE001  (damaged files: no rebuild, no verdict)
        return [*lines, "NOT VERIFIED: the question cannot be rebuilt from the folder's "
                f"files ({type(exc).__name__}: {str(exc)[:80]})"], "rejected"
    if not normalised(question.words, counted.rebuilt):
        return [*lines, f"NOT VERIFIED: {WORDS_FILE} is not a normalised word list in xwsat's "
                "order"], "rejected"
    ok, said = count_check(counted.fits, question.allow_repeats, names)
    if not ok:
        return [*lines, f"NOT VERIFIED: {said}"], "rejected"
    listed, expected = directory / COUNT_FILE, counted.text(names, after).encode()
    if (not listed.is_file() or listed.is_symlink() or listed.stat().st_size != len(expected)
            or listed.read_bytes() != expected):
        return [*lines, f"NOT VERIFIED: {COUNT_FILE} does not list what the count finds"
                ], "rejected"
    basis = "" if after == GIVEN else " after arc consistency (redone on plain sets)"
    head = (f"VERIFIED: no fill exists for {confirmed}: counted again{basis}, {said}, and each "
            "must take a different word")
    return [*lines, head, *question.lines(), *_read_as(manifest, yours)], "verified"
