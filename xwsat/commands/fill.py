"""``xwsat fill``: fill every slot with distinct dictionary words, or say why not.

Constructor options: ``--lock 1A=WORD`` (repeatable) fixes entries, ``--region r1,c1-r2,c2``
refills a rectangle of a filled grid, ``--optimize`` maximises the total word score, and ``--out``
writes the puzzle in the format of its extension (.txt .json .ipuz .puz .svg .html).
"""

from __future__ import annotations

import shlex
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from xwsat.commands.common import (
    check_certificate_folder,
    check_outputs,
    clear_status_line,
    command_started,
    compile_first,
    fill_options,
    limited,
    load_inputs,
    print_record,
    status_line,
    time_left,
    write_atomic,
)
from xwsat.commands.options import ForceOpt, GridArg, JsonOpt, Rules, Search, Words, grouped
from xwsat.errors import XwsatError
from xwsat.formats import Puzzle, check_format, read_puzzle, render_puzzle
from xwsat.formats.html import unchecked_note
from xwsat.formats.puzfile import lost_text_note, refuse_wide_letters
from xwsat.grid import BLOCK, EMPTY, Grid, extract_slots
from xwsat.lock import apply_locks, parse_region, region_grid, with_words
from xwsat.outcome import Status
from xwsat.pipeline import FillResult, fill_grid
from xwsat.verdict_text import as_json, describe
from xwsat.words import WordList, normalize_word

if TYPE_CHECKING:  # the climb and CP-SAT's optimiser are imported only with --optimize
    from xwsat.quality.run import Quality

OutOpt = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write the puzzle here; the extension picks the format: .txt .json "
    ".ipuz .puz .svg .html (a solving page).")]
OptimizeOpt = Annotated[bool, typer.Option(
    "--optimize", help="After a first fill, climb to the highest minimum score at which the "
    "grid fills and prove the next one has no fill, then the fewest entries at that score and "
    "the highest total (CP-SAT), within --time-limit.")]
CertOpt = Annotated[Path | None, typer.Option(
    "--certificate", help="With --optimize: write the checked certificate that the level above "
    "the one reached has no fill to this new or empty folder.")]
LockOpt = Annotated[list[str] | None, typer.Option(
    "--lock", help="Fix an entry, e.g. --lock 1A=OCEAN (repeatable; words outside the "
    "dictionary are allowed).")]
RegionOpt = Annotated[str, typer.Option(
    "--region", help="Refill only rows/columns R1,C1-R2,C2 (1-based) of a filled grid; the "
    "rest stays as it is.")]


def _prepare(grid_path: Path, words_options: Words, min_length: int, locks: list[str],
             region: str, out: Path | None) -> tuple[Grid, WordList, Puzzle]:
    """The grid to fill and the word list, after --region and --lock, and the input as a
    puzzle (its clues and credits go to the output; read now, not after the search)."""
    grid, words = load_inputs(grid_path, words_options)
    puzzle = read_puzzle(grid_path)
    fold_yo = words_options.fold_yo
    refuse_wide_letters(out, words.alphabet.letters)
    if region:
        area = parse_region(region)
        fold = lambda ch: normalize_word(ch, fold_yo=fold_yo)  # noqa: E731
        start = (puzzle.solution or puzzle.pattern).map_letters(fold)
        pattern = puzzle.pattern.map_letters(fold) if puzzle.solution is not None else None
        grid, fixed = region_grid(start, area, pattern, min_length)
        words = with_words(words, ["".join(grid.cell(c) for c in s.cells) for s in fixed])
    known = set(words.alphabet.letters)
    grid, words, placed = apply_locks(grid, words, locks, min_length, fold_yo)
    refuse_wide_letters(out, "".join(placed.values()))  # a locked word may bring its own
    _note_foreign_letters(grid, placed, known, min_length)
    if out is not None and out.suffix.lower() == ".puz":
        covered = {cell for slot in extract_slots(grid, min_length) for cell in slot.cells}
        bare = [i for i in range(grid.height * grid.width)
                if grid.is_white(i) and i not in covered and grid.cell(i) == EMPTY]
        if bare:  # said before the search, not after it
            row, col = divmod(bare[0], grid.width)
            raise XwsatError(f"{out}: .puz needs every white cell filled, and the cell at row "
                             f"{row + 1}, column {col + 1} is in no slot of {min_length}+ "
                             "letters; write .ipuz or .json instead")
    return grid, words, puzzle


def _note_foreign_letters(grid: Grid, placed: dict[str, str], known: set[str],
                          min_length: int) -> None:
    """Say when a locked word puts a letter no dictionary word has where another entry crosses
    it: that entry cannot be filled, and a mistyped script (Latin with -d ru) would otherwise
    read as a plain "unfillable"."""
    slots = extract_slots(grid, min_length)
    entries = Counter(cell for slot in slots for cell in slot.cells)
    crossed = {cell for cell, count in entries.items() if count > 1}
    for slot in slots:
        if slot.name not in placed:
            continue
        new = sorted({grid.cell(c) for c in slot.cells if c in crossed} - known)
        if new:
            typer.echo(f"note: --lock {slot.name}={placed[slot.name]} puts letters no dictionary "
                       f"word has ({''.join(new)}) where other entries cross it", err=True)


def _command(verb: str, grid: Path, words: Words, rules: Rules, min_score: int) -> list[str]:
    """``xwsat VERB GRID`` with this run's word and rule options."""
    parts = ["xwsat", verb, str(grid), "--dict", str(words.dictionary)]
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


def _prove_hint(grid: Path, words: Words, rules: Rules, quality: Quality) -> str | None:
    """The ``prove`` command whose certificate shows the level above the one reached has no
    fill; None where ``prove`` would not see the same grid (locked entries, a region)."""
    above = quality.climb.next_level
    if above is None or quality.exempt:
        return None
    return shlex.join([*_command("prove", grid, words, rules, above), "--certificate", "DIR"])


def _puzzle(result: FillResult, given: Puzzle, stem: str) -> Puzzle:
    """The puzzle to write: blank pattern (blocks only), the verified fill, and clues: where
    the input was a puzzle whose answer there is unchanged (``--region`` keeps most), its own
    clue, else the dictionary's. The input's title, author, copyright and notes are kept."""
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
    return Puzzle(blank, result.filled, clues, given.title or stem, given.author,
                  min(s.length for s in built.slots), given.copyright, given.notes,
                  given.circles)


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
    lock: LockOpt = None,
    region: RegionOpt = "",
    force: ForceOpt = False,
) -> None:
    """Fill every slot with distinct dictionary words (exit 0), or say why not (1 unfillable,
    3 undecided)."""
    check_format(out)
    if certificate is not None and not optimize:
        raise XwsatError("--certificate on fill is the proof of --optimize's ceiling: give "
                         "--optimize too (or use xwsat prove --certificate)")
    check_outputs([out], [grid, words.dictionary], force)
    if certificate is not None:
        check_certificate_folder(certificate, [out])
    compile_first([search.backend] + (["mac"] if certificate is not None else []),
                  checker="auto" if certificate is not None else None)  # as prove does
    started = command_started()
    quality: Quality | None = None
    cert_lines: list[str] = []
    with limited(search.time_limit, search.memory_mb):
        target, word_list, source = _prepare(grid, words, rules.min_length, list(lock or []),
                                             region, out)
        options = fill_options(search, rules, started)
        result = fill_grid(target, word_list, options, status_line)
        clear_status_line()
        if optimize and result.filled is not None:
            from xwsat.quality.run import improve

            left = time_left(search.time_limit, started)
            share = 0.5 if certificate is not None else 1.0  # the certificate takes the rest
            result, quality = improve(result, options, left * share, status_line)
            clear_status_line()
            if certificate is not None:
                cert_lines = _certificate(result, quality, certificate, grid, words, rules,
                                          search, started)
    hint = _prove_hint(grid, words, rules, quality) if quality is not None else None
    data = None
    if out is not None and result.filled is not None:
        puzzle = _puzzle(result, source, grid.stem)
        data = render_puzzle(puzzle, out,
                             words.dictionary if words.dictionary in ("ru", "es") else "en")
        if out.suffix.lower() == ".html" and (note := unchecked_note(puzzle)):
            typer.echo(note, err=True)
        if note := lost_text_note(out, [*puzzle.clues.values(), puzzle.title, puzzle.author]):
            typer.echo(note, err=True)
    if json_out:
        record = as_json(result)
        if quality is not None and result.outcome.fill is not None:
            from xwsat.quality.report import quality_json

            record["optimize"] = quality_json(result.built, quality, hint)
            if cert_lines:
                record["optimize"]["certificate"] = cert_lines
        print_record(record)
    else:
        typer.echo(describe(result, "fill"))
        if result.outcome.status is Status.UNKNOWN and not region and not lock:
            typer.echo(_probe_hint(grid, words, rules))
        if quality is not None and result.outcome.fill is not None:
            from xwsat.quality.report import quality_lines

            typer.echo("\n".join(quality_lines(result.built, quality, hint) + cert_lines))
    if data is not None and out is not None:
        write_atomic(out, data)
    raise typer.Exit(result.outcome.status.exit_code)


def _certificate(result: FillResult, quality: Quality, directory: Path, grid: Path,
                 words: Words, rules: Rules, search: Search, started: float) -> list[str]:
    """The certificate of the level above the one reached, with the time left."""
    from xwsat.commands.prove import certificate_facts
    from xwsat.evidence import evidence_text
    from xwsat.quality.certify import level_certificate

    above = quality.climb.next_level
    if above is None:
        return ["(no certificate: the level reached is the top score; nothing is above it)"]
    run = level_certificate(result.built, quality.fill, quality.exempt, above, directory,
                            str(grid), time_left(search.time_limit, started), search.backend,
                            certificate_facts(words, rules, above), search.seed, status_line,
                            rules.min_length, rules.allow_repeats)
    clear_status_line()
    return [f"certificate of level {above}:", *evidence_text.certificate_lines(run)]


def register(app: typer.Typer) -> None:
    app.command("fill")(fill)
