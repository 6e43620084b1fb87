"""``xwsat dict info`` and ``xwsat dict export``: what a dictionary holds, and its plain text."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from xwsat.commands.common import (
    check_outputs,
    note_left_out,
    note_mixed_scripts,
    print_record,
    write_atomic,
)
from xwsat.commands.options import (
    AlphabetOpt,
    FoldOpt,
    ForceOpt,
    JsonOpt,
    ScoreOpt,
    check_min_score,
)
from xwsat.word_stack import parse_list_spec, stacked_words
from xwsat.word_stats import dict_info, export_lines, format_info

dict_app = typer.Typer(no_args_is_help=True,
                       help="Dictionaries: sizes, alphabet and scores; export as WORD;SCORE;CLUE.")

SpecArg = Annotated[str, typer.Argument(help="'en', 'ru', 'es' (embedded) or a word-list file, "
                                        "FILE:HIGH or FILE:LOW-HIGH for its score scale.")]


@dict_app.command()
def info(
    spec: SpecArg,
    min_score: ScoreOpt = 0,
    alphabet: AlphabetOpt = None,
    fold_yo: FoldOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Sizes by length, alphabet, score spread and clue count of a dictionary."""
    check_min_score(min_score)
    words, _ = stacked_words([spec], min_score, alphabet, fold_yo)
    note_left_out(words, alphabet is not None)
    note_mixed_scripts(words)  # as fill says it: a list is vetted here first
    summary = dict_info(words)
    if json_out:
        print_record(summary.as_dict())
    else:
        typer.echo(format_info(summary))


@dict_app.command()
def export(
    spec: SpecArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="File to write ('-' for stdout).")],
    min_score: ScoreOpt = 0,
    alphabet: AlphabetOpt = None,
    fold_yo: FoldOpt = False,
    force: ForceOpt = False,
) -> None:
    """Write a dictionary as plain WORD;SCORE;CLUE lines (UTF-8), sorted by word."""
    check_min_score(min_score)
    if str(out) != "-":
        check_outputs([out], [parse_list_spec(spec).source], force)
    words, _ = stacked_words([spec], min_score, alphabet, fold_yo)
    note_left_out(words, alphabet is not None)
    note_mixed_scripts(words)  # as fill says it: a list is vetted here first
    text = "".join(line + "\n" for line in export_lines(words))
    if str(out) == "-":
        typer.echo(text, nl=False)
        return
    write_atomic(out, text)
    typer.echo(f"wrote {len(words):,} words ({len(words.clues):,} with clues) to {out}")


def register(app: typer.Typer) -> None:
    app.add_typer(dict_app, name="dict")
