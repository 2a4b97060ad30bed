"""The web page in a real browser: `patchwork serve` in a subprocess, Debian's Chromium driven by Playwright.

A person's game: start it, pick a patch, rotate and flip it, watch the preview, place it with a
click, let the AI answer, ask for a hint, undo, then advance to the end and read the scores; and
the review of a finished game: its chart, its mistakes, and the position of one of them.
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from served_pages import browser_fixture, page_fixture, server_fixture  # noqa: F401  (fixtures browser, page, server)

from patchwork_opt.core.catalogue import PATCHES

pytestmark = pytest.mark.slow
SHOTS = os.environ.get("PATCHWORK_SCREENSHOTS")  # a folder to keep screenshots in, when set


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def _finished_game(server: str, seed: int) -> dict[str, Any]:
    """A game against the greedy AI played out through the API, the human only advancing (and
    putting leather patches on the first empty cell): a poor game, with mistakes to review."""
    game: dict[str, Any] = _post(f"{server}/api/games", {"seed": seed, "ai": "greedy", "level": 1})
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
    return game


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


def test_before_a_game_the_page_welcomes_and_shows_the_settings(page: Page, server: str) -> None:
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    welcome = page.locator("[data-testid=welcome]")
    assert welcome.is_visible()
    text = welcome.inner_text()
    assert "New game" in text and all(word in text for word in ("AI", "Level", "You play", "Leather", "Seed"))
    # no empty board: no status bar, no time track, no quilts, no move buttons
    for hidden in ("#game", "#status-bar", "#track", "#quilt-human", "#advance", "#hint", "#undo", "#rotate"):
        assert page.locator(hidden).is_hidden(), hidden
    shot(page, "0-welcome")
    page.select_option("#ai", "greedy")
    page.select_option("#level", "1")
    page.click("#welcome-start")
    settle(page)
    assert welcome.is_hidden() and page.locator("#quilt-human").is_visible()
    assert page.inner_text("#human-title").startswith("Your quilt (Player 1")
    assert "Player 2" in page.inner_text("#ai-title")


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
    hints = _get(f"{server}/api/games/{game['id']}/hint")["hints"]
    best = hints[0]
    hint_text = page.inner_text("#hint-text")
    # the win chance in plain words: "... you win about 64% of games from here, +3.1 points expected"
    assert "you win about" in hint_text or "with best play" in hint_text, hint_text
    if any(h["type"] == "buy" for h in hints[:3]):
        assert " at row" in page.inner_text("#hint-text")  # a buy says where, not only which patch
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


def test_the_review_of_a_finished_game_shows_the_chart_and_the_position_of_a_mistake(
    page: Page, server: str
) -> None:
    game = _finished_game(server, seed=3)
    page.goto(f"{server}/#{game['id']}")
    page.wait_for_selector("body[data-ready=true]")
    settle(page)
    assert page.get_attribute("body", "data-turn") == "over"
    assert page.locator("[data-testid=review]").is_hidden()
    page.select_option("#review-depth", "0.1")
    page.click("#review-start")
    page.wait_for_selector("[data-testid=review-chart] svg polyline", timeout=120_000)
    settle(page)
    assert "accuracy" in page.inner_text("#review-summary")
    # every flagged move is listed and marked on the chart, at the same plies
    plies_of = "nodes => nodes.map(n => n.dataset.ply)"
    listed = [int(x) for x in page.locator("#review-marks li[data-ply]").evaluate_all(plies_of)]
    marked = [int(x) for x in page.locator("#review-chart .mark").evaluate_all(plies_of)]
    assert listed, "an only-advancing player made no mistake the review could find"
    assert listed == marked
    shot(page, "5-review")

    # a mistake in the list: the position before it, the move played and the best move drawn
    ply = listed[0]
    page.click(f"#review-marks li[data-ply='{ply}'] button")
    page.wait_for_selector(f"body[data-review-ply='{ply}']")
    assert page.locator("[data-testid=review-position]").is_visible()
    then = _get(f"{server}/api/games/{game['id']}/plies/{ply}")
    assert then["ply"] == ply and len(then["moves"]) == ply
    for seat, svg in ((game["seat"], "#review-quilt-human"), (1 - game["seat"], "#review-quilt-ai")):
        cells = sum(len(piece["cells"]) for piece in then["boards"][seat]["pieces"])
        assert page.locator(f"{svg} .pieces rect").count() == cells
    text = page.inner_text("#review-move")
    assert f"Ply {ply}" in text and "Played: " in text and "best move" in text
    played = game["moves"][ply]["move"]
    assert played["type"] == "advance" or page.locator("[data-testid=review-played] rect").count() >= 1
    assert page.locator(f"#review-chart .mark.chosen[data-ply='{ply}']").count() == 1
    shot(page, "6-review-position")

    # the marks on the chart are clickable too
    last = marked[-1]
    page.locator(f"#review-chart .mark[data-ply='{last}']").dispatch_event("click")
    page.wait_for_selector(f"body[data-review-ply='{last}']")
    assert f"Ply {last}" in page.inner_text("#review-move")
