"""A real ``xwsat serve`` in a child process on a free port, for the workbench's tests."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ADDRESS = re.compile(r"xwsat workbench: (http://\S+/)")


@contextmanager
def running_server(*options: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """Start the server, yield its address and process; stop it with Ctrl-C at the end."""
    command = [sys.executable, "-c", "from xwsat.cli import main; main()", "serve", "--port",
               "0", *options]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        address = None
        deadline = time.monotonic() + 240  # the first run may compile the search
        assert process.stderr is not None
        while address is None and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line and process.poll() is not None:
                raise RuntimeError(f"xwsat serve exited with {process.returncode}")
            found = ADDRESS.search(line)
            address = found.group(1) if found else None
        assert address is not None, "xwsat serve printed no address"
        yield address, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def descendants(pid: int) -> list[int]:
    """Every process started, directly or not, by ``pid``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, stack = [], list(children.get(pid, []))
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(children.get(current, []))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
