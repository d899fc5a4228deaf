"""`arena serve`: the report's pages, rendered live from the database on each request.

The standard library's ThreadingHTTPServer is enough here: a local, read-only view for one
user or a team on a LAN, no sessions, no forms. The database is opened read-only on every
request (its own connection: SQLite connections are not shared across threads), so serving
can never change it and never blocks a league that is writing it (WAL: readers do not wait).
Pages poll /api/seq.json (the newest game's save order) and reload when it moves.
"""

from __future__ import annotations

import http.server
import json
import mimetypes
import socket
from importlib import resources
from pathlib import Path
from urllib.parse import unquote, urlsplit

from arena.ratings import default_env
from arena.store import Store, StoreError
from arena.store.db import DEFAULT_BUSY_TIMEOUT, connect, translate_errors
from arena.store.migrations import prepare
from arena.web import queries
from arena.web.pages import Pages
from arena.web.site import FAVICON

SEQ_ENDPOINT = "api/seq.json"
STATIC_PREFIX = "static/"


def open_read_only(path: Path, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> Store:
    """The database at ``path`` opened for reading only; StoreError (a message that says what
    to do) when it is missing, not an arena database, locked or needs an upgrade."""
    db = connect(path, create=False, busy_timeout=busy_timeout, read_only=True)
    try:
        with translate_errors(path):
            prepare(db, path, create=False, read_only=True)
    except BaseException:
        db.close()
        raise
    store = Store(path, db, default_env())
    store.read_only = True
    return store


def static_file(name: str) -> bytes | None:
    """An asset from the package's static folder; None for anything outside it."""
    parts = name.split("/")
    if not name or any(part in ("", ".", "..") for part in parts):
        return None
    found = resources.files("arena.web").joinpath("static", *parts)
    return found.read_bytes() if found.is_file() else None


class ReportHandler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD of the report's pages, its assets and the live endpoint."""

    server: ReportServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def _answer(self, *, send_body: bool) -> None:
        path = unquote(urlsplit(self.path).path).lstrip("/")
        if path == FAVICON:
            path = STATIC_PREFIX + FAVICON
        if path.startswith(STATIC_PREFIX):
            body = static_file(path.removeprefix(STATIC_PREFIX))
            kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
            if body is None:
                self._send(404, b"not found", "text/plain", send_body)
            else:
                self._send(200, body, kind, send_body, cache=True)
            return
        try:
            with open_read_only(self.server.db_path) as store:
                if path == SEQ_ENDPOINT:
                    seq = json.dumps({"seq": queries.latest_seq(store.db)}).encode()
                    self._send(200, seq, "application/json", send_body)
                    return
                with translate_errors(store.path):
                    # one read transaction: the page sees one state of the database, even
                    # while a league saves games (a bot new since the page began, say)
                    store.db.execute("BEGIN")
                    try:
                        html = Pages(store, live=True).render(path or "index.html")
                    finally:
                        store.db.execute("ROLLBACK")
        except StoreError as exc:
            self._send(503, f"{exc}\n".encode(), "text/plain; charset=utf-8", send_body)
            return
        if html is None:
            self._send(404, b"no such page\n", "text/plain", send_body)
        else:
            self._send(200, html.encode("utf-8"), "text/html; charset=utf-8", send_body)

    def _send(
        self, status: int, body: bytes, kind: str, send_body: bool, cache: bool = False
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=3600" if cache else "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # a quiet terminal: the URL printed at start is what the user needs


class ReportServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, db_path: Path, host: str, port: int) -> None:
        self.db_path = db_path
        self.address_family = _family(host, port)
        super().__init__((host, port), ReportHandler)

    @property
    def url(self) -> str:
        host, port = str(self.server_address[0]), int(self.server_address[1])
        return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _family(host: str, port: int) -> socket.AddressFamily:
    """IPv4 or IPv6, as ``host`` is (a name: the family it resolves to first). Raises OSError
    (socket.gaierror) for a name that resolves to nothing."""
    found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    return socket.AddressFamily(found[0][0])


def make_server(db_path: Path, host: str = "127.0.0.1", port: int = 0) -> ReportServer:
    """A server of the report of ``db_path`` (checked now, so a missing or locked database is
    an error before anything listens); port 0 picks a free port (``.url`` says which)."""
    open_read_only(db_path).close()
    return ReportServer(db_path, host, port)
