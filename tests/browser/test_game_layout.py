"""The game page at 1280x800 and at 390x844 with touch: what a placed patch looks like, what stays
put, and what a phone shows without scrolling.

Patch #11 (a symmetric shape with one button in a corner) turned and flipped is placed exactly as
its preview showed it, buttons included (every patch in every orientation: test_components.py).
Choosing a patch gives the quilt the focus, so the arrow keys move it at once; the offer cards and
the quilt keep their size and place while a patch is chosen and turned. On a phone the time
track's words are at least 11 px, the AI's last move (its quilt and the track's stretch around
both tokens) is in view without scrolling after it moves, and no page scrolls sideways.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from served_pages import (  # noqa: F401  (fixtures browser, server, served_db)
    browser_fixture,
    checked_page,
    served_db_fixture,
    server_fixture,
)
from test_web_page import _finished_game, cell, settle, shot, start

from patchwork_opt.core.state import State

pytestmark = pytest.mark.slow
SCREENS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
}
#: A seed whose first offers hold patch #11 ("o###" over "#..#": flipped, its shape is the same).
SEED_11 = next(s for s in range(1000) if 11 in State.new(seed=s).offers())


@pytest.fixture(name="screen", params=list(SCREENS))
def screen_fixture(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    yield from checked_page(browser, **SCREENS[request.param])


def touch(page: Page) -> bool:
    return bool(page.evaluate("() => matchMedia('(pointer: coarse)').matches"))


def press(page: Page, selector: str) -> None:
    """A tap on a touch screen, a click elsewhere."""
    page.tap(selector) if touch(page) else page.click(selector)


def drawn(page: Page, selector: str) -> list[tuple[tuple[int, int], ...]]:
    """The cells and the button cells drawn by `selector` on the human's quilt (34 px a cell)."""
    found = page.locator(selector).evaluate("""g => [
        [...g.querySelectorAll('rect')].map(r => [Number(r.getAttribute('y')) / 34, Number(r.getAttribute('x')) / 34]),
        [...g.querySelectorAll('circle')].map(c => [(Number(c.getAttribute('cy')) - 17) / 34,
                                                   (Number(c.getAttribute('cx')) - 17) / 34])]""")
    return [tuple(sorted((int(r), int(c)) for r, c in part)) for part in found]


def test_patch_11_flipped_and_turned_is_placed_as_its_preview_shows_it(screen: Page, server: str) -> None:
    start(screen, server, seed=SEED_11, button="#welcome-start" if touch(screen) else "#start")
    press(screen, ".offer[data-patch='11']")
    press(screen, "#flip")
    press(screen, "#rotate")
    press(screen, "#rotate")
    target = cell(screen, 4, 4)
    target.tap() if touch(screen) else target.hover()
    preview = drawn(screen, "[data-testid=preview]")
    assert len(preview[0]) == 6 and len(preview[1]) == 1
    shot(screen, f"flip-11-preview-{'phone' if touch(screen) else 'desktop'}")
    target.tap() if touch(screen) else target.click()
    settle(screen)
    assert drawn(screen, "#quilt-human .piece[data-patch='11']") == preview


def card_boxes(page: Page) -> list[tuple[float, float, float, float]]:
    boxes = page.locator(".offer, #quilt-human").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y + scrollY, r.width, r.height]; })")
    return [tuple(round(v, 1) for v in b) for b in boxes]


def shape_of(page: Page, selector: str, size: int) -> list[tuple[int, int]]:
    """The cells of a patch picture (`size` px a cell), moved to the origin."""
    xs = page.locator(f"{selector} rect").evaluate_all(
        "(rs, size) => rs.map(r => [Math.round(Number(r.getAttribute('y')) / size), "
        "Math.round(Number(r.getAttribute('x')) / size)])", size)
    top, left = min(r for r, _ in xs), min(c for _, c in xs)
    return sorted((r - top, c - left) for r, c in xs)


def test_choosing_a_patch_focuses_the_quilt_and_nothing_jumps(screen: Page, server: str) -> None:
    start(screen, server, seed=SEED_11, button="#welcome-start" if touch(screen) else "#start")
    before = card_boxes(screen)
    press(screen, ".offer[data-patch='11']")
    assert screen.evaluate("() => document.activeElement.id") == "quilt-human"
    assert card_boxes(screen) == before  # chosen: the cards and the quilt stay as they were
    for key in ("r", "f", "r"):
        screen.keyboard.press(key)
        assert card_boxes(screen) == before  # turned
        # the card and the tray draw the patch as it will be placed
        assert shape_of(screen, ".offer[data-patch='11'] svg", 15) == shape_of(screen, "#tray-shape", 18)
    # the arrows move the patch at once: the quilt has the focus
    screen.keyboard.press("ArrowUp")
    first = drawn(screen, "[data-testid=preview]")[0]
    screen.keyboard.press("ArrowLeft")
    moved = drawn(screen, "[data-testid=preview]")[0]
    assert moved == tuple(sorted((r, c - 1) for r, c in first))
    assert screen.evaluate("() => scrollX") == 0


#: The rendered size, in px, of every word on a drawn track (its font size times the drawing's scale).
TRACK_WORDS = """svg => [...svg.querySelectorAll('text')]
    .map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"""


def sideways(page: Page) -> int:
    """How far the page scrolls sideways (0: not at all)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def test_on_a_phone_the_ais_last_move_is_in_view_and_the_track_readable(browser: Browser, server: str) -> None:
    for phone in checked_page(browser, **SCREENS["phone"]):
        game = start(phone, server, seed=SEED_11, button="#welcome-start")
        phone.tap(".offer[data-patch='11']")
        cell(phone, 7, 4).tap()
        cell(phone, 7, 4).tap()
        settle(phone)
        ai = [m for m in _moves(server, game["id"]) if m["actor"] == "ai"]
        assert ai, "the AI has moved"
        phone.evaluate("() => scrollTo(0, 0)")
        # the strip at the top: the AI's quilt with its latest patches outlined, the track around both tokens
        for part in ("#strip-quilt-ai", "#strip-track"):
            box = phone.locator(part).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, part
        assert phone.locator("#strip-track [data-testid=strip-token-ai]").count() == 1
        assert phone.locator("#strip-track [data-testid=strip-token-human]").count() == 1
        if any(m["move"]["type"] != "advance" for m in ai):
            assert phone.locator("[data-testid=strip-last-ai-move] path").count() >= 1
        assert "The AI: " in phone.inner_text("#status")
        shot(phone, "phone-strip")
        for track in ("#strip-track", "#track"):
            smallest = min(phone.locator(track).evaluate(TRACK_WORDS))
            assert smallest >= 11, (track, smallest)
        assert sideways(phone) == 0
        # the Puzzles page and a review scroll only up and down too
        phone.goto(f"{server}/puzzles")
        phone.wait_for_selector("body[data-ready=true][data-busy=false]")
        assert sideways(phone) == 0 and min(phone.locator("#eg-track").evaluate(TRACK_WORDS)) >= 11
        finished = _finished_game(server, seed=SEED_11)
        phone.goto(f"{server}/#{finished['id']}")
        phone.wait_for_selector("body[data-ready=true][data-busy=false]")
        phone.select_option("#review-depth", "0.1")
        phone.tap("#review-start")
        phone.wait_for_selector("body[data-review-ply='0']", timeout=120_000)
        assert sideways(phone) == 0
        shot(phone, "phone-review")


def _moves(server: str, game_id: str) -> list[dict[str, Any]]:
    from test_web_page import _get

    moves: list[dict[str, Any]] = _get(f"{server}/api/games/{game_id}")["moves"]
    return moves
