"""Games between people in a real browser: a friend by a link, and two players at one device.

Two browser contexts play a whole game by its invite link, the second at phone size by touch alone:
each sees the other's move, without reloading, within 1 s of the move's answer; a third context
opens the link once both seats are taken and watches live, with no move controls. Take-backs by
agreement (declined, then accepted), resigning and the rematch with the seats swapped; after the game
the review and "Practise your mistakes" for both players. Two players at one phone play a whole game
on one page, the page saying whose turn it is and showing that player's quilt. No seat's secret is
ever on a page; axe-core finds nothing serious on the new views.

How the tests stay short: one server (the rigged one: ``served_pages.rigged_server``, whose review
and exercises are instant and known in advance) and one browser for the module; in the game by link
the pages play the first moves and the last ones, and the moves between (both players advancing,
or putting a leather patch on the first empty cell) go through the API with each seat's secret,
read from the browser that holds it, as another client of the players would send them. The game at
one device is played on the page from its first move to its last (advancing, a buy each).
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from served_pages import (  # noqa: F401  (fixtures browser, rigged_server, rigged_db)
    browser_fixture,
    checked_page,
    rigged_db_fixture,
    rigged_server_fixture,
    serious_violations,
)

from patchwork_opt.core.catalogue import PATCHES

pytestmark = pytest.mark.slow
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
LIVE_MS = 1000  # a move's answer to its arrival on the other player's page
END = 53


@pytest.fixture(name="host")
def host_fixture(browser: Browser) -> Iterator[Page]:
    """The friend who sets the game up, on a desktop (its clipboard readable: the invite is copied)."""
    yield from checked_page(browser, viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])


@pytest.fixture(name="guest")
def guest_fixture(browser: Browser) -> Iterator[Page]:
    """The friend who opens the link, on a phone: 390x844, touch only."""
    yield from checked_page(browser, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)


@pytest.fixture(name="watcher")
def watcher_fixture(browser: Browser) -> Iterator[Page]:
    yield from checked_page(browser, viewport=DESKTOP)


def _api(server: str, method: str, path: str, body: Any = None, secret: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["Authorization"] = f"Bearer {secret}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server}{path}", data, headers, method=method)
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def touch(page: Page) -> bool:
    return bool(page.evaluate("() => matchMedia('(pointer: coarse)').matches"))


def press(page: Page, selector: str) -> None:
    """A tap on a touch screen, a click elsewhere."""
    page.tap(selector) if touch(page) else page.click(selector)


def ready(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def game_id(page: Page) -> str:
    return page.url.split("#", 1)[1]


def secret_of(page: Page, game: str) -> str:
    """The secret of the seat the page's browser holds in ``game`` (kept in its localStorage)."""
    held: str = page.evaluate(f"() => JSON.parse(localStorage.getItem('patchwork-seat:{game}')).secret")
    return held


def at_ply(page: Page, ply: int, timeout: float = 30_000) -> None:
    """The page shows the game at ``ply``, no request running."""
    expect(page.locator("body")).to_have_attribute("data-ply", str(ply), timeout=timeout)
    expect(page.locator("body")).to_have_attribute("data-busy", "false", timeout=timeout)


def new_game(page: Page, server: str, opponent: str, seat: str = "0", seed: int = 12, hints: bool = False) -> str:
    """A game between people set up on the page (``seat``: first "0", second "1" or "random")."""
    ready(page, server)
    page.select_option("#opponent", opponent)
    assert not page.is_checked("#hints")  # hints are off unless asked for, as at a table
    if hints:
        page.check("#hints")
    if opponent == "friend":
        page.select_option("#seat", seat)
    page.fill("#seed", str(seed))
    press(page, "#start")
    page.wait_for_selector("body[data-busy=false][data-opponent]")
    return game_id(page)


def free_cell(game: dict[str, Any], seat: int, shape: list[tuple[int, int]]) -> tuple[int, int]:
    """A cell of ``seat``'s quilt where the page puts ``shape`` (centred on it, kept on the quilt) over
    no covered cell."""
    covered = {tuple(c) for piece in game["boards"][seat]["pieces"] for c in piece["cells"]}
    h, w = max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1
    for r in range(9):
        for c in range(9):
            top, left = min(max(r - (h - 1) // 2, 0), 9 - h), min(max(c - (w - 1) // 2, 0), 9 - w)
            if not {(x + top, y + left) for x, y in shape} & covered:
                return r, c
    raise AssertionError("the shape fits nowhere")


def move_on_page(page: Page, game: dict[str, Any], buy: bool) -> None:
    """The player to move moves on their page: the leather patch on a free cell, a patch bought (when
    ``buy`` and one is buyable: chosen, then put on the quilt by two taps or a click), else advancing."""
    seat = game["state"]["to_move"]
    def cell(r: int, c: int) -> str:
        return f"#quilt-human .cell[data-r='{r}'][data-c='{c}']"
    buyable = page.locator(".offer:not([disabled])")
    if game["pending_leather"]:
        r, c = free_cell(game, seat, [(0, 0)])
        press(page, cell(r, c))
        if touch(page):
            page.tap(cell(r, c))
    elif buy and buyable.count():
        patch = int(buyable.first.get_attribute("data-patch") or -1)
        press(page, f".offer[data-patch='{patch}']")
        r, c = free_cell(game, seat, list(PATCHES[patch].orientations[0].cells))
        press(page, cell(r, c))
        if touch(page):
            page.tap(cell(r, c))
    else:
        press(page, "#advance")


def move_by_api(server: str, game: dict[str, Any], secrets: dict[int, str]) -> dict[str, Any]:
    """The player to move advances (or puts a waiting leather patch on their first empty cell)."""
    seat = game["state"]["to_move"]
    move: dict[str, Any] = {"type": "advance"}
    if game["pending_leather"]:
        move = {"type": "leather", "cell": list(free_cell(game, seat, [(0, 0)]))}
    answer: dict[str, Any] = _api(server, "POST", f"/api/games/{game['id']}/moves",
                                  {"ply": game["ply"], "move": move}, secrets[seat])
    return answer


def in_view(page: Page, selector: str) -> bool:
    """The element's top lies within the window (no scrolling needed to see it start)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return bool(-2 <= box["y"] < size["height"])


def no_move_controls(page: Page) -> None:
    for control in ("#advance", "#place", "#rotate", "#flip", "#undo", "#resign", "#ask-takeback"):
        expect(page.locator(control)).to_be_hidden()
    expect(page.locator(".offer:not([disabled])")).to_have_count(0)


def test_two_friends_play_a_whole_game_by_its_link_live_while_a_third_watches(
    host: Page, guest: Page, watcher: Page, rigged_server: str
) -> None:
    server = rigged_server
    game = new_game(host, server, "friend", seat="0")
    expect(host.locator("#invite")).to_be_visible()
    link = host.input_value("#invite-link")
    assert re.fullmatch(rf"{re.escape(server)}/play/{re.escape(game)}", link), link
    host.get_by_role("button", name="Copy the link").click()
    expect(host.locator("#copy-said")).to_have_text("Copied: send it to your friend.")
    assert host.evaluate("() => navigator.clipboard.readText()") == link
    expect(host.locator("body")).to_have_attribute("data-live", "open")
    assert "You play first" in host.inner_text("#seat-words")
    expect(host.locator("#hint")).to_be_hidden()
    # hints off: no way to the engine while the game runs (the workshop and the analysis board)
    expect(host.get_by_role("link", name="Open in the analysis board")).to_be_hidden()
    assert serious_violations(host) == []

    # whoever opens the link first takes the free seat; the host sees it, live
    ready(guest, link)
    expect(guest.locator("body")).to_have_attribute("data-seat", "1")
    assert game_id(guest) == game and "You play second" in guest.inner_text("#seat-words")
    expect(host.locator("#invite")).to_be_hidden(timeout=LIVE_MS)
    secrets = {0: secret_of(host, game), 1: secret_of(guest, game)}
    for page, secret in ((host, secrets[0]), (guest, secrets[1])):
        assert len(secret) >= 22 and secret not in page.content()
    assert secrets[0] != secrets[1]

    # once both seats are taken the link shows the game: live, no move controls
    ready(watcher, link)
    expect(watcher.locator("body")).to_have_attribute("data-seat", "watching")
    no_move_controls(watcher)
    assert "watching" in watcher.inner_text("#seat-words")
    assert serious_violations(watcher) == []
    pages = {0: host, 1: guest}
    for page in (*pages.values(), watcher):
        expect(page.locator("body")).to_have_attribute("data-live", "open")

    def page_move(view: dict[str, Any], buy: bool) -> dict[str, Any]:
        """The player to move moves on their page; the other and the watcher see it within 1 s."""
        mover = view["state"]["to_move"]
        expect(pages[mover].locator("body")).to_have_attribute("data-turn", "human")
        move_on_page(pages[mover], view, buy)
        at_ply(pages[mover], view["ply"] + 1)
        for other in (pages[1 - mover], watcher):
            expect(other.locator("body")).to_have_attribute("data-ply", str(view["ply"] + 1), timeout=LIVE_MS)
        after: dict[str, Any] = _api(server, "GET", f"/api/games/{game}")
        return after

    view = _api(server, "GET", f"/api/games/{game}")
    view = page_move(view, True)
    # on the phone, the guest's turn: the offers, their quilt and its Place button on the first screen
    for part in ("#offers", "#quilt-human", "#place"):
        assert in_view(guest, part), part
    for buy in (True, False, False):  # each buys a patch (the guest by taps), then advances
        view = page_move(view, buy)
    assert [m["move"]["type"] for m in view["moves"][:2]] == ["buy", "buy"]
    expect(host.locator("#last-moved")).to_contain_text("Your friend last moved just now")
    assert "Your friend: " in host.inner_text("#log")
    # the middle of the game through the API, each seat's move with its secret; the end on the pages
    while min(p["position"] for p in view["state"]["players"]) < END - 6:
        view = move_by_api(server, view, secrets)
    while not view["state"]["over"]:
        view = page_move(view, buy=False)

    winner = view["people"]["winner"]
    scores = sorted((p["score"] for p in view["state"]["players"]), reverse=True)
    said = f"won, {scores[0]} to {scores[1]}"
    expect(pages[winner].locator("#result-title")).to_have_text(re.compile(rf"^You {said}"))
    expect(pages[1 - winner].locator("#result-title")).to_have_text(re.compile(rf"^Your friend {said}"))
    expect(watcher.locator("#result-title")).to_have_text(re.compile(rf"^Player {winner + 1} {said}"))
    expect(watcher.locator("#rematch")).to_be_hidden()

    # the review for both players, and each one's mistakes as their own exercises
    for page in pages.values():
        expect(page.get_by_role("link", name="Open in the analysis board")).to_be_visible()  # over: open
        page.select_option("#review-depth", "0.1")
        press(page, "#review-start")
        page.wait_for_selector("body[data-review-ply='0'], #error:not(:empty)", timeout=120_000)
        assert page.inner_text("#error") == ""
        assert "accuracy" in page.inner_text("#review-summary")
        press(page, "#practise")
        expect(page.locator("#practise-result")).to_contain_text("exercise", timeout=120_000)
    assert serious_violations(guest) == []
    for page, secret in ((host, secrets[0]), (guest, secrets[1])):
        assert secret not in page.content()


def test_take_back_by_agreement_resign_and_a_rematch_with_the_seats_swapped(
    host: Page, guest: Page, rigged_server: str
) -> None:
    server = rigged_server
    game = new_game(host, server, "friend", seat="random", seed=5)
    expect(host.locator("body")).to_have_attribute("data-seat", re.compile("^[01]$"))
    ready(guest, host.input_value("#invite-link"))
    seat = int(host.get_attribute("body", "data-seat") or -1)
    expect(guest.locator("body")).to_have_attribute("data-seat", str(1 - seat))
    pages = {seat: host, 1 - seat: guest}
    first, second = pages[0], pages[1]
    expect(first.locator("body")).to_have_attribute("data-live", "open")
    expect(second.locator("body")).to_have_attribute("data-live", "open")
    press(first, "#advance")
    at_ply(first, 1)
    at_ply(second, 1, timeout=LIVE_MS)

    # asked, declined; asked again, accepted: the move is gone on both pages
    press(first, "#ask-takeback")
    expect(first.locator("#offer-text")).to_contain_text("waiting for your friend's answer")
    expect(first.locator("#accept-takeback")).to_be_hidden()
    expect(second.locator("#offer")).to_be_visible(timeout=LIVE_MS)
    expect(second.locator("#offer-text")).to_have_text("Your friend asks to take back their last move.")
    assert serious_violations(second) == []
    press(second, "#decline-takeback")
    expect(first.locator("#offer")).to_be_hidden(timeout=LIVE_MS)
    assert int(first.get_attribute("body", "data-ply") or -1) == 1
    press(first, "#ask-takeback")
    expect(second.locator("#accept-takeback")).to_be_visible(timeout=LIVE_MS)
    press(second, "#accept-takeback")
    at_ply(second, 0)
    at_ply(first, 0, timeout=LIVE_MS)
    expect(first.locator("body")).to_have_attribute("data-turn", "human")

    # the first player resigns: both see it
    press(first, "#resign")
    press(first, "#resign-yes")
    expect(first.locator("#result-title")).to_have_text("You resigned: your friend wins")
    expect(second.locator("#result-title")).to_have_text("Your friend resigned: you win", timeout=LIVE_MS)

    # a rematch, seats swapped: asked by one, the other plays it from their page
    press(second, "#rematch")
    second.wait_for_selector("body[data-busy=false][data-seat='0']")
    rematch = game_id(second)
    assert rematch != game
    expect(first.locator("#join-rematch")).to_be_visible(timeout=LIVE_MS)
    press(first, "#join-rematch")
    expect(first.locator("body")).to_have_attribute("data-seat", "1")
    assert game_id(first) == rematch
    expect(second.locator("body")).to_have_attribute("data-turn", "human")
    expect(first.locator("body")).to_have_attribute("data-turn", "other")


def test_two_players_at_one_phone_play_a_whole_game_on_one_page(guest: Page, rigged_server: str) -> None:
    page = guest
    new_game(page, rigged_server, "here", seed=9, hints=True)
    expect(page.locator("body")).to_have_attribute("data-seat", "both")
    expect(page.locator("#hint")).to_be_visible()  # hints allowed (hidden when not: the game by link)
    expect(page.get_by_role("link", name="Open in the analysis board")).to_be_visible()
    assert serious_violations(page) == []
    bought: set[int] = set()
    view = _api(rigged_server, "GET", f"/api/games/{game_id(page)}")
    while not view["state"]["over"]:
        mover = view["state"]["to_move"]
        # the page says whose turn it is and shows that player's side
        expect(page.locator("[data-testid=turn]")).to_have_text(f"Player {mover + 1}'s turn")
        assert page.inner_text("#human-title").startswith(f"Player {mover + 1}'s quilt")
        move_on_page(page, view, buy=mover not in bought)
        if not view["pending_leather"]:
            bought.add(mover)
        at_ply(page, view["ply"] + 1)
        view = _api(rigged_server, "GET", f"/api/games/{game_id(page)}")
    assert {m["move"]["type"] for m in view["moves"]} >= {"buy", "advance"}
    winner = view["people"]["winner"]
    expect(page.locator("#result-title")).to_have_text(re.compile(rf"^Player {winner + 1} won, "))
    # the review of both players, and a button for each one's mistakes
    page.select_option("#review-depth", "0.1")
    page.tap("#review-start")
    page.wait_for_selector("body[data-review-ply='0']", timeout=120_000)
    expect(page.locator("#practise")).to_have_text("Practise Player 1's mistakes")
    page.tap("#practise-second")
    expect(page.locator("#practise-result")).to_contain_text("exercise", timeout=120_000)
