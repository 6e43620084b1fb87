"""The command line: thin commands that parse options, call the library, and print.

Exit codes: 0 filled (or fillable), 1 proven unfillable, 2 bad input or usage, 3 undecided within
the limits, 4 internal error (a back-end failed or a fill failed verification).
"""

from __future__ import annotations

import sys

import typer

from xwsat.commands import bench, fill, grids, inspect, prove
from xwsat.commands import convert as convert_commands
from xwsat.commands import dictionary as dictionary_commands
from xwsat.commands import evidence as evidence_commands
from xwsat.commands import freeform as freeform_commands
from xwsat.commands import generate as generate_commands

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Fill crossword grids, or prove them unfillable, with real solvers.")

# Each command module registers its commands; one line per module, in help order.
fill.register(app)
prove.register(app)
inspect.register(app)
grids.register(app)
bench.register(app)
evidence_commands.register(app)
generate_commands.register(app)
freeform_commands.register(app)
dictionary_commands.register(app)
convert_commands.register(app)


def main() -> None:
    """Entry point: usage errors are one line and exit 2; a bug is one line and exit 4."""
    if len(sys.argv) == 1:
        sys.argv.append("--help")
    try:
        code = app(standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("xwsat: interrupted", err=True)
        code = 130
    except Exception as exc:
        if getattr(exc, "exit_code", None) == 2 and hasattr(exc, "format_message"):
            # Typer's (vendored click's) usage errors: one line, like every other bad input.
            message = " ".join(exc.format_message().split())
            typer.echo(f"xwsat: error: {message} (see 'xwsat --help')", err=True)
            code = 2
        else:  # a bug: say so in one line, never with a verdict's exit code
            typer.echo(f"xwsat: internal error: {type(exc).__name__}: {exc}", err=True)
            code = 4
    sys.exit(code if isinstance(code, int) else 0)
