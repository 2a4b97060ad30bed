"""The analysis board (/analysis) in a real browser, at 1280x800 by mouse and keys and at 390x844 by
touch: a position opened from its notation and analysed live (the lines and figures growing, a line
drawn on the quilts when pointed at or pressed, Stop, and the server's time limit), a stored game's
ply opened with the game's moves to step through and a variation played on the board for either
side, a record pasted and uploaded, a position set up from the table (the circle picked patch by
patch, a quilt painted) or refused with the server's line, and the engine refused with a clear
line when this visitor already runs two analyses. No serious or critical accessibility violation,
no sideways scrolling."""

from __future__ import annotations

import http.client
import json
import os
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urlparse

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from served_pages import (  # noqa: F401  (fixtures browser, server, served_db, served_store)
    SCREENS,
    browser_fixture,
    checked_page,
    serious_violations,
    served_db_fixture,
    served_store_fixture,
    server_fixture,
    store_record,
)

from patchwork_opt.apps.web.game_store import GameStore
from patchwork_opt.core.catalogue import LEATHER_PRINTINGS, PATCHES
from patchwork_opt.core.words import words_in as move_words
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.formats.setup import PhysicalSetup, setup_state

pytestmark = pytest.mark.slow
#: the server's limit on one live analysis (seconds): short, so that a test sees it reached
LIMIT = 6
SERVE_ARGS = ["--max-analysis-seconds", LIMIT]
SHOTS = os.environ.get("PATCHWORK_SCREENSHOTS")  # a folder to keep screenshots in, when set
GAME = Record.load(Path(__file__).resolve().parents[1] / "data" / "solver_rollout_game.json")
MIDGAME = GAME.replay(10)  # Player 2 to move, on space 15 against 16: the engine cannot solve it
LATE = GAME.replay(39)     # both tokens on space 46: the exact search solves it in a moment


@pytest.fixture(name="an", params=list(SCREENS))
def analysis_fixture(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page at each screen size (the phone's by touch), failing its test on any page error."""
    for page in checked_page(browser, **SCREENS[request.param]):
        page.set_default_timeout(120_000)
        yield page


@pytest.fixture(name="refused", params=list(SCREENS))
def refused_fixture(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """As ``an``, except that the browser's own console line for the refusals the test asks for
    (422, 429) is expected; any other error still fails the test."""
    for page in checked_page(browser, expected=("status of 422", "status of 429"), **SCREENS[request.param]):
        page.set_default_timeout(120_000)
        yield page


def touch(page: Page) -> bool:
    return bool(page.evaluate("() => matchMedia('(pointer: coarse)').matches"))


def press(page: Page, target: Locator) -> None:
    """A tap on a phone, a click on a desktop."""
    target.tap() if touch(page) else target.click()


def button(page: Page, name: str) -> Locator:
    return page.get_by_role("button", name=name, exact=True)


def open_board(page: Page, server: str, address: str = "/analysis") -> None:
    page.goto(server + address)
    page.wait_for_selector("body[data-ready='true']")


def position_address(state_notation: str) -> str:
    return f"/analysis?position={quote(state_notation)}"


def notation(page: Page) -> str:
    return page.input_value("#notation")


def on_board(page: Page, text: str) -> None:
    """Until the board shows the position ``text`` and asks the server nothing."""
    page.wait_for_function("n => document.getElementById('notation').value === n "
                           "&& document.body.dataset.busy === 'false'", arg=text)


def current_starts(page: Page, words: str) -> None:
    """Until the move the board shows, in the moves list, starts with ``words``."""
    page.wait_for_function("w => (document.querySelector('[data-testid=tree] [aria-current=true]') || {}).textContent"
                           "?.startsWith(w)", arg=words)


def get(server: str, path: str) -> Any:
    with urllib.request.urlopen(server + path, timeout=60) as response:
        return json.loads(response.read())


def wait_free(server: str) -> None:
    """Until the server runs no live analysis (5 s at most)."""
    deadline = time.monotonic() + 5
    while get(server, "/api/health")["streams"]["running"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert get(server, "/api/health")["streams"]["running"] == 0


def check_page(page: Page, name: str) -> None:
    """No serious accessibility violation, no sideways scrolling; a screenshot when asked for."""
    assert serious_violations(page) == []
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        size = "phone" if touch(page) else "desktop"
        page.screenshot(path=str(Path(SHOTS) / f"analysis-{size}-{name}.png"), full_page=True)


def snapshots(page: Page) -> int:
    """Tenths of a second of thinking the page's latest snapshot reports."""
    return int(page.evaluate("() => Number(document.body.dataset.snapshots)"))


def test_a_position_from_its_notation_is_analysed_live_then_stopped(an: Page, server: str) -> None:
    text = to_notation(MIDGAME)
    open_board(an, server, position_address(text))
    assert notation(an) == text and an.inner_text("[data-testid=to-move]") == "Player 2 to move."
    for key, seat in (("p1", 0), ("p2", 1)):
        assert an.inner_text(f"#an-stats-{key} dd[data-stat=space]") == str(MIDGAME.pos[seat])
    assert an.locator("#an-offers .offer").count() == 3
    press(an, button(an, "Go"))
    an.wait_for_function("() => document.body.dataset.engine === 'thinking' "
                         "&& document.querySelectorAll('#lines li').length === 3")
    legal = {m["words"] for m in get(server, f"/api/analysis/moves?{urlencode({'position': text})}")["moves"]}
    # the figures grow: later snapshots think longer, every line a legal move with its figures
    first, figures = snapshots(an), an.inner_text("[data-testid=engine-figures]")
    an.wait_for_function(f"() => Number(document.body.dataset.snapshots) > {first}")
    assert an.inner_text("[data-testid=engine-figures]") != figures
    for line in an.locator("#lines li").all():
        words = line.locator("[data-part=move]").inner_text()
        assert words in legal
        assert line.locator("[data-part=win]").inner_text().startswith("win ")
        assert line.locator("[data-part=proof]").inner_text().startswith(("estimate from", "proven"))
    assert an.get_attribute("#win-bar", "aria-label").startswith("win chances with best play: Player 1 ")  # type: ignore[union-attr]
    # a line on the board: pointed at on a desktop, pressed on a phone (then it stays drawn)
    best = an.locator("#lines li").first
    if touch(an):
        press(an, best.locator(".line-show"))
        assert best.locator(".line-show").get_attribute("aria-pressed") == "true"
    else:
        best.hover()
    an.wait_for_selector("[data-testid=line-move-1]")
    # the line's first move and what the board draws, read at one moment (the lines keep changing)
    first_move, cells = an.evaluate("""() => [JSON.parse(document.querySelector('#lines li').dataset.move),
        [...document.querySelectorAll('[data-testid=line-move-1] rect:not(.overlay-tag)')].map(
            n => [Number(n.getAttribute('y')) / 34, Number(n.getAttribute('x')) / 34])]""")
    if first_move["type"] == "buy":  # its patch drawn where the line puts it
        assert {(round(r), round(c)) for r, c in cells} == {(r, c) for r, c in first_move["cells"]}
    press(an, button(an, "Stop"))
    an.wait_for_function("() => document.body.dataset.engine === 'stopped'")
    assert an.inner_text("[data-testid=engine-state]") == "Stopped. Go thinks again."
    stopped = an.inner_text("[data-testid=engine-figures]")
    time.sleep(1)
    assert an.inner_text("[data-testid=engine-figures]") == stopped  # the figures stand still
    wait_free(server)  # the server let the analysis go
    check_page(an, "stopped")
    # Go again: it thinks until the server's limit, then says so
    press(an, button(an, "Go"))
    an.wait_for_function("() => document.body.dataset.engine === 'time'", timeout=LIMIT * 1000 + 120_000)
    said = an.inner_text("[data-testid=engine-state]")
    assert said == f"Stopped at the server's limit ({LIMIT} s of thinking). Go thinks again."
    assert button(an, "Go").is_enabled() and button(an, "Stop").is_disabled()


def line_visits(page: Page) -> tuple[int, str, dict[str, int]]:
    """The latest snapshot (its tenths of a second), the engine's phase, and the games behind each
    line's estimate by the line's move (JSON), best first, read at one moment."""
    tenths, phase, lines = page.evaluate("""() => [Number(document.body.dataset.snapshots),
        document.body.dataset.engine, [...document.querySelectorAll('#lines li')].map(li =>
            [li.dataset.move, li.querySelector('[data-part=proof]').textContent])]""")
    visits = {}
    for move, proof in lines:
        found = re.fullmatch(r"estimate from ([\d,]+) games", proof)
        assert found, proof  # the engine cannot prove anything here
        visits[move] = int(found[1].replace(",", ""))
    return tenths, phase, visits


def test_every_line_keeps_growing_as_the_engine_thinks(an: Page, server: str) -> None:
    """Not only the best line: lines 2 and 3 have new figures in every snapshot after the first
    seconds, until the server's limit (the engine used to leave them standing for seconds while
    line 1 grew)."""
    open_board(an, server, position_address(to_notation(MIDGAME)))
    press(an, button(an, "Go"))
    an.wait_for_function("() => Number(document.body.dataset.snapshots) >= 20 "
                         "&& document.querySelectorAll('#lines li').length === 3")  # 2 s of thinking
    compared = 0
    tenths, phase, before = line_visits(an)
    while phase == "thinking":
        an.wait_for_function("([t, p]) => Number(document.body.dataset.snapshots) !== t "
                             "|| document.body.dataset.engine !== p", arg=[tenths, phase])  # the next snapshot
        tenths, phase, after = line_visits(an)
        for rank, move in enumerate(before, 1):
            if rank > 1 and move in after:  # lines 2 and 3 as they were: more games behind them now
                assert after[move] > before[move], f"line {rank} stood at {before[move]} games at {tenths / 10} s"
                compared += 1
        before = after
    assert phase == "time" and compared >= 6  # the server's limit, after at least three snapshots


def test_a_late_position_is_solved_and_its_lines_proven(an: Page, server: str) -> None:
    open_board(an, server, position_address(to_notation(LATE)))
    an.select_option("#line-count", "5")
    press(an, button(an, "Go"))
    an.wait_for_function("() => document.body.dataset.engine === 'solved'")
    assert an.inner_text("[data-testid=engine-state]").startswith("Solved: every way the game can go was checked")
    proofs = an.locator("#lines [data-part=proof]").all_inner_texts()
    assert proofs and all(p == "proven: exact" for p in proofs)
    assert an.get_attribute("#win-bar", "aria-label").endswith("(proven)")  # type: ignore[union-attr]
    assert "you win by" in an.locator("#lines [data-part=outcome]").first.inner_text()
    check_page(an, "solved")


def test_a_games_ply_opens_with_its_moves_and_a_variation_is_played(an: Page, server: str,
                                                                    served_store: GameStore) -> None:
    game = store_record(served_store, GAME, seat=0)
    open_board(an, server, f"/analysis?game={game.id}&ply=10")
    on_board(an, to_notation(MIDGAME))
    assert an.inner_text("[data-testid=to-move]") == f"Player 2 to move. Before move 11 of game {game.id}."
    tree = an.locator("[data-testid=tree] .move")
    assert tree.count() == len(GAME.moves) + 1  # the start, then every move of the game
    current = an.locator("[data-testid=tree] [aria-current=true]")
    assert current.inner_text() == f"10. Player 1: {move_words(GAME.replay(9), GAME.moves[9])}"
    press(an, button(an, "◀ Back"))
    on_board(an, to_notation(GAME.replay(9)))
    assert "game=" in an.url and "ply=9" in an.url
    if touch(an):
        press(an, button(an, "Forward ▶"))
    else:
        an.locator("h1").click()
        an.keyboard.press("ArrowRight")
    on_board(an, to_notation(MIDGAME))
    # a variation: Player 2 buys a patch the game's move did not, on the board
    pid = next(p for p in MIDGAME.buyable() if p != GAME.moves[10].patch)
    shape = PATCHES[pid].orientations[0]
    free = [(r, c) for r in range(9 - shape.height + 1) for c in range(9 - shape.width + 1)
            if all(not (MIDGAME.quilts[1] >> ((r + dr) * 9 + c + dc)) & 1 for dr, dc in shape.cells)]
    top, left = free[0]
    cells = sorted((top + dr, left + dc) for dr, dc in shape.cells)
    press(an, an.locator(f"#an-offers .offer[data-patch='{pid}']"))
    row, col = top + (shape.height - 1) // 2, left + (shape.width - 1) // 2  # the page centres the patch there
    at = an.locator(f"#an-quilt-p2 .cell[data-r='{row}'][data-c='{col}']")
    if touch(an):
        at.tap()  # a tap shows where it goes, Place places it
        press(an, button(an, "Place"))
    else:
        at.hover()
        at.click()
    after = MIDGAME.clone()
    move = next(m for m in MIDGAME.legal_moves() if m.patch == pid and sorted(m.cells) == cells)
    after.apply(move)
    on_board(an, to_notation(after))
    assert current.inner_text() == f"11. Player 2: {move_words(MIDGAME, move)}"
    assert an.locator("[data-testid=tree] .variation .move").count() == 1  # the game's move 11 stays the main line
    assert "position=" in an.url and "game=" not in an.url
    # then Player 2's opponent answers by advancing: moves for either side
    press(an, an.locator("#an-advance"))
    current_starts(an, "12. Player 1: advance")
    # jump back to the game's move, then delete the variation
    press(an, an.get_by_role("button", name=f"11. Player 2: {move_words(MIDGAME, GAME.moves[10])}"))
    on_board(an, to_notation(GAME.replay(11)))
    assert "game=" in an.url and "ply=11" in an.url
    press(an, an.locator("[data-testid=tree] .variation .move").first)
    on_board(an, to_notation(after))
    press(an, button(an, "Delete this move and what follows"))
    on_board(an, to_notation(MIDGAME))
    assert an.locator("[data-testid=tree] .variation").count() == 0
    check_page(an, "variation")


def test_a_record_pasted_or_uploaded_is_stepped_through(an: Page, server: str, tmp_path: Path) -> None:
    open_board(an, server)
    record = json.dumps(GAME.to_json())
    an.fill("#record-text", record)
    press(an, button(an, "Open the record"))
    on_board(an, to_notation(GAME.replay(0)))
    assert an.locator("[data-testid=tree] [aria-current=true]").inner_text() == "Start: the position opened"
    press(an, button(an, "End »"))
    on_board(an, to_notation(GAME.replay()))
    assert an.inner_text("[data-testid=to-move]").startswith("The game is over: ")
    assert button(an, "Go").is_disabled()
    path = tmp_path / "game.json"
    path.write_text(record)
    open_board(an, server, position_address(to_notation(LATE)))
    an.set_input_files("#record-file", str(path))
    on_board(an, to_notation(GAME.replay(0)))
    assert an.locator("[data-testid=tree] .move").count() == len(GAME.moves) + 1
    check_page(an, "record")


@pytest.fixture(name="phone")
def phone_fixture(browser: Browser, server: str) -> Iterator[Page]:
    """A page at the phone's size, by touch, failing its test on any page error."""
    for page in checked_page(browser, **SCREENS["phone"]):
        page.set_default_timeout(120_000)
        yield page


def boxes(page: Page, scroll_to: str | None = None) -> dict[str, Any]:
    """The viewport's height and the boxes (top, bottom) of the engine's panel, its lines, the
    offers and the quilt of the player to move, read at one moment (after scrolling ``scroll_to``
    to the top of the screen, when given)."""
    return dict(page.evaluate("""to => {
        if (to) document.querySelector(to).scrollIntoView({block: 'start'});
        const box = n => { const r = n.getBoundingClientRect(); return [r.top, r.bottom]; };
        return {height: window.innerHeight, engine: box(document.getElementById('engine')),
                lines: [...document.querySelectorAll('#lines li')].map(box),
                offers: box(document.getElementById('an-offers')),
                quilt: box(document.getElementById('an-quilt-p2'))};
    }""", scroll_to))


def test_a_phone_has_the_engines_lines_in_view_beside_the_board(phone: Page, server: str) -> None:
    an = phone
    open_board(an, server, position_address(to_notation(MIDGAME)))
    press(an, button(an, "Go"))
    an.wait_for_function("() => document.querySelectorAll('#lines li').length === 3")
    # as the page opens: the patches on offer, and under them the engine's three lines, on one screen
    seen = boxes(an)
    assert len(seen["lines"]) == 3
    assert all(0 <= top < bottom <= seen["height"] for top, bottom in seen["lines"]), seen
    assert seen["offers"][0] >= 0 and seen["offers"][1] <= seen["engine"][0], seen  # the panel hides none of them
    # down the board, at the quilt of Player 2 (to move): the lines are still on the screen, below all of it
    seen = boxes(an, "#an-quilt-p2")
    assert seen["quilt"][0] == pytest.approx(0, abs=1), seen  # scrolled there
    assert all(0 <= top < bottom <= seen["height"] for top, bottom in seen["lines"]), seen
    assert seen["quilt"][1] <= seen["engine"][0], seen
    press(an, button(an, "Stop"))
    an.wait_for_function("() => document.body.dataset.engine === 'stopped'")
    check_page(an, "engine-in-view")


#: the set-up: Player 1 has bought #2 (1x4, income 1) and stands on space 3; the rest on the circle
BOUGHT = 2
CIRCLE = [pid for pid in reversed(range(len(PATCHES))) if pid != BOUGHT]


def test_a_position_set_up_from_the_table_opens_or_is_refused(refused: Page, server: str) -> None:
    an = refused  # the set-up refused first: the browser logs the 422
    open_board(an, server)
    # a tap's click comes after the tap returns: each read waits for what the press shows
    words = an.get_by_test_id("circle-words")
    expect(words).to_have_text(re.compile(r"^33 patches on the circle"))  # the board's, folded away
    press(an, an.locator("#setup-box summary"))
    expect(words).to_be_visible()
    expect(words).to_have_text(re.compile(r"^33 patches on the circle"))  # the board's, to change
    press(an, button(an, "Clear the circle"))
    expect(words).to_have_text("No patch picked: the circle is empty.")
    cards = an.locator("#circle-patches")
    for pid in CIRCLE:  # picked by picture, in the circle's order
        press(an, cards.get_by_role("button", name=re.compile(rf"^patch #{pid} ")))
    listed = ", ".join(f"#{p}" for p in CIRCLE)
    expect(words).to_have_text(f"32 patches on the circle: {listed}.")
    expect(cards.get_by_role("button", name=re.compile(r"^patch #31 "))).to_have_attribute("aria-pressed", "true")
    # the form is the visitor's now: stepping the board does not undo their work
    press(an, an.locator("#an-advance"))
    current_starts(an, "1. Player 1: advance")
    expect(words).to_have_text(f"32 patches on the circle: {listed}.")
    quilt = an.locator("#setup-quilt-0")
    for c in range(4):
        press(an, quilt.get_by_role("button", name=f"row 0, col {c}", exact=True))
    expect(an.locator("#setup-cells-0")).to_have_text("4 of 81 cells covered")
    an.get_by_label("Player 1's space").fill("3")
    an.get_by_label("Player 1's buttons").fill("2")
    an.get_by_label("Player 1's income").fill("0")  # #2 carries a button: refused
    press(an, button(an, "Set up this position"))
    error = an.locator("[data-testid=setup-error]")
    error.wait_for()
    assert error.inner_text() == "the players' income adds up to 0, but the patches off the circle carry 1 buttons"
    an.get_by_label("Player 1's income").fill("1")
    press(an, button(an, "Set up this position"))
    table = PhysicalSetup.model_validate({
        "circle": CIRCLE, "leather_left": list(LEATHER_PRINTINGS["revised"]), "players": [
            {"position": 3, "buttons": 2, "income": 1, "quilt": [[0, c] for c in range(4)]},
            {"position": 0, "buttons": 5, "income": 0, "quilt": []}]})
    on_board(an, to_notation(setup_state(table)))
    assert error.inner_text() == ""
    assert an.inner_text("[data-testid=to-move]") == "Player 2 to move."
    assert an.locator("#an-quilt-p1 .given-cell").count() == 4
    offers = an.locator("#an-offers .offer").evaluate_all("cards => cards.map(c => Number(c.dataset.patch))")
    assert offers == CIRCLE[:3]
    press(an, an.locator("#an-advance"))  # and on from there
    current_starts(an, "1. Player 2: advance")
    check_page(an, "setup")


class HeldStreams:
    """Live analyses this test's client holds open (the server counts them against it)."""

    def __init__(self, server: str, position: str, count: int) -> None:
        self.connections: list[http.client.HTTPConnection] = []
        url = urlparse(server)
        for _ in range(count):
            conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=120)
            conn.request("GET", f"/api/analysis/stream?{urlencode({'position': position})}")
            response = conn.getresponse()
            assert response.status == 200
            response.readline()  # the first event has come: the analysis runs
            self.connections.append(conn)

    def close(self) -> None:
        for conn in self.connections:
            conn.close()


def test_refusals_get_a_clear_line(refused: Page, server: str) -> None:
    open_board(refused, server, "/analysis?position=not+a+position")
    error = refused.locator("[data-testid=error]")
    assert "not a position in the notation" in error.inner_text()
    assert refused.locator("#notation").input_value()  # a new game's position is on the board instead
    text = to_notation(MIDGAME)
    open_board(refused, server, position_address(text))
    held = HeldStreams(server, text, 2)
    try:
        press(refused, button(refused, "Go"))
        refused.wait_for_function("() => document.body.dataset.engine === 'refused'")
        words = refused.inner_text("[data-testid=engine-error]")
        assert words.startswith("The engine is not thinking: you already run 2 live analyses at once")
        assert button(refused, "Go").is_enabled()
    finally:
        held.close()
    wait_free(server)
    press(refused, button(refused, "Go"))
    refused.wait_for_function("() => document.body.dataset.engine === 'thinking'")
    assert refused.inner_text("[data-testid=engine-error]") == ""
    press(refused, button(refused, "Stop"))
    check_page(refused, "refused")
