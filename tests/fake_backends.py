"""A back-end module for tests: ``fake:ACTION`` sleeps, raises, exits, hogs memory or gives up.

Registered by the ``fake_backend`` fixture (conftest.py); forked children inherit it.
"""

from __future__ import annotations

import os
import time
from typing import ClassVar

from xwsat.backends.base import Traits
from xwsat.outcome import Limits, Outcome, Progress, Status
from xwsat.problem import FillProblem

LISTED: tuple[str, ...] = ()


class Fake:
    """A back-end whose solve() does whatever ``action`` says."""

    name: ClassVar[str] = "fake"
    traits = Traits("fake")

    def __init__(self, action: str) -> None:
        self.action = action

    @staticmethod
    def available() -> bool:
        return True

    def solve(self, problem: FillProblem, limits: Limits,
              progress: Progress | None = None) -> Outcome:
        if self.action == "sleep":
            time.sleep(120)
        if self.action == "raise":
            raise RuntimeError("kaput: boom in the back-end")
        if self.action == "exit":
            os._exit(7)
        if self.action == "memory":
            hog = bytearray(4 << 30)  # 4 GiB, far over any limit a test sets
            return Outcome(Status.FILLED, "fake", message=str(len(hog)))
        return Outcome(Status.UNKNOWN, "fake", message="gave up")


def from_spec(sub: str | None) -> Fake:
    return Fake(sub or "giveup")
