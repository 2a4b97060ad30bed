"""Practise your mistakes, in a real browser at 1280x800 and at 390x844 with touch: the review's
"Practise your mistakes" makes an exercise of each of your mistakes and blunders, "find a better
move", and links to them on the Puzzles page, where each is played as in a game.

On the rigged server (``served_pages.rigged_server``: the first legal buy is every position's best
move, any other a blunder costing its player ``POINTS``), whose answers are known in advance: the
exercises of a stored game in
which you only advanced, one answered wrong with the move of the game (the verdict in words, the
best move drawn, why the move played was worse with the line that refutes it, stepped through on the
board, and the exercise coming back) and one answered right with the best move. On ``patchwork
serve`` with the real analysis: a poor game practised from its review, and a blunder with a single
winning decision (tests/data/mistake_record.json) made an exercise and solved. axe-core finds no
serious or critical violation on the way."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from rigged_analysis import POINTS, Rigged
from served_pages import (  # noqa: F401  (fixtures browser, server, served_db, served_store, rigged_*)
    advancing_game,
    browser_fixture,
    review_of,
    rigged_db_fixture,
    rigged_server_fixture,
    rigged_store_fixture,
    serious_violations,
    served_db_fixture,
    served_store_fixture,
    server_fixture,
    store_record,
)
from test_game_layout import sideways
from test_puzzles_page import _get, answered, place, ready, screen_fixture  # noqa: F401  (fixture screen)
from test_web_page import _finished_game, shot

from patchwork_opt.apps.web.database import SqliteDatabase
from patchwork_opt.apps.web.game_store import Game, GameStore
from patchwork_opt.apps.web.puzzle_store import SqlPuzzleStore
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.words import words_in
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.kinds import puzzle_from_json
from patchwork_opt.puzzles.kinds.exercise import Exercise
from patchwork_opt.puzzles.proof import BestPlayBot

pytestmark = pytest.mark.slow


def size(page: Page) -> str:
    return "phone" if page.evaluate("() => matchMedia('(pointer: coarse)').matches") else "desktop"


def review_on_the_page(page: Page, server: str, game_id: str, depth: str = "0.1") -> None:
    page.goto(f"{server}/#{game_id}")
    page.wait_for_selector("body[data-ready=true][data-busy=false]", timeout=60_000)
    page.select_option("#review-depth", depth)
    page.click("#review-start")
    page.wait_for_selector("body[data-review-ply='0']", timeout=120_000)


def practise(page: Page) -> int:
    """Press Practise your mistakes; how many exercises were made."""
    page.click("#practise")
    page.wait_for_selector("body[data-busy=false][data-practised]", timeout=300_000)
    return int(page.get_attribute("body", "data-practised") or -1)


def mine(review: dict[str, Any], seat: int) -> list[int]:
    return [p["ply"] for p in review["plies"] if p["player"] == seat and p["label"] in ("mistake", "blunder")]


# --- on the rigged server: answers known in advance ----------------------------------------------------

def test_exercises_from_the_review_are_answered_wrong_then_right(screen: Page, rigged_server: str,
                                                                 rigged_store: GameStore) -> None:
    game = advancing_game(rigged_store, seed=4)
    review_on_the_page(screen, rigged_server, game.id, "0.3")
    reviewed = review_of(rigged_server, game.id, 0.3)
    flagged = mine(reviewed, 0)
    # every advance where a patch could be bought is a blunder, but for the last few, where the chain
    # meets the game's real result (exact, and kinder than the rigged world's)
    assert len(flagged) >= 12, "every advance where a patch could be bought is a blunder"
    first = reviewed["plies"][flagged[-12]]  # a deviation in the rigged world: POINTS lost
    assert practise(screen) == 12  # the latest 12, made of the review's own analyses
    result = screen.inner_text("[data-testid=practise-result]")
    screen.locator("#practise-box").scroll_into_view_if_needed()
    shot(screen, f"practise-{size(screen)}")
    moves = ", ".join(str(ply + 1) for ply in flagged[-12:])
    mistakes = f"the latest 12 of your {len(flagged)}" if len(flagged) > 12 else "your 12"
    assert result == (f"12 exercises from {mistakes} blunders, \"find a better move\" "
                      f"(before moves {moves}): practise them on the Puzzles page"), result
    ids = (screen.get_attribute("#practise-link", "href") or "").split("=", 1)[1].split(",")
    screen.click("#practise-link")
    screen.wait_for_selector(f"body[data-ready=true][data-busy=false][data-puzzle='{ids[0]}']", timeout=60_000)
    assert screen.inner_text("[data-testid=puzzle-note]") == "A mistake of your game, as an exercise: 1 of 12."

    # the first: the position before the move, the move of the game outlined, the task in words
    view = _get(f"{rigged_server}/api/puzzles/{ids[0]}")
    state = from_notation(view["position"]["state"]["position"])
    best = Rigged.best(state)
    task = screen.inner_text("[data-testid=task]")
    assert first["points_lost"] == POINTS
    assert task.startswith(f"Move {flagged[-12] + 1} of your game: you chose to {words_in(state, ADVANCE)}, a blunder: "
                           f"{round(100 * first['loss'])}% of win chance and {POINTS:g} points lost against the best "
                           "move (yours is shaded on the track)"), task
    assert screen.locator("#ex-track [data-testid=span-played]").count() == 1
    shot(screen, f"exercise-task-{size(screen)}")
    assert serious_violations(screen) == []
    screen.click("#ex-advance")  # the move of the game again: never right
    assert answered(screen) == "wrong"
    verdict = screen.inner_text("[data-testid=verdict-text]")
    assert verdict.startswith("That is the move you played in the game: advance"), verdict
    assert f"The best move was {words_in(state, best)}" in verdict
    # the best move drawn in green; why the move played was worse, with the line that refutes it
    drawn = screen.locator("#ex-quilt-you [data-testid=best-move] rect").evaluate_all(
        "rs => rs.map(r => [Number(r.getAttribute('y')) / 34, Number(r.getAttribute('x')) / 34])")
    assert sorted((int(r), int(c)) for r, c in drawn) == sorted(cells_of(best.mask))
    why = screen.inner_text("[data-testid=verdict-why]")
    assert why.startswith("Why it was worse: You chose to advance") and f"{POINTS:.1f} points lost, a blunder" in why
    after = state.clone()
    after.apply(ADVANCE)
    reply, replier = Rigged.best(after), after.to_move()  # what the rigged analysis expects after the advance
    who = "you" if replier == state.to_move() else "the other player"
    steps = screen.locator("[data-testid=verdict-refutation] li").all_inner_texts()
    assert steps == [f"you: {words_in(state, ADVANCE)}", f"{who}: {words_in(after, reply)}"], steps
    assert screen.locator("[data-testid=verdict-best-line] li").all_inner_texts() == [f"you: {words_in(state, best)}"]
    assert re.search(r"\d+@|\[\d", screen.inner_text("[data-testid=verdict]")) is None  # words, not notation
    screen.keyboard.press("ArrowRight")
    screen.keyboard.press("ArrowRight")  # the answer to the advance, on its mover's quilt
    screen.wait_for_selector("body[data-line=refutation][data-step='1']")
    quilt = "#ex-quilt-you" if who == "you" else "#ex-quilt-other"
    assert screen.locator(f"{quilt} [data-testid=line-step]").count() == (1 if reply.kind != "advance" else 0)
    assert "comes back after a few more" in screen.inner_text("[data-testid=verdict-habits]")
    assert screen.inner_text("[data-testid=verdict-ratings]").endswith("(exercises move no rating).")
    assert sideways(screen) == 0
    shot(screen, f"exercise-wrong-{size(screen)}")
    assert serious_violations(screen) == []

    # the second, answered with the best move: right, drawn green
    screen.click("#next")
    screen.wait_for_selector(f"body[data-busy=false][data-puzzle='{ids[1]}']", timeout=60_000)
    state = from_notation(_get(f"{rigged_server}/api/puzzles/{ids[1]}")["position"]["state"]["position"])
    best = Rigged.best(state)
    place(screen, "#ex-quilt-you", best.patch, cells_of(best.mask))
    assert answered(screen) == "correct"
    said = screen.inner_text("[data-testid=verdict-text]")
    assert said.startswith(f"Better: {words_in(state, best)} is the best move"), said
    assert screen.locator("[data-testid=answer-move]").get_attribute("class") == "overlay best"
    assert screen.locator("[data-testid=best-move]").count() == 0  # the answer is the best move
    shot(screen, f"exercise-right-{size(screen)}")
    assert serious_violations(screen) == []


# --- on patchwork serve, with the real analysis --------------------------------------------------------

def test_practise_your_mistakes_leads_from_the_review_to_the_puzzles(screen: Page, server: str) -> None:
    game = _finished_game(server, seed=5)
    review_on_the_page(screen, server, game["id"])
    flagged = mine(review_of(server, game["id"], 0.1), game["seat"])
    assert flagged, "the advancing player makes mistakes"
    made = practise(screen)
    result = screen.inner_text("[data-testid=practise-result]")
    if made:
        assert result.startswith(f"{made} exercise") and screen.locator("#practise-link").is_visible()
        screen.click("#practise-link")
        ready(screen)
        assert screen.inner_text("[data-testid=puzzle-note]") == f"A mistake of your game, as an exercise: 1 of {made}."
        assert screen.get_attribute("body", "data-kind") == "exercise"
    else:  # analysed again, none is a mistake any more: said plainly
        assert result.startswith("None of your "), result


#: A game cut just after a blunder (its last move) made where exactly one decision wins.
MISTAKE_RECORD = Record.load(Path(__file__).parent.parent / "data" / "mistake_record.json")
BLUNDER_PLY = len(MISTAKE_RECORD.moves) - 1


def blunder_game(store: GameStore) -> Game:
    """The mistake record played on to the end by best play on both sides (a review needs a finished
    game), stored in the served database with the blunderer as the person."""
    head = MISTAKE_RECORD.moves[:BLUNDER_PLY]
    seat = Record(MISTAKE_RECORD.circle[:], head, MISTAKE_RECORD.leather).replay().to_move()
    state, bot = MISTAKE_RECORD.replay(), BestPlayBot()
    tail: list[Move] = []
    while not state.is_terminal():
        tail.append(bot.decide(state).move)
        state.apply(tail[-1])
    return store_record(store, MISTAKE_RECORD, seat, tail)


def test_a_blunder_practised_from_the_review_is_shown_and_solved_on_the_puzzles_page(
    screen: Page, server: str, served_store: GameStore, served_db: Path
) -> None:
    game = blunder_game(served_store)
    review_on_the_page(screen, server, game.id)
    flagged = mine(review_of(server, game.id, 0.1), game.seat)
    assert BLUNDER_PLY in flagged
    made = practise(screen)
    result = screen.inner_text("[data-testid=practise-result]")
    assert made >= 1 and f"{BLUNDER_PLY + 1}" in result.split("(before move")[1], result
    link = screen.locator("#practise-link")
    assert link.inner_text() == f"practise {'it' if made == 1 else 'them'} on the Puzzles page"
    assert serious_violations(screen) == []
    ids = (link.get_attribute("href") or "").split("=", 1)[1].split(",")
    store = SqlPuzzleStore(SqliteDatabase(served_db))
    exercises = [puzzle_from_json(json.loads(store.stored_puzzle(i) or "{}")) for i in ids]
    at = next(i for i, e in enumerate(exercises) if isinstance(e, Exercise) and e.ply == BLUNDER_PLY)
    exercise = exercises[at]
    assert isinstance(exercise, Exercise) and exercise.player == game.seat
    assert exercise.record.moves == MISTAKE_RECORD.moves[:BLUNDER_PLY]  # the position before the blunder

    screen.goto(f"{server}/puzzles?set={','.join(ids)}#{ids[at]}")
    screen.wait_for_selector(f"body[data-ready=true][data-busy=false][data-puzzle='{ids[at]}']", timeout=60_000)
    note = screen.inner_text("[data-testid=puzzle-note]")
    assert note == f"A mistake of your game, as an exercise: {at + 1} of {made}."
    assert "find a better move" in screen.inner_text("[data-testid=task]").lower()
    # the position before the blunder: the offers in order, both quilts, spaces and buttons
    state = exercise.state()
    offered = screen.locator("#ex-offers .offer").evaluate_all("cards => cards.map(c => Number(c.dataset.patch))")
    assert offered == list(state.offers())
    for quilt, seat in (("you", exercise.player), ("other", 1 - exercise.player)):
        assert screen.locator(f"#ex-quilt-{quilt} .piece").count() == len(state.placed[seat])
        assert screen.inner_text(f"#ex-stats-{quilt} dd[data-stat=space]") == str(state.pos[seat])
        assert screen.inner_text(f"#ex-stats-{quilt} dd[data-stat=buttons]") == str(state.buttons[seat])
    assert serious_violations(screen) == []

    move = exercise.best.move  # the review's best move: right whatever the analysis
    assert move.kind in ("buy", "advance"), move
    if move.kind == "advance":
        screen.click("#ex-advance")
    else:
        place(screen, "#ex-quilt-you", move.patch, cells_of(move.mask))
    assert answered(screen) == "correct"
    assert "Correct!" in screen.inner_text("[data-testid=verdict]")
    assert serious_violations(screen) == []
