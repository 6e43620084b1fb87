"""The exit codes of every command, in one place (a leaf: it imports nothing of xwsat).

0 filled (or, for a command with no verdict, done), 1 proven unfillable, 2 bad input or usage,
3 undecided within the limits (time limit, Ctrl-C, a termination signal), 4 an error (a
back-end failed, a check failed, a bug). A verdict's code comes from ``outcome.Status.exit_code``.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What a command's exit status says; ``OK`` is ``FILLED``'s name where nothing is filled."""

    FILLED = 0
    OK = 0
    UNFILLABLE = 1
    BAD_INPUT = 2
    UNDECIDED = 3
    ERROR = 4
