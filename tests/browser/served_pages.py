"""What both browser suites stand on: `patchwork serve` in a subprocess on a free port, with a
games database of its own, and Debian's Chromium driven by Playwright, one page per test that
fails the test on any error the page logs (failed loads and Content-Security-Policy violations
included).

A test puts a game of its own in the served database through ``served_store`` (a ``GameStore``
on the server's SQLite file: the server reads every game from the file on each request) and
``store_record``, to review on the page what the game's record holds.

Importing this module skips the importing suite when Chromium is not installed. The fixtures
are exported under other names and registered by name (``server``, ``served_store``, ``browser``,
``page``), as in ``tests/web_databases.py``."""

from __future__ import annotations

import json
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

from patchwork_opt.apps.web.store import Game, GameStore, SqliteGameStore  # noqa: E402
from patchwork_opt.core.move import Move  # noqa: E402
from patchwork_opt.formats.record import Record  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(name="served_db", scope="module")
def served_db_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SQLite file the served app keeps its games in (one per test module)."""
    return tmp_path_factory.mktemp("served") / "games.db"


@pytest.fixture(name="server", scope="module")
def server_fixture(served_db: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """The base URL of a served app, once it answers ``/api/health``; a test module's ``SERVE_ARGS``
    (a list of ``patchwork serve`` options) are added to its command line."""
    port = _free_port()
    log = served_db.parent / "server.log"
    extra = [str(arg) for arg in getattr(request.module, "SERVE_ARGS", [])]
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port), "--db",
                                 str(served_db), *extra], stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # a minute: a loaded machine starts the server slowly
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


@pytest.fixture(name="served_store")
def served_store_fixture(server: str, served_db: Path) -> Iterator[GameStore]:
    """The served app's games database, opened in the test (once the server made its tables): a
    game stored here is the server's game, reviewed and played on through its pages."""
    store = SqliteGameStore(served_db)
    yield store
    store.close()


def store_record(store: GameStore, record: Record, seat: int, tail: list[Move] | None = None) -> Game:
    """A game of ``record``'s circle and leather with its moves, then ``tail`` (moves after the record),
    stored as the person at ``seat`` played it against the greedy AI: ``seat``'s moves by the human."""
    start = Record(circle=record.circle[:], moves=[], leather=record.leather).replay()
    game = store.create(start, seed=None, ai="greedy", level=1, seat=seat)
    state = start
    for ply, move in enumerate([*record.moves, *(tail or [])]):
        store.append(game.id, ply, move, actor="human" if state.to_move() == seat else "ai")
        state.apply(move)
    return store.get(game.id)


def review_of(server: str, game_id: str, seconds: float) -> dict[str, Any]:
    """The review the page was sent for a game (GET .../review at the page's depth): the server's
    analysis cache answers the same positions the same way the second time."""
    url = f"{server}/api/games/{game_id}/review?time_per_move={seconds}"
    with urllib.request.urlopen(url, timeout=120) as response:
        review: dict[str, Any] = json.loads(response.read())
    return review


def serious_violations(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']}" for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")]


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
