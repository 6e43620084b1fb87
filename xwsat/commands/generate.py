"""``xwsat generate``: the solver places the blocks and the words together (the line generator)."""

from __future__ import annotations

import re
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from xwsat.commands.common import (
    answer_fields,
    budget,
    check_outputs,
    compile_first,
    letters_as_written,
    limited,
    load_word_list,
    print_record,
    say_folded,
    unwritten,
    write_board,
)
from xwsat.commands.options import (
    ForceOpt,
    JsonOpt,
    MaxCheatersOpt,
    MaxWordsOpt,
    MemoryOpt,
    OutOpt,
    QuietOpt,
    RepeatsOpt,
    SeedOpt,
    TimeOpt,
    Words,
    check_memory_limit,
    check_seed,
    check_time_limit,
    grouped,
)
from xwsat.errors import XwsatError
from xwsat.formats import check_format, read_grid, render_rows
from xwsat.formats.across_lite import refuse_wide_letters
from xwsat.generate.generator import GenerateResult, generate
from xwsat.generate.spec import GenerateSpec, blocks_from_ratio
from xwsat.grid import Grid, extract_slots
from xwsat.grid_patterns import check_caps
from xwsat.outcome import Status
from xwsat.words import WordList, normalize_word

SHOWN = {Status.FILLED: "generated", Status.UNFILLABLE: "impossible",
         Status.UNKNOWN: "undecided", Status.ERROR: "error"}  # what a generator's outcome means
DEFAULT_RATIO = 1 / 6  # about the share of blocks in a published 15x15

SizeOpt = Annotated[str, typer.Option("--size", "-s", help="Grid size WxH, e.g. 7x7.")]
BlocksOpt = Annotated[int | None, typer.Option("--blocks", help="At most this many blocks.")]
RatioOpt = Annotated[float | None, typer.Option(
    "--block-ratio", help="At most this share of cells as blocks (default 1/6).")]
MinLenOpt = Annotated[int, typer.Option("--min-length", help="Shortest word (2 allowed).")]
SymOpt = Annotated[str, typer.Option("--symmetry", help="rotational (180), mirror or none.")]
GivenOpt = Annotated[Path | None, typer.Option(
    "--given", help="Grid file with letters and blocks placed in advance ('.' free).")]
ThemeOpt = Annotated[list[str] | None, typer.Option(
    "--theme", help="An entry that must appear (repeat the option for more).")]
GenBackendOpt = Annotated[str, typer.Option(
    "--backend", "-b", help="auto (patterns where it applies, else native; cpsat with --theme), "
    "patterns (draw a legal pattern, then fill it), native, cpsat or sat.")]
PatternOpt = Annotated[bool, typer.Option("--pattern-only", help="Print/write the blocks only.")]


def parse_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
    if not match:
        raise XwsatError(f"--size must look like 7x7 (width x height), not {text!r}")
    return int(match.group(1)), int(match.group(2))


def build_spec(size: str, blocks: int | None, ratio: float | None, min_length: int,
               symmetry: str, allow_repeats: bool, given: Path | None,
               theme: list[str], max_words: int | None = None,
               max_cheaters: int | None = None) -> GenerateSpec:
    givens: dict[int, str] = {}
    grid: Grid | None = None
    if given is not None:
        grid = read_grid(given).map_letters(normalize_word)  # .puz .ipuz .json by extension
    if size:
        width, height = parse_size(size)
        if grid is not None and (grid.width, grid.height) != (width, height):
            raise XwsatError(f"{given}: the grid is {grid.width}x{grid.height}, "
                             f"not the --size {width}x{height}")
    elif grid is not None:
        width, height = grid.width, grid.height
    else:
        raise XwsatError("give --size WxH (or --given GRIDFILE)")
    if grid is not None:
        givens = {r * width + c: ch for r, row in enumerate(grid.rows)
                  for c, ch in enumerate(row) if ch != "."}
    if blocks is not None and ratio is not None:
        raise XwsatError("give --blocks or --block-ratio, not both")
    if not (1 <= width <= 25 and 1 <= height <= 25):
        raise XwsatError("--size must be WxH with sides from 1 to 25")
    cap = blocks if blocks is not None else blocks_from_ratio(
        DEFAULT_RATIO if ratio is None else ratio, width * height)
    entries = tuple(normalize_word(t) for t in theme)
    if any(not t.isalpha() for t in entries):
        raise XwsatError("--theme entries must be words (letters only)")
    if width == height:
        check_caps(width, max_words, max_cheaters)
    return GenerateSpec(width, height, cap, min_length, symmetry, allow_repeats, givens, entries,
                        max_words, max_cheaters)


def _as_the_list_writes(spec: GenerateSpec, word_list: WordList, fold_yo: bool) -> GenerateSpec:
    """The given letters and theme entries read as the word list writes its words, as ``fill``
    reads a grid (``commands.common.load_inputs``)."""
    fitted, folded = letters_as_written(word_list, fold_yo)
    givens = {cell: ch if ch == "#" else fitted(ch) for cell, ch in spec.givens.items()}
    theme = tuple("".join(fitted(ch) for ch in word) for word in spec.theme)
    say_folded(folded, "given letters and theme entries")
    return replace(spec, givens=givens, theme=theme)


def describe(result: GenerateResult, spec: GenerateSpec, pattern_only: bool) -> str:
    total = sum(result.times.values())
    head = SHOWN[result.status].upper()
    lines = [f"{head} by {result.outcome.method} in {total:.2f} s ({spec.width}x{spec.height}, "
             f"at most {spec.max_blocks} blocks)"]
    if result.rows is None:
        lines.append(result.outcome.message)
        lines += _patterns_line(result.outcome.stats.extra)
        return "\n".join(lines)
    lines[0] += f": {result.blocks} blocks, verified"
    rows = pattern(result.rows) if pattern_only else result.rows
    lines += ["", *(" ".join(row) for row in rows)]
    if not pattern_only:
        lines.append("")
        for direction, title in (("A", "Across"), ("D", "Down")):
            lines.append(f"{title}:")
            lines += [f"  {n:>3}. {w}" for n, d, _, _, w in entries(result.rows, spec) if
                      d == direction]
    return "\n".join(lines)


def _patterns_line(stats: dict) -> list[str]:
    """What the pattern stage tried before the line generator had the rest of the time: a run
    that ends with nothing says whether the list or the time was short."""
    tried = int(stats.get("patterns_tried", 0))
    if not tried:
        return []
    unfillable = int(stats.get("patterns_unfillable", 0))
    undecided = int(stats.get("patterns_undecided", 0))
    line = (f"patterns: {tried} drawn and searched, {unfillable} proven unfillable from this "
            f"list, {undecided} undecided in the time each had")
    if unfillable * 2 > tried:
        line += ("; most patterns of this size cannot be filled from this list: a smaller size "
                 "or a larger list is likelier to give a grid")
    return [line]


def pattern(rows: tuple[str, ...]) -> tuple[str, ...]:
    return tuple("".join("#" if ch == "#" else "." for ch in row) for row in rows)


def entries(rows: tuple[str, ...], spec: GenerateSpec) -> list[tuple[int, str, int, int, str]]:
    """(number, 'A'/'D', row, col, word) in clue order."""
    grid = Grid(rows)
    return [(s.number, s.direction, s.row, s.col, "".join(grid.cell(c) for c in s.cells))
            for s in extract_slots(grid, spec.min_length)]


def dictionary_clues(words: WordList, found: list[tuple[int, str, int, int, str]]
                     ) -> dict[str, str]:
    """Clues the dictionary itself carries (``WORD;SCORE;CLUE`` lists), by slot name."""
    if not words.clues:
        return {}
    index = {w: i for i, w in enumerate(words.words)}
    return {f"{n}{d}": words.clues[index[w]] for n, d, _, _, w in found
            if index.get(w) in words.clues}


def as_json(result: GenerateResult, spec: GenerateSpec, source: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "status": SHOWN[result.status], "backend": result.outcome.method,
        "verified": result.verified, "message": result.outcome.message,
        "stop": result.outcome.stop.value if result.outcome.stop is not None else None,
        "width": spec.width,
        "height": spec.height,
        "max_blocks": spec.max_blocks, "min_length": spec.min_length,
        "symmetry": spec.symmetry, "dictionary": source, "blocks": result.blocks,
        "grid": list(result.rows) if result.rows else None,
        "pattern": list(pattern(result.rows)) if result.rows else None,
        "words": None, "times": result.times, "stats": result.outcome.stats.extra,
        "automata": {str(k): v for k, v in result.automata.items()},
    }
    if result.rows:
        data["words"] = [{"number": n, "direction": "across" if d == "A" else "down",
                          "row": r, "col": c, "word": w}
                         for n, d, r, c, w in entries(result.rows, spec)]
    return data


def _progress(started: float):
    def show(message: str) -> None:
        sys.stderr.write(f"[xwsat] {time.monotonic() - started:6.1f} s  {message}\n")
        sys.stderr.flush()
    return show


@grouped
def generate_command(
    words: Words,
    size: SizeOpt = "",
    blocks: BlocksOpt = None,
    block_ratio: RatioOpt = None,
    min_length: MinLenOpt = 3,
    symmetry: SymOpt = "rotational",
    allow_repeats: RepeatsOpt = False,
    given: GivenOpt = None,
    theme: ThemeOpt = None,
    backend: GenBackendOpt = "auto",
    max_words: MaxWordsOpt = None,
    max_cheaters: MaxCheatersOpt = None,
    time_limit: TimeOpt = 60.0,
    memory_limit: MemoryOpt = 0,
    seed: SeedOpt = 0,
    out: OutOpt = None,
    json_out: JsonOpt = False,
    pattern_only: PatternOpt = False,
    quiet: QuietOpt = False,
    force: ForceOpt = False,
) -> None:
    """Generate a grid, blocks and words together: every row and column reads as dictionary words
    separated by blocks (exit 0), or say none exists (1) or time ran out (3)."""
    started = time.monotonic()
    check_time_limit(time_limit)
    check_memory_limit(memory_limit)
    check_seed(seed)
    spec = build_spec(size, blocks, block_ratio, min_length, symmetry, allow_repeats,
                      given, theme or [], max_words, max_cheaters)
    check_outputs([out], [*words.paths, given], force)
    check_format(out)
    if pattern_only and out is not None and out.suffix.lower() == ".puz":  # said before the search
        raise XwsatError(f"{out}: .puz needs every white cell filled; with --pattern-only write "
                         ".txt, .json or .ipuz")
    if backend in ("auto", "patterns"):  # each pattern is filled by the compiled search: built
        compile_first(["auto"])  # before the clock, or each pattern's search dies compiling
        started = time.monotonic()
    with limited(time_limit, memory_limit or None):
        word_list = load_word_list(words)
        spec = _as_the_list_writes(spec, word_list, words.fold_yo)
        for ch in set(spec.givens.values()) - {"#"}:
            word_list.alphabet.code(ch)
        refuse_wide_letters(out, word_list.alphabet.letters)
        progress = (lambda _: None) if quiet else _progress(started)
        result = generate(spec, word_list, backend, budget(time_limit).for_child(), seed, progress)
    not_written = None
    if out is not None and result.rows is not None:
        found = entries(result.rows, spec)
        clues = dictionary_clues(word_list, found)
        not_written = write_board(out, render_rows(out, result.rows, clues, spec.min_length,
                                                   f"Generated {spec.width}x{spec.height}",
                                                   pattern_only),
                                  clues.values(), len(found), notes=not pattern_only)
    wrote = out is not None and result.rows is not None and not not_written
    if json_out:
        print_record(as_json(result, spec, word_list.source)
                     | answer_fields(out, wrote, not_written))
    else:
        typer.echo(describe(result, spec, pattern_only))
        if wrote:
            typer.echo(f"wrote {out}")
    if not_written:
        raise unwritten(not_written)
    raise typer.Exit(result.status.exit_code)


def register(app: typer.Typer) -> None:
    app.command("generate")(generate_command)
