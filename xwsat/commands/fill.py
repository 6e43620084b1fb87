"""``xwsat fill``: fill every slot with distinct dictionary words, or say why not.

Constructor options: ``--lock 1A=WORD`` (repeatable) fixes entries, ``--region r1,c1-r2,c2``
refills a rectangle of a filled grid with other entries, ``--count K --differ D`` finds K fills
that differ pairwise, ``--optimize`` climbs to the highest score level, then the best fill
there, and ``--out`` writes the puzzle (the best fill) in the format of its extension (.txt
.json .ipuz .puz .svg .html).
"""

from __future__ import annotations

import shlex
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from xwsat import guard
from xwsat.alternatives import Alternatives, find_alternatives, open_slots
from xwsat.commands.common import (
    budget,
    check_certificate_folder,
    check_outputs,
    clear_status_line,
    command_started,
    compile_first,
    fill_options,
    limited,
    load_inputs,
    print_record,
    quiet_progress,
    status_line,
    unclued_note,
    unwritten,
    with_file_bans,
    with_file_locks,
    write_answer,
)
from xwsat.commands.options import (
    ForceOpt,
    GridArg,
    JsonOpt,
    LockOpt,
    QuietOpt,
    Rules,
    Search,
    SharedOpt,
    Words,
    check_max_shared,
    grouped,
)
from xwsat.errors import XwsatError
from xwsat.exit_codes import ExitCode
from xwsat.formats import Puzzle, check_format, read_puzzle, render_puzzle
from xwsat.formats.across_lite import (
    lost_text_note,
    puzzle_texts,
    refuse_short_runs,
    refuse_wide_letters,
)
from xwsat.formats.html import unchecked_note
from xwsat.grid import BLOCK, EMPTY, Grid, extract_slots
from xwsat.lock import (
    apply_locks,
    parse_region,
    refuse_banned_entries,
    region_grid,
    with_words,
)
from xwsat.outcome import Status
from xwsat.pipeline import FillResult, fill_grid
from xwsat.verdict_text import as_json, describe
from xwsat.words import WordList, normalize_word

if TYPE_CHECKING:  # the climb and the best-fill search are imported only with --optimize
    from xwsat.evidence.explain import Explanation
    from xwsat.problem import Built
    from xwsat.quality.run import Quality
    from xwsat.quality.why import Why

OutOpt = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write the puzzle here; the extension picks the format: .txt .json "
    ".ipuz .puz .svg .html (a solving page).")]
OptimizeOpt = Annotated[bool, typer.Option(
    "--optimize", help="After a first fill, climb to the highest minimum score at which the "
    "grid fills and prove the next one has no fill, then the fewest entries at that score and "
    "the highest total (branch and bound), within --time-limit.")]
CertOpt = Annotated[Path | None, typer.Option(
    "--certificate", help="With --optimize: write the checked certificate that the level above "
    "the one reached has no fill to this new or empty folder.")]
WhyOpt = Annotated[bool, typer.Option(
    "--explain", help="With --optimize: show the slots that cannot be filled together at the "
    "level above the one reached (why the fill is not better), made minimal while time "
    "remains.")]
RegionOpt = Annotated[str, typer.Option(
    "--region", help="Refill only rows/columns R1,C1-R2,C2 (1-based) of a filled grid with "
    "other entries (at least --differ of them change; --seed picks others); the rest stays.")]
CountOpt = Annotated[int, typer.Option(
    "--count", help="Find this many verified fills, each differing from every other in at "
    "least --differ entries; printed best first (--out writes the best).")]
DifferOpt = Annotated[int | None, typer.Option(
    "--differ", help="How many entries each fill of --count, or a --region refill, must "
    "change (default 1).")]
MAX_COUNT = 100


def _prepare(grid_path: Path, words_options: Words, min_length: int, locks: list[str],
             region: str, out: Path | None
             ) -> tuple[Grid, WordList, Puzzle, tuple[str, ...] | None, list[int] | None]:
    """The grid to fill and the word list, after --region and --lock, the input as a
    puzzle (its clues and credits go to the output; read now, not after the search), and with
    --region the current entry of each slot and the region's open slots (a refill changes)."""
    grid, words = load_inputs(grid_path, words_options)
    puzzle = read_puzzle(grid_path)
    for what in puzzle.dropped:  # what the file held that the fill's output will not
        typer.echo(f"note: {grid_path}: {what}", err=True)
    fold_yo = words_options.fold_yo
    refuse_wide_letters(out, words.alphabet.letters, "the word list has letters that",
                        ", or leave their words out with --alphabet LETTERS")
    if region:
        area = parse_region(region)
        fold = lambda ch: normalize_word(ch, fold_yo=fold_yo)  # noqa: E731
        start = (puzzle.solution or puzzle.pattern).map_letters(fold)
        pattern = puzzle.pattern.map_letters(fold) if puzzle.solution is not None else None
        grid, fixed = region_grid(start, area, pattern, min_length)
        words = with_words(words, ["".join(grid.cell(c) for c in s.cells) for s in fixed])
        current = tuple("".join(start.cell(c) for c in s.cells)
                        for s in extract_slots(grid, min_length))
    known = set(words.alphabet.letters)
    refuse_banned_entries(grid, words_options.ban, min_length, fold_yo, bool(region))
    grid, words, placed = apply_locks(grid, words, locks, min_length, fold_yo,
                                      words_options.ban)
    among = open_slots(grid, min_length) if region else None
    refuse_wide_letters(out, "".join(placed.values()))  # a locked word may bring its own
    _note_foreign_letters(grid, placed, known, min_length)
    if out is not None and out.suffix.lower() == ".puz":
        try:
            refuse_short_runs(grid, min_length)
        except XwsatError as error:
            raise XwsatError(f"{out}: {error}") from None
        covered = {cell for slot in extract_slots(grid, min_length) for cell in slot.cells}
        bare = [i for i in range(grid.height * grid.width)
                if grid.is_white(i) and i not in covered and grid.cell(i) == EMPTY]
        if bare:  # said before the search, not after it
            row, col = divmod(bare[0], grid.width)
            raise XwsatError(f"{out}: .puz needs every white cell filled, and the cell at row "
                             f"{row + 1}, column {col + 1} is in no slot of {min_length}+ "
                             "letters; write .ipuz or .json instead")
    return grid, words, puzzle, current if region else None, among


def _note_foreign_letters(grid: Grid, placed: dict[str, str], known: set[str],
                          min_length: int) -> None:
    """Say when a locked word puts a letter no dictionary word has where another entry crosses
    it: that entry cannot be filled, and a mistyped script (Latin with -d ru) would otherwise
    read as a plain "unfillable"."""
    slots = extract_slots(grid, min_length)
    uses = Counter(cell for slot in slots for cell in slot.cells)
    crossed = {cell for cell, count in uses.items() if count > 1}
    for slot in slots:
        if slot.name not in placed:
            continue
        new = sorted({grid.cell(c) for c in slot.cells if c in crossed} - known)
        if new:
            typer.echo(f"note: --lock {slot.name}={placed[slot.name]} puts letters no dictionary "
                       f"word has ({''.join(new)}) where other entries cross it", err=True)


def _command(verb: str, grid: Path, words: Words, rules: Rules, min_score: int,
             locks: list[str] | None = None) -> list[str]:
    """``xwsat VERB GRID`` with this run's word, lock and rule options."""
    parts = ["xwsat", verb, str(grid)]
    for spec in words.dictionary:
        parts += ["--dict", spec]
    for word in words.ban:
        parts += ["--ban", word]
    for entry in locks or []:
        parts += ["--lock", entry]
    if min_score:
        parts += ["--min-score", str(min_score)]
    if words.alphabet:
        parts += ["--alphabet", words.alphabet]
    if words.fold_yo:
        parts.append("--fold-yo")
    if rules.allow_repeats:
        parts.append("--allow-repeats")
    if rules.min_length != Rules().min_length:
        parts += ["--min-length", str(rules.min_length)]
    return parts


def _probe_hint(grid: Path, words: Words, rules: Rules) -> str:
    """The command that shows where an undecided grid is hard, with this run's word options."""
    return "where it is hard: " + shlex.join([*_command("plan", grid, words, rules,
                                                        words.min_score), "--probe", "5"])


# The limit suggested for deciding the level above where the climb's own limit did not.
LONGER_PROOF_S = 600.0


def _prove_hint(grid: Path, words: Words, rules: Rules, quality: Quality,
                locks: list[str], region: str, tail: tuple[str, ...] = ("--certificate", "DIR"),
                shared: bool = False) -> str | None:
    """The ``prove`` command for the level above the one reached, ending in ``tail`` (by
    default the certificate that shows it has no fill), with a longer limit where the climb
    left that level undecided; None where ``prove`` would not ask the same question (a
    region, or a rule on shared substrings)."""
    above = quality.climb.next_level
    if above is None or region or shared:  # prove does not check --max-shared-substring
        return None
    longer = [] if quality.climb.proven else ["-t", f"{LONGER_PROOF_S:g}"]
    return shlex.join([*_command("prove", grid, words, rules, above, locks), *longer, *tail])


def _puzzle(result: FillResult, given: Puzzle, stem: str, locks: list[str],
            words: Words) -> Puzzle:
    """The puzzle to write: blank pattern (blocks only), the verified fill, and clues: where
    the input was a puzzle whose answer there is unchanged (``--region`` keeps most), its own
    clue, else the dictionary's. The input's title, author, copyright, notes and banned words
    are kept; the list it is made with is this run's (one list, by its file's name, as the
    workbench names it; none for stacked lists)."""
    built = result.built
    blank = Grid(tuple("".join(BLOCK if ch == BLOCK else EMPTY for ch in row)
                       for row in built.grid.rows))
    before = {slot.name: (given.answer(slot), given.clues.get(slot.name))
              for slot in extract_slots(given.solution or given.pattern,
                                        min(s.length for s in built.slots))}
    clues = {}
    if result.outcome.fill is not None:
        for slot, word in zip(built.slots, result.outcome.fill):
            answer, own = before.get(slot.name, (None, None))
            clue = own if own and answer == built.words.words[int(word)] else \
                built.words.clues.get(int(word))
            if clue:
                clues[slot.name] = clue
    locked = frozenset(entry.split("=", 1)[0].strip().upper() for entry in locks)
    return Puzzle(blank, result.filled, clues, given.title or stem, given.author,
                  min(s.length for s in built.slots), given.copyright, given.notes,
                  given.circles, locked & {slot.name for slot in built.slots}, given.bans,
                  (Path(words.paths[0]).name, words.min_score) if len(words.paths) == 1 else None)


@grouped
def fill(
    grid: GridArg,
    words: Words,
    search: Search,
    rules: Rules,
    json_out: JsonOpt = False,
    out: OutOpt = None,
    optimize: OptimizeOpt = False,
    certificate: CertOpt = None,
    explain: WhyOpt = False,
    lock: LockOpt = None,
    region: RegionOpt = "",
    count: CountOpt = 1,
    differ: DifferOpt = None,
    max_shared_substring: SharedOpt = None,
    force: ForceOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Fill every slot with distinct dictionary words (exit 0), or say why not (1 unfillable,
    3 undecided)."""
    quiet_progress(quiet)
    check_format(out)
    check_max_shared(max_shared_substring)
    if not 1 <= count <= MAX_COUNT:
        raise XwsatError(f"--count must be between 1 and {MAX_COUNT}")
    if differ is not None and differ < 1:
        raise XwsatError("--differ must be a number of entries, at least 1")
    if differ is not None and count == 1 and not region:
        raise XwsatError("--differ says how far apart fills are: give --count K or --region")
    if optimize and count > 1:
        raise XwsatError("--optimize improves one fill; with --count the fills come best "
                         "first already")
    if certificate is not None and not optimize:
        raise XwsatError("--certificate on fill is the proof of --optimize's ceiling: give "
                         "--optimize too (or use xwsat prove --certificate)")
    if explain and not optimize:
        raise XwsatError("--explain on fill says why --optimize's level is the highest: give "
                         "--optimize too (or use xwsat prove --explain)")
    if explain and region:
        raise XwsatError("--explain on fill explains a level of the whole grid: not with "
                         "--region")
    if certificate is not None and (region or max_shared_substring):
        raise XwsatError("--certificate on fill proves a level of the whole grid: not with "
                         "--region or --max-shared-substring")
    if explain and max_shared_substring:  # as prove: the cores are of the standard rules
        raise XwsatError("--explain finds its entries under the standard rules: not with "
                         "--max-shared-substring")
    check_outputs([out], [grid, *words.paths], force)
    if certificate is not None:
        check_certificate_folder(certificate, [out])
    compile_first([search.backend] + (["mac"] if certificate is not None else []),
                  checker="auto" if certificate is not None else None)  # as prove does
    started = command_started()
    quality: Quality | None = None
    unimproved: str | None = None  # why --optimize left a region's refill as found
    cert_lines: list[str] = []
    why: Why | None = None
    own: tuple[dict, str] | None = None  # the explanation's own certificate (data, line)
    others: Alternatives | None = None
    locks = list(lock or [])
    with limited(search.time_limit, search.memory_mb):
        words = with_file_bans(grid, words, rules.min_length, locks, bool(region))
        # the .json's locks: its prove command and certificate name them, the .json it writes
        # marks them again (a --lock of the command is this run's)
        file_locks = with_file_locks(grid, locks, rules.min_length)
        target, word_list, source, current, among = _prepare(
            grid, words, rules.min_length, locks, region, out)
        options = replace(fill_options(search, rules, started),
                          max_shared=max_shared_substring or 0)
        if count > 1 or current is not None:
            others = find_alternatives(
                target, word_list, options, count, differ or 1,
                lambda: budget(search.time_limit, started).with_margin(guard.WRAP_UP_S),
                status_line,
                [current] if current is not None else [], among, by_seed=current is not None)
            result = others.best
        else:
            result = fill_grid(target, word_list, options, status_line)
        clear_status_line()
        if optimize and result.filled is not None:
            from xwsat.quality.run import improve

            left = budget(search.time_limit, started).for_child()
            # the certificate, then the explanation, take the rest
            share = 0.5 if certificate is not None else WHY_SHARE if explain else 1.0
            try:
                if current is not None and among is not None:
                    from xwsat.quality.refill import improve_refill

                    result, quality = improve_refill(result, target, word_list, options,
                                                     current, among, differ or 1, left * share,
                                                     status_line)
                    if quality is None:
                        unimproved = (f"no better refill of the region (changing at least "
                                      f"{differ or 1} of its entries) was found; the refill is "
                                      "kept as found")
                        typer.echo(f"--optimize: {unimproved}", err=True)
                else:
                    result, quality = improve(result, options, left * share, status_line)
            except KeyboardInterrupt as exc:  # the limit (or Ctrl-C) before the climb could
                _, message = guard.interruption(exc)  # say what it reached: the fill found
                clear_status_line()  # stands, printed and written
                typer.echo(f"--optimize: {message} before the climb had a level to report; "
                           "the fill found is kept as found", err=True)
            clear_status_line()
            level_built = None  # the grid cut at the level above: its certificate's question,
            if certificate is not None and quality is not None:  # and its explanation's
                level_built = _level_built(result, quality, rules)
                cert_lines = _certificate(result, quality, certificate, grid, words, rules,
                                          search, started, locks,
                                          CERT_SHARE_WITH_WHY if explain else 1.0, level_built)
            if explain and quality is not None:
                why = _why(result, quality, budget(search.time_limit, started).for_child(),
                           search.seed)
                if certificate is not None and why.core is not None:  # kept as prove keeps it
                    own = _own_certificate(why, grid, certificate, search, level_built,
                                           started)
    shared = bool(max_shared_substring)
    hint = (_prove_hint(grid, words, rules, quality, locks, region, shared=shared)
            if quality is not None else None)
    explain_hint = (_prove_hint(grid, words, rules, quality, locks, region, ("--explain",),
                                shared=shared)
                    if quality is not None and explain else None)
    data = None
    notes: list[str] = []  # about the file: said once it is written
    if out is not None and result.filled is not None:
        puzzle = _puzzle(result, source, grid.stem, file_locks, words)
        data = render_puzzle(puzzle, out, words.language)
        if out.suffix.lower() == ".html" and (note := unchecked_note(puzzle)):
            notes.append(note)
        if note := unclued_note(out, puzzle.unclued(), len(puzzle.slots)):
            notes.append(note)
        if note := lost_text_note(out, puzzle_texts(puzzle)):
            notes.append(note)
    stopped = guard.user_stopped()  # Ctrl-C in a later stage: the climb, its explanation
    write_stop = "interrupted"
    written, not_written = False, None
    if data is not None and out is not None:  # first: a closed terminal (a broken pipe, a
        try:  # hang-up) may fail the printing, and the file is the answer
            not_written = write_answer(out, data)
            written = not_written is None
        except KeyboardInterrupt as exc:  # a stop while writing: no file (never half of
            write_stop = guard.interruption(exc)[0].value  # one); the record is still
            stopped = True  # printed, and says why it stopped
    if written:
        for note in notes:
            typer.echo(note, err=True)
    if json_out:
        record = as_json(result)
        record["lists"] = list(words.dictionary)  # as given: with their score scales
        if stopped:
            record["stop"] = record.get("stop") or write_stop
        if written:
            record["wrote"] = str(out)
        if not_written:
            record["not_written"] = not_written
        if quality is not None and result.outcome.fill is not None:
            from xwsat.quality.report import quality_json

            record["optimize"] = quality_json(result.built, quality, hint)
            record["optimize"]["interrupted"] = record["optimize"]["interrupted"] or stopped
            if explain:
                record["optimize"]["why"] = _why_json(why)
                if own is not None:
                    record["optimize"]["why"]["certificate"] = own[0]
            if cert_lines:
                record["optimize"]["certificate"] = cert_lines
        if others is not None and quality is None:  # improved: the record is the fill's
            from xwsat.alternatives import record as alternatives_record

            record["alternatives"] = alternatives_record(others, count, differ or 1,
                                                         current is not None)
            record["status"] = others.status.value
            if unimproved is not None:
                record["optimize"] = {"improved": False, "message": unimproved}
        print_record(record)
    elif others is not None and quality is None:
        typer.echo(others.text(count, differ or 1, current is not None))
    else:
        typer.echo(describe(result, "fill"))
        if result.outcome.status is Status.UNKNOWN and not region and not lock:
            typer.echo(_probe_hint(grid, words, rules))
        if explain and result.outcome.status is Status.UNFILLABLE:  # no level to explain
            typer.echo("  which slots cannot be filled together: "
                       + shlex.join([*_command("prove", grid, words, rules, words.min_score, locks),
                                     "--explain"]))
        if quality is not None and result.outcome.fill is not None:
            from xwsat.quality.report import quality_lines

            typer.echo("\n".join(quality_lines(result.built, quality, hint) + cert_lines))
            if explain:
                typer.echo("\n".join(_why_lines(quality, why, explain_hint)
                                     + ([own[1]] if own is not None else [])))
    if written and not json_out:
        typer.echo(f"wrote {out}")
    if not_written:
        raise unwritten(not_written)
    if stopped:  # what was found is printed and written; the command itself was stopped
        typer.echo("xwsat: interrupted", err=True)
        raise typer.Exit(ExitCode.UNDECIDED)
    raise typer.Exit((others.status if others is not None else result.outcome.status).exit_code)


# With --explain (and no certificate), the share of the time left the climb and the best fill
# keep; the explanation takes the rest.
WHY_SHARE = 0.75
# With --certificate and --explain, the certificate's share of the time the climb left; the
# explanation takes the rest (alone, the certificate takes it all).
CERT_SHARE_WITH_WHY = 0.6


def _why(result: FillResult, quality: Quality, time_limit: float, seed: int) -> Why:
    """Why the level reached is the highest, with the time left (the status line follows the
    minimisation)."""
    from xwsat.quality.why import why_not_higher

    def heard(core: Explanation) -> None:
        status_line(core.seconds, f"explaining the level above ({core.size} slots, "
                    f"{core.necessary} shown necessary)")

    why = why_not_higher(result.built, quality, time_limit, seed, heard)
    clear_status_line()
    return why


def _why_lines(quality: Quality, why: Why | None, explain_hint: str | None) -> list[str]:
    """The explanation's lines under the level's, or why there is none (with the ``prove``
    command that decides and explains an undecided level above, when there is one)."""
    from xwsat.evidence.evidence_text import explanation_lines
    from xwsat.quality.why import unexplained

    nothing = unexplained(quality)
    if nothing is not None:
        lines = [f"why not higher: {nothing}"]
        if explain_hint and not quality.climb.proven:
            lines.append(f"  to decide and explain it: {explain_hint}")
        return lines
    if why is None or why.core is None:
        reason = why.reason if why is not None else "stopped before the explanation"
        return [f"why not {quality.climb.next_level}: no explanation ({reason})"]
    lines = [part for line in explanation_lines(why.built, why.core) for part in line.split("\n")]
    return [f"why not {why.level}: the slots that cannot be filled together at {why.level}",
            *["  " + line if line else line for line in lines]]


def _why_json(why: Why | None) -> dict:
    """The explanation as data: the core at the level above, or why there is none."""
    from xwsat.evidence.evidence_text import explanation_json

    if why is None or why.core is None:  # (None: no explanation was asked for in time)
        return {"level": why.level if why is not None else None, "core": None,
                "reason": why.reason if why is not None else "stopped before the explanation"}
    return {"level": why.level, "core": explanation_json(why.built, why.core), "reason": None}


def _level_built(result: FillResult, quality: Quality, rules: Rules) -> Built | None:
    """The grid cut at the level above the one reached (``built_at``), or None at the top."""
    from xwsat.quality.certify import built_at

    above = quality.climb.next_level
    if above is None:
        return None
    return built_at(result.built, quality.fill, quality.exempt, above, rules.min_length,
                    rules.allow_repeats)


def _own_certificate(why: Why, grid: Path, certificate: Path, search: Search,
                     at: Built | None, started: float) -> tuple[dict, str] | None:
    """The explanation, kept in the level's certificate folder as ``prove`` keeps it, with its
    own checked certificate there (``prove --certificate --explain``), when the level's
    certificate was written and the search for a smaller core was not stopped; as data and
    as a line. None when there is no level certificate to stand beside. Its question ``at``
    is the level certificate's: the list cut at the level, the constructor's entries kept."""
    from xwsat.commands.prove import certify_explanation
    from xwsat.evidence.certificate import add_explanation

    assert why.core is not None
    add_explanation(certificate, why.built, why.core, f"{grid.name} at level {why.level}: "
                    f"{len(why.core.slots)} slots cannot be filled together")
    if why.stopped or at is None or not (certificate / "manifest.json").is_file():
        return None
    try:
        return certify_explanation(at, grid, certificate, why.core, search, started)
    except KeyboardInterrupt as exc:  # the limit or Ctrl-C: the fill and its level stand
        _, message = guard.interruption(exc)
        clear_status_line()
        return ({"folder": None, "slots": [why.built.slots[s].name for s in why.core.slots],
                 "checked": False, "reason": message}, f"  its own certificate: none ({message})")


def _certificate(result: FillResult, quality: Quality, directory: Path, grid: Path,
                 words: Words, rules: Rules, search: Search, started: float,
                 locks: list[str], share: float = 1.0, at: Built | None = None) -> list[str]:
    """The certificate of the level above the one reached, with the time left; locked
    entries are part of its question, as with ``prove --lock``."""
    from xwsat.commands.prove import certificate_facts
    from xwsat.evidence import evidence_text
    from xwsat.quality.certify import level_certificate

    above = quality.climb.next_level
    if above is None:
        return ["(no certificate: the level reached is the top score; nothing is above it)"]
    listed = result.built.words  # the fill holds word ids; the manifest names words
    ids = {s.name: w for s, w in zip(result.built.slots, result.outcome.fill or ())
           if any(e.split("=", 1)[0].strip().upper() == s.name for e in locks)}
    placed = {name: listed.words[w] for name, w in ids.items()}
    # as prove --lock --min-score ABOVE reads them: a locked word scored below the level is
    # one the cut list lacks, placed there by the lock alone
    below = {listed.words[w] for w in ids.values() if int(listed.scores[w]) < above}
    facts = certificate_facts(words, rules, above, locked=placed,  # check-proof places them
                              placed_only=listed.placed_only | below)  # again (xwsat.lock)
    try:
        left = budget(search.time_limit, started).for_child()
        run = level_certificate(result.built, quality.fill, quality.exempt, above, directory,
                                str(grid), None if left is None else left * share,
                                search.backend, facts, search.seed, status_line,
                                rules.min_length, rules.allow_repeats, at=at)
    except KeyboardInterrupt as exc:  # the limit or Ctrl-C: the fill found stands, printed
        _, message = guard.interruption(exc)  # and written; the folder is left as it was
        clear_status_line()
        return [f"(no certificate of level {above}: {message})"]
    clear_status_line()
    return [f"certificate of level {above}:", *evidence_text.certificate_lines(run)]


def register(app: typer.Typer) -> None:
    app.command("fill")(fill)
