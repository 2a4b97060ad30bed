"""The game page at 1280x800 and at 390x844 with touch: what stays in reach and what can be told apart.

The AI's quilt is in reach while you place a patch: on a desktop beside your quilt, on a phone in
the bar kept at the top of the screen, drawn large enough to read (its cells at least 11 px) and
showing the AI's patches after it moved. Three hints that overlap on your quilt are told apart:
each its own colour and number, its tag (number and win chance) on a cell of its own, none hidden,
each with its patch's buttons, and the hint's words name each number and colour. A second game
link (/#id) opened in the same tab shows that game, without a reload.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from served_pages import (  # noqa: F401  (fixtures browser, server, served_db)
    browser_fixture,
    served_db_fixture,
    server_fixture,
)
from test_game_layout import SEED_11, press, screen_fixture, touch  # noqa: F401  (fixture screen)
from test_web_page import _get, _post, cell, settle, start

from patchwork_opt.core.bitboard import mask_of
from patchwork_opt.core.catalogue import PATCHES, button_cells
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.words import words_in

pytestmark = pytest.mark.slow


def in_window(page: Page, selector: str) -> bool:
    """The whole element lies within the window, and what shows at its centre is the element itself
    (nothing drawn over it)."""
    return bool(page.locator(selector).evaluate("""el => {
        const r = el.getBoundingClientRect();
        if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && (hit === el || el.contains(hit));
    }"""))


def test_the_ais_quilt_stays_in_reach_while_you_place_a_patch(screen: Page, server: str) -> None:
    phone = touch(screen)
    game = start(screen, server, seed=SEED_11, button="#welcome-start" if phone else "#start")
    press(screen, ".offer[data-patch='11']")
    cell(screen, 7, 4).tap() if phone else cell(screen, 7, 4).click()
    if phone:
        cell(screen, 7, 4).tap()
    settle(screen)
    now = _get(f"{server}/api/games/{game['id']}")
    ai_pieces = len(now["boards"][1 - now["seat"]]["pieces"])
    assert any(m["actor"] == "ai" for m in now["moves"]), "the AI has moved"
    # where you place your next patch: the bottom of your quilt and Place in view
    screen.locator("#place").scroll_into_view_if_needed()
    expect(screen.locator("#place")).to_be_in_viewport()
    quilt = "#strip-quilt-ai" if phone else "#quilt-ai"
    expect(screen.locator(f"{quilt} .piece")).to_have_count(ai_pieces)
    assert in_window(screen, quilt), f"{quilt} is out of reach"
    smallest = min(screen.locator(f"{quilt} .cell").evaluate_all(
        "cs => cs.map(c => Math.min(c.getBoundingClientRect().width, c.getBoundingClientRect().height))"))
    assert smallest >= 11, smallest  # cells big enough to read its patches and buttons
    if phone:
        # the bar stays put as the page scrolls to your quilt's last row, the AI's latest patches outlined
        cell(screen, 8, 8).scroll_into_view_if_needed()
        assert in_window(screen, quilt)
        if any(m["actor"] == "ai" and m["move"]["type"] != "advance" for m in now["moves"]):
            expect(screen.locator("[data-testid=strip-last-ai-move] path")).not_to_have_count(0)


def overlapping_hints(state: State) -> tuple[dict[str, Any], list[list[tuple[int, int]]]]:
    """A hint (as GET /api/games/{id}/hint answers) of three placements of patch #11 on the empty
    quilt that overlap each other, best first; and their cells."""
    shape = PATCHES[11].orientations[0].cells
    placements = [[(r + dr, c + dc) for r, c in shape] for dr, dc in ((0, 0), (0, 1), (1, 1))]
    hints = []
    for win, cells in zip((0.62, 0.55, 0.48), placements, strict=True):
        words = words_in(state, Move.buy(11, mask_of(cells)))
        hints.append({"type": "buy", "patch": 11, "cells": [list(x) for x in cells], "words": words, "win": win,
                      "margin": 1.0, "exact": False, "outcome_proven": False, "reason": f"{words}: a test hint"})
    return {"player": 0, "hints": hints}, placements


def test_three_overlapping_hints_are_told_apart_and_none_is_hidden(screen: Page, server: str) -> None:
    phone = touch(screen)
    start(screen, server, seed=SEED_11, button="#welcome-start" if phone else "#start")
    hint, placements = overlapping_hints(State.new(seed=SEED_11))

    def answer(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(hint))

    screen.route("**/api/games/*/hint", answer)
    press(screen, "#hint")
    text = screen.locator("#hint-text")
    expect(text).to_contain_text("Hint: ")
    said = text.inner_text()
    words = [h["words"] for h in hint["hints"]]
    assert f"{words[0]}: a test hint (1, orange on your quilt)." in said, said
    assert f"Next best: {words[1]} (2, violet on your quilt: you win about 55%); " \
           f"{words[2]} (3, blue on your quilt: you win about 48%)." in said, said
    drawings = screen.locator("#quilt-human .overlay[data-rank]")
    expect(drawings).to_have_count(3)
    tags = screen.locator("#quilt-human [data-testid=hint-tags] .cell-tag")
    expect(tags).to_have_count(3)
    colours = set()
    for rank, cells in enumerate(placements, start=1):
        drawing = screen.locator(f"#quilt-human .overlay[data-rank='{rank}']")
        drawn = drawing.locator("rect").evaluate_all(
            "rs => rs.map(r => [Number(r.getAttribute('y')) / 34, Number(r.getAttribute('x')) / 34])")
        assert sorted((int(r), int(c)) for r, c in drawn) == sorted(cells)
        colours.add(drawing.locator("path").evaluate("p => getComputedStyle(p).stroke"))
        # the patch's button, where the placed patch will have it
        dots = drawing.locator("circle.button-icon").evaluate_all(
            "cs => cs.map(c => [(Number(c.getAttribute('cy')) - 17) / 34, (Number(c.getAttribute('cx')) - 17) / 34])")
        assert sorted((int(r), int(c)) for r, c in dots) == sorted(button_cells(11, mask_of(cells)))
        tag = tags.nth(rank - 1)
        expect(tag.locator(".cell-tag-rank")).to_have_text(str(rank))
        expect(tag.locator(".overlay-label")).to_have_text(f"{round(100 * hint['hints'][rank - 1]['win'])}%")
        box = tag.locator("rect").evaluate("r => [Number(r.getAttribute('y')) / 34, Number(r.getAttribute('x')) / 34]")
        assert (int(box[0]), int(box[1])) in cells  # the tag on a cell of its own hint
    assert len(colours) == 3, colours
    # no tag covers another: their boxes on screen are apart
    boxes = tags.locator("rect").evaluate_all(
        "rs => rs.map(r => { const b = r.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_a_second_game_link_in_the_same_tab_shows_that_game(screen: Page, server: str) -> None:
    first = _post(f"{server}/api/games", {"seed": 1, "ai": "greedy", "level": 1})
    second = _post(f"{server}/api/games", {"seed": 2, "ai": "greedy", "level": 1})
    url = f"{server}/api/games/{second['id']}"
    second = _post(f"{url}/moves", {"ply": 0, "move": {"type": "advance"}})
    while second["ai_to_move"]:
        second = _post(f"{url}/ai-move", {"ply": second["ply"]})
    screen.goto(f"{server}/#{first['id']}")
    screen.wait_for_selector("body[data-ready=true]")
    settle(screen)
    expect(screen.locator("#log li")).to_have_count(0)
    screen.evaluate("() => { window.samePage = true; }")
    screen.goto(f"{server}/#{second['id']}")  # the link changed in the address bar, the page not reloaded
    expect(screen.locator("#log li")).to_have_count(len(second["moves"]))
    offers = [str(o["patch"]) for o in second["offers"]]
    expect(screen.locator(".offer")).to_have_count(len(offers))
    assert screen.locator(".offer").evaluate_all("os => os.map(o => o.dataset.patch)") == offers
    expect(screen.locator("#export")).to_have_attribute("href", f"/api/games/{second['id']}/record?download=true")
    expect(screen.locator("#stats-human [data-stat=space]")).to_have_text(
        str(second["state"]["players"][second["seat"]]["position"]))
    assert screen.evaluate("() => window.samePage === true")
    # and back to the first game
    screen.go_back()
    expect(screen.locator("#log li")).to_have_count(0)
    expect(screen.locator("#export")).to_have_attribute("href", f"/api/games/{first['id']}/record?download=true")
    assert screen.evaluate("() => window.samePage === true")
