"""The Puzzles page in a real browser: `patchwork serve` in a subprocess, Debian's Chromium driven by
Playwright. A visitor solves an endgame by moving as in a game (a patch chosen, turned, placed with a
click) and sees the verdict come into view, green, in words, with the line of best play to step
through on the board; misses another and sees the refutation and a winning move drawn; fills a quilt
patch by patch and sees the proven optimum; and on a phone, every verdict comes into view. Playing
habits, on a desktop and on a phone: the filters (applied at once), a new visitor's rating from the
first answer, right or wrong, a streak counted until the first miss, the
daily puzzle, a fill's button budget (patches over it greyed, choosing one refused), and a set of
puzzles named in the address (what "Practise your mistakes" links to: test_exercises_page.py)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from served_pages import (  # noqa: F401  (fixtures browser, page, server, served_db, served_store)
    SCREENS,
    browser_fixture,
    checked_page,
    page_fixture,
    review_of,
    serious_violations,
    served_db_fixture,
    served_store_fixture,
    server_fixture,
    store_record,
)

from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle
from patchwork_opt.puzzles.kinds.fill import FILL_THEMES, FillPuzzle
from patchwork_opt.puzzles.proof import distinct_moves, move_key

pytestmark = pytest.mark.slow
BANK = shipped_bank()
Cells = list[tuple[int, int]]


def _normalised(cells: Cells) -> Cells:
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    return sorted((r - top, c - left) for r, c in cells)


def turns_to(pid: int, cells: Cells) -> tuple[int, bool]:
    """How many presses of Rotate (then whether Flip) turn the patch as the page first shows it
    (its orientation o0) into the shape of ``cells``: the page's own rotate and flip, in Python."""
    start = list(PATCHES[pid].orientations[0].cells)
    want = _normalised(cells)
    for flipped in (False, True):
        shape = _normalised([(r, -c) for r, c in start]) if flipped else _normalised(start)
        for presses in range(4):
            if shape == want:
                return presses, flipped
            shape = _normalised([(c, -r) for r, c in shape])
    raise AssertionError(f"no turn of #{pid} gives {cells}")


#: Each quilt a patch is placed on: where its patches are offered and its Flip button.
BOARDS = {"#eg-quilt-you": ("#eg-offers", "#eg-flip"), "#ex-quilt-you": ("#ex-offers", "#ex-flip"),
          "#fill-quilt": ("#fill-patches", "#fill-flip"), "#quilt-human": ("#offers", "#flip")}


def place(page: Page, quilt: str, pid: int, cells: Cells) -> None:
    """Choose the patch, turn it with the buttons, and click the quilt where the page puts it on ``cells``."""
    offers, flip = BOARDS[quilt]
    page.click(f"{offers} .offer[data-patch='{pid}']")
    presses, flipped = turns_to(pid, cells)
    if flipped:
        page.click(flip)
    for _ in range(presses):
        page.keyboard.press("r")
    shape = _normalised(cells)
    height, width = max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    row, col = top + (height - 1) // 2, left + (width - 1) // 2  # the page centres the shape on the pointer
    cell = f"{quilt} .cell[data-r='{row}'][data-c='{col}']"
    page.hover(cell)
    preview = page.locator("[data-testid=preview] rect").evaluate_all(
        "rs => rs.map(r => [Number(r.getAttribute('y')) / 34, Number(r.getAttribute('x')) / 34])")
    assert sorted((int(r), int(c)) for r, c in preview) == sorted(cells)
    page.click(cell)


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return bool(box["y"] >= -2 and box["y"] + 40 < size["height"])


def open_puzzle(page: Page, server: str, puzzle_id: str) -> None:
    page.goto(f"{server}/puzzles#{puzzle_id}")
    page.wait_for_selector(f"body[data-ready=true][data-puzzle='{puzzle_id}'][data-busy=false]", timeout=30_000)


def answered(page: Page) -> str:
    page.wait_for_selector("body[data-busy=false]:is([data-answered=correct], [data-answered=wrong])", timeout=60_000)
    return page.get_attribute("body", "data-answered") or ""


def endgame_with_a_winning_buy() -> EndgamePuzzle:
    return next(p for p in BANK.puzzles["endgame"] if isinstance(p, EndgamePuzzle)
                and any(m.kind == "buy" for m in p.winning))


def test_an_endgame_is_solved_by_moving_as_in_a_game(page: Page, server: str) -> None:
    puzzle = endgame_with_a_winning_buy()
    move = next(m for m in puzzle.winning if m.kind == "buy")
    open_puzzle(page, server, puzzle.id)
    assert "find a winning move" in page.inner_text("[data-testid=task]")
    assert page.locator("#eg-offers .offer").count() == len(puzzle.state().offers())
    assert page.locator("#eg-track .space").count() == 54
    place(page, "#eg-quilt-you", move.patch, cells_of(move.mask))
    assert answered(page) == "correct"
    page.wait_for_timeout(600)  # the smooth scroll
    assert in_view(page, "[data-testid=verdict]"), page.locator("[data-testid=verdict]").bounding_box()
    verdict = page.inner_text("[data-testid=verdict]")
    assert "Correct!" in verdict and "you win" in verdict
    assert ("Winning moves (" if len(puzzle.winning) > 1 else "The winning move: ") in verdict
    assert re.search(r"\d+@|\[\d", verdict) is None and "Player" not in verdict  # words, not notation
    assert page.locator("[data-testid=verdict-line] li").first.inner_text().startswith("you: buy #")
    # your answer, outlined in green: it wins
    assert page.locator("[data-testid=answer-move]").get_attribute("class") == "overlay best"
    assert page.get_attribute("[data-testid=verdict]", "class") == "correct"
    # the line of best play, stepped through on the board by keys
    steps = page.locator("[data-testid=verdict-line] li").count()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='0']")
    assert page.locator("[data-testid=line-step]").count() == (1 if move.kind != "advance" else 0)
    for i in range(1, steps):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"body[data-step='{i}']")
    rating = page.inner_text("[data-testid=my-rating]")
    assert rating.startswith("Your puzzle rating: ") and int(rating.split(": ")[1].split(" ")[0]) > 1500


def test_a_wrong_move_shows_the_refutation(page: Page, server: str) -> None:
    puzzle = next(p for p in BANK.puzzles["endgame"] if isinstance(p, EndgamePuzzle)
                  and p.id != endgame_with_a_winning_buy().id)
    state = puzzle.state()
    wins = {move_key(state, m) for m in puzzle.winning}
    wrong = next(m for k, m in distinct_moves(state).items() if k not in wins and m.kind in ("advance", "buy"))
    open_puzzle(page, server, puzzle.id)
    if wrong.kind == "advance":
        page.click("#eg-advance")
    else:
        place(page, "#eg-quilt-you", wrong.patch, cells_of(wrong.mask))
    assert answered(page) == "wrong"
    verdict = page.inner_text("[data-testid=verdict]")
    assert "Not this one" in verdict and "best play refutes it" in verdict and "you lose" in verdict
    assert re.search(r"\d+@|\[\d", verdict) is None and "Player" not in verdict  # words, not notation
    assert page.locator("[data-testid=verdict-line] li").count() >= 1
    if any(m.kind != "advance" for m in puzzle.winning[:1]):
        assert page.locator("[data-testid=winning-move]").count() == 1  # a winning move, drawn


def test_a_fill_is_placed_by_click_and_the_optimum_revealed(page: Page, server: str) -> None:
    puzzle = next(p for p in BANK.puzzles["fill"] if isinstance(p, FillPuzzle) and len(p.best) >= 2)
    open_puzzle(page, server, puzzle.id)
    assert "Fill the quilt" in page.inner_text("[data-testid=task]")
    assert page.locator("#fill-patches .offer").count() == len(puzzle.patches)
    assert page.locator("#fill-optimum-box").is_hidden()
    for pid, mask in puzzle.best:
        place(page, "#fill-quilt", pid, cells_of(mask))
    assert page.locator(f"#fill-patches .offer[data-patch='{puzzle.best[0][0]}']").is_disabled()
    assert page.inner_text("[data-testid=fill-score]").startswith(f"Your fill: {puzzle.best_value} ")
    page.click("#fill-done")
    assert answered(page) == "correct"
    verdict = page.inner_text("[data-testid=verdict]")
    assert f"Your fill reaches {puzzle.best_value} " in verdict and "the proven optimum" in verdict
    assert page.locator("[data-testid=optimum] .piece").count() == len(puzzle.best)


def test_on_a_phone_a_verdict_comes_into_view_by_itself(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        puzzle = next(p for p in BANK.puzzles["endgame"] if isinstance(p, EndgamePuzzle)
                      and p.id != endgame_with_a_winning_buy().id)
        open_puzzle(page, server, puzzle.id)
        page.tap("#eg-advance")
        answered(page)
        page.wait_for_timeout(800)  # the smooth scroll
        assert in_view(page, "#verdict-title")
    finally:
        context.close()


# --- playing habits, on a desktop and on a phone -----------------------------------------------------
@pytest.fixture(name="screen", params=list(SCREENS))
def screen_fixture(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A new visitor's page (no puzzle visitor kept yet) on a desktop, then on a phone."""
    yield from checked_page(browser, **SCREENS[request.param])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def ready(page: Page) -> None:
    page.wait_for_selector("body[data-ready=true][data-busy=false]", timeout=60_000)


def new_puzzle(page: Page) -> str:
    """Press New puzzle (or Next) and wait for the next one; its id."""
    before = page.get_attribute("body", "data-puzzle")
    page.click("#next")
    page.wait_for_function("(id) => document.body.dataset.puzzle !== id && document.body.dataset.busy === 'false'",
                           arg=before, timeout=60_000)
    return page.get_attribute("body", "data-puzzle") or ""


def test_a_leather_patch_waiting_is_placed_by_a_click_on_its_cell(screen: Page, server: str) -> None:
    """A puzzle whose answer is where the leather patch goes: the patch is in hand from the start,
    nothing else can be chosen, and a click (a tap on a phone) on the winning cell answers it."""
    puzzle = next(p for p in BANK.puzzles["endgame"] if isinstance(p, EndgamePuzzle) and p.state().pending >= 0)
    open_puzzle(screen, server, puzzle.id)
    assert "place your leather patch" in screen.inner_text("[data-testid=task]")
    assert screen.is_disabled("#eg-advance")
    ((row, col),) = cells_of(puzzle.winning[0].mask)
    cell = f"#eg-quilt-you .cell[data-r='{row}'][data-c='{col}']"
    screen.hover(cell)
    screen.click(cell)
    assert answered(screen) == "correct"
    assert "put the leather patch on" in screen.inner_text("[data-testid=verdict]")


def choose_kind(page: Page, kind: str) -> None:
    """Choose a kind in the Kind select: a puzzle of that kind comes at once, no button pressed."""
    page.select_option("#kind", kind)
    page.wait_for_selector(f"body[data-busy=false][data-kind={kind}]", timeout=60_000)


def test_the_theme_select_speaks_in_words_and_filters(screen: Page, server: str) -> None:
    screen.goto(f"{server}/puzzles")
    ready(screen)
    choose_kind(screen, "fill")
    words = _get(f"{server}/api/puzzles/themes")["kinds"]["fill"]
    assert [t["theme"] for t in words] == list(FILL_THEMES)
    assert [t["puzzles"] for t in words] == [len(BANK.of("fill", theme=t)) for t in FILL_THEMES]
    options = screen.locator("#theme option").all_text_contents()
    assert options == ["any", *[t["words"] + ("" if t["puzzles"] else " (no puzzles yet)") for t in words]]
    disabled = screen.locator("#theme option").evaluate_all("os => os.map(o => o.disabled)")
    assert disabled == [False, *[not t["puzzles"] for t in words]]  # a theme without puzzles cannot be asked for
    theme = next((t for t in words if t["puzzles"]), None)
    if theme is None:
        pytest.skip("the shipped bank carries no fill themes yet: nothing to filter")
    screen.select_option("#theme", theme["theme"])  # applies at once: a puzzle of the theme, no button pressed
    shows = ("(words) => document.body.dataset.busy === 'false' && "
             "document.querySelector('[data-testid=puzzle-themes]').textContent.includes(words)")
    screen.wait_for_function(shows, arg=theme["words"], timeout=60_000)
    puzzle = BANK.find(screen.get_attribute("body", "data-puzzle") or "")
    assert puzzle is not None and puzzle.kind == "fill" and theme["theme"] in puzzle.themes
    choose_kind(screen, "endgame")  # the endgame's themes now, and "any" again
    assert screen.input_value("#theme") == "" and screen.locator("#theme option").count() == 8


def test_a_streak_is_counted_until_the_first_miss(screen: Page, server: str) -> None:
    screen.goto(f"{server}/puzzles")
    ready(screen)
    choose_kind(screen, "fill")
    assert screen.locator("[data-testid=streak]").is_hidden()
    before = screen.get_attribute("body", "data-puzzle")
    screen.click("#streak-mode")
    screen.wait_for_function("(id) => document.body.dataset.puzzle !== id && document.body.dataset.busy === 'false'",
                             arg=before, timeout=60_000)
    assert screen.get_attribute("#streak-mode", "aria-pressed") == "true"
    assert screen.inner_text("[data-testid=streak]") == "Streak mode. Streak: 0 · best 0"
    for length in (1, 2):
        puzzle = BANK.find(screen.get_attribute("body", "data-puzzle") or "")
        assert isinstance(puzzle, FillPuzzle) and puzzle.difficulty == 1  # a streak starts easy
        for pid, mask in puzzle.best:
            place(screen, "#fill-quilt", pid, cells_of(mask))
        screen.click("#fill-done")
        assert answered(screen) == "correct"
        assert screen.inner_text("[data-testid=streak]") == f"Streak mode. Streak: {length} · best {length}"
        assert f"Streak: {length} (best {length})." in screen.inner_text("[data-testid=verdict-habits]")
        assert screen.inner_text("#next") == "Next in the streak"
        new_puzzle(screen)
    puzzle = BANK.find(screen.get_attribute("body", "data-puzzle") or "")
    assert puzzle is not None and puzzle.difficulty == 2  # two in a row: one step harder
    screen.click("#fill-done")  # nothing placed: a miss ends the streak
    assert answered(screen) == "wrong"
    assert "Streak over at 2 (best 2)" in screen.inner_text("[data-testid=verdict-habits]")
    assert "comes back after a few more" in screen.inner_text("[data-testid=verdict-habits]")
    assert screen.inner_text("[data-testid=streak]") == "Streak mode. Streak: 0 · best 2"


def test_the_daily_puzzle_is_the_servers_puzzle_of_the_day(screen: Page, server: str) -> None:
    screen.goto(f"{server}/puzzles")
    ready(screen)
    screen.click("#daily")
    daily = _get(f"{server}/api/puzzles/daily")
    screen.wait_for_selector(f"body[data-puzzle='{daily['id']}'][data-busy=false]", timeout=30_000)
    note = screen.inner_text("[data-testid=puzzle-note]")
    assert note == f"The daily puzzle of {daily['daily']} (UTC): the same for everyone today."
    assert daily["daily"] == datetime.now(UTC).date().isoformat()


def budget_fill() -> tuple[FillPuzzle, int, list[int]]:
    """A fill with a button budget, the first patch of its optimum, and the patches that its price
    puts over what is left of the budget (each affordable before)."""
    for puzzle in BANK.puzzles["fill"]:
        if isinstance(puzzle, FillPuzzle) and puzzle.budget is not None and puzzle.best:
            first = puzzle.best[0][0]
            left = puzzle.budget - PATCHES[first].cost
            newly = [q for q in puzzle.patches if q != first and left < PATCHES[q].cost <= puzzle.budget]
            if newly:
                return puzzle, first, newly
    raise AssertionError("the bank has no fill whose budget binds after one patch")


def buttons(n: int) -> str:
    """A number of buttons in words, as the page says it."""
    return f"{n} button" if n == 1 else f"{n} buttons"


def greyed(page: Page) -> set[int]:
    return {int(x) for x in page.locator("#fill-patches .offer.unaffordable").evaluate_all(
        "cards => cards.map(c => c.dataset.patch)")}


def test_a_fill_greys_the_patches_over_its_budget_and_refuses_them(screen: Page, server: str) -> None:
    puzzle, first, newly = budget_fill()
    assert puzzle.budget is not None
    over = {q for q in puzzle.patches if PATCHES[q].cost > puzzle.budget}
    open_puzzle(screen, server, puzzle.id)
    assert greyed(screen) == over
    assert "Spend at most" in screen.inner_text("[data-testid=task]")
    place(screen, "#fill-quilt", first, cells_of(puzzle.best[0][1]))
    assert greyed(screen) == over | set(newly)  # updated as the patch is placed
    pid = newly[0]
    card = screen.locator(f"#fill-patches .offer[data-patch='{pid}']")
    assert card.get_attribute("aria-disabled") == "true" and "(over the budget)" in card.inner_text()
    card.click(force=True)  # (Playwright waits for an aria-disabled button) refused as it happens: said in words,
    # nothing chosen, nothing placed
    left = puzzle.budget - PATCHES[first].cost
    assert screen.inner_text("#error") == (f"Patch #{pid} costs {buttons(PATCHES[pid].cost)}: only {left} of the "
                                           f"budget of {puzzle.budget} left")
    assert card.get_attribute("aria-pressed") == "false" and screen.locator("#fill-tray-shape rect").count() == 0
    assert screen.inner_text("[data-testid=fill-score]").endswith(
        f"costing {buttons(PATCHES[first].cost)} (budget {puzzle.budget})")
    screen.click("#fill-undo")  # taken back: affordable again
    assert greyed(screen) == over
    screen.click(f"#fill-patches .offer[data-patch='{pid}']")
    assert screen.get_attribute(f"#fill-patches .offer[data-patch='{pid}']", "aria-pressed") == "true"


def test_a_set_of_puzzles_from_the_address_is_served_in_order(screen: Page, server: str) -> None:
    """What Practise links to: /puzzles?set=ID,ID, each in turn, then puzzles of the settings again."""
    first, second = (p.id for p in BANK.puzzles["endgame"][:2])
    screen.goto(f"{server}/puzzles?set={first},{second},not-an-id")
    screen.wait_for_selector(f"body[data-ready=true][data-busy=false][data-puzzle='{first}']", timeout=60_000)
    assert screen.inner_text("[data-testid=puzzle-note]") == "A puzzle of the set in this page's address: 1 of 2."
    assert screen.inner_text("#next") == "Next of your game (2 of 2)"
    assert new_puzzle(screen) == second
    assert screen.inner_text("[data-testid=puzzle-note]") == "A puzzle of the set in this page's address: 2 of 2."
    assert screen.inner_text("#next") == "New puzzle"
    # a puzzle of the settings, which may be one of the set's again: wait for the set to be left
    screen.click("#next")
    screen.wait_for_function("() => !location.search.includes('set=') && document.body.dataset.busy === 'false'",
                             timeout=60_000)
    assert screen.locator("[data-testid=puzzle-note]").is_hidden() and "?set=" not in screen.url


def test_a_new_visitors_rating_shows_from_the_first_answer(browser: Browser, server: str) -> None:
    """Right or wrong, the first answer shows the new visitor's rating in the header and the verdict."""
    by_advance: dict[bool, EndgamePuzzle] = {}  # whether advancing wins -> a puzzle where advancing is allowed
    for p in BANK.puzzles["endgame"]:
        if isinstance(p, EndgamePuzzle) and p.state().pending < 0:
            by_advance.setdefault(any(m.kind == "advance" for m in p.winning), p)
    for screen, correct in ((s, c) for s in SCREENS for c in (True, False)):
        for page in checked_page(browser, **SCREENS[screen]):
            open_puzzle(page, server, by_advance[correct].id)
            assert page.inner_text("[data-testid=my-rating]") == "Your puzzle rating: not rated yet"
            page.tap("#eg-advance") if screen == "phone" else page.click("#eg-advance")
            assert answered(page) == ("correct" if correct else "wrong")
            rating = page.inner_text("[data-testid=my-rating]")
            assert re.fullmatch(r"Your puzzle rating: \d+ ± \d+", rating), (screen, correct, rating)
            assert f"Your rating: {rating.split(': ')[1]}." in page.inner_text("[data-testid=verdict-ratings]")
