"""What the commands share besides options: reading inputs, guarding and writing outputs, the
command-wide limits, and the live status line."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from xwsat import guard
from xwsat.commands.options import Rules, Search, Words
from xwsat.errors import XwsatError
from xwsat.formats import read_grid
from xwsat.grid import Grid
from xwsat.outputs import check_plain, exists_message, folder_of, temporary_file, write_file
from xwsat.pipeline import FillOptions
from xwsat.words import WordList, dashed_note, normalize_word

STARTED: float | None = None  # when the process's command began (set by ``xwsat.cli.main``)
_record = {"printed": False}  # whether this command has printed its --json record
_replaceable: set[str] = set()  # this command's outputs that --force lets it replace
NOT_A_TTY_EVERY_S = 5.0  # progress lines when stderr is a file or a pipe: one per this many s


# --- inputs -----------------------------------------------------------------------------------

def load_grid(grid_path: Path, fold_yo: bool) -> Grid:
    """Read a grid (text, .json, .ipuz, .puz by extension), letters normalised like words."""
    grid = read_grid(grid_path)
    if fold_yo and any("Ё" in row.upper() for row in grid.rows):
        say_folded({"Ё": "Е"}, "--fold-yo: the grid's letters")  # as the list's words are
    return grid.map_letters(lambda ch: normalize_word(ch, fold_yo=fold_yo))


def load_word_list(words: Words) -> WordList:
    """The word list (stacked, scaled, banned as asked), with notes on stderr: what stacking
    said, and the lines it left out (``note_left_out``)."""
    from xwsat.word_stack import stacked_words

    word_list, notes = stacked_words(words.dictionary, words.min_score, words.alphabet,
                                     words.fold_yo, words.ban)
    for note in notes:
        sys.stderr.write(f"xwsat: note: {note}\n")
    note_left_out(word_list, bool(words.alphabet))
    note_mixed_scripts(word_list)
    return word_list


def note_mixed_scripts(word_list: WordList) -> None:
    """Say which words mix Latin and Cyrillic letters: a Latin O or A typed among Cyrillic
    ones looks the same and makes another word, which no grid's Cyrillic letters will match.
    Free when the list's alphabet has only one of the two scripts."""
    letters = set(word_list.alphabet.letters)
    latin = {c for c in letters if "A" <= c <= "Z"}
    cyrillic = {c for c in letters if "\u0400" <= c <= "\u04ff"}
    if not latin or not cyrillic:
        return
    mixed = [w for w in word_list.words if not latin.isdisjoint(w) and not cyrillic.isdisjoint(w)]
    if mixed:
        shown = ", ".join(mixed[:3]) + (f" and {len(mixed) - 3:,} more" if len(mixed) > 3 else "")
        verb = "word mixes" if len(mixed) == 1 else "words mix"
        sys.stderr.write(f"xwsat: note: {len(mixed):,} {verb} Latin and Cyrillic letters "
                         f"({shown}): a Latin letter that looks Cyrillic, most likely\n")


def note_left_out(word_list: WordList, declared: bool = False) -> None:
    """Say how many lines of the list were left out as not words (or, with a declared
    alphabet, for letters outside it): a word dropped in silence can make a fillable grid
    "unfillable"."""
    if word_list.skipped:
        why = "letters outside --alphabet, or not words" if declared else "not words"
        lines = "line" if word_list.skipped == 1 else "lines"
        kept = "word" if len(word_list) == 1 else "words"
        first = f", the first {word_list.first_skipped}" if word_list.first_skipped else ""
        sys.stderr.write(f"xwsat: note: {word_list.skipped:,} {lines} of the dictionary left "
                         f"out ({why}){first}; {len(word_list):,} {kept} kept\n")
    if word_list.dashed:
        sys.stderr.write(f"xwsat: note: {dashed_note(word_list)}\n")


def with_file_bans(grid_path: Path, words: Words, min_length: int, locks: Iterable[str] = (),
                   refill: bool = False) -> Words:
    """``words`` with the words an xwsat .json puzzle bans (the workbench's bans) added to
    ``--ban``, said on stderr. A banned word the grid already holds as an entry (its given
    letters; its solution too for a ``refill`` of a region), or that a lock places (the
    command's ``--lock`` or the file's own), stays allowed: the fill keeps it."""
    if grid_path.suffix.lower() != ".json":
        return words
    from dataclasses import replace

    from xwsat.formats import read_puzzle
    from xwsat.grid import extract_slots
    from xwsat.lock import file_locks

    puzzle = read_puzzle(grid_path)
    if not puzzle.bans:
        return words
    grid = (puzzle.solution or puzzle.pattern) if refill else puzzle.pattern
    held = {"".join(grid.cell(c) for c in slot.cells) for slot in extract_slots(grid, min_length)}
    fold = words.fold_yo
    placed = [*locks, *file_locks(puzzle, list(locks), min_length)]  # the file's own locks too
    held |= {normalize_word(entry.split("=", 1)[-1], fold_yo=fold) for entry in placed}
    given = {normalize_word(w, fold_yo=fold) for w in words.ban}
    kept = [w for w in puzzle.bans if normalize_word(w, fold_yo=fold) not in held | given]
    said = []
    if kept:
        said.append("its banned words stay out: " + ", ".join(kept[:10])
                    + (f" and {len(kept) - 10} more" if len(kept) > 10 else ""))
    if skipped := [w for w in puzzle.bans if normalize_word(w, fold_yo=fold) in held]:
        said.append("banned there but kept by the grid or a --lock, so allowed: "
                    + ", ".join(skipped[:10]))
    if said:
        sys.stderr.write(f"xwsat: note: {grid_path}: {'; '.join(said)}\n")
    return replace(words, ban=(*words.ban, *kept))


def with_file_locks(grid_path: Path, locks: list[str], min_length: int) -> list[str]:
    """The entries an xwsat .json puzzle marks locked (the workbench's locks), added to
    ``locks`` as ``--lock`` entries and said on stderr, so that ``prove`` asks of the file
    what ``fill`` does; a ``--lock`` of the command on the same slot wins."""
    if grid_path.suffix.lower() != ".json":
        return []
    from xwsat.formats import read_puzzle
    from xwsat.lock import file_locks

    kept = file_locks(read_puzzle(grid_path), locks, min_length)
    if kept:
        locks.extend(kept)
        sys.stderr.write(f"xwsat: note: {grid_path}: its locked entries stay: "
                         f"{', '.join(kept)}\n")
    return kept


def load_inputs(grid_path: Path, words: Words) -> tuple[Grid, WordList]:
    """Read the grid and the dictionary, with the grid's letters normalised like the words: a
    given letter the list lacks but whose accent-free form it has is written that way (Ó in a
    grid read with the embedded Spanish list, which folds accents and keeps Ñ)."""
    grid, word_list = load_grid(grid_path, words.fold_yo), load_word_list(words)
    fitted, folded = letters_as_written(word_list, words.fold_yo)
    grid = grid.map_letters(fitted)
    say_folded(folded, "the grid's letters")
    return grid, word_list


def letters_as_written(word_list: WordList, fold_yo: bool
                       ) -> tuple[Callable[[str], str], dict[str, str]]:
    """A reader of given letters as the word list writes its words (Ó as O in a list that folds
    accents, Ё as Е under ``--fold-yo``), and the record of what it read so, for
    ``say_folded``; a letter with no such reading stays, for the usual one-line error."""
    letters = set(word_list.alphabet.letters)
    folded: dict[str, str] = {}

    def fitted(ch: str) -> str:
        if ch in letters:
            return ch
        other = normalize_word(ch, fold_accents=True, fold_yo=fold_yo)
        if len(other) == 1 and other in letters:
            folded[ch] = other
            return other
        return ch

    return fitted, folded


def say_folded(folded: dict[str, str], what: str) -> None:
    """A note: a theme entry's accent would otherwise vanish without a word."""
    if folded:
        pairs = ", ".join(f"{a} as {b}" for a, b in sorted(folded.items()))
        sys.stderr.write(f"xwsat: note: {what} read as the word list writes them: {pairs}\n")


def fill_options(search: Search, rules: Rules, started: float | None = None,
                 upper_first: bool = True) -> FillOptions:
    """The search options with the time the command has left (its loading counted); a verdict
    alone (``prove``) does without the upper look of ``xwsat.quality.upper``."""
    left = budget(search.time_limit, started).with_margin(guard.WRAP_UP_S)
    return FillOptions(search.backend, left, search.memory_mb, search.seed, rules.allow_repeats,
                       rules.min_length, upper_first=upper_first, in_step=search.deterministic)


# --- limits -----------------------------------------------------------------------------------

def compile_first(specs: list[str], checker: str | None = None) -> None:
    """Compile the numba search before the command's clock starts, when one of ``specs`` (or
    an ``auto`` policy among them) may run it and no earlier run has compiled it; likewise the
    trail proof checker when ``checker`` (a --proof-checker value) will use it."""
    global STARTED
    from xwsat.backends.registry import resolve, runs_compiled_search

    say = lambda text: print(f"xwsat: {text}", file=sys.stderr, flush=True)  # noqa: E731
    compiled_now = False
    if any(runs_compiled_search(resolve(spec)) for spec in specs):
        from xwsat.backends.mac import ensure_compiled

        try:
            compiled_now = ensure_compiled(say)
        except Exception as exc:  # noqa: BLE001 - the search then compiles on first use instead
            say(f"  could not compile ahead ({type(exc).__name__}); the first run will")
    if checker is not None:
        compiled_now = compile_checker_first(checker, say) or compiled_now
    if compiled_now and STARTED is not None:  # None (called in-process): limits count from
        STARTED = time.monotonic()  # each stage's own start anyway; else from here


def compile_checker_first(checker: str, say: Callable[[str], None]) -> bool:
    """Compile the trail checker now if ``checker`` resolves to it and no run has compiled it
    (about 10 s, once). True when it compiled."""
    from xwsat.evidence import rup_check
    from xwsat.evidence.drat_check import checker_engine

    if checker_engine(checker) != rup_check.NAME or rup_check.compiled():
        return False
    started = time.monotonic()
    say("compiling the proof checker once (about 10 s; later runs load it at once)")
    try:
        rup_check.warm_up()
    except Exception as exc:  # noqa: BLE001 - the check then compiles on first use instead
        say(f"  could not compile ahead ({type(exc).__name__}); the first check will")
        return False
    say(f"  compiled in {time.monotonic() - started:.1f} s")
    return True


def command_started() -> float:
    """When this command began: the process's start under ``xwsat``, else now."""
    return STARTED if STARTED is not None else time.monotonic()


def budget(time_limit: float, started: float | None = None) -> guard.Budget:
    """The command's time: ``time_limit`` from ``started`` (default: when the command began
    under ``xwsat``; called in-process, the clock is not running). A stage run in a child takes
    ``budget(...).for_child()``."""
    return guard.Budget(time_limit, started if started is not None else STARTED)


@contextlib.contextmanager
def limited(time_limit: float | None, memory_mb: int | None = None) -> Iterator[None]:
    """The command-wide watch: the whole command (main-process work included) stops a little
    past ``time_limit`` seconds from its start, or when its processes pass ``memory_mb``."""
    limit = time_limit + guard.WATCH_SLACK_S if time_limit is not None else None
    with guard.watch(limit, memory_mb, started=STARTED, shown=time_limit):
        yield


# --- outputs ----------------------------------------------------------------------------------

def check_writable(path: Path | None) -> None:
    """Refuse an output path whose folder is missing, or that is a folder, before any work."""
    if path is None:
        return
    folder = folder_of(path)
    if not folder.is_dir():
        raise XwsatError(f"{path}: directory {path.parent} does not exist")
    check_plain(path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise XwsatError(f"{path}: cannot write in {folder} (permission denied)")
    try:  # a file of our own, made and removed: some places refuse what access() allows
        handle, probe = temporary_file(folder)
    except OSError as exc:
        raise XwsatError(f"{path}: cannot write in {folder} ({exc.strerror})") from None
    os.close(handle)
    probe.unlink(missing_ok=True)


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (links and relative spellings included)."""
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def check_outputs(outputs: list[Path | None], inputs: list[Path | str | None],
                  force: bool = False) -> None:
    """Before any work: each output can be written, is none of the inputs and none of the other
    outputs, and replaces an existing file only with --force (xwsat never rewrites a file it
    did not create in this run unless asked to)."""
    given = [o for o in outputs if o is not None]
    sources = [Path(i) for i in inputs if i is not None and Path(i).exists()]
    for number, path in enumerate(given):
        if str(path) == "-":  # only ``dict export -o`` and ``encode -o`` take "-" (stdout)
            raise XwsatError("-: this option writes a file; give its name (the answer itself "
                             "goes to standard output)")
        if str(path) == ".":  # "" reaches here as "." too
            raise XwsatError("an output named '' or '.' names no file; give a file name to write")
        if _named_as_folder(path):
            raise XwsatError(f"{path}{os.sep}: names a folder; give the file to write in it, "
                             f"such as {path / ('puzzle' + (path.suffix or '.txt'))}")
        if path.suffix.lower() == ".gz":  # read gzipped, never written so: the name would lie
            raise XwsatError(f"{path}: xwsat writes no compressed files; drop the .gz")
        check_writable(path)
        for source in sources:
            if same_file(path, source):
                raise XwsatError(f"{path}: is also an input of this command; write the output "
                                 "elsewhere")
        if any(same_file(path, other) for other in given[:number]):
            raise XwsatError(f"{path}: named as two outputs")
        if path.exists() and not force:
            raise XwsatError(exists_message(path))
        if force:
            _replaceable.add(os.path.abspath(path))


def _named_as_folder(path: Path) -> bool:
    """Whether the command line spelled ``path`` with a trailing slash ("out/"): pathlib drops
    it, and the user meant a folder, not a file named "out"."""
    for token in sys.argv[1:]:
        spelled = token.partition("=")[2] if token.startswith("--") else token
        if spelled.endswith(("/", os.sep)) and len(spelled) > 1 and Path(spelled) == path:
            return True
    return False


def check_certificate_folder(folder: Path, outputs: list[Path | None]) -> None:
    """A certificate folder must be new or empty, and no other output may lie in it."""
    from xwsat.evidence.certificate import prepare_folder

    prepare_folder(folder)
    real_folder = Path(os.path.realpath(folder))
    for path in outputs:
        real = Path(os.path.realpath(path)) if path is not None else None
        if real is not None and (real == real_folder or real_folder in real.parents):
            raise XwsatError(f"{path}: lies in the certificate folder {folder}, whose files "
                             "are the certificate's; write it elsewhere")


def write_atomic(path: Path, data: str | bytes, replace: bool | None = None) -> None:
    """Write via a temporary file moved in at the end, so a failure never leaves half a file
    and a file that appeared during the run is never replaced (``xwsat.outputs``). ``replace``
    None: only an output this command's ``check_outputs`` took with ``--force``."""
    check_writable(path)
    if replace is None:
        replace = os.path.abspath(path) in _replaceable
    write_file(path, data, replace)


def write_answer(path: Path, data: str | bytes) -> str | None:
    """Write the answer's file (``write_atomic``); None once written, else why not, in one line.
    The caller prints the answer either way and then fails with the reason (``unwritten``): a
    file that appeared during a long run, or a full disk, must not cost what the search found."""
    try:
        write_atomic(path, data)
    except XwsatError as exc:
        return str(exc)
    except OSError as exc:
        return f"{exc.filename or path}: cannot write ({exc.strerror or exc})"
    return None


CLUED = (".puz", ".ipuz", ".json", ".html")  # the formats that carry clues


def unclued_note(out: Path, unclued: int, entries: int) -> str | None:
    """The note on a written file of a format with clues, some of whose ``entries`` the list
    gave no clue for (None when every one has a clue, or the format carries none)."""
    if not unclued or out.suffix.lower() not in CLUED:
        return None
    return (f"note: {unclued} of {entries} entries have no clue in {out} (the word list has "
            "none for their words): write them before publishing")


def write_board(out: Path, data: str | bytes, clues: Iterable[str | None],
                entries: int, notes: bool = True) -> str | None:
    """Write a generated board (``write_answer``: None once written, else why not) and, once
    written, say on stderr what its file lost (``lost_text_note``) and how many of its
    ``entries`` have no clue (``clues``: the texts it has, None or '' for none)."""
    from xwsat.formats.across_lite import lost_text_note

    not_written = write_answer(out, data)
    if not_written is None and notes:
        texts = list(clues)
        unclued = entries - sum(1 for text in texts if text)
        for note in (lost_text_note(out, texts), unclued_note(out, unclued, entries)):
            if note:
                sys.stderr.write(note + "\n")
    return not_written


def answer_fields(out: Path | None, wrote: bool, not_written: str | None) -> dict:
    """A --json record's word on its answer's file: ``wrote`` (the path) or ``not_written``
    (why not)."""
    return ({"wrote": str(out)} if wrote else {}) | (
        {"not_written": not_written} if not_written else {})


def unwritten(reason: str) -> XwsatError:
    """The error that ends a command whose answer is printed but whose file is not written."""
    return XwsatError(f"{reason}; the answer above is not written to it")


# --- progress ---------------------------------------------------------------------------------

_last_line = {"at": 0.0, "quiet": False}


def quiet_progress(quiet: bool) -> None:
    """``--quiet``: no status line for the rest of this command (set by each command, so an
    in-process caller's earlier choice does not carry over)."""
    _last_line["quiet"] = quiet


def status_line(elapsed: float, busy: str) -> None:
    """Progress on stderr: on a terminal one line updated in place, cut to the terminal's width;
    otherwise a plain line every few seconds once a run has lasted a while."""
    if _last_line["quiet"]:
        return
    text = f"[xwsat] {elapsed:6.1f} s  {busy}  (Ctrl-C stops)"
    with contextlib.suppress(OSError):  # a closed terminal (a hang-up) ends the progress,
        if sys.stderr.isatty():  # not the search: the result still goes to --out
            width = shutil.get_terminal_size((100, 24)).columns
            sys.stderr.write("\r\x1b[2K" + text[:max(width - 1, 10)])
            sys.stderr.flush()
        elif elapsed >= NOT_A_TTY_EVERY_S and elapsed - _last_line["at"] >= NOT_A_TTY_EVERY_S:
            _last_line["at"] = elapsed
            sys.stderr.write(text + "\n")
            sys.stderr.flush()


def clear_status_line() -> None:
    _last_line["at"] = 0.0
    with contextlib.suppress(OSError):
        if sys.stderr.isatty():
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()


def print_record(data: object) -> None:
    """A command's ``--json`` record on stdout; a command stopped later (Ctrl-C while it writes
    its output file) then gets no second, stand-in record from the command line."""
    import json

    import typer

    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    _record["printed"] = True


def stopped_record(command: str | None, stop: str, message: str) -> None:
    """The record of a ``--json`` command that a limit or Ctrl-C ended before it printed its
    own, so a script reading stdout is never left with nothing; its status is the word that
    command's own records use for "no verdict"."""
    if command is None or _record["printed"]:
        return
    import json

    import typer

    status = "undecided" if command == "generate" else "unknown"
    with contextlib.suppress(OSError):
        typer.echo(json.dumps({"status": status, "stop": stop, "message": message}))


def new_command() -> None:
    """Forget the last command's record and outputs (library callers and tests run several
    in a process)."""
    _record["printed"] = False
    _replaceable.clear()
