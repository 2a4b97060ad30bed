"""The web page in a real browser: `patchwork serve` in a subprocess, Debian's Chromium driven by Playwright.

A person's game on a desktop: start it, choose a patch, turn it, drag it onto the quilt, place
one by keyboard, follow the AI's moves, ask for a hint (drawn on the board with its win chance),
step through the moves played, undo. A whole game by touch alone on an emulated phone, each move
in at most three taps, to the final scores in view. The review of a finished game stepped through
by keys, with labels that follow the stated rule; and no serious or critical accessibility
violation (axe-core) on the game, the review and the puzzles page (an answer, streak mode, a fill
with patches over its budget).
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect
from served_pages import (  # noqa: F401  (fixtures browser, page, server, served_db)
    browser_fixture,
    checked_page,
    page_fixture,
    review_of,
    serious_violations,
    served_db_fixture,
    server_fixture,
)

from patchwork_opt.apps.judge import label_of, label_rule
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.kinds.fill import FillPuzzle

pytestmark = pytest.mark.slow
SHOTS = os.environ.get("PATCHWORK_SCREENSHOTS")  # a folder to keep screenshots in, when set
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def _answer_the_endgame(page: Page, server: str) -> None:
    """Answer the endgame puzzle on the page, right or wrong: advance, or where the puzzle is where a
    waiting leather patch goes (advancing is then disabled), a click on the first empty cell."""
    if not page.is_disabled("#eg-advance"):
        page.click("#eg-advance")
        return
    puzzle_id = page.url.split("#")[-1]
    position = _get(f"{server}/api/puzzles/{puzzle_id}")["position"]["state"]["position"]
    state = from_notation(position)
    quilt = state.quilts[state.to_move()]
    row, col = next(divmod(i, 9) for i in range(81) if not quilt >> i & 1)
    page.click(f"#eg-quilt-you .cell[data-r='{row}'][data-c='{col}']")


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
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def settle(page: Page) -> None:
    """Wait until no request runs and it is the human's turn or the game is over."""
    page.wait_for_selector("body[data-busy='false']:is([data-turn='human'], [data-turn='over'])", timeout=60_000)


def start(page: Page, server: str, seed: int, button: str = "#start") -> dict[str, Any]:
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ai", "greedy")
    page.select_option("#level", "1")
    page.fill("#seed", str(seed))
    page.click(button)
    settle(page)
    game_id = page.url.split("#", 1)[1]
    game: dict[str, Any] = _get(f"{server}/api/games/{game_id}")
    return game


def cell(page: Page, r: int, c: int) -> Locator:
    return page.locator(f"#quilt-human .cell[data-r='{r}'][data-c='{c}']")


def preview_cells(page: Page) -> set[tuple[int, int]]:
    xs = page.locator("[data-testid=preview] rect").evaluate_all(
        "rs => rs.map(r => [Number(r.getAttribute('y')), Number(r.getAttribute('x'))])"
    )
    return {(int(y) // 34, int(x) // 34) for y, x in xs}


def in_view(page: Page, selector: str) -> bool:
    """The element's top lies within the window (no scrolling needed to see it start)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return bool(-2 <= box["y"] < size["height"])


def drag(page: Page, source: Locator, target: Locator) -> None:
    """A mouse drag with pointer events: press on the source, move in steps, release on the target."""
    a, b = source.bounding_box(), target.bounding_box()
    assert a is not None and b is not None
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=12)
    page.mouse.up()


@pytest.fixture(name="phone")
def phone_fixture(browser: Browser) -> Iterator[Page]:
    """A phone: 390x844, touch only, no hover."""
    yield from checked_page(browser, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)


def test_before_a_game_the_page_welcomes_and_shows_the_settings(page: Page, server: str) -> None:
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    welcome = page.locator("[data-testid=welcome]")
    assert welcome.is_visible()
    text = welcome.inner_text()
    assert "New game" in text and all(word in text for word in ("AI", "Level", "You play", "Leather", "Seed"))
    for hidden in ("#game", "#status-bar", "#track", "#quilt-human", "#advance", "#hint", "#undo", "#rotate"):
        assert page.locator(hidden).is_hidden(), hidden
    page.select_option("#ai", "greedy")
    page.select_option("#level", "1")
    page.click("#welcome-start")
    settle(page)
    assert welcome.is_hidden() and page.locator("#quilt-human").is_visible()
    # people, not seat numbers; whose turn it is, in words and on the panel
    assert page.inner_text("#human-title").startswith("Your quilt") and "Player" not in page.inner_text("#boards")
    assert page.inner_text("[data-testid=turn]") == "Your turn"
    assert "to-move" in (page.get_attribute("[data-testid=panel-human]", "class") or "")
    # Advance says what it earns where the server says an advance lands (the page works out no rule)
    game = _get(f"{server}/api/games/{page.url.split('#', 1)[1]}")
    me = game["state"]["players"][game["seat"]]
    gain = me["advance_to"] - me["position"]
    assert gain >= 1
    expect(page.get_by_role("button", name=f"Advance (+{gain} button{'' if gain == 1 else 's'})")).to_be_enabled()
    # the quilt is numbered as the moves are said: rows and columns 0-8
    labels = page.locator("#quilt-human .axis text").all_text_contents()
    assert labels == [str(i // 2) for i in range(18)]


def test_a_patch_dragged_onto_the_quilt_lands_where_its_preview_showed(page: Page, server: str) -> None:
    page.set_viewport_size(DESKTOP)
    game = start(page, server, seed=7)
    offer = page.locator(".offer:not([disabled])").first
    patch = int(offer.get_attribute("data-patch") or -1)
    area = PATCHES[patch].area
    offer.click()
    assert f"Place patch #{patch}" in page.inner_text("#status")
    # the chosen patch is drawn beside the quilt and on its card as it will be placed
    page.keyboard.press("r")
    turned = page.locator("#tray-shape rect").count()
    assert turned == area and page.locator(f".offer[data-patch='{patch}'] svg rect").count() == area
    cell(page, 4, 4).hover()
    hovered = preview_cells(page)
    assert len(hovered) == area and page.locator("[data-testid=preview]").get_attribute("class") == "preview legal"
    shot(page, "desktop-1-preview")

    # drag the card's picture onto the quilt: the preview follows, the drop places it
    drag(page, page.locator(f".offer[data-patch='{patch}'] svg"), cell(page, 2, 2))
    settle(page)
    after = _get(f"{server}/api/games/{game['id']}")
    mine = after["boards"][after["seat"]]["pieces"]
    assert mine and mine[0]["patch"] == patch and len(mine[0]["cells"]) == area
    rows = [r for r, _ in mine[0]["cells"]]
    cols = [c for _, c in mine[0]["cells"]]
    assert min(rows) <= 2 <= max(rows) and min(cols) <= 2 <= max(cols)  # centred on the cell dropped on
    # the moves in words, each a button; the AI's answer is said and drawn
    log = page.locator("#log li")
    assert log.first.inner_text().startswith(f"You: buy #{patch} at row")
    assert log.count() == after["ply"] and page.locator("#log li.ai").count() >= 1
    assert "The AI: " in page.inner_text("#status")
    assert re.search(r"\[\d", page.inner_text("#game")) is None  # no [r, c] notation anywhere
    shot(page, "desktop-2-dropped")

    # a placement over covered cells is refused on the page, nothing is sent
    for _ in range(10):
        if page.locator(".offer:not([disabled])").count():
            break
        page.click("#advance")
        settle(page)
    page.locator(".offer:not([disabled])").first.click()
    r0, c0 = mine[0]["cells"][0]
    cell(page, r0, c0).hover()
    assert page.locator("[data-testid=preview]").get_attribute("class") == "preview illegal"
    ply = int(page.get_attribute("body", "data-ply") or -1)
    cell(page, r0, c0).click()
    assert "cannot place it there" in page.inner_text("#error")
    assert _get(f"{server}/api/games/{game['id']}")["ply"] == ply
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=preview]").count() == 0


def test_keyboard_placement_hints_on_the_board_the_move_list_and_undo(page: Page, server: str) -> None:
    page.set_viewport_size(DESKTOP)
    game = start(page, server, seed=11)
    offer = page.locator(".offer:not([disabled])").first
    patch = int(offer.get_attribute("data-patch") or -1)
    offer.click()
    page.focus("#quilt-human")
    page.keyboard.press("ArrowDown")  # the preview appears at the centre, moved one row down
    first = preview_cells(page)
    page.keyboard.press("ArrowRight")
    moved = preview_cells(page)
    assert (first and moved == {(r, c + 1) for r, c in first}) or max(c for _, c in first) == 8
    page.keyboard.press("f")
    placed = preview_cells(page)
    page.keyboard.press("Enter")
    settle(page)
    now = _get(f"{server}/api/games/{game['id']}")
    assert {tuple(c) for c in now["boards"][now["seat"]]["pieces"][0]["cells"]} == placed
    assert now["boards"][now["seat"]]["pieces"][0]["patch"] == patch

    # a hint: every hinted placement on the quilt with its win chance, an advance on the track,
    # the alternatives each a different move
    page.click("#hint")
    page.wait_for_selector("#hint-text:has-text('Hint:')", timeout=60_000)
    text = page.inner_text("#hint-text")
    assert "you win about" in text or "with best play" in text, text
    labels = page.locator(".overlay-label, .span.hint .span-label").all_text_contents()
    assert labels and all(re.fullmatch(r"\d+%|win|loss", x) for x in labels)
    if text.startswith("Hint: advance"):
        assert page.locator("[data-testid=span-hint]").count() == 1
    else:
        assert page.locator("[data-testid=hint-overlay]").count() == 1
    said = text.split("Next best: ")[-1].split("; ")
    assert len(said) == len({s.split(" (")[0] for s in said})  # no two alternatives read alike
    shot(page, "desktop-3-hint")

    # the move list: a move chosen shows the position after it; the arrow keys step
    page.locator("#log li button").first.click()
    page.wait_for_selector("[data-testid=viewing]:visible")
    assert "move 1 of" in page.inner_text("#viewing-text")
    assert page.locator("#log li.current").get_attribute("data-index") == "0"
    assert page.locator("#advance").is_disabled()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#log li.current[data-index='1']")
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=viewing]").is_hidden() and page.locator("#advance").is_enabled()

    # undo takes back the human's last move and the AI's answers to it
    page.click("#undo")
    settle(page)
    assert _get(f"{server}/api/games/{game['id']}")["ply"] == 0
    assert page.locator("#log li").count() == 0


def _centred(cells: list[tuple[int, int]], r: int, c: int) -> set[tuple[int, int]]:
    """Where the page puts a shape when the finger is on (r, c): centred there, kept on the quilt."""
    h = max(x for x, _ in cells) + 1
    w = max(y for _, y in cells) + 1
    top = min(max(r - (h - 1) // 2, 0), 9 - h)
    left = min(max(c - (w - 1) // 2, 0), 9 - w)
    return {(x + top, y + left) for x, y in cells}


def _free_spot(game: dict[str, Any], cells: list[tuple[int, int]]) -> tuple[int, int]:
    covered = {tuple(c) for piece in game["boards"][game["seat"]]["pieces"] for c in piece["cells"]}
    for r in range(9):
        for c in range(9):
            if not _centred(cells, r, c) & covered:
                return r, c
    raise AssertionError("the patch fits nowhere")


def test_a_whole_game_by_touch_on_a_phone_three_taps_a_patch(phone: Page, server: str) -> None:
    game = start(phone, server, seed=3, button="#welcome-start")
    shot(phone, "phone-1-start")
    # the offers, the quilt and its Place button are on the first screen
    assert in_view(phone, "#offers") and in_view(phone, "#quilt-human") and in_view(phone, "#place")
    taps_per_buy = []
    for move in range(120):
        if phone.get_attribute("body", "data-turn") == "over":
            break
        now = _get(f"{server}/api/games/{game['id']}")
        buyable = phone.locator(".offer:not([disabled])")
        if now["pending_leather"]:
            r, c = _free_spot(now, [(0, 0)])
            cell(phone, r, c).tap()
            cell(phone, r, c).tap()
        elif buyable.count() and move % 3 != 2:
            taps = 0
            patch = int(buyable.first.get_attribute("data-patch") or -1)
            buyable.first.tap()  # 1: choose the patch
            taps += 1
            r, c = _free_spot(now, list(PATCHES[patch].orientations[0].cells))
            cell(phone, r, c).tap()  # 2: the preview, nothing sent yet
            taps += 1
            assert phone.locator("[data-testid=preview]").get_attribute("class") == "preview legal"
            assert int(phone.get_attribute("body", "data-ply") or -1) == now["ply"]
            if move % 2:
                phone.tap("#place")  # 3: Place confirms
            else:
                cell(phone, r, c).tap()  # 3: or a second tap on the preview
            taps += 1
            taps_per_buy.append(taps)
            if len(taps_per_buy) == 1:
                shot(phone, "phone-2-placed")
        else:
            phone.tap("#advance")
        settle(phone)
    else:
        pytest.fail("the game did not end")
    final = _get(f"{server}/api/games/{game['id']}")
    assert final["state"]["over"]
    buys = [m for m in final["moves"] if m["actor"] == "human" and m["move"]["type"] == "buy"]
    assert len(buys) == len(taps_per_buy) >= 3 and max(taps_per_buy) == 3
    # the result came into view by itself: title, scores, Review and Rematch
    phone.wait_for_timeout(800)  # the smooth scroll
    assert in_view(phone, "#result-title") and phone.locator("#review-start").is_visible()
    rows = phone.locator("#scores tbody tr")
    you = final["state"]["players"][final["seat"]]
    assert rows.nth(0).locator("td").last.inner_text() == str(you["score"])
    shot(phone, "phone-3-over")


def test_the_final_scores_come_into_view_on_a_desktop(page: Page, server: str) -> None:
    page.set_viewport_size(DESKTOP)
    game = _finished_game(server, seed=5)
    # the last move is played through the page: take it back, then advance to the end
    page.goto(f"{server}/#{game['id']}")
    page.wait_for_selector("body[data-ready=true]")
    settle(page)
    assert in_view(page, "#result-title") and in_view(page, "#rematch") and in_view(page, "#review-start")
    shot(page, "desktop-4-over")
    page.click("#rematch")
    settle(page)
    assert page.url.split("#", 1)[1] != game["id"] and page.locator("#result").is_hidden()


def test_the_review_steps_through_every_move_by_keys_and_its_labels_follow_the_legend(
    page: Page, server: str
) -> None:
    page.set_viewport_size(DESKTOP)
    game = _finished_game(server, seed=3)
    page.goto(f"{server}/#{game['id']}")
    page.wait_for_selector("body[data-ready=true]")
    settle(page)
    page.select_option("#review-depth", "0.1")
    page.click("#review-start")
    page.wait_for_selector("body[data-review-ply='0']", timeout=120_000)
    review = review_of(server, game["id"], 0.1)  # what the page was sent
    plies = review["plies"]
    assert [p["played"] for p in plies] == [m["move"] for m in game["moves"]]
    # the legend states the rule, and every label follows it; no move that lost nothing is flagged
    assert page.inner_text("[data-testid=label-rule]") == label_rule()
    for p in plies:
        assert p["label"] == label_of(p["loss"], p["points_lost"], p["label"] == "best"), p
        if p["loss"] == 0 and p["points_lost"] == 0:
            assert p["label"] in ("best", "good"), p
    summary = page.inner_text("#review-summary")
    assert "You: accuracy" in summary and " a inaccuracy" not in summary
    assert re.search(r"\d\.\d{3,} s", summary) is None  # "0.1 s", not "0.0998 s"
    shot(page, "desktop-5-review")

    # every move, by keys: the move played drawn, an advance shaded on the track
    for ply in range(len(plies)):
        assert page.get_attribute("body", "data-review-ply") == str(ply)
        assert page.inner_text("[data-testid=review-count]") == f"Move {ply + 1} of {len(plies)}"
        p = plies[ply]
        text = page.inner_text("[data-testid=review-move]")
        assert p["played_text"] in text and ("the best move" in text or p["best_text"] in text)
        if p["played"]["type"] == "advance":
            assert page.locator("#review-track [data-testid=span-played]").count() == 1
        else:
            assert page.locator("[data-testid=review-played] rect").count() >= 1
        if p["label"] != "best" and p["best"]["type"] == "advance":
            assert page.locator("#review-track [data-testid=span-best]").count() == 1
        if ply + 1 < len(plies):
            page.keyboard.press("ArrowRight")
            page.wait_for_selector(f"body[data-review-ply='{ply + 1}']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"body[data-review-ply='{len(plies) - 2}']")
    # a flagged move from the list and from the chart
    plies_of = "nodes => nodes.map(n => n.dataset.ply)"
    listed = [int(x) for x in page.locator("#review-marks li[data-ply]").evaluate_all(plies_of)]
    marked = [int(x) for x in page.locator("#review-chart .mark").evaluate_all(plies_of)]
    assert listed == marked
    if listed:
        page.click(f"#review-marks li[data-ply='{listed[0]}'] button")
        page.wait_for_selector(f"body[data-review-ply='{listed[0]}']")
        page.locator(f"#review-chart .mark[data-ply='{listed[-1]}']").dispatch_event("click")
        page.wait_for_selector(f"body[data-review-ply='{listed[-1]}']")


def test_no_serious_accessibility_violations_on_the_game_the_review_and_the_puzzles(
    page: Page, server: str
) -> None:
    page.set_viewport_size(DESKTOP)
    start(page, server, seed=4)
    page.locator(".offer:not([disabled])").first.click()
    cell(page, 4, 4).hover()
    assert serious_violations(page) == []
    game = _finished_game(server, seed=8)
    page.goto("about:blank")  # a new load, not only a new #hash
    page.goto(f"{server}/#{game['id']}")
    page.wait_for_selector("body[data-ready=true]")
    settle(page)
    page.select_option("#review-depth", "0.1")
    page.click("#review-start")
    page.wait_for_selector("body[data-review-ply='0']", timeout=120_000)
    assert serious_violations(page) == []
    page.goto(f"{server}/puzzles")
    page.wait_for_selector("body[data-ready=true][data-busy=false]")
    assert serious_violations(page) == []
    _answer_the_endgame(page, server)  # an answer: the verdict, green or red, and the line of best play
    page.wait_for_selector("body[data-busy=false]:is([data-answered=correct], [data-answered=wrong])", timeout=60_000)
    assert serious_violations(page) == []
    # streak mode with its counter, then a fill whose budget greys patches
    page.click("#streak-mode")
    page.wait_for_selector("body[data-busy=false][data-streak-mode=true]:not([data-answered=correct]):not("
                           "[data-answered=wrong])", timeout=60_000)
    assert serious_violations(page) == []
    budget = next(p for p in shipped_bank().puzzles["fill"] if isinstance(p, FillPuzzle) and p.budget is not None
                  and any(PATCHES[q].cost > p.budget for q in p.patches))
    page.goto("about:blank")  # a new load, not only a new #hash
    page.goto(f"{server}/puzzles#{budget.id}")
    page.wait_for_selector(f"body[data-ready=true][data-busy=false][data-puzzle='{budget.id}']")
    assert page.locator("#fill-patches .offer.unaffordable").count() >= 1
    assert serious_violations(page) == []
