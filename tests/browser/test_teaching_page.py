"""A teaching game and the review's measures, in a real browser at 1280x800 and at 390x844 with
touch, on the rigged server (``served_pages.rigged_server``: the first legal buy is every position's
best move, any other move a blunder costing its player ``POINTS``), so each verdict is known in advance.

Teaching, chosen when the game starts: right after a move the page says it was a blunder, draws the
better move on your quilt and waits, the AI not moving, until you take the move back or play on;
the take-back is counted in the game and in its review; the best move is said to be the best. The
review of a finished game: each player's accuracy beside the error rate over their decisions, the
take-backs, the deal (Player 1's chance with this circle against the average, each player's luck,
adding up to zero) and the legend in the server's words (label_rule and measures_rule). axe-core
finds no serious or critical violation."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from rigged_analysis import POINTS, Rigged, figures
from served_pages import (  # noqa: F401  (fixtures browser, rigged_server, rigged_db, rigged_store)
    advancing_game,
    browser_fixture,
    review_of,
    rigged_db_fixture,
    rigged_server_fixture,
    rigged_store_fixture,
    serious_violations,
    store_record,
)
from test_game_layout import press, sideways, touch
from test_puzzles_page import place, screen_fixture  # noqa: F401  (fixture screen)
from test_web_page import _get, _post, in_view, settle, shot

from patchwork_opt.apps.judge import label_rule
from patchwork_opt.apps.review import measures_rule
from patchwork_opt.apps.web.game_store import GameStore
from patchwork_opt.core.bitboard import cells_of, mask_of
from patchwork_opt.core.catalogue import PATCHES, button_cells
from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import END, State
from patchwork_opt.core.words import words_in
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.formats.record import Record

pytestmark = pytest.mark.slow


def size(page: Page) -> str:
    return "phone" if touch(page) else "desktop"


def drawn(page: Page, selector: str) -> list[tuple[int, int]]:
    cells = page.locator(f"{selector} rect.best-cell").evaluate_all(
        "rs => rs.map(r => [Number(r.getAttribute('y')) / 34, Number(r.getAttribute('x')) / 34])")
    return sorted((int(r), int(c)) for r, c in cells)


def dots(page: Page, selector: str) -> list[tuple[int, int]]:
    """The cells of the button marks drawn by `selector` on a quilt (34 px a cell)."""
    found = page.locator(f"{selector} circle.button-icon").evaluate_all(
        "cs => cs.map(c => [(Number(c.getAttribute('cy')) - 17) / 34, (Number(c.getAttribute('cx')) - 17) / 34])")
    return sorted((int(r), int(c)) for r, c in found)


def start_teaching(page: Page, server: str, seed: int) -> dict[str, Any]:
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ai", "greedy")
    page.select_option("#level", "1")
    page.fill("#seed", str(seed))
    page.check("#teaching")
    press(page, "#welcome-start" if touch(page) else "#start")
    settle(page)
    game: dict[str, Any] = _get(f"{server}/api/games/{page.url.split('#', 1)[1]}")
    assert game["teaching"] and "a teaching game" in page.inner_text("#human-title")
    return game


def test_a_blunder_is_said_its_better_move_drawn_and_taken_back(screen: Page, rigged_server: str) -> None:
    game = start_teaching(screen, rigged_server, seed=6)
    state = from_notation(game["state"]["position"])
    better = Rigged.best(state)
    assert better.kind == "buy", "a patch can be bought at the start"
    press(screen, "#advance")
    screen.wait_for_selector("body[data-busy=false][data-lesson=blunder]", timeout=60_000)
    # said at once, the better move drawn on your quilt; the AI waits for your choice
    text = screen.inner_text("[data-testid=lesson-text]")
    (even, _), (behind, _) = figures((0, 0), 0), figures((1, 0), 0)  # the rigged world: a deviation costs POINTS
    assert text == (f"Move 1, you chose to {words_in(state, ADVANCE)}: a blunder (win chance {percent(even)} → "
                    f"{percent(behind)}, {POINTS:g} points lost). Better: {words_in(state, better)} (drawn in green on "
                    "your quilt). Take it back and try another move, or play on."), text
    assert drawn(screen, "[data-testid=lesson-best]") == sorted(cells_of(better.mask))
    # the better patch with its buttons, where they would lie
    assert button_cells(better.patch, better.mask), "the better patch has buttons to draw"
    assert dots(screen, "[data-testid=lesson-best]") == sorted(button_cells(better.patch, better.mask))
    assert screen.inner_text("#status") == "Your move was a blunder: take it back, or play on."
    assert screen.get_attribute("body", "data-ply") == "1" and screen.get_attribute("body", "data-turn") == "ai"
    assert screen.evaluate("document.activeElement.id") == "take-back"  # the keyboard is on the choice
    assert in_view(screen, "[data-testid=lesson-text]") and in_view(screen, "#take-back") and sideways(screen) == 0
    shot(screen, f"teaching-blunder-{size(screen)}")
    assert serious_violations(screen) == []

    press(screen, "#take-back")  # taken back: the position before it, counted
    screen.wait_for_selector("body[data-busy=false][data-ply='0'][data-lesson=taken-back]", timeout=60_000)
    assert screen.inner_text("[data-testid=lesson-text]") == (
        "Taken back: your move again (1 take-back in this game; the review counts them).")
    assert screen.locator("[data-testid=lesson-best]").count() == 0
    assert _get(f"{rigged_server}/api/games/{game['id']}")["takebacks"] == 1

    press(screen, "#advance")  # the blunder again, kept this time: the AI moves on
    screen.wait_for_selector("body[data-busy=false][data-lesson=blunder] #play-on:visible", timeout=60_000)
    press(screen, "#play-on")
    settle(screen)
    now = _get(f"{rigged_server}/api/games/{game['id']}")
    assert now["ply"] > 1 and now["moves"][1]["actor"] == "ai"
    assert screen.inner_text("[data-testid=lesson-text]").endswith(f"Better was to {words_in(state, better)}.")
    assert screen.locator("[data-testid=lesson-best]").count() == 0 and screen.locator("#take-back").is_hidden()

    # the better move now: the best, nothing to take back
    if not now["human_to_move"]:
        pytest.fail(f"the game did not come back to you: {now['state']}")
    here = from_notation(now["state"]["position"])
    best = Rigged.best(here)
    if best.kind == "buy":
        place(screen, "#quilt-human", best.patch, cells_of(best.mask))
    else:
        press(screen, "#advance")
    screen.wait_for_selector("body[data-busy=false][data-lesson=best]", timeout=60_000)
    assert screen.inner_text("[data-testid=lesson-text]") == (
        f"Move {now['ply'] + 1}, you chose to {words_in(here, best)}: the best move (win chance {percent(behind)} → "
        f"{percent(behind)}, 0 points lost).")
    assert screen.locator("#take-back").is_hidden() and screen.locator("[data-testid=lesson-best]").count() == 0
    assert serious_violations(screen) == []


def finish(server: str, game_id: str) -> None:
    """The game played to its end through the API: you advancing (a leather patch on its first cell)."""
    url = f"{server}/api/games/{game_id}"
    game = _get(url)
    while not game["state"]["over"]:
        if game["ai_to_move"]:
            game = _post(f"{url}/ai-move", {"ply": game["ply"]})
            continue
        state = from_notation(game["state"]["position"])
        move = next(iter(state.legal_moves())) if state.pending >= 0 else ADVANCE
        game = _post(f"{url}/moves", {"ply": game["ply"], "move": move.to_json()})


def test_the_review_counts_the_take_backs_of_a_teaching_game(screen: Page, rigged_server: str) -> None:
    game = start_teaching(screen, rigged_server, seed=9)
    press(screen, "#advance")
    screen.wait_for_selector("body[data-busy=false][data-lesson=blunder]", timeout=60_000)
    press(screen, "#take-back")
    screen.wait_for_selector("body[data-busy=false][data-lesson=taken-back]", timeout=60_000)
    finish(rigged_server, game["id"])
    screen.goto("about:blank")
    screen.goto(f"{rigged_server}/#{game['id']}")
    screen.wait_for_selector("body[data-ready=true]")
    settle(screen)
    press(screen, "#review-start")
    screen.wait_for_selector("body[data-review-ply='0']", timeout=120_000)
    review = review_of(rigged_server, game["id"], 0.3)
    assert [p["takebacks"] for p in review["players"]] == [1, 0]
    summary = screen.inner_text("[data-testid=review-summary]")
    # what the result reflects first, then each player's figures
    assert summary.startswith(review["summary"]) and re.search(r"\bwon\b", review["summary"]), summary
    assert "You: accuracy " in summary and ", 1 take-back. The AI (greedy): " in summary, summary


def percent(x: float, signed: bool = False) -> str:
    """A chance as the page says it: rounded as JavaScript rounds (halves up), a sign when asked."""
    n = math.floor(100 * x + 0.5)
    return f"+{n}%" if signed and n > 0 else f"\u2212{-n}%" if signed and n < 0 else f"{n}%"


def test_the_review_shows_the_deal_and_each_players_error_rate(screen: Page, rigged_server: str,
                                                               rigged_store: GameStore) -> None:
    game = advancing_game(rigged_store, seed=4)
    screen.goto(f"{rigged_server}/#{game.id}")
    screen.wait_for_selector("body[data-ready=true]")
    settle(screen)
    press(screen, "#review-start")
    screen.wait_for_selector("body[data-review-ply='0']", timeout=120_000)
    review = review_of(rigged_server, game.id, 0.3)
    summary = screen.inner_text("[data-testid=review-summary]")
    for p in review["players"]:
        decisions = f"{p['decisions']} decision{'' if p['decisions'] == 1 else 's'}"
        said = (f"{p['name']}: accuracy {round(p['accuracy'])}%, error rate {100 * p['error_rate']:.1f}% over "
                f"{decisions}, ")
        assert said in summary, (said, summary)
        assert "take-back" not in summary  # nobody took a move back, and this was no teaching game
    you, ai = review["players"]
    assert you["error_rate"] > ai["error_rate"] == 0  # you advanced where a patch was best, the AI played best
    deal = review["deal"]
    assert deal is not None and deal["luck"][0] == -deal["luck"][1]  # zero-sum
    assert screen.inner_text("[data-testid=review-deal]") == (
        f"The deal: with this circle of patches, the first player (you) had a {percent(deal['first_win'])} chance to "
        f"win at the start, against {percent(deal['average_first_win'])} with the average circle (over "
        f"{deal['circles']:,} random circles): luck {percent(deal['luck'][0], signed=True)} for you, "
        f"{percent(deal['luck'][1], signed=True)} for the AI. The rest of the result is skill: the win chance each "
        "player lost, move by move.")
    # the legend: the rule of the labels and the measures, in the server's words
    assert screen.inner_text("[data-testid=label-rule]") == label_rule() == review["label_rule"]
    assert screen.inner_text("[data-testid=measures-rule]") == measures_rule() == review["measures_rule"]
    screen.locator("[data-testid=review-summary]").scroll_into_view_if_needed()
    shot(screen, f"review-measures-{size(screen)}")
    assert serious_violations(screen) == []


def to_your_last_move(server: str) -> dict[str, Any]:
    """A teaching game played through the API (you playing the rigged best move) up to where the AI has
    reached the end and you are to move with a patch you could buy: advancing there ends the game, and
    is a blunder (the rigged best move is a buy)."""
    for seed in range(1, 40):
        game: dict[str, Any] = _post(f"{server}/api/games",
                                     {"seed": seed, "ai": "greedy", "level": 1, "teaching": True})
        url = f"{server}/api/games/{game['id']}"
        while not game["state"]["over"]:
            if game["ai_to_move"]:
                game = _post(f"{url}/ai-move", {"ply": game["ply"]})
                continue
            state = from_notation(game["state"]["position"])
            ai_done = state.pos[1 - game["seat"]] >= END
            if ai_done and state.pending < 0 and any(m.kind == "buy" for m in state.legal_moves()):
                return game
            game = _post(f"{url}/moves", {"ply": game["ply"], "move": Rigged.best(state).to_json()})
    pytest.fail("no seed from 1 to 39 leaves you the last move with a patch to buy")


def result_words(game: dict[str, Any]) -> str:
    """Who won, the winner's score first (how the page should say it)."""
    you, ai = (game["state"]["players"][s]["score"] for s in (game["seat"], 1 - game["seat"]))
    won = game["state"]["winner"] == game["seat"]
    high, low = (you, ai) if won else (ai, you)
    assert high >= low
    tie = f" (a tie on points: {'you' if won else 'the AI'} reached the end first)" if you == ai else ""
    return f"{'You won' if won else 'The AI won'}, {high} to {low}{tie}"


def test_after_a_blunder_that_ends_the_game_nothing_is_offered_and_the_winner_is_named(
        screen: Page, rigged_server: str, rigged_store: GameStore) -> None:
    game = to_your_last_move(rigged_server)
    state = from_notation(game["state"]["position"])
    screen.goto(f"{rigged_server}/#{game['id']}")
    screen.wait_for_selector("body[data-ready=true]")
    settle(screen)
    press(screen, "#advance")  # the last move of the game, a blunder
    expect(screen.locator("body")).to_have_attribute("data-turn", "over", timeout=60_000)
    expect(screen.locator("body")).to_have_attribute("data-lesson", "blunder")
    over = _get(f"{rigged_server}/api/games/{game['id']}")
    assert over["state"]["over"] and over["moves"][-1]["actor"] == "human"
    lesson = screen.locator("[data-testid=lesson-text]")  # the verdict and the better move, no choice to make
    expect(lesson).to_contain_text(f"Move {game['ply'] + 1}, you chose to {words_in(state, ADVANCE)}: a blunder (")
    assert lesson.inner_text().endswith(
        f"). Better was to {words_in(state, Rigged.best(state))} (drawn in green on your quilt)."), lesson.inner_text()
    expect(screen.get_by_role("button", name="Take it back")).to_be_hidden()
    expect(screen.get_by_role("button", name="Play on")).to_be_hidden()
    said = result_words(over)
    expect(screen.locator("#result-title")).to_have_text(said)
    expect(screen.locator("#status")).to_have_text(f"{said}.")
    expect(screen.locator("#turn")).to_have_text("Game over")
    shot(screen, f"teaching-over-{size(screen)}")

    # a game you won says so, your score first
    now = State.new(seed=5)
    record = Record.start(now)
    while not now.is_terminal():  # Player 1 advancing, Player 2 (you) playing the rigged best move
        record.moves.append(Rigged.best(now) if now.to_move() == 1 or now.pending >= 0 else ADVANCE)
        now.apply(record.moves[-1])
    won = store_record(rigged_store, record, seat=1)
    screen.goto(f"{rigged_server}/#{won.id}")
    screen.wait_for_selector("body[data-ready=true]")
    settle(screen)
    view = _get(f"{rigged_server}/api/games/{won.id}")
    assert view["state"]["winner"] == 1, "Player 2 won by buying while Player 1 only advanced"
    expect(screen.locator("#result-title")).to_have_text(result_words(view))
    assert result_words(view).startswith("You won, ")


def test_the_review_says_each_move_in_whole_sentences_and_draws_the_best_patch_with_its_buttons(
        screen: Page, rigged_server: str, rigged_store: GameStore) -> None:
    game = advancing_game(rigged_store, seed=4)
    screen.goto(f"{rigged_server}/#{game.id}")
    screen.wait_for_selector("body[data-ready=true]")
    settle(screen)
    press(screen, "#review-start")
    screen.wait_for_selector("body[data-review-ply='0']", timeout=120_000)
    review = review_of(rigged_server, game.id, 0.3)
    plies = review["plies"]
    move = screen.locator("[data-testid=review-move]")
    # your first advance where buying a patch with buttons was best: the best patch drawn with its buttons
    worse = next(p for p in plies if p["player"] == 0 and p["label"] != "best" and p["best"]["type"] == "buy"
                 and PATCHES[p["best"]["patch"]].income)
    # the AI's leather patch
    leather = next(p for p in plies if p["player"] == 1 and p["played"]["type"] == "leather")
    for ply in range(max(worse["ply"], leather["ply"]) + 1):
        if ply:
            screen.keyboard.press("ArrowRight")
        expect(screen.locator("body")).to_have_attribute("data-review-ply", str(ply))
        if ply == worse["ply"]:
            expect(move).to_contain_text(f"Move {ply + 1} of {len(plies)}: you chose to {worse['played_words']} (")
            expect(move).to_contain_text(f" The best move was to {worse['best_words']}, keeping ")
            best = worse["best"]
            mask = mask_of(tuple(c) for c in best["cells"])
            assert dots(screen, "[data-testid=review-best]") == sorted(button_cells(best["patch"], mask))
        if ply == leather["ply"]:  # said as a whole sentence
            expect(move).to_contain_text(f"Move {ply + 1} of {len(plies)}: the AI chose to put the leather patch on ")
            assert " played put " not in move.inner_text()
