"""Practise your mistakes on the web: the moves a review labelled mistake or blunder, made into
exercises ("find a better move") in the job queue of the review's own analyses, kept in the puzzle
store, served and judged like any puzzle, and back in the visitor's retry queue until solved."""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from web_databases import db_fixture, pg_url_fixture  # noqa: F401  (fixtures db, pg_url)

from patchwork_opt.ai.analysis.position import analyse_position
from patchwork_opt.ai.base import SearchedPosition
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.game_store import Game, GameStore
from patchwork_opt.apps.web.routers.reviews import MAX_PRACTISE_PLIES
from patchwork_opt.apps.web.services import Services
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import words_in
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.kinds.fill import FillPuzzle
from patchwork_opt.puzzles.model import placements_json
from patchwork_opt.puzzles.stores import RETRY_AFTER

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"
#: A game cut just after a blunder (its last move): from a won endgame the player advanced and lost.
RECORD = Record.load(Path(__file__).parent / "data" / "mistake_record.json")
BLUNDER_PLY = len(RECORD.moves) - 1
FILLS = [p for p in shipped_bank().puzzles["fill"] if isinstance(p, FillPuzzle)][:RETRY_AFTER]


def fixed(state: State, budget: ThinkBudget, extra: Sequence[Move], stop: StopSignal) -> SearchedPosition:
    """The AI's analysis on a fixed budget (the same on any machine) instead of the clock."""
    return analyse_position(state, iterations=1500, seed=0, extra=extra, stop=stop)


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(base_url=LOCAL, app=create_app(db, Services(analyse=fixed))) as c:
        yield c


def stored_game(store: GameStore) -> Game:
    """The record as a game, the person at the seat of the blunder (their moves by the human)."""
    start = Record(circle=RECORD.circle[:], moves=[], leather=RECORD.leather).replay()
    seat = RECORD.replay(BLUNDER_PLY).to_move()
    game = store.create(start, seed=None, ai="greedy", level=1, seat=seat)
    state = start
    for ply, move in enumerate(RECORD.moves):
        store.append(game.id, ply, move, actor="human" if state.to_move() == seat else "ai")
        state.apply(move)
    return store.get(game.id)


def test_plies_to_practise_are_your_own_moves_of_the_game(client: TestClient) -> None:
    game = stored_game(client.app.state.store)  # type: ignore[attr-defined]
    url = f"/api/games/{game.id}/mistake-puzzles"
    theirs = next(m.ply for m in game.moves if m.player != game.seat)
    beyond = client.post(url, json={"plies": [BLUNDER_PLY, len(game.moves)]})
    assert beyond.status_code == 409 and f"has {len(game.moves)} moves, so no ply {len(game.moves)}" in beyond.text
    ai_move = client.post(url, json={"plies": [theirs]})
    assert ai_move.status_code == 409 and f"ply {theirs} is the AI's move, not yours" in ai_move.text
    assert client.post(url, json={"plies": []}).status_code == 422
    assert client.post(url, json={"plies": [BLUNDER_PLY] * (MAX_PRACTISE_PLIES + 1)}).status_code == 422
    assert client.post(url, json={"plies": ["1"]}).status_code == 422
    assert client.post(url, json={"plies": [BLUNDER_PLY], "time_per_move": 0}).status_code == 422
    assert client.post(url, json={"plies": [BLUNDER_PLY], "time_per_move": None}).status_code == 422
    assert client.post("/api/games/no-such-game-id-at-all/mistake-puzzles", json={"plies": [0]}).status_code == 404


def _answer(client: TestClient, puzzle_id: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(f"/api/puzzles/{puzzle_id}/answer", json=body)
    assert answer.status_code == 200, answer.text
    verdict: dict[str, Any] = answer.json()
    return verdict


def test_a_blunder_becomes_an_exercise_that_comes_back_until_solved(client: TestClient) -> None:
    game = stored_game(client.app.state.store)  # type: ignore[attr-defined]
    made = client.post(f"/api/games/{game.id}/mistake-puzzles", json={"plies": [BLUNDER_PLY, BLUNDER_PLY],
                                                                      "time_per_move": 0.5})
    assert made.status_code == 200, made.text
    answer = made.json()
    assert answer["tried"] == 1 and answer["plies"] == [BLUNDER_PLY] and len(answer["puzzles"]) == 1
    (exercise,) = answer["exercises"]
    played = RECORD.moves[BLUNDER_PLY].to_json()
    assert exercise["id"] == answer["puzzles"][0] and exercise["ply"] == BLUNDER_PLY and exercise["played"] == played
    assert exercise["label"] in ("mistake", "blunder")
    view = client.get(f"/api/puzzles/{exercise['id']}").json()  # kept in the store, served as any puzzle
    assert view["kind"] == "exercise" and view["answer"] == "move" and "find a better move" in view["task"]
    assert view["position"]["player"] == game.seat and view["details"]["kind"] == "exercise"
    assert view["details"]["played"] == played and view["details"]["ply"] == BLUNDER_PLY
    assert view["position"]["state"]["position"] == to_notation(RECORD.replay(BLUNDER_PLY))  # before the blunder

    missed = _answer(client, exercise["id"], {"move": played})  # the move played is never right
    assert not missed["correct"] and missed["again"] and not missed["rated"]  # exercises are not rated
    told = missed["details"]
    assert told["kind"] == "exercise" and told["refutation"][0] == played and told["why"] in missed["text"]
    assert len(told["refutation_players"]) == len(told["refutation"]) == len(told["refutation_words"])
    # every move the page shows comes with its words, the ones the text says
    before = RECORD.replay(BLUNDER_PLY)
    assert told["played_words"] == view["details"]["played_words"] == words_in(before, RECORD.moves[BLUNDER_PLY])
    assert told["refutation_words"][0] == told["played_words"] and told["best_line_words"][0] == told["best_words"]
    assert told["worse"] in told["why"] and told["best_words"] in told["worse"]
    best = told["best_move"]  # the best move, with its cells to draw
    assert best["type"] in ("buy", "advance", "leather") and (best["type"] == "advance" or best.get("cells") or
                                                              best.get("cell"))
    visitor = missed["visitor"]["id"]
    assert missed["visitor"]["rating"] == 1500.0  # no rating moved

    for fill in FILLS:  # RETRY_AFTER more answers, then the exercise is due again, with the endgames
        _answer(client, fill.id, {"placements": placements_json(fill.best), "visitor": visitor})
    again = client.post("/api/puzzles", json={"kind": "endgame", "visitor": visitor}).json()
    assert again["id"] == exercise["id"] and again["retry"] and again["kind"] == "exercise"
    solved = _answer(client, exercise["id"], {"move": best, "visitor": visitor})
    assert solved["correct"] and not solved["again"] and solved["details"]["label"] == "best"
    after = client.post("/api/puzzles", json={"kind": "endgame", "visitor": visitor}).json()
    assert after["id"] != exercise["id"] and not after["retry"]  # solved: it does not come back


def test_a_move_that_was_no_mistake_makes_no_exercise(client: TestClient) -> None:
    game = stored_game(client.app.state.store)  # type: ignore[attr-defined]
    opening = next(m.ply for m in game.moves if m.player == game.seat)
    none = client.post(f"/api/games/{game.id}/mistake-puzzles", json={"plies": [opening]}).json()
    assert none == {"puzzles": [], "plies": [], "tried": 1, "exercises": []}


def test_a_server_without_the_review_says_so(db: str) -> None:
    with TestClient(base_url=LOCAL, app=create_app(db, Services())) as c:
        game = stored_game(c.app.state.store)  # type: ignore[attr-defined]
        refused = c.post(f"/api/games/{game.id}/mistake-puzzles", json={"plies": [BLUNDER_PLY]})
        assert refused.status_code == 503 and "without the game review" in refused.text
