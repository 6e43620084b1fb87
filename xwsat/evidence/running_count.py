"""The count so far, sent from a counting child to its parent: a leaf, so both counting
searches (``count``'s and ``drup_search.count_leaves``) report alike."""

from __future__ import annotations

import time

from xwsat.guard import report_partial


class Partial:
    """The count so far, sent to the parent at most every ``EVERY_S`` (``report_partial``): what
    it prints if it stops the counting child (Ctrl-C, the time limit) before the end."""

    EVERY_S = 0.2

    def __init__(self) -> None:
        self.at = 0.0

    def send(self, n: int) -> None:
        now = time.monotonic()
        if now - self.at >= self.EVERY_S:
            self.at = now
            report_partial(n)
