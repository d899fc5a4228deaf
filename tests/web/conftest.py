"""Browser fixtures: Debian's headless Chromium driven by Playwright.

`make test` installs Chromium when it is missing and we are root (`make browser`), as it does
bubblewrap. A JavaScript error on a page fails the test that opened it.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",  # we run as root in CI; the pages are our own
    "--disable-gpu",
    "--no-first-run",
    # the machine's network is closed: without these Chromium tries to reach Google's hosts
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail("no Chromium found: run `make browser` (as root it installs Debian's chromium)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that opens a page is a browser test: `make test-quick` leaves them out (Chromium
    redraws cost seconds of CPU; the page data they show is checked without it)."""
    for item in items:
        if "page" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """Chromium, for one test module: Playwright's sync API keeps an asyncio loop running in
    this thread while it is open, and any later test in the same worker that calls
    asyncio.run() (the cluster's) would fail with "cannot be called from a running event
    loop". One launch a module costs about a second."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser) -> Iterator:
    """A fresh page; console errors and uncaught exceptions are collected and fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    opened.on(
        "console",
        lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None,
    )
    yield opened
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def serve_directory() -> Iterator[Callable[[Path], str]]:
    """serve_directory(path) -> the base URL of a file server on a free loopback port."""
    servers: list[http.server.ThreadingHTTPServer] = []

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    def serve(path: Path) -> str:
        handler = functools.partial(Quiet, directory=str(path))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()
