"""The domain exception: bad input or impossible options, reported as one line, exit 2. Its
subclasses carry what a front end with limits of its own (the workbench) needs to say it its way."""

from __future__ import annotations


class XwsatError(Exception):
    """A user-facing error: the message is the whole story, shown without a traceback."""


class GridTooLarge(XwsatError):
    """A grid over the size limit, refused before it is built; it carries its size, so a front
    end with a smaller limit of its own (the workbench) can say its own."""

    def __init__(self, message: str, width: int, height: int) -> None:
        super().__init__(message)
        self.width, self.height = width, height


class ScoreOutOfRange(XwsatError):
    """A list's score outside the scale it is read on; the command line's message names its
    ``--dict FILE:LOW-HIGH`` remedy, and ``bare`` is the fact alone, for the workbench."""

    def __init__(self, message: str, bare: str) -> None:
        super().__init__(message)
        self.bare = bare
