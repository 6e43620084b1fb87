"""A real ``xwsat serve`` in a child process on a free port, for programs that drive the
workbench from outside: its browser tests and the figures script (``scripts/workbench_study.py``).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from xwsat import guard

LOG: list[str] = []  # what the servers said on stderr after their address, for a failing test
ADDRESS = re.compile(r"xwsat workbench: (http://\S+/)")
START_S = 240.0  # the first run on a machine compiles the search before it listens


@contextmanager
def running_server(*options: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """Start ``xwsat serve --port 0 OPTIONS``; yield its address and process; stop it with
    Ctrl-C (SIGINT) at the end, as a user would."""
    command = [sys.executable, "-c", "from xwsat.cli import main; main()", "serve", "--port",
               "0", *options]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        address = None
        deadline = time.monotonic() + START_S
        assert process.stderr is not None
        while address is None and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line and process.poll() is not None:
                raise RuntimeError(f"xwsat serve exited with {process.returncode}")
            found = ADDRESS.search(line)
            address = found.group(1) if found else None
        if address is None:
            raise RuntimeError("xwsat serve printed no address")
        # read the rest as it comes: a full pipe would stop the server at its next log line
        threading.Thread(target=_drain, args=(process.stderr, LOG), daemon=True).start()
        yield address, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _drain(stream: IO[str], into: list[str]) -> None:
    for line in stream:
        into.append(line)


def descendants(pid: int) -> list[int]:
    """Every live process started, directly or not, by ``pid`` (zombies left out)."""
    return [child for child in guard.descendants(pid) if alive(child)]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def rss_mib(pid: int) -> float:
    """The resident memory of one process, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0
