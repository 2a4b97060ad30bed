"""The ways into the analysis board, in a real browser: "Open in the analysis board" on a game (the
position now, and at a move chosen from the list), on its review (the position before the move
shown), on a puzzle once it is answered (not before: it would give the answer away) and on the
workshop started from a position each open the board on that position, the game's with its moves to
step through; and the board opens the workshop on the position it shows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

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

from patchwork_opt.apps.web.game_store import GameStore
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle

pytestmark = pytest.mark.slow
GAME = Record.load(Path(__file__).resolve().parents[1] / "data" / "solver_rollout_game.json")


@pytest.fixture(name="desk")
def desk_fixture(browser: Browser) -> Iterator[Page]:
    for page in checked_page(browser, viewport={"width": 1280, "height": 800}):
        page.set_default_timeout(120_000)
        yield page


def follow(page: Page, link: str) -> str:
    """Press the link; the analysis board it opens, once ready: the link's address."""
    href = page.get_attribute(link, "href") or ""
    assert href.startswith("/analysis?")
    page.click(link)
    page.wait_for_url("**/analysis?**")
    page.wait_for_selector("body[data-ready='true'][data-busy='false']")
    return href


def test_a_game_and_its_review_open_on_the_board(desk: Page, server: str, served_store: GameStore) -> None:
    game = store_record(served_store, GAME, seat=0)
    desk.goto(f"{server}/#{game.id}")
    desk.wait_for_selector("body[data-ready=true]")
    assert follow(desk, "#to-analysis") == f"/analysis?game={game.id}&ply={len(GAME.moves)}"
    assert desk.input_value("#notation") == to_notation(GAME.replay())
    assert desk.inner_text("[data-testid=to-move]").startswith("The game is over: ")
    assert desk.locator("[data-testid=tree] .move").count() == len(GAME.moves) + 1  # its moves, to step through

    desk.goto(f"{server}/#{game.id}")  # a move chosen from the list: the position after it
    desk.wait_for_selector("body[data-ready=true]")
    desk.click("#log li[data-index='9'] button")
    desk.wait_for_selector("[data-testid=viewing]:not([hidden])")
    assert follow(desk, "#to-analysis").endswith("&ply=10")
    assert desk.input_value("#notation") == to_notation(GAME.replay(10))

    desk.goto(f"{server}/#{game.id}")  # the review: the position before the move shown
    desk.wait_for_selector("body[data-ready=true]")
    desk.select_option("#review-depth", "0.1")
    desk.click("#review-start")
    desk.wait_for_selector("body[data-review-ply='0']")
    for ply in range(1, 8):
        desk.keyboard.press("ArrowRight")
        desk.wait_for_selector(f"body[data-review-ply='{ply}']")
    assert follow(desk, "#review-analysis") == f"/analysis?game={game.id}&ply=7"
    assert desk.input_value("#notation") == to_notation(GAME.replay(7))
    # and the board opens the workshop on the position it shows
    href = desk.get_attribute("#to-workshop", "href") or ""
    assert parse_qs(urlparse(href).query)["position"] == [to_notation(GAME.replay(7))]


def test_an_answered_puzzle_and_the_workshop_open_on_the_board(desk: Page, server: str) -> None:
    puzzle = next(p for p in shipped_bank().puzzles["endgame"] if isinstance(p, EndgamePuzzle)
                  and p.state().pending < 0)
    desk.goto(f"{server}/puzzles#{puzzle.id}")
    desk.wait_for_selector(f"body[data-ready=true][data-puzzle='{puzzle.id}'][data-busy=false]")
    assert desk.locator("#puzzle-analysis").is_hidden()  # before the answer it would give it away
    desk.click("#eg-advance")
    desk.wait_for_selector("body[data-busy=false]:is([data-answered=correct], [data-answered=wrong])")
    position = to_notation(puzzle.state())
    follow(desk, "#puzzle-analysis")
    assert desk.input_value("#notation") == position
    assert desk.inner_text("[data-testid=to-move]") == f"Player {puzzle.player + 1} to move."

    desk.goto(f"{server}/workshop?{urlencode({'position': position, 'player': 0})}")
    desk.wait_for_selector("body[data-ready='true']")
    follow(desk, "#source-analysis")
    assert desk.input_value("#notation") == position
