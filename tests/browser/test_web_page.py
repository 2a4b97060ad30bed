"""The web page in a real browser: `patchwork serve` in a subprocess, Debian's Chromium driven by Playwright.

A person's game: start it, pick a patch, rotate and flip it, watch the preview, place it with a
click, let the AI answer, ask for a hint, undo, then advance to the end and read the scores.
"""

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

from patchwork_opt.core.catalogue import PATCHES  # noqa: E402

pytestmark = pytest.mark.slow
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
SHOTS = os.environ.get("PATCHWORK_SCREENSHOTS")  # a folder to keep screenshots in, when set


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    db = tmp_path_factory.mktemp("web") / "games.db"
    log = tmp_path_factory.mktemp("web") / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", str(db)],
            stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            if proc.poll() is not None:
                pytest.fail(f"patchwork serve exited: {log.read_text()}")
            try:
                _get(f"{url}/api/health")
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail(f"patchwork serve did not answer: {log.read_text()}")
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    # console errors include failed loads and Content-Security-Policy violations
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield pg
    context.close()
    assert not errors, f"errors in the page: {errors}"


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def settle(page: Page) -> None:
    """Wait until no request runs and it is the human's turn or the game is over."""
    page.wait_for_selector("body[data-busy='false']:is([data-turn='human'], [data-turn='over'])", timeout=60_000)


def start(page: Page, server: str, seed: int) -> dict[str, Any]:
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ai", "greedy")
    page.select_option("#level", "1")
    page.fill("#seed", str(seed))
    page.click("#start")
    settle(page)
    game_id = page.url.split("#", 1)[1]
    game: dict[str, Any] = _get(f"{server}/api/games/{game_id}")
    return game


def ply_shown(page: Page) -> int:
    return int(page.get_attribute("body", "data-ply") or -1)


def pieces_shown(page: Page) -> int:
    return int(page.locator("#quilt-human .pieces rect").count())


def test_play_moves_through_the_page(page: Page, server: str) -> None:
    game = start(page, server, seed=7)
    assert game["human_to_move"]
    assert "Your move" in page.inner_text("#status")
    assert page.locator(".offer").count() == 3
    assert page.locator("#track .space").count() == 54

    # choose the first patch on offer that is buyable; the preview follows the pointer
    offer = page.locator(".offer:not([disabled])").first
    patch = int(offer.get_attribute("data-patch") or -1)
    offer.click()
    assert "Place patch" in page.inner_text("#status")
    page.hover("#quilt-human .cell[data-r='4'][data-c='4']")
    preview = page.locator("[data-testid=preview]")
    assert preview.get_attribute("class") == "preview legal"
    area = PATCHES[patch].area
    assert preview.locator("rect").count() == area

    def preview_cells() -> set[tuple[int, int]]:
        xs = preview.locator("rect").evaluate_all(
            "rs => rs.map(r => [Number(r.getAttribute('y')), Number(r.getAttribute('x'))])"
        )
        return {(int(y) // 34, int(x) // 34) for y, x in xs}

    before = preview_cells()
    page.keyboard.press("r")
    rotated = preview_cells()
    page.click("#flip")
    flipped = preview_cells()
    assert len(rotated) == len(flipped) == area
    if len(PATCHES[patch].orientations) > 1:
        assert before != rotated or rotated != flipped
    shot(page, "1-preview")

    page.click("#quilt-human .cell[data-r='4'][data-c='4']")
    settle(page)
    after = _get(f"{server}/api/games/{game['id']}")
    mine = after["boards"][after["seat"]]["pieces"]
    assert mine and mine[0]["patch"] == patch
    assert {tuple(c) for c in mine[0]["cells"]} == flipped  # placed where the preview showed it
    assert pieces_shown(page) == area
    log = page.locator("#log li")
    assert log.first.inner_text().startswith(f"You: buy #{patch}")
    assert log.count() == after["ply"] and log.count() >= 2  # the AI answered
    assert page.locator("#log li.ai").count() >= 1
    shot(page, "2-placed")

    # a placement over covered cells is refused on the page, nothing is sent
    # advance (a move through the page too) until a patch on offer is affordable again
    buyable = page.locator(".offer:not([disabled])")
    before_last = 0  # the ply before the human's last move
    for _ in range(10):
        if buyable.count():
            break
        before_last = ply_shown(page)
        page.click("#advance")
        settle(page)
    assert buyable.count() >= 1
    buyable.first.click()
    page.hover("#quilt-human .cell[data-r='4'][data-c='4']")
    assert page.locator("[data-testid=preview]").get_attribute("class") == "preview illegal"
    ply = ply_shown(page)
    page.click("#quilt-human .cell[data-r='4'][data-c='4']")
    assert "cannot place there" in page.inner_text("#error")
    assert _get(f"{server}/api/games/{game['id']}")["ply"] == ply
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=preview]").count() == 0

    # the hint is drawn on the quilt; choosing the hinted patch puts the preview there, a click plays it
    health = _get(f"{server}/api/health")
    assert "hint" in health["solvers"]
    page.click("#hint")
    page.wait_for_selector("#hint-text:has-text('Hint:')", timeout=60_000)
    best = _get(f"{server}/api/games/{game['id']}/hint")["hints"][0]
    overlay = page.locator("[data-testid=hint-overlay] rect").evaluate_all(
        "rs => rs.map(r => [Number(r.getAttribute('y')), Number(r.getAttribute('x'))])"
    )
    assert {(int(y) // 34, int(x) // 34) for y, x in overlay} == {tuple(c) for c in best["cells"]}
    shot(page, "3-hint")
    if best["type"] == "buy":
        page.click(f".offer[data-patch='{best['patch']}']")
        hinted = {tuple(c) for c in best["cells"]}
        assert preview_cells() == hinted
        rows = [r for r, _ in hinted]
        cols = [c for _, c in hinted]
        row = min(rows) + (max(rows) - min(rows)) // 2
        col = min(cols) + (max(cols) - min(cols)) // 2
        before_last = ply_shown(page)
        page.click(f"#quilt-human .cell[data-r='{row}'][data-c='{col}']")
        settle(page)
        now = _get(f"{server}/api/games/{game['id']}")
        mine = now["boards"][now["seat"]]["pieces"]
        assert {tuple(c) for c in mine[-1]["cells"]} == hinted
        # what the AI placed in answer is outlined on its quilt
        placed = 0
        for m in reversed(now["moves"]):
            if m["actor"] != "ai":
                break
            placed += m["move"]["type"] != "advance"
        assert page.locator("[data-testid=last-ai-move] path").count() == placed

    # undo takes back the human's last move and the AI's answers to it
    shown = pieces_shown(page)
    last_human = [m for m in _get(f"{server}/api/games/{game['id']}")["moves"] if m["actor"] == "human"][-1]
    page.click("#undo")
    settle(page)
    undone = _get(f"{server}/api/games/{game['id']}")
    assert undone["ply"] == before_last
    assert page.locator("#log li").count() == before_last
    taken_back = len(last_human["move"].get("cells", []))
    assert pieces_shown(page) == shown - taken_back


def test_a_whole_game_to_the_final_scores(page: Page, server: str) -> None:
    game = start(page, server, seed=3)
    for _ in range(200):
        turn = page.get_attribute("body", "data-turn")
        if turn == "over":
            break
        if "leather" in page.inner_text("#status"):
            now = _get(f"{server}/api/games/{game['id']}")
            covered = {tuple(c) for piece in now["boards"][now["seat"]]["pieces"] for c in piece["cells"]}
            empty = next((r, c) for r in range(9) for c in range(9) if (r, c) not in covered)
            page.click(f"#quilt-human .cell[data-r='{empty[0]}'][data-c='{empty[1]}']")
        else:
            page.click("#advance")
        settle(page)
    else:
        pytest.fail("the game did not end")
    final = _get(f"{server}/api/games/{game['id']}")
    assert final["state"]["over"]
    assert not page.locator("#result").is_hidden()
    rows = page.locator("#scores tbody tr")
    assert rows.count() == 2
    you = final["state"]["players"][final["seat"]]
    ai = final["state"]["players"][1 - final["seat"]]
    assert rows.nth(0).locator("td").last.inner_text() == str(you["score"])
    assert rows.nth(1).locator("td").last.inner_text() == str(ai["score"])
    assert page.inner_text("#status").startswith("Game over")
    assert page.locator("#advance").is_disabled()
    shot(page, "4-final")
    record = page.request.get(server + (page.locator("#export").get_attribute("href") or ""))
    assert record.ok and len(record.json()["moves"]) == final["ply"]
