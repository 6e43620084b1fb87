"""Run one function in a forked child under a wall-clock limit (the evidence steps' runner).

``xwsat.runner`` races back-ends by spec; the evidence steps (a proof-logging solve, a proof
check, a core minimisation) are plain functions, so they get this small sibling: the same
guarantees (a solver that ignores signals is killed at the limit, Ctrl-C stops it, the parent never
hangs), for any picklable result.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

GRACE_S = 1.0
Tick = Callable[[float, str], None]


@dataclass(frozen=True)
class Isolated:
    """``status``: 'ok' (``value`` holds the result), 'timeout', 'interrupted' or 'error'."""

    status: str
    value: Any = None
    message: str = ""
    seconds: float = 0.0


def _child(fn: Callable[..., Any], args: tuple, conn: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        conn.send(("ok", fn(*args)))
    except MemoryError:
        conn.send(("error", "out of memory"))
    except Exception as exc:  # reported to the parent as a status, never a hang
        conn.send(("error", traceback.format_exception_only(type(exc), exc)[-1].strip()))
    conn.close()


def run_isolated(fn: Callable[..., Any], args: tuple, time_limit: float | None,
                 label: str = "", on_tick: Tick | None = None) -> Isolated:
    """Call ``fn(*args)`` in a forked child; kill it at ``time_limit`` seconds or on Ctrl-C."""
    ctx = mp.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_child, args=(fn, args, sender), daemon=True)
    start = time.monotonic()
    process.start()
    sender.close()
    deadline = start + time_limit + GRACE_S if time_limit else None
    try:
        while True:
            if receiver.poll(0.1):
                try:
                    status, value = receiver.recv()
                except EOFError:
                    return _died(process, start)
                elapsed = time.monotonic() - start
                if status == "ok":
                    return Isolated("ok", value, seconds=elapsed)
                return Isolated("error", message=str(value), seconds=elapsed)
            if not process.is_alive() and not receiver.poll():
                return _died(process, start)
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return Isolated("timeout", message=f"time limit of {time_limit:g} s reached",
                                seconds=now - start)
            if on_tick:
                on_tick(now - start, label)
    except KeyboardInterrupt:
        return Isolated("interrupted", message="interrupted", seconds=time.monotonic() - start)
    finally:
        if process.is_alive():
            process.kill()
        process.join(timeout=5)
        receiver.close()


def _died(process: Any, start: float) -> Isolated:
    process.join(timeout=5)
    code = process.exitcode
    reason = "killed (likely out of memory)" if code == -signal.SIGKILL else f"exit {code}"
    return Isolated("error", message=f"child process died: {reason}",
                    seconds=time.monotonic() - start)
