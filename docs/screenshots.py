"""The site's screenshots, made by driving the pages in Chromium: ``.venv/bin/python docs/screenshots.py``.

It starts ``patchwork serve`` on a free port with a games database of its own (the browser tests'
helper, ``tests/browser/served_pages.py``), opens each page in Debian's Chromium through Playwright
(the ``dev`` extra), brings it to a state worth showing and writes ``docs/img/<name>.png``, reduced
to a 256-colour palette so the PNGs stay small. Run it again after a page changes and commit the
pictures: they are made, never drawn by hand, so they do not go stale.

``--only NAME[,NAME]`` remakes some of them (the names are ``SHOTS``' keys).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "img"
sys.path[:0] = [str(ROOT / "tests" / "browser"), str(ROOT / "tests")]

from PIL import Image  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

#: The browser tests' helpers (``tests/browser/served_pages.py``): Chromium's path and arguments, and
#: ``_served``, the server on a free port (imported by name: it is no package).
served_pages: Any = importlib.import_module("served_pages")

from patchwork_opt.core.quilt import Quilt  # noqa: E402
from patchwork_opt.formats.notation import to_notation  # noqa: E402
from patchwork_opt.formats.record import Record  # noqa: E402

VIEWPORT = {"width": 1200, "height": 820}
EXAMPLES = ROOT / "examples"
#: The analysis board's position: a game of examples/records after 20 moves (Player 1 to choose).
MIDGAME_POSITION = to_notation(Record.load(EXAMPLES / "records" / "classic-midgame.json").replay(20))
MIDGAME_QUILT = Quilt.from_text((EXAMPLES / "quilts" / "midgame.txt").read_text()).mask


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def _finished_game(server: str, seed: int) -> str:
    """A game against the greedy AI played out through the API, the person only advancing (and putting
    leather patches on the first empty cell): a poor game, with mistakes for the review to show."""
    game = _post(f"{server}/api/games", {"seed": seed, "ai": "greedy", "level": 1})
    moves = f"{server}/api/games/{game['id']}"
    while not game["state"]["over"]:
        if game["ai_to_move"]:
            game = _post(f"{moves}/ai-move", {"ply": game["ply"]})
            continue
        move: dict[str, Any] = {"type": "advance"}
        if game["pending_leather"]:
            covered = {tuple(c) for piece in game["boards"][game["seat"]]["pieces"] for c in piece["cells"]}
            empty = next([r, c] for r in range(9) for c in range(9) if (r, c) not in covered)
            move = {"type": "leather", "cell": empty}
        game = _post(f"{moves}/moves", {"ply": game["ply"], "move": move})
    return str(game["id"])


def _ready(page: Page, address: str) -> None:
    page.goto(address)
    page.wait_for_selector("body[data-ready='true']")


def play(page: Page, server: str) -> None:
    """A game against the AI, a patch chosen and the hints drawn on the board."""
    _ready(page, server)
    page.select_option("#ai", "greedy")
    page.select_option("#level", "1")
    page.fill("#seed", "3")
    page.click("#welcome-start")
    page.wait_for_selector("body[data-busy='false'][data-turn='human']", timeout=60_000)
    page.click("#hint")
    page.wait_for_selector("body[data-busy='false'][data-turn='human']", timeout=60_000)
    time.sleep(1.0)


def review(page: Page, server: str) -> None:
    """The review of a finished game, on its first flagged move."""
    game = _finished_game(server, seed=5)
    _ready(page, f"{server}/#{game}")
    page.wait_for_selector("body[data-busy='false']", timeout=60_000)
    page.select_option("#review-depth", "0.1")
    page.click("#review-start")
    page.wait_for_selector("body[data-review-ply='0']", timeout=180_000)
    flagged = page.locator("#review-marks li button")
    if flagged.count():
        flagged.nth(min(2, flagged.count() - 1)).click()  # one of the person's own
    time.sleep(0.5)
    # the review's heading at the top: its summary, then the move played and the best move drawn
    page.evaluate("() => document.getElementById('review-heading').scrollIntoView({block: 'start'})")
    time.sleep(0.3)


def workshop(page: Page, server: str) -> None:
    """A quilt of one's own with the best placements of patch #12 drawn."""
    _ready(page, f"{server}/workshop?quilt={MIDGAME_QUILT:021x}&patches=12,3,20,25&mode=placements")
    page.wait_for_selector("[data-testid=answer-mark]", timeout=60_000)
    page.wait_for_selector("body[data-busy='false']", timeout=60_000)
    time.sleep(0.5)


def analysis(page: Page, server: str) -> None:
    """A position analysed live: the engine's best lines after a few seconds of thought."""
    _ready(page, f"{server}/analysis?position={quote(MIDGAME_POSITION)}")
    page.get_by_role("button", name="Go", exact=True).click()
    page.wait_for_function("() => document.body.dataset.engine === 'thinking' "
                           "&& document.querySelectorAll('#lines li').length >= 1", timeout=120_000)
    time.sleep(5)
    page.get_by_role("button", name="Stop", exact=True).click()
    page.wait_for_function("() => document.body.dataset.engine === 'stopped'", timeout=30_000)


def setup(page: Page, server: str) -> None:
    """The analysis board's set-up of a position from a game on the table, opened."""
    _ready(page, f"{server}/analysis")
    page.locator("#setup-box summary").click()
    page.locator("#setup-box").scroll_into_view_if_needed()
    time.sleep(0.3)


def puzzles(page: Page, server: str) -> None:
    """A puzzle of the shipped bank, on screen."""
    _ready(page, f"{server}/puzzles")
    page.wait_for_selector("body[data-busy='false'][data-puzzle]", timeout=60_000)
    time.sleep(0.5)


def _seat_post(url: str, body: dict[str, Any], secret: str) -> dict[str, Any]:
    """A seat's action in a game between people: the seat's secret as a Bearer header."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {secret}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def friends(page: Page, server: str) -> None:
    """A game against a friend by its link, seen by the player who sent it: a patch each, a few
    advances, and the friend asking to take back their last move (Accept or Decline)."""
    _ready(page, server)
    page.select_option("#opponent", "friend")
    page.fill("#seed", "3")
    page.click("#welcome-start")
    page.wait_for_selector("#invite:visible")
    game = page.url.split("#", 1)[1]
    friend = _post(f"{server}/api/games/{game}/join", {})["secret"]
    page.wait_for_selector("#invite", state="hidden")
    page.locator(".offer:not([disabled])").first.click()
    page.locator("#quilt-human .cell[data-r='1'][data-c='1']").click()  # the patch placed by the page
    page.wait_for_selector("body[data-busy='false'][data-ply='1']")
    catalogue = json.loads(urllib.request.urlopen(f"{server}/api/catalogue", timeout=10).read())
    view = json.loads(urllib.request.urlopen(f"{server}/api/games/{game}", timeout=10).read())
    bought = False
    while view["ply"] < 6 or view["state"]["to_move"] != 1:
        if view["state"]["to_move"] == 0:
            page.click("#advance")
            page.wait_for_selector(f"body[data-busy='false'][data-ply='{view['ply'] + 1}']")
            view = json.loads(urllib.request.urlopen(f"{server}/api/games/{game}", timeout=10).read())
            continue
        offer = next((o for o in view["offers"] if o["buyable"]), None)
        move: dict[str, Any] = {"type": "advance"}
        if offer and not bought:  # the friend's patch, in their quilt's top left corner
            move = {"type": "buy", "patch": offer["patch"],
                    "cells": catalogue["patches"][offer["patch"]]["orientations"][0]["cells"]}
            bought = True
        view = _seat_post(f"{server}/api/games/{game}/moves", {"ply": view["ply"], "move": move}, friend)
    view = _seat_post(f"{server}/api/games/{game}/moves", {"ply": view["ply"], "move": {"type": "advance"}}, friend)
    _seat_post(f"{server}/api/games/{game}/takeback", {"ply": view["ply"]}, friend)
    page.wait_for_selector("#offer:visible")
    time.sleep(1.0)


SHOTS: dict[str, Callable[[Page, str], None]] = {
    "play": play, "review": review, "workshop": workshop, "analysis": analysis, "setup": setup, "puzzles": puzzles,
    "friends": friends,
}


def save(page: Page, name: str) -> Path:
    """The page as shown, written as a palette PNG (a few tens of KB)."""
    path = OUT / f"{name}.png"
    raw = path.with_suffix(".raw.png")
    page.screenshot(path=str(raw))
    with Image.open(raw) as image:
        image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    raw.unlink()
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated names among " + ", ".join(SHOTS))
    names = [n for n in parser.parse_args().only.split(",") if n] or list(SHOTS)
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        served = served_pages._served(lambda port, db: ["-m", "cli", "serve", "--port", str(port), "--db", str(db)],
                         Path(tmp) / "games.db")
        server = next(served)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=served_pages.CHROMIUM, headless=True,
                                            args=served_pages.ARGS)
                for name in names:
                    context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
                    page = context.new_page()
                    page.set_default_timeout(60_000)
                    SHOTS[name](page, server)
                    path = save(page, name)
                    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB", flush=True)
                    context.close()
                browser.close()
        finally:
            served.close()


if __name__ == "__main__":
    main()
