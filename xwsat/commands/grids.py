"""``xwsat grids generate`` and ``xwsat grids suites``: make fresh patterns, list the suites."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from xwsat.bench.suites import (
    MANIFEST,
    list_suites,
    load_suite,
    manifest_text,
    resolve_dictionary,
)
from xwsat.commands.common import (
    budget,
    check_outputs,
    compile_first,
    limited,
    load_inputs,
    write_atomic,
)
from xwsat.commands.options import (
    ForceOpt,
    GridArg,
    MaxCheatersOpt,
    MaxWordsOpt,
    QuietOpt,
    Search,
    Words,
    grouped,
    parse_seeds,
)
from xwsat.errors import XwsatError
from xwsat.exit_codes import ExitCode
from xwsat.grid import EMPTY, Grid, extract_slots
from xwsat.grid_patterns import (
    block_count,
    block_range,
    cheater_cap,
    check_caps,
    generate_patterns,
    word_ceiling,
)
from xwsat.outcome import Stop
from xwsat.pattern_suggest import TRY_LIMIT_S, PatternRules, suggest_patterns

grids_app = typer.Typer(no_args_is_help=True,
                        help="Benchmark grids: generate American-style patterns, list suites.")


def parse_blocks(text: str) -> tuple[int, int]:
    """``30-36`` or ``33`` as an inclusive range."""
    low, sep, high = text.partition("-")
    try:
        lo = int(low)
        hi = int(high) if sep else lo
    except ValueError:
        raise XwsatError(f"--blocks {text!r}: write a count or a range like 30-36") from None
    return lo, hi


@grids_app.command()
def generate(
    out_dir: Annotated[Path, typer.Option("--out-dir", "-o", help="Folder for the grid files.")],
    size: Annotated[int, typer.Option("--size", help="Width and height (at least 5).")] = 15,
    count: Annotated[int, typer.Option("--count", help="How many patterns per seed.")] = 20,
    seed: Annotated[str, typer.Option(
        "--seed", help="Same seed, same patterns; several: 11,12,13 or 11-15.")] = "0",
    blocks: Annotated[str, typer.Option(
        "--blocks", help="Block count or range, e.g. 30-36 (default 13-16% of cells).")] = "",
    ratio: Annotated[float | None, typer.Option(
        "--ratio", help="Target share of blocks, e.g. 0.16 (+-1 block).")] = None,
    long_runs: Annotated[int, typer.Option(
        "--long-runs", help="At least this many full or nearly full-width runs.")] = 0,
    max_run: Annotated[int, typer.Option(
        "--max-run", help="No run longer than this (0: any length).")] = 0,
    max_words: MaxWordsOpt = None,
    max_cheaters: MaxCheatersOpt = None,
    legacy: Annotated[bool, typer.Option(
        "--legacy", help="No word ceiling or cheater cap: the rules the suites in grids/ were "
        "made with (their patterns come out again).")] = False,
    dictionary: Annotated[list[str] | None, typer.Option(
        "--dict", help="Dictionary to pair in the manifest (repeatable).")] = None,
    force: ForceOpt = False,
) -> None:
    """Seeded 180-degree symmetric patterns, every slot >= 3, connected; files plus suite.json."""
    seeds = parse_seeds(seed)
    if blocks and ratio is not None:
        raise XwsatError("give --blocks or --ratio, not both")
    for name in dictionary or []:  # checked now, not when the suite is first run
        if not Path(name).is_file():
            resolve_dictionary(name, Path.cwd())
    lo, hi = parse_blocks(blocks) if blocks else (None, None)
    lo, hi = block_range(size, lo, hi, ratio)
    if legacy and (max_words is not None or max_cheaters is not None):
        raise XwsatError("--legacy has no word ceiling or cheater cap; give it alone")
    if not legacy:
        max_words = word_ceiling(size) if max_words is None else max_words
        max_cheaters = cheater_cap(size) if max_cheaters is None else max_cheaters
        check_caps(size, max_words, max_cheaters)
    names = [f"g{size}-s{s}-{index:03d}.txt" for s in seeds for index in range(max(count, 0))]
    if out_dir.exists() and not out_dir.is_dir():
        raise XwsatError(f"{out_dir}: exists and is not a folder")
    if out_dir.is_dir():
        check_outputs([out_dir / n for n in [*names, MANIFEST]], list(dictionary or []), force)
    grids = [g for s in seeds
             for g in generate_patterns(size, count, s, lo, hi, None, long_runs, max_run,
                                        max_words, max_cheaters)]
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise XwsatError(f"{out_dir}: cannot write ({exc.strerror})") from None
    # A dictionary given as a file is recorded relative to the suite folder, as loaders read it.
    pairs = [os.path.relpath(d, out_dir) if Path(d).is_file() else d
             for d in dictionary or ["wamerican"]]
    entries = []
    for name, grid in zip(names, grids):
        write_atomic(out_dir / name, grid.to_text())
        entries.append({"file": name, "blocks": block_count(grid)})
    command = (f"xwsat grids generate --size {size} --count {count} --seed {seed} "
               f"--blocks {lo}-{hi}" + (f" --long-runs {long_runs}" if long_runs else "")
               + (f" --max-run {max_run}" if max_run else "")
               + (" --legacy" if legacy else
                  f" --max-words {max_words} --max-cheaters {max_cheaters}")
               + "".join(f" --dict {d}" for d in dictionary or [])
               + f" --out-dir {out_dir}")
    manifest = {
        "suite": out_dir.name,
        "description": f"{len(grids)} generated {size}x{size} American-style patterns "
                       f"({lo}-{hi} blocks, 180-degree symmetric, slots >= 3"
                       + (f" and <= {max_run}" if max_run else "") + ", connected"
                       + ("" if legacy else f", at most {max_words} words and "
                          f"{max_cheaters} cheaters") + ")",
        "source": "xwsat.grid_patterns (this project)",
        "licence": "generated data, no rights reserved (CC0)",
        "dictionaries": pairs,
        "generator": {"size": size, "count": count, "seeds": seeds, "min_blocks": lo,
                      "max_blocks": hi, "long_runs": long_runs, "max_run": max_run,
                      "max_words": max_words, "max_cheaters": max_cheaters,
                      "command": command},
        "grids": entries,
    }
    write_atomic(out_dir / MANIFEST, manifest_text(manifest))
    noun = "pattern" if len(grids) == 1 else "patterns"
    typer.echo(f"wrote {len(grids)} {noun} ({min(e['blocks'] for e in entries)}-"
               f"{max(e['blocks'] for e in entries)} blocks) and {MANIFEST} to {out_dir}")


@grids_app.command()
@grouped
def suggest(
    grid: GridArg,
    words: Words,
    search: Search,
    out_dir: Annotated[Path | None, typer.Option(
        "--out-dir", "-o", help="Write pattern-N.txt (blocks and theme letters) and fill-N.txt "
        "here.")] = None,
    count: Annotated[int, typer.Option("--count", help="How many fillable patterns.")] = 3,
    max_words: MaxWordsOpt = None,
    max_cheaters: MaxCheatersOpt = None,
    try_limit: Annotated[float, typer.Option(
        "--try-limit", help="Seconds of fill search per pattern.")] = TRY_LIMIT_S,
    quiet: QuietOpt = False,
    force: ForceOpt = False,
) -> None:
    """Block patterns around the theme entries in GRID (runs of 3+ given letters) by constructors'
    rules, each shown with a verified fill at --min-score; exit 3 when none filled in time."""
    names = [f"{kind}-{i}.txt" for i in range(1, max(count, 0) + 1) for kind in ("pattern", "fill")]
    if out_dir is not None:
        if out_dir.exists() and not out_dir.is_dir():
            raise XwsatError(f"{out_dir}: exists and is not a folder")
        if out_dir.is_dir():
            check_outputs([out_dir / n for n in names], [grid, *words.paths], force)
    compile_first([search.backend])  # before the clock: each pattern's search is short
    with limited(search.time_limit, search.memory_limit or None):
        given, word_list = load_inputs(grid, words)
        say = (lambda _: None) if quiet else (lambda m: typer.echo(f"[xwsat] {m}", err=True))
        report = suggest_patterns(
            given, word_list, count, search.seed, budget(search.time_limit).for_child() or 0.0,
            PatternRules(max_words, max_cheaters), try_limit, search.backend, say,
            in_step=search.deterministic)
    typer.echo(f"{len(report.suggestions)} fillable of {report.tried} patterns tried "
               f"({report.unfillable} proved unfillable, {report.undecided} undecided) around "
               f"{', '.join(report.entries) or 'no theme entry'}"
               + ("; stopped by the memory limit" if report.stopped is Stop.MEMORY
                  else "; stopped by Ctrl-C" if report.interrupted else ""))
    if out_dir is not None and report.suggestions:
        out_dir.mkdir(parents=True, exist_ok=True)
    known = set(word_list.words)
    for rank, found in enumerate(report.suggestions, 1):
        typer.echo(f"\n#{rank}: {found.stats.as_lines()[0]}; filled in {found.seconds} s, "
                   "verified")
        typer.echo(found.fill.to_text().rstrip("\n"))
        if out_dir is not None:
            write_atomic(out_dir / f"pattern-{rank}.txt", found.pattern.to_text())
            write_atomic(out_dir / f"fill-{rank}.txt", found.fill.to_text())
        locks = _theme_locks(found.pattern, known)
        if locks:  # the search held these as locked entries: so must the user's fill
            name = out_dir / f"pattern-{rank}.txt" if out_dir is not None else "PATTERN"
            typer.echo(f"(its theme entries the list lacks are locked: xwsat fill {name} "
                       + " ".join(f"--lock {lock}" for lock in locks) + ")")
    raise typer.Exit(ExitCode.OK if report.suggestions and not report.interrupted
                     else ExitCode.UNDECIDED)  # (stopped: what was found is shown, exit 3)


def _theme_locks(pattern: Grid, known: set[str]) -> list[str]:
    """``SLOT=WORD`` for each whole entry of the pattern's given letters that the list lacks:
    the fill search took them as --lock takes them, and a plain fill of the pattern would not."""
    locks = []
    for slot in extract_slots(pattern, 2):
        word = "".join(pattern.cell(c) for c in slot.cells)
        if EMPTY not in word and word not in known:
            locks.append(f"{slot.name}={word}")
    return locks


@grids_app.command()
def suites() -> None:
    """The benchmark suites in grids/: instances, dictionaries, known statuses."""
    names = list_suites()
    if not names:
        raise XwsatError("no suites found (run from the repository, with grids/)")
    for name in names:
        try:
            suite = load_suite(name)
        except XwsatError as exc:  # one broken manifest does not hide the others
            typer.echo(f"{name:10} unreadable: {exc}")
            continue
        dicts = sorted({i.dictionary for i in suite.instances})
        known = sum(i.known is not None for i in suite.instances)
        typer.echo(f"{name:10} {len(suite.instances):4d} instances, {known:3d} with a known "
                   f"status; dictionaries: {', '.join(dicts)}")


def register(app: typer.Typer) -> None:
    app.add_typer(grids_app, name="grids")
