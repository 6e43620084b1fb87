"""One page's background searches: one child process at a time, the newest request wins.

A search runs in a ``guard.Child`` (killed at its limit, on a newer request, when the page
closes, and with the server however it ends: children die with their parent). What the child
reports as it goes (``guard.report_partial``) and its answer are sent to the page tagged with
the document revision they were computed for, so the page never shows a stale answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from xwsat import guard

POLL_S = 0.03
MEMORY_EVERY_S = 0.25
Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass
class Job:
    """A search to run: ``fn(*args)`` in a child, ``limit`` seconds at most; ``tag`` goes with
    every message about it (the slot of a candidate list, say)."""

    kind: str
    rev: int
    fn: Callable[..., Any]
    args: tuple
    limit: float
    tag: dict[str, Any] = field(default_factory=dict)


class Jobs:
    """The queue of one page: ``start`` replaces everything, ``then`` waits its turn."""

    def __init__(self, send: Send, memory_mb: int | None = None) -> None:
        self.send = send
        self.memory_mb = memory_mb
        self.queue: list[Job] = []
        self.child: guard.Child | None = None
        self.running: Job | None = None
        self.task: asyncio.Task | None = None
        self.started = 0  # children started, for the figures

    def start(self, *jobs: Job, delay: float = 0.0) -> None:
        """Stop what runs and what waits; run ``jobs`` in turn, the first after ``delay``
        seconds (typing: a key pressed meanwhile starts over, and no process is forked for
        the grid it replaces)."""
        self.cancel()
        self.queue = list(jobs)
        self._wake(delay)

    def then(self, job: Job, replacing: str | None = None) -> None:
        """Run ``job`` after the current one (a waiting or running job of kind ``replacing``
        is dropped first)."""
        if replacing is not None:
            self.queue = [j for j in self.queue if j.kind != replacing]
            if self.running is not None and self.running.kind == replacing:
                self._kill()
        self.queue.append(job)
        self._wake()

    def busy(self, kind: str) -> bool:
        return (self.running is not None and self.running.kind == kind) or any(
            j.kind == kind for j in self.queue)

    def cancel(self) -> None:
        self.queue = []
        self._kill()

    def _kill(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None
        if self.child is not None:
            child, self.child = self.child, None
            child.kill()
            asyncio.get_running_loop().run_in_executor(None, _reap, child)
        self.running = None

    def _wake(self, delay: float = 0.0) -> None:
        if self.task is None and self.queue:
            self.task = asyncio.get_running_loop().create_task(self._run(delay))

    async def _run(self, delay: float = 0.0) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            while self.queue:
                job = self.queue.pop(0)
                await self._one(job)
        finally:
            if self.task is asyncio.current_task():
                self.task = None

    async def _one(self, job: Job) -> None:
        self.running = job
        child = guard.Child(job.fn, job.args, job.kind, nested=True)
        self.child = child
        self.started += 1
        deadline = time.monotonic() + job.limit + guard.GRACE_S
        shown: Any = None
        checked = 0.0
        while True:
            finished = child.poll()
            if child.partial is not None and child.partial is not shown and finished is None:
                shown = child.partial
                await self._say(job, shown, final=False)
            if finished is not None:
                answer = finished.value if finished.ok else {
                    **(child.partial or {}), "stopped": finished.message or "stopped"}
                break
            now = time.monotonic()
            if now > deadline:
                child.kill()
                answer = {**(child.partial or {}), "stopped": "the time limit"}
                break
            if self.memory_mb and now - checked > MEMORY_EVERY_S:
                checked = now
                if guard.tree_rss(child.process.pid) > self.memory_mb << 20:
                    child.kill()
                    answer = {**(child.partial or {}),
                              "stopped": f"the memory limit ({self.memory_mb} MiB)"}
                    break
            await asyncio.sleep(POLL_S)
        self.child = None
        self.running = None
        asyncio.get_running_loop().run_in_executor(None, _reap, child)
        await self._say(job, answer, final=True)

    async def _say(self, job: Job, result: Any, final: bool) -> None:
        with contextlib.suppress(Exception):  # a page gone meanwhile hears nothing
            await self.send({"type": "job", "kind": job.kind, "rev": job.rev, "final": final,
                             "result": result, **job.tag})


def _reap(child: guard.Child) -> None:
    """Wait for a killed child so it leaves no zombie behind."""
    child.kill()
    with contextlib.suppress(Exception):
        child.process.join(timeout=5)
        child.receiver.close()
