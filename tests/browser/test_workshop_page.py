"""The workshop page (/workshop) in a real browser, at 1280x800 by mouse and keys and at 390x844 by
touch: a quilt painted cell by cell and by strokes, patches picked by their names ("patch #ID ..."),
the optimal fill proven and the same as `patchwork fill` says for that quilt and those patches, the
best placements stepped through with their reasons, the page reproduced from its own address, a
long fill cancelled (the server free for the next question at once), the 7x7 question answered
and shown, and bad input answered by a line on the page. No serious or critical accessibility
violation, no sideways scrolling."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from served_pages import (  # noqa: F401  (fixtures browser, server, served_db)
    SCREENS,
    browser_fixture,
    checked_page,
    serious_violations,
    served_db_fixture,
    server_fixture,
)

from patchwork_opt.apps.placement_reasons import open_area_words
from patchwork_opt.bench.workshop_page import timed_answer, workshop_address
from patchwork_opt.core.bitboard import FULL, mask_of
from patchwork_opt.core.catalogue import PATCH_COUNT, PATCHES
from solvers.bounds import Pool

pytestmark = pytest.mark.slow
Cells = set[tuple[int, int]]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = os.environ.get("PATCHWORK_SCREENSHOTS")  # a folder to keep screenshots in, when set
#: A quilt and patches whose optimal fill is proven in a moment (`bench workshop`'s warm-up set).
FILL_PATCHES = [1, 2, 5, 9, 13, 20]
#: Patches that complete the square at rows 0-6, cols 0-6 of an empty quilt (52 buttons).
SQUARE_PATCHES = [0, 3, 6, 7, 8, 10, 11, 14, 15, 23, 24, 30]


@pytest.fixture(name="ws", params=list(SCREENS))
def workshop_fixture(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page at each screen size (the phone's by touch), failing its test on any page error."""
    for page in checked_page(browser, **SCREENS[request.param]):
        page.set_default_timeout(60_000)
        yield page


@pytest.fixture(name="refused", params=list(SCREENS))
def refused_fixture(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """As ``ws``, except that the browser's own console line for a 422 answer (the refusals the test
    asks for) is expected; any other error still fails the test."""
    for page in checked_page(browser, expected=("status of 422",), **SCREENS[request.param]):
        page.set_default_timeout(60_000)
        yield page


def open_page(page: Page, server: str, address: str = "/workshop") -> None:
    page.goto(server + address)
    page.wait_for_selector("body[data-ready='true']")


def touch(page: Page) -> bool:
    return bool(page.evaluate("() => matchMedia('(pointer: coarse)').matches"))


def press(page: Page, target: Locator) -> None:
    """A tap on a phone, a click on a desktop."""
    target.tap() if touch(page) else target.click()


def cell(page: Page, r: int, c: int) -> Locator:
    return page.get_by_role("button", name=f"row {r}, col {c}", exact=True)


def card(page: Page, pid: int) -> Locator:
    """The patch's card, by its accessible name ("patch #12 cost 3 ...")."""
    return page.get_by_role("button", name=re.compile(rf"^patch #{pid} "))


def pressed(page: Page) -> Cells:
    """The quilt's cells whose buttons are pressed (covered)."""
    found = page.locator("#quilt .cell[aria-pressed='true']").evaluate_all(
        "nodes => nodes.map(n => [Number(n.dataset.r), Number(n.dataset.c)])")
    return {(r, c) for r, c in found}


def marked(page: Page) -> Cells:
    """The cells of the answer's step drawn on the quilt (outlined)."""
    found = page.locator("[data-testid=answer-mark] rect:not(.overlay-tag)").evaluate_all(
        "nodes => nodes.map(n => [Number(n.getAttribute('y')) / 34, Number(n.getAttribute('x')) / 34])")
    return {(round(r), round(c)) for r, c in found}


def answered(page: Page, kind: str) -> None:
    """Until the page shows an answer of that kind and asks nothing more."""
    page.wait_for_function(f"() => (document.body.dataset.answer || '').startsWith('{kind}:') "
                           "&& document.body.dataset.busy === 'false'")


def stroke(page: Page, cells: list[tuple[int, int]]) -> None:
    """One stroke over the cells: the mouse held down, or a finger (touch events, through CDP)."""
    points = []
    for r, c in cells:
        box = cell(page, r, c).bounding_box()
        assert box is not None
        points.append((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    if touch(page):
        cdp = page.context.new_cdp_session(page)
        for i, (x, y) in enumerate(points):
            kind = "touchMove" if i else "touchStart"
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
    else:
        page.mouse.move(*points[0])
        page.mouse.down()
        for x, y in points[1:]:
            page.mouse.move(x, y, steps=4)
        page.mouse.up()


def check_page(page: Page, name: str) -> None:
    """No serious accessibility violation, no sideways scrolling; a screenshot when asked for."""
    assert serious_violations(page) == []
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        size = "phone" if touch(page) else "desktop"
        page.screenshot(path=str(Path(SHOTS) / f"workshop-{size}-{name}.png"), full_page=True)


def cli_json(*args: str) -> dict[str, Any]:
    """What `patchwork ARGS --json` prints."""
    out = subprocess.run([sys.executable, "-m", "cli", *args, "--json"], capture_output=True, text=True, cwd=ROOT,
                         check=True, timeout=300)
    answer: dict[str, Any] = json.loads(out.stdout)
    return answer


def fetched(server: str, path: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(server + path, timeout=30) as response:
        return response.headers["Content-Type"], response.read()


def test_paint_a_quilt_pick_patches_by_name_and_get_the_proven_optimal_fill(ws: Page, server: str) -> None:
    open_page(ws, server)
    corner = cell(ws, 0, 0)
    assert corner.get_attribute("aria-pressed") == "false"
    press(ws, corner)
    assert pressed(ws) == {(0, 0)}
    press(ws, corner)  # a second press uncovers it
    assert pressed(ws) == set()
    stroke(ws, [(0, 0), (0, 1), (0, 2), (1, 2)])  # a stroke covers every cell it crosses
    press(ws, cell(ws, 4, 4))
    assert pressed(ws) == {(0, 0), (0, 1), (0, 2), (1, 2), (4, 4)}
    press(ws, ws.get_by_role("button", name="Clear"))
    assert pressed(ws) == set()
    stroke(ws, [(0, 0), (0, 1), (0, 2), (1, 2)])
    if touch(ws):
        press(ws, cell(ws, 4, 4))
    else:  # the keyboard: the arrows move from cell to cell, Space covers
        cell(ws, 3, 3).focus()
        ws.keyboard.press("ArrowDown")
        ws.keyboard.press("ArrowRight")
        ws.keyboard.press("Space")
    quilt = {(0, 0), (0, 1), (0, 2), (1, 2), (4, 4)}
    assert pressed(ws) == quilt
    for pid in FILL_PATCHES:
        press(ws, card(ws, pid))
        assert card(ws, pid).get_attribute("aria-pressed") == "true"
    press(ws, ws.get_by_role("button", name="Optimal fill"))
    answered(ws, "fill")
    cli = cli_json("fill", "--quilt", json.dumps(sorted(quilt)), "--patches", ",".join(map(str, FILL_PATCHES)))
    assert cli["optimal"] and ws.inner_text("[data-testid=verdict]") == "optimal (proven)"
    summary = ws.inner_text("[data-testid=summary]")
    assert f"cover {cli['objective']} cells" in summary
    assert f"cost {cli['cost']} buttons, income {cli['income']}" in summary
    # the answer is drawn patch by patch; the painted quilt stays as painted
    n = len(cli["placements"])
    assert ws.inner_text("[data-testid=step-count]").startswith(f"Patch {n} of {n}: #")
    assert ws.locator("#quilt .piece.proposed").count() == n and pressed(ws) == quilt
    press(ws, ws.get_by_role("button", name="◀ Previous"))
    assert ws.inner_text("[data-testid=step-count]").startswith(f"Patch {n - 1} of {n}: #")
    assert ws.locator("#quilt .piece.proposed").count() == n - 1
    # its export is the CLI's JSON for the same request
    _, body = fetched(server, ws.get_attribute("#export-json", "href") or "")
    exported = json.loads(body)
    assert exported["objective"] == cli["objective"] and exported["optimal"]
    check_page(ws, "fill")


def test_best_placements_are_drawn_one_by_one_with_their_reasons(ws: Page, server: str) -> None:
    open_page(ws, server)
    for r, c in [(0, 0), (0, 1), (1, 0), (4, 4)]:
        press(ws, cell(ws, r, c))
    # patches by their look: filtered by cost and time at once, then by size
    ws.fill("#filter-cost", "3")
    ws.fill("#filter-time", "6")
    ws.wait_for_function("() => document.querySelectorAll('#patch-cards .offer').length === 1")
    press(ws, card(ws, 12))
    ws.fill("#filter-cost", "")
    ws.fill("#filter-time", "")
    ws.fill("#filter-cells", "5")
    ws.wait_for_function("() => document.querySelectorAll('#patch-cards .offer').length < 33")
    assert all(f.endswith("cells 5") for f in ws.locator("#patch-cards .offer").all_inner_texts())
    press(ws, card(ws, 3))
    assert "Best placements of #12, looking ahead to #3" in ws.inner_text("[data-testid=chosen]")
    if touch(ws):
        press(ws, ws.get_by_role("button", name="Best placements"))
    else:  # timed as `bench workshop --page` times it
        assert timed_answer(ws, "best-placements")["seconds"] < 60
    answered(ws, "placements")
    request = {"quilt": [[0, 0], [0, 1], [1, 0], [4, 4]], "patch": 12, "next": [3], "top": 5}
    api = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"{server}/api/workshop/placements", json.dumps(request).encode(), {"Content-Type": "application/json"}),
        timeout=60).read())
    best = api["placements"]
    for k, placement in enumerate(best, start=1):
        assert ws.inner_text("[data-testid=step-count]").startswith(f"Placement {k} of {len(best)}")
        assert marked(ws) == {tuple(x) for x in placement["cells"]}
        reasons = ws.inner_text("[data-testid=reasons]")
        assert placement["reasons"]["touches"] in reasons and "the next patch #3" in reasons
        if k < len(best):
            press(ws, ws.get_by_role("button", name="Next ▶"))
    if not touch(ws):  # the arrow keys step too
        ws.locator("h1").click()
        ws.keyboard.press("ArrowLeft")
        assert ws.inner_text("[data-testid=step-count]").startswith(f"Placement {len(best) - 1} of")
    assert pressed(ws) == {(0, 0), (0, 1), (1, 0), (4, 4)}  # a placement shown is not painted
    check_page(ws, "placements")


def test_a_placement_cutting_the_open_area_says_so_in_its_reasons(ws: Page, server: str) -> None:
    corridor = FULL & ~mask_of((0, c) for c in range(9))  # only row 0 open
    open_page(ws, server, workshop_address(corridor, [0]))
    press(ws, ws.get_by_role("button", name="Best placements"))
    answered(ws, "placements")
    total = int(ws.inner_text("[data-testid=step-count]").split(" of ")[1].split(":")[0])
    told = []
    for k in range(1, total + 1):
        expected = open_area_words(corridor, mask_of(marked(ws)), Pool.of(range(1, PATCH_COUNT)))
        reasons = ws.inner_text("[data-testid=reasons]")
        assert (expected in reasons and "Open area" in reasons) if expected else "Open area" not in reasons
        told.append(expected)
        if k < total:
            press(ws, ws.get_by_role("button", name="Next ▶"))
    assert "" in told and any(w.startswith("leaves a ") for w in told)  # the ends say nothing, a cut says so


def test_the_page_comes_back_from_its_link(ws: Page, server: str, browser: Browser) -> None:
    quilt = 1 | 1 << 1 | 1 << 9 | 1 << 40  # cells [0, 0], [0, 1], [1, 0], [4, 4]
    open_page(ws, server, workshop_address(quilt, [12]))
    press(ws, card(ws, 3))
    ws.fill("#filter-cells", "4-6")
    ws.select_option("#objective", "points")
    ws.fill("#budget", "10")
    ws.fill("#marks", "5")
    ws.check("#require-bonus")
    press(ws, ws.get_by_role("button", name="Best placements"))
    answered(ws, "placements")
    press(ws, ws.get_by_role("button", name="Next ▶"))
    shown, link = marked(ws), ws.url
    assert "mode=placements" in link and "step=2" in link
    again = browser.new_page(**SCREENS["desktop"])
    try:
        open_page(again, "", link)
        answered(again, "placements")
        assert pressed(again) == {(0, 0), (0, 1), (1, 0), (4, 4)}
        assert [card(again, pid).get_attribute("aria-pressed") for pid in (12, 3, 5)] == ["true", "true", "false"]
        assert again.input_value("#filter-cells") == "4-6" and again.input_value("#objective") == "points"
        assert again.input_value("#budget") == "10" and again.input_value("#marks") == "5"
        assert again.is_checked("#require-bonus")
        assert again.inner_text("[data-testid=step-count]").startswith("Placement 2 of")
        assert marked(again) == shown and again.url == link
    finally:
        again.close()


def test_a_long_fill_shows_its_progress_and_is_cancelled(ws: Page, server: str) -> None:
    open_page(ws, server, "/workshop?objective=points")
    press(ws, ws.get_by_role("button", name="Choose every patch listed"))
    assert "#7 and 25 more; a fill and the 7x7 question take all 33" in ws.inner_text("[data-testid=chosen]")
    press(ws, ws.get_by_role("button", name="Optimal fill"))
    ws.wait_for_function("() => document.getElementById('job-words').textContent.includes('searching')")
    assert ws.locator("#job-progress").is_visible()
    press(ws, ws.get_by_role("button", name="Cancel"))  # well before the page's first 3 s
    answered(ws, "fill")
    assert ws.inner_text("[data-testid=verdict]").startswith("cancelled")
    assert ws.locator("#job").is_hidden()
    check_page(ws, "cancelled")
    # the server runs the next question at once
    press(ws, card(ws, 0))  # #0 no longer chosen: #1 is the patch to place
    press(ws, ws.get_by_role("button", name="Best placements"))
    answered(ws, "placements")
    assert ws.inner_text("#answer-title").startswith("Best placements of #1, looking ahead to #2")


def points_of(page: Page) -> int:
    """The points of the fill on screen, from its summary ("...; 341 points; cost ...")."""
    found = re.search(r", (-?\d+) points;", page.inner_text("[data-testid=summary]"))
    assert found, page.inner_text("[data-testid=summary]")
    return int(found.group(1))


def test_a_fill_stopped_by_its_time_is_given_more_time(ws: Page, server: str) -> None:
    """All 33 patches for points on an empty quilt: not proven in the page's first 3 s. The page says
    so and offers the server's 5 s; asked again, the search runs that long and answers (a fresh search
    with more time: CP-SAT's answer is not bound to be as good as the first one's, so no order is asserted)."""
    open_page(ws, server, "/workshop?objective=points")
    press(ws, ws.get_by_role("button", name="Choose every patch listed"))
    press(ws, ws.get_by_role("button", name="Optimal fill"))
    answered(ws, "fill")
    verdict, more = ws.get_by_test_id("verdict"), ws.get_by_role("button", name="Give it more time")
    expect(verdict).to_have_text(re.compile(r"^the best found; at most \d+ points can be gained$"))
    expect(ws.get_by_test_id("more-words")).to_have_text("It stopped after 3 s; asked again it may search 5 s.")
    first, shown = points_of(ws), ws.get_attribute("body", "data-answer")
    press(ws, more)
    expect(ws.locator("body")).not_to_have_attribute("data-answer", shown or "")
    expect(ws.locator("#job-progress")).to_have_attribute("max", "5")  # the longer time, while it runs
    answered(ws, "fill")
    expect(verdict).to_have_text(re.compile(r"^(optimal \(proven\)|the best found; at most \d+ points can be gained)$"))
    expect(more).to_be_hidden()  # it had the most this server gives
    assert points_of(ws) > 0 and first > 0
    check_page(ws, "more-time")


def test_pressing_a_chosen_patch_again_puts_it_back_and_says_which_is_placed(ws: Page, server: str) -> None:
    open_page(ws, server)
    for pid in (12, 3, 5):
        press(ws, card(ws, pid))
    note, chosen = ws.get_by_test_id("choice-note"), ws.get_by_test_id("chosen")
    expect(card(ws, 12)).to_contain_text("to place")
    expect(card(ws, 3)).to_contain_text("look-ahead 1")
    expect(card(ws, 5)).to_contain_text("look-ahead 2")
    press(ws, card(ws, 3))  # a look-ahead put back: the patch to place stays
    expect(note).to_have_text("#3 is put back: #12 is still the patch to place.")
    expect(card(ws, 3)).to_have_attribute("aria-pressed", "false")
    expect(card(ws, 12)).to_contain_text("to place")
    expect(card(ws, 5)).to_contain_text("look-ahead 1")
    expect(chosen).to_contain_text("Best placements of #12, looking ahead to #5;")
    press(ws, card(ws, 12))  # the patch to place put back: which one is placed now is said where it was pressed
    expect(note).to_have_text("#12 is put back: #5 is the patch to place now.")
    expect(card(ws, 12)).to_contain_text("put back: #5 to place now")
    expect(card(ws, 12)).to_be_in_viewport()
    expect(card(ws, 5)).to_contain_text("to place")
    expect(chosen).to_contain_text("Best placements of #5;")
    press(ws, ws.get_by_role("button", name="Best placements"))
    answered(ws, "placements")
    expect(ws.locator("#answer-title")).to_have_text("Best placements of #5")
    press(ws, card(ws, 3))  # chosen again: the note has said its part
    expect(note).to_be_hidden()
    expect(card(ws, 3)).to_contain_text("look-ahead 1")
    check_page(ws, "put-back")


def test_patches_are_filtered_by_their_buttons(ws: Page, server: str) -> None:
    cards = ws.locator("#patch-cards .offer")
    open_page(ws, server)
    ws.get_by_label("Buttons").fill("3")
    three = [p.id for p in PATCHES if p.income == 3]
    expect(cards).to_have_count(len(three))
    assert sorted(int(n) for n in cards.evaluate_all("cs => cs.map(c => c.dataset.patch)")) == three
    ws.get_by_label("Size").fill("6")  # beside the other filters
    both = [p.id for p in PATCHES if p.income == 3 and p.area == 6]
    expect(cards).to_have_count(len(both))
    for pid in both:
        expect(card(ws, pid)).to_contain_text("income 3")
    ws.get_by_label("Buttons").fill("0-1")
    expect(cards).to_have_count(len([p for p in PATCHES if p.income <= 1 and p.area == 6]))
    link = ws.url
    assert "income=0-1" in link
    open_page(ws, "", link)  # the link keeps the filter
    expect(ws.get_by_label("Buttons")).to_have_value("0-1")
    expect(cards).to_have_count(len([p for p in PATCHES if p.income <= 1 and p.area == 6]))
    check_page(ws, "buttons-filter")


def test_the_7x7_question_is_answered_and_its_patches_drawn(ws: Page, server: str) -> None:
    open_page(ws, server, workshop_address(0, SQUARE_PATCHES))
    press(ws, ws.get_by_role("button", name="Can the 7x7 be completed?"))
    answered(ws, "bonus")
    cli = cli_json("bonus", json.dumps([]), "--patches", ",".join(map(str, SQUARE_PATCHES)))
    verdict = ws.inner_text("[data-testid=verdict]")
    assert cli["feasible"] and verdict.startswith("feasible: the square at rows 0-6, cols 0-6 can be completed with")
    assert ws.locator("[data-testid=bonus-square]").count() == 1  # every patch drawn: the square complete
    press(ws, ws.get_by_role("button", name="◀ Previous"))
    assert ws.locator("[data-testid=bonus-square]").count() == 0
    for fmt, kind in (("svg", "image/svg+xml"), ("png", "image/png"), ("json", "application/json")):
        content_type, body = fetched(server, ws.get_attribute(f"#export-{fmt}", "href") or "")
        assert content_type.startswith(kind) and body
    check_page(ws, "bonus")


def test_bad_input_gets_a_clear_line_on_the_page(refused: Page, server: str) -> None:
    open_page(refused, server, "/workshop?quilt=zz&patches=99,1")
    error = refused.locator("[data-testid=error]")
    assert error.inner_text() == ('this link: quilt: "zz" is not a quilt\'s code (up to 21 hex digits); '
                                  'patches: no patch "99" (ids 0-32)')
    refused.fill("#budget", "-1")
    press(refused, refused.get_by_role("button", name="Optimal fill"))
    # the API's refusal in a player's words, not its field places ("body.budget: Input should be ...")
    expect(error).to_have_text("The budget must be 0 or more; it is -1.")
    refused.fill("#filter-cost", "lots")
    expect(refused.get_by_test_id("filter-words")).to_have_text(
        "The cost filter can't be read: expected a number or a range like 2-4.")
    assert refused.locator("#patch-cards .offer").count() == 0
    refused.fill("#filter-cost", "40")  # none matches: the closest ones, and that in words
    refused.wait_for_function("() => document.getElementById('filter-words').textContent.startsWith('no patch')")
    assert refused.locator("#patch-cards .offer").count() > 0
    press(refused, refused.locator("#start summary"))
    refused.fill("#quilt-text", "xxx\n...\n")
    press(refused, refused.get_by_role("button", name="Use this quilt"))
    refused.wait_for_function("() => document.getElementById('error').textContent.includes('9x9')")
    assert "not a 9x9 quilt" in error.inner_text()
    refused.fill("#position-text", "not a position")
    press(refused, refused.get_by_role("button", name="Open the position"))
    expect(error).to_have_text(
        "This position can't be read: not a position in the notation (9 space-separated fields).")
    press(refused, refused.get_by_role("button", name="Choose none"))
    press(refused, refused.get_by_role("button", name="Best placements"))
    assert error.inner_text() == "choose a patch first: press one of the Patches"
    check_page(refused, "errors")


def test_bench_workshop_page_times_the_page() -> None:
    """`patchwork bench workshop --page`: the docs' figures, measured on the page in Chromium."""
    done = subprocess.run([sys.executable, "-m", "cli", "bench", "workshop", "--page", "--placements", "2", "--sets",
                           "2", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["placements"]["requests"] == 2 and 0 < figures["placements"]["p50_ms"] < 60_000
    assert figures["fills"]["sets"] == 2 and [row["patches"] for row in figures["fills"]["rows"]] == [4, 18]
    assert len(figures["load"]["before"]) == 3
