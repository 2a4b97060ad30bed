"""Practise your mistakes: the moves a review labelled mistake or blunder, made into puzzles by the
exact search in the job queue, kept in the store and served like any other puzzle."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest
from web_databases import db_fixture, pg_url_fixture  # noqa: F401  (fixtures db, pg_url)

from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.routers.reviews import MAX_PRACTISE_PLIES
from patchwork_opt.apps.web.services import Services
from patchwork_opt.apps.web.store import Game, GameStore
from patchwork_opt.formats.record import Record
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"
#: A shipped endgame where exactly one decision wins: the game played into it, then its natural
#: wrong move (a mistake, by the person at the puzzle's seat).
ONLY_MOVE = next(p for p in shipped_bank().puzzles["endgame"]
                 if isinstance(p, EndgamePuzzle) and len(p.winning) == 1)


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(base_url=LOCAL, app=create_app(db, Services())) as c:
        yield c


def stored_game(store: GameStore, puzzle: EndgamePuzzle) -> Game:
    """The puzzle's game up to its position and then its refutation's move, the person at its seat."""
    record = puzzle.record
    start = Record(circle=record.circle[:], moves=[], leather=record.leather).replay()
    game = store.create(start, seed=None, ai="greedy", level=1, seat=puzzle.player)
    for ply, move in enumerate([*record.moves, puzzle.refutation]):
        player = store.get(game.id).state().to_move()
        store.append(game.id, ply, move, actor="human" if player == puzzle.player else "ai")
    return store.get(game.id)


def test_plies_to_practise_are_your_own_moves_of_the_game(client: TestClient) -> None:
    game = stored_game(client.app.state.store, ONLY_MOVE)  # type: ignore[attr-defined]
    url = f"/api/games/{game.id}/mistake-puzzles"
    mine = len(ONLY_MOVE.record.moves)
    theirs = next(m.ply for m in game.moves if m.player != game.seat)
    beyond = client.post(url, json={"plies": [mine, len(game.moves)]})
    assert beyond.status_code == 409 and f"has {len(game.moves)} moves, so no ply {len(game.moves)}" in beyond.text
    ai_move = client.post(url, json={"plies": [theirs]})
    assert ai_move.status_code == 409 and f"ply {theirs} is the AI's move" in ai_move.text
    assert client.post(url, json={"plies": []}).status_code == 422
    assert client.post(url, json={"plies": [mine] * (MAX_PRACTISE_PLIES + 1)}).status_code == 422
    assert client.post(url, json={"plies": ["1"]}).status_code == 422
    assert client.post("/api/games/no-such-game-id-at-all/mistake-puzzles", json={"plies": [0]}).status_code == 404


def test_a_mistake_where_one_move_wins_becomes_a_puzzle_served_and_judged(client: TestClient) -> None:
    game = stored_game(client.app.state.store, ONLY_MOVE)  # type: ignore[attr-defined]
    mine = len(ONLY_MOVE.record.moves)
    made = client.post(f"/api/games/{game.id}/mistake-puzzles", json={"plies": [mine, mine]})
    assert made.status_code == 200, made.text
    answer = made.json()
    assert answer["tried"] == 1 and answer["plies"] == [mine] and len(answer["puzzles"]) == 1
    view = client.get(f"/api/puzzles/{answer['puzzles'][0]}")  # kept in the store
    assert view.status_code == 200, view.text
    shown = view.json()
    assert shown["kind"] == "endgame" and shown["endgame"]["player"] == game.seat
    assert shown["endgame"]["state"]["position"] == ONLY_MOVE.to_json()["position"]
    assert shown["endgame"]["winning"] == 1
    verdict = client.post(f"/api/puzzles/{shown['id']}/answer", json={"move": ONLY_MOVE.winning[0].to_json()})
    assert verdict.status_code == 200 and verdict.json()["correct"]
    # a move that was no mistake of a position with no single winning move makes none: said plainly
    opening = next(m.ply for m in game.moves if m.player == game.seat)
    none = client.post(f"/api/games/{game.id}/mistake-puzzles", json={"plies": [opening]}).json()
    assert none == {"puzzles": [], "plies": [], "tried": 1}
