"""The command line: thin commands that parse options, call the library, and print.

Exit codes are ``exit_codes.ExitCode``. What commands raise is mapped to them in one place,
the command group below: ``XwsatError`` is one line and exit 2, a limit or an interruption one
line and exit 3.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import importlib
import os
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from xwsat import guard
from xwsat.errors import XwsatError
from xwsat.exit_codes import ExitCode

# No linear algebra here: numpy's OpenBLAS would start a thread per core at import that spins
# for a while, about 0.09 s of CPU in every process (a third of a small run's), taken from the
# racers on a 2-core machine. Set for the command line only (numpy is imported after this, and
# the racers and bench children inherit it); a user's own setting stands, and a program that
# imports xwsat as a library keeps its BLAS threads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EDQUOT, errno.EFBIG})
# What a user's path or folder can cause anywhere (a name too long, no permission, a missing or
# looping path, a read-only file system): bad input, one line and exit 2, never "internal".
PATH_ERRNOS = frozenset({errno.ENAMETOOLONG, errno.EACCES, errno.EPERM, errno.ENOENT,
                         errno.ENOTDIR, errno.EISDIR, errno.ELOOP, errno.EROFS, errno.EEXIST,
                         errno.EILSEQ})

# Each command family is a module with ``register(app)``; a command's module is imported only
# when that command runs (or help lists it), so ``xwsat fill`` does not pay for ``bench``.
# Listed in help order.
COMMANDS = {
    "fill": "fill", "prove": "prove", "info": "inspect", "candidates": "candidates",
    "plan": "inspect", "serve": "serve",
    "encode": "evidence", "count": "evidence", "check-proof": "evidence",
    "generate": "generate", "freeform": "freeform", "convert": "convert",
    "grids": "grids", "bench": "bench", "dict": "dictionary",
}


class Commands(TyperGroup):
    """Every command runs through here: commands load on demand, and domain errors and
    interruptions become exit codes."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, name: str) -> Any:
        if name not in COMMANDS:
            return None
        family = typer.Typer(add_completion=False, rich_markup_mode=None)
        importlib.import_module(f"xwsat.commands.{COMMANDS[name]}").register(family)
        family.callback()(lambda: None)  # a group, even for a family of one command
        group = typer.main.get_command(family)
        return group.get_command(ctx, name)  # type: ignore[attr-defined]

    def invoke(self, ctx: Any) -> Any:
        from xwsat.commands import common

        # read before the group hands them to the command (and clears them)
        given = [*_command_words(ctx), *ctx.args]
        wants_json = json_command(given)  # the command's name, when it asks for --json
        common.new_command()
        stopped = False  # a stop signal came during the command (it clears as the span ends)
        try:
            with guard.one_command():
                try:
                    if _early_stop["yes"]:  # Ctrl-C while the command line was loading
                        raise KeyboardInterrupt
                    return super().invoke(ctx)
                finally:
                    stopped = guard.user_stopped()
        except XwsatError as exc:
            common.clear_status_line()
            typer.echo(f"xwsat: error: {one_line(str(exc))}", err=True)
            raise typer.Exit(ExitCode.BAD_INPUT) from None
        except OSError as exc:
            if exc.errno in PATH_ERRNOS and exc.filename is not None:
                common.clear_status_line()
                typer.echo(f"xwsat: error: {one_line(str(exc.filename))}: {exc.strerror}",
                           err=True)
                raise typer.Exit(ExitCode.BAD_INPUT) from None
            if exc.errno not in OUTPUT_ERRNOS:
                raise
            # stdout itself failed (a full disk, a closed pipe): the answer is lost, so say so
            common.clear_status_line()
            with contextlib.suppress(OSError):  # nothing more may reach the broken stream
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            with contextlib.suppress(OSError):  # stderr may be that same stream (2>&1)
                typer.echo(f"xwsat: error: cannot write the output ({exc.strerror})", err=True)
            # a hang-up both stops the command and closes its terminal: it ends as stopped
            raise typer.Exit(ExitCode.UNDECIDED if stopped else ExitCode.BAD_INPUT) from None
        except guard.LimitReached as exc:
            common.clear_status_line()
            common.stopped_record(wants_json, exc.stop.value, exc.message)
            typer.echo(f"xwsat: undecided: {exc.message}", err=True)
            raise typer.Exit(ExitCode.UNDECIDED) from None
        except KeyboardInterrupt:
            common.clear_status_line()
            common.stopped_record(wants_json, "interrupted", "interrupted")
            typer.echo("xwsat: interrupted", err=True)
            raise typer.Exit(ExitCode.UNDECIDED) from None


def _command_words(ctx: Any) -> list[str]:
    """The command's name as typed, which Click keeps apart from its arguments: in
    ``protected_args`` up to Click 8.1, in ``_protected_args`` since (the public name is
    deprecated, and gone from some releases)."""
    for name in ("_protected_args", "protected_args"):
        try:
            words = getattr(ctx, name)
        except AttributeError:
            continue
        if words is not None:
            return list(words)
    return []


def one_line(text: str) -> str:
    """A message as one line: a library's text may hold line breaks (puzpy's does)."""
    return " ".join(text.split())


app = typer.Typer(cls=Commands, add_completion=False, no_args_is_help=True,
                  rich_markup_mode=None,
                  help="Fill crossword grids, or prove them unfillable, with real solvers.")


def print_version(wanted: bool) -> None:
    """``--version``: the installed package's version, read from its metadata."""
    if not wanted:
        return
    from importlib import metadata

    try:
        version = metadata.version("xwsat")
    except metadata.PackageNotFoundError:  # imported from a checkout that was never installed
        version = "unknown (not installed)"
    typer.echo(f"xwsat {version}")
    raise typer.Exit(ExitCode.OK)


@app.callback()
def root(version: bool = typer.Option(False, "--version", is_eager=True, callback=print_version,
                                      help="Print the version and exit.")) -> None:
    """The group itself takes no options but --version."""


def main(held: list[int] | None = None) -> None:
    """Entry point: the process's clock and signals, then ``run``, then a quick exit.
    ``held``: stop signals that came before (``xwsat.start``); the command then stops at once."""
    from xwsat.commands import common

    common.STARTED = guard.process_started()
    guard.stop_on_termination()
    _early_stop["yes"] = bool(held)
    finish(run(sys.argv[1:] or ["--help"]))


_early_stop = {"yes": False}


def json_command(argv: list[str]) -> str | None:
    """The command named on a command line that asks for ``--json``, else None."""
    if "--json" not in argv:
        return None
    return next((word for word in argv if not word.startswith("-")), None)


def run(argv: list[str]) -> int:
    """One command line, its exit code returned: the group maps what the commands raise; here
    only usage errors (exit 2) and bugs (one line, exit 4) remain."""
    try:
        _refuse_repeated_options(argv)
        code = app(args=argv, prog_name="xwsat", standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except XwsatError as exc:  # bad input seen before any command ran
        typer.echo(f"xwsat: error: {exc}", err=True)
        code = ExitCode.BAD_INPUT
    except (KeyboardInterrupt, typer.Abort):  # before a command started
        from xwsat.commands import common

        common.stopped_record(json_command(argv), "interrupted", "interrupted")
        typer.echo("xwsat: interrupted", err=True)
        code = ExitCode.UNDECIDED
    except Exception as exc:
        usage = getattr(exc, "exit_code", None) == ExitCode.BAD_INPUT
        if usage and type(exc).__name__ == "NoArgsIsHelpError":  # `xwsat bench` alone: its
            typer.echo(exc.format_message(), err=True)  # help as help, not squeezed in a line
            code = ExitCode.BAD_INPUT
        elif usage and hasattr(exc, "format_message"):
            # Typer's (vendored click's) usage errors: one line, like every other bad input.
            message = " ".join(exc.format_message().split())
            context = getattr(exc, "ctx", None)
            where = getattr(context, "command_path", "") or "xwsat"
            typer.echo(f"xwsat: error: {message} (see '{where} --help')", err=True)
            code = ExitCode.BAD_INPUT
        else:  # a bug: say so in one line, never with a verdict's exit code
            typer.echo(f"xwsat: internal error: {type(exc).__name__}: {one_line(str(exc))}",
                       err=True)
            code = ExitCode.ERROR
    return int(code) if isinstance(code, int) else ExitCode.OK


def _refuse_repeated_options(argv: list[str]) -> None:
    """An option that takes one value, given twice (``--out a.puz --out a.svg``): Click keeps
    the last in silence, so the first file is never written; said as bad input instead.
    (Typer carries its own Click, so its classes are told by their attributes.)"""
    command: Any = typer.main.get_command(app)
    words = list(argv)
    while hasattr(command, "get_command") and words and not words[0].startswith("-"):
        command = command.get_command(typer.Context(command), words.pop(0))  # loaded lazily
    if command is None:
        return  # an unknown command: Click says so
    single = {name: param.opts[0] for param in command.params
              if getattr(param, "param_type_name", "") == "option" and not param.multiple
              and not param.is_flag and not param.count
              for name in (*param.opts, *param.secondary_opts)}
    seen: dict[str, int] = {}
    for word in words:
        if word == "--":
            break
        name = word.split("=", 1)[0]
        if name in single:
            seen[single[name]] = seen.get(single[name], 0) + 1
    for name, count in seen.items():
        if count > 1:
            raise XwsatError(f"{name} is given {count} times; it takes one value (the last would "
                             "be used in silence)")


def finish(code: int) -> None:
    """Exit now: flush the output and run the exit handlers, but skip the interpreter's
    teardown (freeing a large dictionary and formula one object at a time can take longer than
    the whole time limit's slack)."""
    try:
        sys.stdout.flush()
    except OSError as exc:  # the answer did not reach its reader (a full disk, a closed pipe)
        with contextlib.suppress(Exception):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.stderr.write(f"xwsat: error: cannot write the output ({exc.strerror})\n")
        code = ExitCode.BAD_INPUT
    except Exception:
        pass
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()
    os._exit(code)
