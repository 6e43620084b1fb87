"""Child processes and limits: the one place where xwsat forks, watches and kills.

Solvers (pysat's CaDiCaL among them) may ignore interrupts, so every solve, proof step, count
and bench run happens in a child process that is killed at its deadline; the parent never hangs.
Three guarantees hold for every child:

* it dies with its parent, however the parent ends (Ctrl-C, SIGTERM, SIGHUP, even SIGKILL:
  Linux's parent-death signal), so a killed xwsat leaves nothing running;
* it is killed at its deadline (a small grace past the time limit) and on Ctrl-C;
* a crash, an exception or an out-of-memory kill reaches the parent as a ``Stop``, never as a
  hang or a traceback.

``watch`` is the command-wide limit: a timer in the main process that stops the whole command
(its own work included) at the time limit or when the memory of all its processes passes the
limit, by raising ``LimitReached`` where the main thread is.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from xwsat.errors import XwsatError
from xwsat.outcome import Stop

POLL_S = 0.05
OTHER_FAILED = "stopped: another part failed"  # run_all's word for the children it stopped
REPEAT_S = 1.0  # a stop signal this soon after the last one is the same stop (coreutils'
# timeout signals the process, then its group; a double Ctrl-C), so it is ignored
WATCH_S = 0.25  # how often the command-wide watch reads the memory (the clock: exactly)
_PAGE = os.sysconf("SC_PAGE_SIZE")
_PR_SET_PDEATHSIG = 1
FIRST_POLLS = 10  # a command's memory is read at each of its first polls (a run that has
# only just started shows almost none), then every ``memory_every``
PROGRESS = "progress"  # tag of a progress message from a child (the result is tagged "done")
PARTIAL = "partial"  # tag of a child's best-so-far value, kept if it is stopped before its end
Tick = Callable[[float, str], None]  # (seconds, what is under way: "solving with mac")

# --- the time budget: every deadline margin, and the one "time left" ------------------------
# A margin is how much earlier than its limit a piece of work stops, or how much later it is
# stopped, so that the command as a whole ends by its deadline with the best it has.
GRACE_S = 0.5  # a child is killed this long past its limit (it reports its own timeout first)
WATCH_SLACK_S = 0.3  # the command-wide watch stops main-process work this long past the limit
# What the search stage leaves of the command's time for ending its solver processes, checking
# the fill and printing it. The search runs its back-ends in child processes that it ends itself
# by the limit it is given, so it needs no kill grace of its own; taking one here as well made
# `fill -t 5` stop at 4.1 s.
WRAP_UP_S = 0.2
REPORT_S = 0.2  # a racer stops this early to send its own outcome before the race's deadline
CHILD_REPORT_S = 0.3  # a counting or minimising child stops this early, to return what it has
CPSAT_OVERRUN_S = 0.3  # CP-SAT overran its limit by 0.2-0.4 s on 300-word free-form boards
PNG_RESERVE_S = 5.0  # left by `info --probe` for a PNG: matplotlib's import and drawing take ~3 s
SVG_RESERVE_S = 1.0  # likewise for an SVG
BENCH_SLACK_S = 30.0  # a bench run's outer wall clock: its limit * 1.5 + this (load, build,
# verify, grace): a run still going then is killed from outside


@dataclass(frozen=True)
class Budget:
    """The time a piece of work may take: ``seconds`` (None: no limit) from ``started`` (on the
    ``time.monotonic`` clock). Without a start the clock is not running (a command called
    in-process, as the tests do): each stage then gets the whole limit, no margin taken."""

    seconds: float | None
    started: float | None = None

    @classmethod
    def from_now(cls, seconds: float | None) -> Budget:
        return cls(seconds, time.monotonic())

    @property
    def deadline(self) -> float | None:
        if self.seconds is None or self.started is None:
            return None
        return self.started + self.seconds

    def left(self) -> float | None:
        """Seconds not yet spent (never negative)."""
        return self.with_margin(0.0, floor=0.0)

    def with_margin(self, margin: float, floor: float = 0.1) -> float | None:
        """Seconds not yet spent less ``margin``, at least ``floor`` (a token: never negative,
        so work past its deadline still returns at once with what it has)."""
        if self.seconds is None or self.started is None:
            return self.seconds
        return max(floor, self.seconds - (time.monotonic() - self.started) - margin)

    def for_child(self) -> float | None:
        """The limit to give work run in a child: the time left less ``GRACE_S``, so that the
        child, killed at its grace past that limit, is gone by the deadline."""
        return self.with_margin(GRACE_S)

    def stop_at(self, margin: float) -> float | None:
        """When work that must leave ``margin`` before the deadline stops (never before its
        start), on the ``time.monotonic`` clock."""
        if self.seconds is None or self.started is None:
            return None
        return self.started + max(self.seconds - margin, 0.0)

    def kill_at(self) -> float | None:
        """When a child given this budget is killed: its deadline plus the grace."""
        deadline = self.deadline
        return deadline + GRACE_S if deadline is not None else None


class LimitReached(KeyboardInterrupt):
    """The command's time or memory ran out: unwinds like Ctrl-C, so every guard cleans up and
    the command reports the best it has (exit 3)."""

    def __init__(self, stop: Stop, message: str) -> None:
        super().__init__(message)
        self.stop = stop
        self.message = message


_interrupted: dict[str, Any] = {"command": False, "yes": False,  # inside a command; Ctrl-C
                                "signalled": -REPEAT_S}  # caught there; when it came


def interruption(exc: KeyboardInterrupt) -> tuple[Stop, str]:
    """The stop and message of an interruption: a limit, or Ctrl-C / a termination signal.
    A stage that catches Ctrl-C reports the best it has, but within a command no later stage
    starts: the next child would raise ``KeyboardInterrupt`` instead (see ``Child``)."""
    if isinstance(exc, LimitReached):
        return exc.stop, exc.message
    if _interrupted["command"]:
        _interrupted["yes"] = True
    return Stop.INTERRUPTED, "interrupted"


def user_stopped() -> bool:
    """Whether Ctrl-C (or a termination signal) stopped a stage of the running command: a
    command that goes on to print what it has then ends as stopped (exit 3), not as done."""
    return bool(_interrupted["yes"])


@contextlib.contextmanager
def one_command() -> Iterator[None]:
    """The span of one command: a Ctrl-C caught by one of its stages stops the stages after
    it (outside a command, a library caller decides what comes next), and a second stop signal
    within ``REPEAT_S`` of the first is the same stop, not a new one."""
    _interrupted.update(command=True, yes=False, signalled=-REPEAT_S)
    try:
        yield
    finally:
        _interrupted.update(command=False, yes=False)


# --- processes --------------------------------------------------------------------------------

def die_with_parent() -> None:
    """In a child: ask Linux to SIGKILL it when its parent dies (no-op elsewhere)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (0 where /proc cannot be read)."""
    tree = _children() if os.path.isdir("/proc") else {}
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        stack.extend(tree.get(current, []))
        try:
            with open(f"/proc/{current}/statm", encoding="ascii") as statm:
                total += int(statm.read().split()[1]) * _PAGE
        except (OSError, ValueError, IndexError):
            pass
    return total


@dataclass(frozen=True)
class Finished:
    """How a child ended: ``stop`` is None when the function returned ``value``."""

    value: Any = None
    stop: Stop | None = None
    message: str = ""
    seconds: float = 0.0
    os_error: bool = False  # the function raised OSError (a file it could not read or write)
    partial: Any = None  # a stopped child's last ``report_partial`` value: the best it had

    @property
    def ok(self) -> bool:
        return self.stop is None


_channel: Any = None  # in a child: the pipe to the parent, for progress messages


def report(text: str) -> None:
    """Send a progress line to the parent (from inside a child); nothing in the parent."""
    if _channel is not None:
        with contextlib.suppress(OSError, ValueError):
            _channel.send((PROGRESS, text))


def report_partial(value: Any) -> None:
    """Send the best result so far to the parent (from inside a child): what the parent
    reports if it stops the child (Ctrl-C, the time limit) before it returns."""
    if _channel is not None:
        with contextlib.suppress(OSError, ValueError):
            _channel.send((PARTIAL, value))


HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM)
_held: dict[str, Any] = {"on": False, "pending": []}  # signals deferred while forking


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """Hold the signals that stop a command while a process forks: a handler run inside the
    fork's own hooks would have its exception swallowed (the limit or Ctrl-C lost). xwsat's
    handlers defer what comes meanwhile (whatever thread the kernel picked to receive it) and
    it is sent again when the fork is done; the child starts with them blocked until it has
    set its own handlers."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    _held["on"] = True
    try:
        yield
    finally:
        _held["on"] = False
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        pending, _held["pending"] = _held["pending"], []
        for number in dict.fromkeys(pending):
            os.kill(os.getpid(), number)


def _deferred(signum: int) -> bool:
    """In a handler: True when a fork is under way (the signal is sent again after it)."""
    if _held["on"]:
        _held["pending"].append(signum)
        return True
    return False


def _child_main(fn: Callable[..., Any], args: tuple, conn: Any) -> None:
    global _channel
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when a child stops
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGALRM):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)  # held by the parent while it forked
    sys.unraisablehook = _watch.get("unraisable", sys.unraisablehook)  # the parent's watch's
    _watch["active"] = False  # its deadline stays readable (``left``); the alarm is the parent's
    _channel = conn
    try:
        message: tuple = ("done", fn(*args))
    except MemoryError:
        message = ("failed", Stop.MEMORY, "out of memory")
    except Exception as exc:  # reported to the parent as a stop, never a hang
        detail = str(exc) if isinstance(exc, XwsatError) else \
            traceback.format_exception_only(type(exc), exc)[-1].strip()  # a bug: say its kind
        message = ("failed", Stop.FAILED, detail, isinstance(exc, OSError))
    with contextlib.suppress(OSError, ValueError):
        conn.send(message)
        conn.close()


class Child:
    """One function running in a forked child; ``poll`` until it has ``finished``."""

    def __init__(self, fn: Callable[..., Any], args: tuple, label: str = "",
                 nested: bool = False) -> None:
        """``nested``: ``fn`` may start children of its own (a whole ``fill_grid``), which
        multiprocessing allows only in a non-daemonic process; it still dies with its parent."""
        if _interrupted["yes"]:  # the user stopped the command: no new stage starts
            raise KeyboardInterrupt
        import multiprocessing  # here, not at the top: a run decided in-process never forks

        ctx = multiprocessing.get_context("fork")
        self.label = label
        self.receiver, sender = ctx.Pipe(duplex=False)
        self.process = ctx.Process(target=_child_main, args=(fn, args, sender),
                                   daemon=not nested)
        self.started = time.monotonic()
        with held_signals():
            self.process.start()
        sender.close()
        self.note = ""  # the child's latest progress line
        self.partial: Any = None  # its latest best-so-far value
        self.finished: Finished | None = None

    def poll(self) -> Finished | None:
        """The result once the child is done (or dead); progress lines update ``note``."""
        if self.finished is not None:
            return self.finished
        try:
            while self.receiver.poll():
                message = self.receiver.recv()
                if message[0] == PROGRESS:
                    self.note = message[1]
                    continue
                if message[0] == PARTIAL:
                    self.partial = message[1]
                    continue
                seconds = time.monotonic() - self.started
                if message[0] == "done":
                    self.finished = Finished(message[1], seconds=seconds)
                else:
                    self.finished = Finished(stop=message[1], message=message[2],
                                             seconds=seconds, os_error=message[3:] == (True,))
                return self.finished
        except (EOFError, OSError):
            self.finished = self._died()
            return self.finished
        if not self.process.is_alive() and not self.receiver.poll():
            self.finished = self._died()
        return self.finished

    def _died(self) -> Finished:
        self.process.join(timeout=5)
        code = self.process.exitcode
        if code == -signal.SIGKILL:
            return Finished(stop=Stop.CRASH, message="process killed (likely out of memory)",
                            seconds=time.monotonic() - self.started)
        return Finished(stop=Stop.CRASH, message=f"process died (exit {code})",
                        seconds=time.monotonic() - self.started)

    def kill(self) -> None:
        """Kill the child (and whatever it started) without waiting: a process holding a
        gigabyte of clauses takes a few tenths of a second to be torn down."""
        if self.process.is_alive():
            with contextlib.suppress(ProcessLookupError):
                for pid in descendants(self.process.pid):
                    os.kill(pid, signal.SIGKILL)
            self.process.kill()

    def stop(self) -> None:
        """Kill the child (and whatever it started) now, and wait until it is gone."""
        self.kill()
        self.process.join(timeout=5)
        self.receiver.close()


def wait_any(children: list[Child], timeout: float) -> None:
    """Sleep until one of the running ``children`` says something (progress, its result, its
    death), at most ``timeout``: a result is seen when it comes, not at the next poll."""
    live = [c.receiver for c in children if c.finished is None]
    if live:
        import multiprocessing.connection

        multiprocessing.connection.wait(live, timeout)
    else:
        time.sleep(timeout)


def descendants(pid: int) -> list[int]:
    """Every process started, directly or not, by ``pid`` (zombies included)."""
    tree = _children() if os.path.isdir("/proc") else {}
    found, stack = [], list(tree.get(pid, []))
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(tree.get(current, []))
    return found


def run_function(fn: Callable[..., Any], args: tuple, time_limit: float | None,
                 label: str = "", on_tick: Tick | None = None) -> Finished:
    """``fn(*args)`` in a child, killed ``GRACE_S`` after ``time_limit`` or on Ctrl-C (which,
    like a command-wide limit, ends the wait with the matching stop)."""
    return run_all([(fn, args)], time_limit, label, on_tick)[0]


def run_all(calls: list[tuple[Callable[..., Any], tuple]], time_limit: float | None,
            label: str = "", on_tick: Tick | None = None,
            meanwhile: Callable[[], bool | None] | None = None,
            after_first: Callable[[float], float] | None = None) -> list[Finished]:
    """Each ``fn(*args)`` in its own child, all at once (one per core), as ``run_function``:
    the wait ends when all have finished, one of them failed (the others are then stopped),
    the limit passed or the user pressed Ctrl-C. ``meanwhile`` runs here once the children
    have started (work of our own that need not wait for theirs); if it returns False, the
    children are stopped. ``after_first(seconds)``: once the first child has answered (after
    ``seconds``), how much longer to wait for the others; those still running then are
    stopped and reported as out of time."""
    children: list[Child] = []
    try:  # no new stage starts once the user stopped the command: Ctrl-C goes up as it came
        for fn, args in calls:
            children.append(Child(fn, args, label))
    except KeyboardInterrupt:
        for child in children:
            child.stop()
        raise
    started = children[0].started
    try:
        deadline = Budget(time_limit, started).kill_at()
        settled = False
        if meanwhile is not None and meanwhile() is False:  # the caller needs no more
            return [Finished(stop=Stop.FAILED, message=OTHER_FAILED,
                             seconds=time.monotonic() - started) for _ in calls]
        while True:
            ended = [child.poll() for child in children]
            if all(end is not None for end in ended) or any(
                    end is not None and not end.ok for end in ended):
                return [end or Finished(stop=Stop.FAILED, message=OTHER_FAILED,
                                        seconds=time.monotonic() - started) for end in ended]
            now = time.monotonic()
            if after_first is not None and not settled and any(e is not None for e in ended):
                settled = True
                wait = now + after_first(now - started)
                deadline = wait if deadline is None else min(deadline, wait)
            if deadline is not None and now >= deadline:
                return [end or Finished(stop=Stop.TIME, message="time limit reached",
                                        seconds=now - started, partial=child.partial)
                        for end, child in zip(ended, children)]
            if on_tick:
                note = next((child.note for child in children if child.note), "")
                on_tick(now - started, f"{label} ({note})" if note else label)
            wait_any(children, POLL_S)
    except KeyboardInterrupt as exc:
        stop, message = interruption(exc)
        for child in children:  # what each sent before the interruption
            with contextlib.suppress(Exception):
                child.poll()
        return [Finished(stop=stop, message=message, seconds=time.monotonic() - started,
                         partial=child.partial) for child in children]
    finally:
        for child in children:
            child.kill()
        for child in children:
            child.stop()


@dataclass(frozen=True)
class CommandRun:
    """A command's output and how it ended (``stop`` None: it exited by itself)."""

    stdout: str
    stderr: str
    returncode: int | None
    stop: Stop | None
    message: str
    seconds: float


def run_command(argv: list[str], stdin: str, hard_limit: float, memory_mb: int | None,
                should_stop: Callable[[], bool], memory_every: int = 4) -> CommandRun:
    """Run ``argv`` in its own session (killed with its whole group at the end, and with us if
    we die), feeding ``stdin``; kill it at ``hard_limit`` seconds, when its process tree passes
    ``memory_mb``, or when ``should_stop()`` says so."""
    import tempfile

    started = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        with held_signals():
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=out, stderr=err,
                                    text=True, start_new_session=True,
                                    preexec_fn=_command_child)
        stop, message = None, ""
        try:
            assert proc.stdin is not None
            proc.stdin.write(stdin)
            proc.stdin.close()
            polls = 0
            while proc.poll() is None:
                polls += 1
                elapsed = time.monotonic() - started
                if should_stop():
                    stop, message = Stop.INTERRUPTED, "the sweep was stopped"
                elif elapsed > hard_limit:
                    stop, message = Stop.TIME, f"hard wall-clock limit of {hard_limit:g} s reached"
                elif (memory_mb and (polls <= FIRST_POLLS or polls % memory_every == 1)
                      and tree_rss(proc.pid) > memory_mb * 1024 * 1024):
                    stop, message = Stop.MEMORY, f"the run's processes passed {memory_mb} MiB"
                if stop is not None:
                    break
                time.sleep(POLL_S * 2)
        finally:
            kill_group(proc)
        out.seek(0)
        err.seek(0)
        return CommandRun(out.read(), err.read(), proc.returncode, stop, message,
                          time.monotonic() - started)


def _command_child() -> None:
    """In a command's child, before it runs: die with us, take the signals we held."""
    die_with_parent()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)


def kill_group(proc: subprocess.Popen) -> None:
    """Kill a process started in its own session, with everything in its group."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


# --- the command-wide watch -------------------------------------------------------------------

def process_started() -> float:
    """When this process started, on the ``time.monotonic`` clock (now, where /proc cannot
    tell): a command's time limit counts from there, interpreter start-up included."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as uptime:
            since_boot = float(uptime.read().split()[0])
        age = since_boot - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.monotonic()
    return time.monotonic() - min(max(age, 0.0), 60.0)


_watch: dict[str, Any] = {}  # the active watch: deadline, memory bytes, previous handler
AGAIN_S = 0.5  # after a first LimitReached, the watch raises again only this much later


def memory_watched() -> bool:
    """Whether the command runs under a memory limit (work that could run in one process or
    in several at once, each with its own copy, then takes one)."""
    return bool(_watch.get("memory"))


def _arm(now: float) -> None:
    """The next look: when the clock is due (the deadline, then ``AGAIN_S`` after each raise),
    or sooner to read the memory."""
    deadline = _watch.get("deadline")
    delay = WATCH_S if _watch.get("memory") is not None else 3600.0
    if deadline is not None:
        due = max(deadline, _watch.get("next_raise", deadline))
        delay = min(delay, due - now)
    signal.setitimer(signal.ITIMER_REAL, max(delay, 0.001))


def _check(signum: int, frame: object) -> None:
    if not _watch.get("active") or _deferred(signum):
        return  # a late signal after the watch ended must not arm the timer again
    now = time.monotonic()
    if _watch.pop("interrupt", False):  # a Ctrl-C that a finaliser swallowed (``_lost``)
        _arm(now)
        raise KeyboardInterrupt
    deadline, memory = _watch.get("deadline"), _watch.get("memory")
    if deadline is not None and now >= max(deadline, _watch.get("next_raise", deadline)):
        # Raised once; raised again only if the work that caught it is still going half a
        # second later (a stage that stopped and is printing its answer is left to finish).
        _watch["next_raise"] = now + AGAIN_S
        _arm(now)
        raise LimitReached(Stop.TIME, f"time limit of {_watch['shown']:g} s reached")
    _arm(now)
    if memory is not None and tree_rss(os.getpid()) > memory:
        raise LimitReached(Stop.MEMORY, f"memory limit of {memory >> 20} MiB reached")


def _lost(unraisable: Any) -> None:
    """``sys.unraisablehook`` while a watch is on. A limit (or Ctrl-C) that our handlers raise
    while Python runs a finaliser or a garbage-collector callback is swallowed there, and Python
    prints a traceback for it; instead say nothing and raise it again a millisecond later, in
    the work itself (it came 0.5 s late, after a traceback, before)."""
    exc = unraisable.exc_value
    ours = _watch.get("active") and _watch.get("pid") == os.getpid()  # not a forked child's
    if ours and isinstance(exc, (LimitReached, KeyboardInterrupt)):
        if isinstance(exc, LimitReached):
            _watch["next_raise"] = time.monotonic()
        else:
            _watch["interrupt"] = True
        signal.setitimer(signal.ITIMER_REAL, 0.001)
        return
    _watch.get("unraisable", sys.__unraisablehook__)(unraisable)


@contextlib.contextmanager
def watch(time_limit: float | None, memory_mb: int | None = None,
          started: float | None = None, shown: float | None = None) -> Iterator[None]:
    """Stop the enclosed work (raising ``LimitReached`` in the main thread) once ``time_limit``
    seconds have passed since ``started`` (default now), or when the processes of this command
    together hold more than ``memory_mb`` MiB. Children die with the work that started them.
    ``shown`` is the limit the message names (the user's, when ``time_limit`` adds a slack)."""
    if time_limit is None and not memory_mb:
        yield
        return
    if _watch.get("active") and _watch.get("pid") == os.getpid():
        raise RuntimeError("guard.watch does not nest (one per command)")
    origin = started if started is not None else time.monotonic()
    previous_handler, previous_hook = signal.getsignal(signal.SIGALRM), sys.unraisablehook
    try:
        signal.signal(signal.SIGALRM, _check)
        _watch.update(deadline=Budget(time_limit, origin).deadline,
                      shown=shown if shown is not None else time_limit,
                      memory=memory_mb * 1024 * 1024 if memory_mb else None, active=True,
                      unraisable=previous_hook, pid=os.getpid())
        sys.unraisablehook = _lost
        _arm(time.monotonic())
        yield
    finally:
        lost_interrupt = bool(_watch.get("interrupt"))  # swallowed too late for the timer
        _watch["active"] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        sys.unraisablehook = previous_hook
        _watch.clear()
    if lost_interrupt:  # the work ended normally, but a Ctrl-C came while it did
        raise KeyboardInterrupt


def _terminated(signum: int, frame: object) -> None:
    if _deferred(signum):
        return
    now = time.monotonic()
    if now - _interrupted["signalled"] < REPEAT_S:
        return  # the same stop again: it must not cut short the answer the first one ends with
    if _interrupted["command"]:
        _interrupted["signalled"] = now
    raise KeyboardInterrupt


def stop_on_termination() -> None:
    """SIGTERM, SIGHUP and SIGINT end the command like Ctrl-C (children killed, best answer
    kept); SIGINT is handled even when a shell started the command in the background with it
    ignored."""
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(number, _terminated)
