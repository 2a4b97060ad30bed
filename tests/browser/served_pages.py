"""What both browser suites stand on: `patchwork serve` in a subprocess on a free port, with a
games database of its own, and Debian's Chromium driven by Playwright, one page per test that
fails the test on any error the page logs (failed loads and Content-Security-Policy violations
included).

Importing this module skips the importing suite when Chromium is not installed. The fixtures
are exported under other names and registered by name (``server``, ``browser``, ``page``), as in
``tests/web_databases.py``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("PATCHWORK_CHROMIUM", "/usr/bin/chromium")
if not Path(CHROMIUM).exists():
    pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(name="server", scope="module")
def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a served app, once it answers ``/api/health``."""
    port = _free_port()
    folder = tmp_path_factory.mktemp("served")
    log = folder / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port), "--db",
                                 str(folder / "games.db")], stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            if proc.poll() is not None:
                pytest.fail(f"patchwork serve exited: {log.read_text()}")
            try:
                urllib.request.urlopen(f"{url}/api/health", timeout=5).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail(f"patchwork serve did not answer: {log.read_text()}")
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(name="browser", scope="module")
def browser_fixture() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


def checked_page(browser: Browser, **context: Any) -> Iterator[Page]:
    """A page in a new context (``context``: Playwright's context options) that fails its test on
    any script error or console error the page reports."""
    made = browser.new_context(**context)
    pg = made.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield pg
    made.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture(name="page")
def page_fixture(browser: Browser) -> Iterator[Page]:
    yield from checked_page(browser, viewport={"width": 1400, "height": 1000})
