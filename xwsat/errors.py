"""The one domain exception: bad input or impossible options, reported as one line, exit 2."""

from __future__ import annotations

import sys
from collections.abc import Callable

from xwsat.exit_codes import ExitCode


class XwsatError(Exception):
    """A user-facing error: the message is the whole story, shown without a traceback."""


def run_script(main: Callable[[], None], name: str) -> None:
    """Run a results script's ``main``: bad input (an ``XwsatError``) is one line on stderr and
    exit 2, as for the commands, not a traceback."""
    try:
        main()
    except XwsatError as exc:
        print(f"{name}: error: {exc}", file=sys.stderr)
        sys.exit(ExitCode.BAD_INPUT)
