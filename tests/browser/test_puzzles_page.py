"""The Puzzles page in a real browser: `patchwork serve` in a subprocess, Debian's Chromium driven by
Playwright. A visitor solves an endgame by moving as in a game (a patch chosen, turned, placed with a
click) and sees the verdict come into view, green, in words, with the line of best play to step
through on the board; misses another and sees the refutation and a winning move drawn; fills a quilt
patch by patch and sees the proven optimum; and on a phone, every verdict comes into view."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page
from served_pages import browser_fixture, page_fixture, server_fixture  # noqa: F401  (fixtures browser, page, server)

from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.model import EndgamePuzzle, FillPuzzle
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


def place(page: Page, quilt: str, pid: int, cells: Cells) -> None:
    """Choose the patch, turn it with the buttons, and click the quilt where the page puts it on ``cells``."""
    page.click(f".offer[data-patch='{pid}']")
    presses, flipped = turns_to(pid, cells)
    buttons = "#eg" if quilt.startswith("#eg") else "#fill"
    if flipped:
        page.click(f"{buttons}-flip")
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
    assert "Correct!" in verdict and "you win" in verdict and "Winning moves" in verdict
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
