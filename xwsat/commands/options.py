"""Every option the commands share, declared once, and the option groups commands take whole.

A command parameter typed with a group (``words: Words``) stands for all the group's options:
``@grouped`` spreads the group's fields into the command's signature for Typer and packs them
back into one validated value before the command runs. A bad value raises ``XwsatError``, which
``xwsat.cli`` turns into one line and exit 2.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from xwsat.errors import XwsatError

GridArg = Annotated[Path, typer.Argument(
    help="Grid file: text ('.' empty, '#' block, letters given), .ipuz, .puz or .json.")]
DictOpt = Annotated[str, typer.Option(
    "--dict", "-d", help="'en', 'ru', 'es' (embedded) or a word-list file.")]
DictsOpt = Annotated[list[str] | None, typer.Option(
    "--dict", "-d", help="'en', 'ru', 'es' (embedded) or a word-list file; FILE:0-50 reads its "
    "scores on that scale. Repeat to stack lists: the first listed wins a word's score and "
    "clue (see docs/word-lists.md). [default: en]")]
BanOpt = Annotated[list[str] | None, typer.Option(
    "--ban", help="Leave this word out for this puzzle (repeatable).")]
BackendOpt = Annotated[str, typer.Option(
    "--backend", "-b",
    help="auto, auto:POLICY, mac, mac:words|phase|renew|reseed, native, native:VARIANT, sat, "
    "sat:SOLVER, sat:cube, cpsat, cpsat:plan, ace, ace:wdegdom|frba, qxw (see docs/fill.md). "
    "Experimental, for research: mac:planned, native:static, native:balanced, auto:words, "
    "auto:share, auto:reseed, auto:letters, auto:python, auto:race, auto:staged, auto:regions.")]
TimeOpt = Annotated[float, typer.Option(
    "--time-limit", "-t", help="Seconds of wall clock for the whole command.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed for every random choice.")]
SearchSeedOpt = Annotated[int, typer.Option("--seed", help=(
    "Seed for every random choice. With one back-end (-b mac:words, -b mac) the same seed "
    "gives the same search; the default auto races two searches and keeps the first to "
    "finish, so its answer may differ between runs (not with --deterministic)."))]
DeterministicOpt = Annotated[bool, typer.Option("--deterministic", help=(
    "Keep auto's two searches in step: the one that decides after fewer decisions wins, not "
    "the first to finish, so the same seed gives the same answer under any load (the winner "
    "waits for the other to pass its count)."))]
RepeatsOpt = Annotated[bool, typer.Option("--allow-repeats", help="Let a word fill two slots.")]
ScoreOpt = Annotated[int, typer.Option("--min-score", help="Drop words scored below this (0-100).")]
LengthOpt = Annotated[int, typer.Option(
    "--min-length", help="Shortest run that is a slot [default: the puzzle file's (xwsat's .json "
    "and .ipuz keep it), else 2].", show_default=False)]
MemoryOpt = Annotated[int, typer.Option(
    "--memory-limit", help="MiB for all of the command's processes together (0 = none).")]
AlphabetOpt = Annotated[str | None, typer.Option(
    "--alphabet", help="Declare the alphabet's letters.")]
FoldOpt = Annotated[bool, typer.Option("--fold-yo", help="Fold Ё into Е (Russian).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print a machine-readable result.")]
OutOpt = Annotated[Path | None, typer.Option("--out", "-o", help="Write the result here.")]
ForceOpt = Annotated[bool, typer.Option(
    "--force", help="Replace output files that already exist (an input is never replaced).")]
SharedOpt = Annotated[int | None, typer.Option(
    "--max-shared-substring", help="No two entries may share a run of more than N letters "
    "(3 keeps CAKE and CHEESECAKE apart); enforced by the search. [default: no such rule]")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress on stderr.")]
LockOpt = Annotated[list[str] | None, typer.Option(
    "--lock", help="Fix an entry, e.g. --lock 1A=OCEAN (repeatable; words outside the "
    "dictionary are allowed).")]
MaxWordsOpt = Annotated[int | None, typer.Option(
    "--max-words", help="Word-count ceiling [default: what editors accept, 78 on a 15x15, "
    "140 on a 21x21, scaled between]")]
MaxCheatersOpt = Annotated[int | None, typer.Option(
    "--max-cheaters", help="At most this many cheaters (blocks that change no word count) "
    "[default: 6 on a 15x15, scaled by area, at least 4]")]

MAX_TIME_S = 7 * 24 * 3600


def check_time_limit(time_limit: float) -> None:
    if not (math.isfinite(time_limit) and 0 < time_limit <= MAX_TIME_S):
        raise XwsatError("--time-limit must be a positive number of seconds (at most a week)")


MAX_SEED = 2**31 - 1  # CP-SAT and ACE take 32-bit seeds


def check_memory_limit(memory_limit: int) -> None:
    if memory_limit < 0:
        raise XwsatError("--memory-limit must be zero (none) or a number of MiB")
    if 0 < memory_limit < 512:
        raise XwsatError("--memory-limit below 512 MiB cannot hold a solver and its "
                         "dictionary")


def check_seed(seed: int, option: str = "--seed") -> None:
    if not 0 <= seed <= MAX_SEED:
        raise XwsatError(f"{option} must be between 0 and {MAX_SEED}")


MAX_SEEDS = 10_000  # seeds one option may name


def parse_seeds(text: str, option: str = "--seed") -> list[int]:
    """``8``, ``11,12,13`` or ``11-15`` (or a mix): the seeds, each zero or positive, distinct."""
    seeds: list[int] = []
    try:
        for part in text.split(","):
            low, sep, high = part.strip().partition("-")
            ends = [int(low), int(high)] if sep else [int(low)]
            for one in ends:
                check_seed(one, option)
            if len(ends) == 2 and ends[1] - ends[0] >= MAX_SEEDS:
                raise XwsatError(f"{option} {part.strip()}: at most {MAX_SEEDS} seeds at once")
            seeds += list(range(ends[0], ends[-1] + 1))
    except ValueError:
        raise XwsatError(f"{option} {text!r}: write a seed, a list 11,12 or a range 11-15"
                         ) from None
    if not seeds or len(set(seeds)) != len(seeds):
        raise XwsatError(f"{option}: give distinct seeds (a range is low-high, low first)")
    return seeds


def check_min_length(min_length: int) -> None:
    if not 1 <= min_length <= 100:
        raise XwsatError("--min-length must be between 1 and 100")


MAX_SHARED = 50  # a run longer than a 50x50 grid's side cannot be shared


def check_max_shared(most: int | None) -> None:
    if most is not None and not 1 <= most <= MAX_SHARED:
        raise XwsatError(f"--max-shared-substring must be between 1 and {MAX_SHARED} letters")


def check_min_score(min_score: int) -> None:
    if not 0 <= min_score <= 100:
        raise XwsatError("--min-score must be between 0 and 100")


@dataclass(frozen=True)
class Words:
    """Which word lists, and how their words are read: ``dictionary`` holds every ``--dict``
    value in order (``en`` when none is given)."""

    dictionary: DictsOpt = None
    min_score: ScoreOpt = 0
    alphabet: AlphabetOpt = None
    fold_yo: FoldOpt = False
    ban: BanOpt = None

    def __post_init__(self) -> None:
        check_min_score(self.min_score)
        given = self.dictionary
        specs = (given,) if isinstance(given, str) else tuple(given or ("en",))
        object.__setattr__(self, "dictionary", specs)
        object.__setattr__(self, "ban", tuple(self.ban or ()))

    @property
    def paths(self) -> list[str]:
        """The lists' files (or embedded names), without their score scales: the inputs."""
        from xwsat.word_stack import parse_list_spec

        return [parse_list_spec(spec).source for spec in self.dictionary]

    @property
    def language(self) -> str | None:
        """The embedded list's language among 'en', 'ru', 'es' (None for a file: a page then
        reads it off its letters)."""
        first = self.paths[0]
        return first if first in ("en", "ru", "es") else None


@dataclass(frozen=True)
class Rules:
    """What counts as a slot, and whether a word may fill two."""

    allow_repeats: RepeatsOpt = False
    min_length: LengthOpt = 2

    def __post_init__(self) -> None:
        check_min_length(self.min_length)


@dataclass(frozen=True)
class Search:
    """Which solver, and what it may spend."""

    backend: BackendOpt = "auto"
    time_limit: TimeOpt = 60.0
    seed: SearchSeedOpt = 0
    memory_limit: MemoryOpt = 0
    deterministic: DeterministicOpt = False

    def __post_init__(self) -> None:
        from xwsat.backends.registry import validate_spec

        check_time_limit(self.time_limit)
        check_seed(self.seed)
        check_memory_limit(self.memory_limit)
        validate_spec(self.backend)

    @property
    def memory_mb(self) -> int | None:
        return self.memory_limit or None


GROUPS = (Words, Rules, Search)
FROM_FILE = {"min_length"}  # options a puzzle file may set; given on the command line, they win


def file_min_length(grid: object) -> int:
    """The shortest slot a puzzle file says it was made with (xwsat's .json and .ipuz say
    it), else 2; a file that cannot be read is left for the command to refuse in its words."""
    default = Rules().min_length
    if not isinstance(grid, Path) or grid.suffix.lower() not in (".json", ".ipuz"):
        return default
    from xwsat.formats import read_puzzle

    try:
        return read_puzzle(grid).min_length
    except (XwsatError, OSError):
        return default


def grouped(func: Callable[..., Any]) -> Callable[..., Any]:
    """Spread each option-group parameter of ``func`` into the group's options (for Typer),
    and pack them back into the group's value when the command runs."""
    signature = inspect.signature(func, eval_str=True)
    params: list[inspect.Parameter] = []
    groups: dict[str, type] = {}
    for param in signature.parameters.values():
        if param.annotation in GROUPS:
            group = param.annotation
            groups[param.name] = group
            hints = typing.get_type_hints(group, include_extras=True)
            params += [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY,
                                         default=None if f.name in FROM_FILE else f.default,
                                         annotation=hints[f.name])
                       for f in dataclasses.fields(group)]
        else:
            params.append(param.replace(kind=inspect.Parameter.KEYWORD_ONLY))

    @functools.wraps(func)
    def command(**kwargs: Any) -> Any:
        if kwargs.get("min_length", 0) is None:  # not given: the puzzle file's, else 2
            kwargs["min_length"] = file_min_length(kwargs.get("grid"))
        for name, group in groups.items():
            kwargs[name] = group(**{f.name: kwargs.pop(f.name)
                                    for f in dataclasses.fields(group)})
        return func(**kwargs)

    command.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params}
    return command
