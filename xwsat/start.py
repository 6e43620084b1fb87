"""The command line's entry point: stop signals are held from the process's first instant.

Importing the command line (typer, click, numpy) takes a quarter of a second, before xwsat's own
handlers are in place; a Ctrl-C then used to end in a traceback, and SIGTERM or SIGHUP in a
silent death. Held here (standard library only), such a signal ends the command as any later
stop does: exit 3, and a ``--json`` record saying so."""

from __future__ import annotations

import _signal as signal  # built in: no module to load before the handlers are in place

HELD: list[int] = []  # the stop signals that came before the command line was ready


def _hold(signum: int, frame: object) -> None:
    HELD.append(signum)


def main() -> None:
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(number, _hold)
    from xwsat import cli

    cli.main(HELD)
