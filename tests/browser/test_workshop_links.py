"""The ways into the workshop, in a real browser: every page links every other from the one nav
(components/nav.js), its own marked; "Open in the workshop" on a game (now, and at a move chosen
from the list), on its review (the mover's quilt before the move shown) and on a puzzle (an
endgame's position, a fill's quilt, patches and options) opens the workshop on that quilt, said in
words, with either player's quilt a press away."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Browser, Page
from served_pages import (  # noqa: F401  (fixtures browser, server, served_db, served_store)
    browser_fixture,
    checked_page,
    served_db_fixture,
    served_store_fixture,
    server_fixture,
    store_record,
)
from test_workshop_page import card, pressed

from patchwork_opt.apps.web.game_store import GameStore
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle
from patchwork_opt.puzzles.kinds.fill import FillPuzzle

pytestmark = pytest.mark.slow
GAME = Record.load(Path(__file__).resolve().parents[1] / "data" / "solver_rollout_game.json")
PAGES = {"/": "Play", "/puzzles": "Puzzles", "/workshop": "Workshop", "/analysis": "Analysis", "/rules": "How to play"}


@pytest.fixture(name="desk")
def desk_fixture(browser: Browser) -> Iterator[Page]:
    for page in checked_page(browser, viewport={"width": 1280, "height": 800}):
        page.set_default_timeout(120_000)
        yield page


def quilt_of(state_quilt: int) -> set[tuple[int, int]]:
    return {(r, c) for r, c in cells_of(state_quilt)}


def follow(page: Page, link: str) -> str:
    """Press the link; the workshop it opens, once ready: its address."""
    href = page.get_attribute(link, "href") or ""
    assert href.startswith("/workshop?")
    page.click(link)
    page.wait_for_url("**/workshop?**")
    page.wait_for_selector("body[data-ready='true']")
    return href


def test_every_page_links_every_other_from_one_nav(desk: Page, server: str) -> None:
    for path, name in PAGES.items():
        desk.goto(server + path)
        desk.wait_for_selector("#site-nav a")
        nav = desk.get_by_role("navigation", name="Pages")
        assert nav.get_by_role("link").all_inner_texts() == list(PAGES.values())
        assert nav.locator("[aria-current=page]").inner_text() == name


def test_a_game_and_its_review_open_in_the_workshop(desk: Page, server: str, served_store: GameStore) -> None:
    game = store_record(served_store, GAME, seat=0)
    desk.goto(f"{server}/#{game.id}")
    desk.wait_for_selector("body[data-ready=true]")
    href = follow(desk, "#to-workshop")
    assert f"game={game.id}" in href and f"ply={len(GAME.moves)}" in href and "player=0" in href
    end = GAME.replay()
    assert pressed(desk) == quilt_of(end.quilts[0])
    assert desk.inner_text("#source-text").startswith("Player 1's quilt in a position in a finished game")
    assert "game=" not in desk.url and "position=" in desk.url  # the link keeps the position itself
    desk.click("#player-1")  # the other player's quilt
    desk.wait_for_function("() => document.getElementById('player-1').getAttribute('aria-pressed') === 'true'")
    assert pressed(desk) == quilt_of(end.quilts[1])

    # a move chosen from the list: the position after it
    desk.goto(f"{server}/#{game.id}")
    desk.wait_for_selector("body[data-ready=true]")
    desk.click("#log li[data-index='9'] button")
    desk.wait_for_selector("[data-testid=viewing]:not([hidden])")
    assert "ply=10" in follow(desk, "#to-workshop")
    assert pressed(desk) == quilt_of(GAME.replay(10).quilts[0])

    # the review: the mover's quilt before the move shown
    desk.goto(f"{server}/#{game.id}")
    desk.wait_for_selector("body[data-ready=true]")
    desk.select_option("#review-depth", "0.1")
    desk.click("#review-start")
    desk.wait_for_selector("body[data-review-ply='0']")
    for ply in range(1, 8):
        desk.keyboard.press("ArrowRight")
        desk.wait_for_selector(f"body[data-review-ply='{ply}']")
    before = GAME.replay(7)
    mover = before.to_move()
    assert f"ply=7&player={mover}" in follow(desk, "#review-workshop")
    assert pressed(desk) == quilt_of(before.quilts[mover])
    assert desk.inner_text("#source-text").startswith(f"Player {mover + 1}'s quilt")


def test_a_puzzle_opens_in_the_workshop(desk: Page, server: str) -> None:
    bank = shipped_bank().puzzles
    endgame = next(p for p in bank["endgame"] if isinstance(p, EndgamePuzzle))
    desk.goto(f"{server}/puzzles#{endgame.id}")
    desk.wait_for_selector(f"body[data-puzzle='{endgame.id}']")
    follow(desk, "#puzzle-workshop")
    state = endgame.state()
    assert pressed(desk) == quilt_of(state.quilts[endgame.player])
    assert parse_qs(urlparse(desk.url).query)["position"] == [to_notation(state)]
    who = f"Player {endgame.player + 1}"
    assert desk.inner_text("#source-text").startswith(f"{who}'s quilt in a position with {who} to move")
    offers = state.offers()
    desk.get_by_role("button", name="The patches on offer in this position").click()
    assert [card(desk, pid).get_attribute("aria-pressed") for pid in offers] == ["true"] * len(offers)

    fill = next(p for p in bank["fill"] if isinstance(p, FillPuzzle) and p.budget is not None)
    desk.goto(f"{server}/puzzles#{fill.id}")
    desk.wait_for_selector(f"body[data-puzzle='{fill.id}']")
    follow(desk, "#puzzle-workshop")
    assert pressed(desk) == quilt_of(fill.quilt)
    assert [card(desk, pid).get_attribute("aria-pressed") for pid in fill.patches] == ["true"] * len(fill.patches)
    assert desk.input_value("#objective") == fill.objective and desk.input_value("#budget") == str(fill.budget)
    assert desk.input_value("#marks") == str(fill.marks) and desk.is_checked("#require-bonus") == fill.require_bonus
