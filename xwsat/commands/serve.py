"""``xwsat serve``: the constructor's workbench, a local web page (``xwsat.workbench``)."""

from __future__ import annotations

import socket
import threading
import webbrowser
from typing import Annotated

import typer

from xwsat.commands.common import compile_first
from xwsat.commands.options import DictOpt, MemoryOpt, check_memory_limit
from xwsat.errors import XwsatError

HostOpt = Annotated[str, typer.Option(
    "--host", help="Address to listen on; the default keeps the page to this machine.")]
PortOpt = Annotated[int, typer.Option("--port", help="Port to listen on (0: any free port).")]
OpenOpt = Annotated[bool, typer.Option("--open", help="Open the page in the browser.")]
BudgetOpt = Annotated[float, typer.Option(
    "--search-limit", help="Seconds the background search spends deciding each edit.")]


def _bound(host: str, port: int) -> socket.socket:
    """A listening socket, or one line saying why not (a port out of range or in use, a bad
    address)."""
    if not 0 <= port <= 65535:
        raise XwsatError(f"--port {port} is not a port: give 0 (any free port) to 65535")
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # connections wait from now on, before the server has started
    except OSError as exc:
        sock.close()
        raise XwsatError(f"cannot listen on {host}:{port} ({exc.strerror or exc}); "
                         "try another --port") from None
    return sock


def serve(host: HostOpt = "127.0.0.1", port: PortOpt = 8765, dictionary: DictOpt = "en",
          open_page: OpenOpt = False, search_limit: BudgetOpt = 3.0,
          memory_limit: MemoryOpt = 2048) -> None:
    """Construct a crossword in the browser: draw, lock, autofill, and see live what cannot be
    filled and why. Ctrl-C stops the server and every search it started."""
    import uvicorn

    from xwsat.workbench.app import MAX_MESSAGE_BYTES, create_app
    from xwsat.workbench.session import Limits

    if search_limit <= 0:
        raise XwsatError("--search-limit must be positive")
    check_memory_limit(memory_limit)
    sock = _bound(host, port)  # first: a port in use is said before the minutes of compiling
    try:
        compile_first(["auto"])
        app = create_app(dictionary, Limits(decide_s=search_limit,
                                            memory_mb=memory_limit or None))
    except BaseException:
        sock.close()
        raise
    address = f"http://{host if ':' not in host else f'[{host}]'}:{sock.getsockname()[1]}/"
    # frames up to four times the largest message taken: a larger one is refused by the page's
    # own handler with a sentence, not by the socket closing (which the page retries forever)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning",
                                           ws_max_size=4 * MAX_MESSAGE_BYTES))
    typer.echo(f"xwsat workbench: {address} (Ctrl-C stops it)", err=True)
    if open_page:
        threading.Timer(0.5, webbrowser.open, (address,)).start()
    server.run(sockets=[sock])


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
