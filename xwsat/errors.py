"""The one domain exception: bad input or impossible options, reported as one line, exit 2."""

from __future__ import annotations


class XwsatError(Exception):
    """A user-facing error: the message is the whole story, shown without a traceback."""
