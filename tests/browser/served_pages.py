"""What both browser suites stand on: `patchwork serve` in a subprocess on a free port, with a
games database of its own, and Debian's Chromium driven by Playwright, one page per test that
fails the test on any error the page logs (failed loads and Content-Security-Policy violations
included).

A test puts a game of its own in the served database through ``served_store`` (a ``GameStore``
on the server's SQLite file: the server reads every game from the file on each request) and
``store_record``, to review on the page what the game's record holds. ``rigged_server`` (and its
``rigged_store``) is the app with an analysis whose figures are known in advance
(``tests/rigged_analysis.py``), for tests of what the pages do with a review, a teaching game's
verdict or an exercise, whatever the machine's speed.

Importing this module skips the importing suite when Chromium is not installed. The fixtures
are exported under other names and registered by name (``server``, ``served_store``,
``rigged_server``, ``rigged_store``, ``browser``, ``page``), as in ``tests/web_databases.py``.
``SCREENS`` are the two sizes every page is tried at, for ``checked_page``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("PATCHWORK_CHROMIUM", "/usr/bin/chromium")
if not Path(CHROMIUM).exists():
    pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from rigged_analysis import Rigged  # noqa: E402

from patchwork_opt.apps.web.game_store import Game, GameStore, SqliteGameStore  # noqa: E402
from patchwork_opt.core.move import ADVANCE, Move  # noqa: E402
from patchwork_opt.core.state import State  # noqa: E402
from patchwork_opt.formats.record import Record  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
#: The two sizes every page is tried at (Playwright's context options): a desktop by mouse and keys,
#: a phone by touch.
SCREENS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(name="served_db", scope="module")
def served_db_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SQLite file the served app keeps its games in (one per test module)."""
    return tmp_path_factory.mktemp("served") / "games.db"


def _served(arguments: Callable[[int, Path], list[str]], db: Path) -> Iterator[str]:
    """The base URL of a Python process serving the app on a free port with its games in ``db``
    (``arguments(port, db)``: what follows ``python``), once it answers ``/api/health``; stopped after."""
    port = _free_port()
    log = db.parent / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, *arguments(port, db)], stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # a minute: a loaded machine starts the server slowly
            if proc.poll() is not None:
                pytest.fail(f"the server exited: {log.read_text()}")
            try:
                urllib.request.urlopen(f"{url}/api/health", timeout=5).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail(f"the server did not answer: {log.read_text()}")
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(name="server", scope="module")
def server_fixture(served_db: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """The base URL of ``patchwork serve``, once it answers ``/api/health``; a test module's
    ``SERVE_ARGS`` (a list of ``patchwork serve`` options) are added to its command line."""
    extra = [str(arg) for arg in getattr(request.module, "SERVE_ARGS", [])]
    yield from _served(lambda port, db: ["-m", "cli", "serve", "--port", str(port), "--db", str(db), *extra],
                       served_db)


@pytest.fixture(name="rigged_db", scope="module")
def rigged_db_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("rigged") / "games.db"


@pytest.fixture(name="rigged_server", scope="module")
def rigged_server_fixture(rigged_db: Path) -> Iterator[str]:
    """The base URL of the app with the rigged analysis (``rigged_server.py``): its reviews, teaching
    verdicts and exercises are known in advance (the first legal buy is best, any other move a blunder)."""
    script = str(Path(__file__).with_name("rigged_server.py"))
    yield from _served(lambda port, db: [script, str(port), str(db)], rigged_db)


@pytest.fixture(name="rigged_store")
def rigged_store_fixture(rigged_server: str, rigged_db: Path) -> Iterator[GameStore]:
    """The rigged server's games database, as ``served_store`` is the served app's."""
    store = SqliteGameStore(rigged_db)
    yield store
    store.close()


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


def advancing_game(store: GameStore, seed: int) -> Game:
    """A finished game stored as the person (Player 1) played it against the AI: the person always
    advancing (or putting a leather patch on the first cell it may go), the AI playing the rigged
    analysis's best move (``tests/rigged_analysis.py``). On the rigged server each of the person's
    advances where a patch could be bought is a blunder against buying it."""
    state = State.new(seed=seed)
    record = Record.start(state)
    while not state.is_terminal():
        legal = list(state.legal_moves())
        move = Rigged.best(state) if state.to_move() == 1 else legal[0] if state.pending >= 0 else ADVANCE
        record.moves.append(move)
        state.apply(move)
    return store_record(store, record, 0)


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


def checked_page(browser: Browser, *, expected: tuple[str, ...] = (), **context: Any) -> Iterator[Page]:
    """A page in a new context (``context``: Playwright's context options) that fails its test on
    any script error or console error the page reports, but a console error holding one of
    ``expected`` (the browser's own line for a refusal the test asks for, such as "status of 422")."""
    made = browser.new_context(**context)
    pg = made.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text)
          if msg.type == "error" and not any(text in msg.text for text in expected) else None)
    yield pg
    made.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture(name="page")
def page_fixture(browser: Browser) -> Iterator[Page]:
    yield from checked_page(browser, viewport={"width": 1400, "height": 1000})
