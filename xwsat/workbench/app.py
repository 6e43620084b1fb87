"""The workbench's web application: the page, its WebSocket, uploads and downloads.

Routes read no path of this machine from the browser: the page and its modules come from the
package's ``static`` folder (Starlette's StaticFiles keeps requests inside it), uploads are
bytes, downloads are made in memory from the page's own document. A bad request gets one
sentence and a 4xx; anything unexpected is logged here and answered with one line, and the
server goes on serving.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from xwsat.errors import XwsatError
from xwsat.words import EMBEDDED, read_bytes
from xwsat.workbench.dictionaries import MAX_UPLOAD_BYTES, Dictionaries
from xwsat.workbench.session import MAX_PUZZLE_BYTES, Limits, Session

log = logging.getLogger("xwsat.workbench")
STATIC = resources.files("xwsat") / "workbench" / "static"
MAX_MESSAGE_BYTES = 1 << 20
MAX_SESSIONS = 64


class TooLarge(XwsatError):
    """An upload past its size limit (HTTP 413)."""


def create_app(dictionary: str = "en", limits: Limits | None = None) -> Starlette:
    """The application; ``dictionary`` is each new page's word list: an embedded one, or a
    file named on the command line (read now, as an upload)."""
    dictionaries = Dictionaries()
    if dictionary not in EMBEDDED:
        path = Path(dictionary)
        dictionary = dictionaries.add_upload(read_bytes(path, MAX_UPLOAD_BYTES), path.name)
        if note := dictionaries.note(dictionary):  # said where the command was typed
            sys.stderr.write(f"xwsat: note: {note}\n")
    sessions: dict[str, Session] = {}
    limits = limits or Limits()

    async def index(request: Request) -> Response:
        return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-store"})

    async def socket(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if origin and urlsplit(origin).netloc != websocket.headers.get("host"):
            await websocket.close(code=1008)  # another site's page may not drive this one
            return
        await websocket.accept()
        if len(sessions) >= MAX_SESSIONS:
            await websocket.send_json({"type": "error", "message": "too many open pages"})
            await websocket.close()
            return
        lock = asyncio.Lock()

        async def send(message: dict[str, Any]) -> None:
            async with lock:
                try:
                    await websocket.send_json(message)
                except RuntimeError as exc:  # Starlette's word for a socket already closed
                    raise WebSocketDisconnect(1006) from exc

        session = Session(dictionaries, send, limits, dictionary)
        sessions[session.id] = session
        inbox: asyncio.Queue = asyncio.Queue()

        async def read() -> None:
            try:
                while True:
                    await inbox.put(await websocket.receive_text())
            except (WebSocketDisconnect, RuntimeError):
                await inbox.put(None)

        reader = asyncio.get_running_loop().create_task(read())
        try:
            await _publish(session, send)
            while True:
                batch = [await inbox.get()]
                while not inbox.empty():  # quick edits in a row: one state for them all
                    batch.append(inbox.get_nowait())
                if None in batch:
                    break
                edited = UNCHANGED
                for text in batch:
                    if edited == ASKED and _asks_search(text):  # an autofill asked for after
                        session.jobs.cancel()  # an edit is for the edited grid: its state goes
                        await _publish(session, send)  # first, and nothing later stops it
                        edited = UNCHANGED
                    edited = max(edited, await _handle(session, text, send))
                if edited == ASKED:
                    session.jobs.cancel()  # the last grid's search gives its core to the insight
                    await _publish(session, send)
                elif edited == TEXT:  # a clue or a title: the searches for the grid go on
                    await send(await asyncio.to_thread(session.view))
        except (WebSocketDisconnect, OSError):  # the page closed while it was being sent to
            pass  # (uvicorn's ClientDisconnected is an OSError): a tab closing is no error
        finally:
            reader.cancel()
            session.close()
            sessions.pop(session.id, None)
            dictionaries.keep_uploads({dictionary, *(s.dictionary for s in sessions.values())})

    def session_of(request: Request) -> Session:
        session = sessions.get(request.path_params["sid"])
        if session is None:
            raise XwsatError("no such page (it was closed or the server restarted); reload")
        return session

    async def open_puzzle(request: Request) -> Response:
        session = session_of(request)
        data = await _body(request, MAX_PUZZLE_BYTES)
        note = session.open(data, request.query_params.get("name", "puzzle.txt"))
        await _publish(session, session.send)
        return JSONResponse({"ok": True, **({"note": note} if note else {})})

    async def upload_dictionary(request: Request) -> Response:
        session = session_of(request)
        data = await _body(request, MAX_UPLOAD_BYTES)
        name = request.query_params.get("name", "words.txt")[:200]
        key = await asyncio.to_thread(dictionaries.add_upload, data, name)
        session.set_dictionary(key, session.min_score)
        await _publish(session, session.send)
        return JSONResponse({"ok": True, "dictionary": key, "note": dictionaries.note(key)})

    async def save(request: Request) -> Response:
        session = session_of(request)
        data, name, media, note = session.save(request.path_params["fmt"])
        headers = {"Content-Disposition": attachment(name)}
        if note:  # HTTP headers are Latin-1: the page decodes it
            headers["X-Xwsat-Note"] = quote(note, safe=" ,;:()'.")
        return Response(data, media_type=media, headers=headers)

    async def certificate(request: Request) -> Response:
        session = session_of(request)
        if session.certificate is None:
            raise XwsatError("no certificate for this grid yet; ask for one first")
        return Response(session.certificate, media_type="application/zip",
                        headers={"Content-Disposition": attachment("certificate.zip")})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        for session in list(sessions.values()):  # the server stops: so does every search
            session.close()

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", index),
        Route("/favicon.ico", no_icon),
        Route("/api/{sid}/open", _guarded(open_puzzle), methods=["POST"]),
        Route("/api/{sid}/dictionary", _guarded(upload_dictionary), methods=["POST"]),
        Route("/api/{sid}/save/{fmt}", _guarded(save)),
        Route("/api/{sid}/certificate.zip", _guarded(certificate)),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def attachment(name: str) -> str:
    """A Content-Disposition for a download named ``name`` in any script: an ASCII name for
    old clients, and the name itself in RFC 6266's ``filename*`` (HTTP headers are Latin-1)."""
    plain = "".join(ch if ch.isascii() and ch.isprintable() and ch not in '"\\' else "_"
                    for ch in name)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


def _guarded(handler: Any) -> Any:
    """A route whose bad input is a 4xx with one sentence, and whose bugs are one line."""
    async def route(request: Request) -> Response:
        try:
            return await handler(request)
        except TooLarge as exc:
            return JSONResponse({"error": str(exc)}, status_code=413)
        except XwsatError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except WebSocketDisconnect:  # the page closed while its request ran: nobody to tell
            return JSONResponse({"error": "the page was closed"}, status_code=410)
        except Exception as exc:  # a bug: logged here, one line there, the server goes on
            log.exception("workbench request failed")
            return JSONResponse({"error": f"internal error: {type(exc).__name__}"},
                                status_code=500)
    return route


async def _body(request: Request, most: int) -> bytes:
    """The request's bytes, refused as soon as they pass ``most``."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise TooLarge(f"the file is larger than {most >> 20} MiB")
        chunks.append(chunk)
    if not size:
        raise XwsatError("the file is empty")
    return b"".join(chunks)


SEARCHES = ("autofill", "patterns", "certificate")  # messages that start a search


def _asks_search(text: str) -> bool:
    """Whether a page's message asks for a search (a bad one is refused later, in order)."""
    try:
        message = json.loads(text) if len(text) <= MAX_MESSAGE_BYTES else None
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") in SEARCHES


async def _publish(session: Session, send: Any) -> None:
    """Send the state after an edit, then start the background searches for it."""
    state = await asyncio.to_thread(session.view)
    await send(state)
    session.decide()


# What a message changed: nothing, the document's text only (clues, title, notes), or the
# question (the grid, its locks, its word list), which the searches under way were about.
UNCHANGED, TEXT, ASKED = 0, 1, 2


async def _handle(session: Session, text: str, send: Any) -> int:
    """One message from the page; what it changed (``UNCHANGED``, ``TEXT`` or ``ASKED``)."""
    try:
        if len(text) > MAX_MESSAGE_BYTES:
            raise XwsatError("message too large")
        try:
            message = json.loads(text)
        except ValueError:
            raise XwsatError("not a JSON message") from None
        if not isinstance(message, dict):
            raise XwsatError("not a JSON object")
        seq = message.get("seq")
        if isinstance(seq, int):  # the page's count of its messages: "done up to here"
            session.acked = seq
        return await _act(session, message, send)
    except WebSocketDisconnect:  # the page closed while it was answered: no error of ours
        raise
    except XwsatError as exc:
        await send({"type": "error", "message": str(exc), "acked": session.acked})
    except Exception as exc:  # a bug: logged, one line to the page, the page goes on
        log.exception("workbench message failed")
        await send({"type": "error", "message": f"internal error: {type(exc).__name__}"})
    return UNCHANGED


async def _act(session: Session, message: dict[str, Any], send: Any) -> int:
    kind = message.get("type")
    before = session.rev, session.asked
    if kind == "action":
        action = message.get("action")
        if not isinstance(action, dict):
            raise XwsatError("an action is a JSON object")
        session.dispatch(action)
    elif kind in ("undo", "redo"):
        said = await asyncio.to_thread(session.undo if kind == "undo" else session.redo)
        if said:  # the list the grid needs, switched to
            await send({"type": "notice", "message": said})
    elif kind == "symmetry":
        session.set_symmetry(str(message.get("symmetry")))
        await send({"type": "symmetry", "symmetry": session.symmetry})
        return TEXT  # the symmetry of later blocks: no search is about it
    elif kind == "dictionary":
        await asyncio.to_thread(session.set_dictionary, str(message.get("name")),
                                message.get("min_score", 0))
    elif kind == "bans":
        await asyncio.to_thread(session.set_bans, message.get("words"))
    elif kind == "select":
        slot = message.get("slot")
        session.select(str(slot) if slot else None)
        if session.selected:
            await send(await asyncio.to_thread(session.candidates_now, session.selected))
        return UNCHANGED
    elif kind == "autofill":
        job = await asyncio.to_thread(session.autofill, message.get("region"),
                                      bool(message.get("another")))
        session.start(job)
        await send({"type": "job", "kind": "autofill", "rev": session.asked, "final": False,
                    "result": {"status": "searching", "started": time.time()},
                    "region": message.get("region")})
        return UNCHANGED
    elif kind == "patterns":
        job = await asyncio.to_thread(session.suggest_patterns)
        session.start(job)
        await send({"type": "job", "kind": "patterns", "rev": session.asked, "final": False,
                    "result": {"status": "searching", "said": "drawing patterns"}})
        return UNCHANGED
    elif kind == "suggestion":  # a reloaded page's suggested fill, if it still fills the grid
        shown = await asyncio.to_thread(session.suggest_again, message.get("suggestion"))
        return TEXT if shown else UNCHANGED  # the state shows it; the searches go on
    elif kind == "accept":
        session.accept(message.get("slot"))
    elif kind == "reject":
        session.reject()
        await send({"type": "job", "kind": "autofill", "rev": session.asked, "final": True,
                    "result": {"status": "rejected"}})
        return UNCHANGED
    elif kind == "certificate":
        session.certify()
        return UNCHANGED
    else:
        raise XwsatError(f"unknown message {kind!r}")
    if session.asked != before[1]:
        return ASKED
    return TEXT if session.rev != before[0] else UNCHANGED
