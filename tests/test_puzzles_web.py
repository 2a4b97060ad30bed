"""The puzzles API as the page uses it: a puzzle without its answer, the verdict with its proof, the
ratings of visitor and puzzle (kept in the games store, SQLite and PostgreSQL alike), bad input."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from web_databases import db_fixture, pg_url_fixture  # noqa: F401  (fixtures db, pg_url)

from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import Services
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.move import Move
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import patch_words, words_in
from patchwork_opt.puzzles.bank import Bank, shipped_bank
from patchwork_opt.puzzles.kinds import KINDS, Puzzle
from patchwork_opt.puzzles.kinds.endgame import EndgamePuzzle
from patchwork_opt.puzzles.kinds.fill import FillPuzzle, completes_square, fill_value
from patchwork_opt.puzzles.model import placements_json
from patchwork_opt.puzzles.proof import distinct_moves, move_key
from patchwork_opt.puzzles.selection import START_RATINGS

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"
BANK = shipped_bank()
ENDGAME = next(p for p in BANK.puzzles["endgame"] if isinstance(p, EndgamePuzzle))
FILL = next(p for p in BANK.puzzles["fill"] if isinstance(p, FillPuzzle))


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(base_url=LOCAL, app=create_app(db, Services())) as c:
        yield c


def wrong_move(puzzle: EndgamePuzzle) -> dict[str, Any]:
    state = puzzle.state()
    wins = {move_key(state, m) for m in puzzle.winning}
    return next(m for k, m in distinct_moves(state).items() if k not in wins).to_json()


def answer(client: TestClient, puzzle: Puzzle, body: dict[str, Any]) -> Any:
    return client.post(f"/api/puzzles/{puzzle.id}/answer", json=body)


#: The fields every view has, whatever the kind: a kind's own data is in its ``details`` alone.
PUZZLE_FIELDS = {"id", "kind", "difficulty", "task", "answer", "rating", "visitor", "themes", "retry", "daily",
                 "position", "details"}
VERDICT_FIELDS = {"puzzle", "correct", "text", "margin", "line", "line_words", "line_players", "details", "visitor",
                  "rating", "rated", "again"}


def test_a_puzzle_is_served_without_its_answer(client: TestClient) -> None:
    for kind in ("endgame", "fill"):
        for difficulty in (1, 5):
            view = client.post("/api/puzzles", json={"kind": kind, "difficulty": difficulty}).json()
            puzzle = BANK.find(view["id"])
            assert puzzle is not None and puzzle.kind == kind and view["difficulty"] == difficulty
            measured = puzzle.rating if isinstance(puzzle, EndgamePuzzle) else None  # the bots' answers
            start = measured if measured is not None else START_RATINGS[difficulty]
            assert view["rating"] == {"rating": start, "deviation": 250.0}
            # one shape: the fields every kind has (its question, how it is answered), and its kind's details
            assert set(view) == PUZZLE_FIELDS
            assert view["task"] == KINDS[kind].task(puzzle) and view["answer"] == KINDS[kind].answer
            assert set(view["details"]) == ({"kind", "legal", "winning"} if kind == "endgame" else
                                            {"kind", "quilt", "patches", "objective", "marks", "budget",
                                             "require_bonus"})
            assert view["details"]["kind"] == kind
            assert (view["position"] is None) == (kind == "fill")
            if kind == "endgame":  # the position, drawn alike for every kind answered by a move
                assert set(view["position"]) == {"player", "pending_leather", "state", "boards", "offers", "upcoming"}
    endgame = client.get(f"/api/puzzles/{ENDGAME.id}").json()
    assert endgame["details"] == {"kind": "endgame", "legal": ENDGAME.legal, "winning": len(ENDGAME.winning)}
    assert endgame["position"]["player"] == ENDGAME.player
    assert endgame["position"]["state"]["position"] == ENDGAME.to_json()["position"]
    fill = client.get(f"/api/puzzles/{FILL.id}").json()["details"]
    assert fill["patches"] == list(FILL.patches) and [tuple(c) for c in fill["quilt"]] == cells_of(FILL.quilt)
    assert (fill["objective"], fill["marks"], fill["budget"], fill["require_bonus"]) == (
        FILL.objective, FILL.marks, FILL.budget, FILL.require_bonus)


def test_the_published_views_have_one_shape_for_every_kind(client: TestClient) -> None:
    """The schema a client generates its types from says the same: no field named after a kind, no
    kind's datum beside ``details``."""
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert set(schemas["PuzzleView"]["properties"]) == PUZZLE_FIELDS
    assert set(schemas["AnswerView"]["properties"]) == VERDICT_FIELDS
    assert set(schemas["ThemesView"]["properties"]) == {"kinds"}


def test_a_winning_move_is_correct_and_the_ratings_move_the_right_way(client: TestClient) -> None:
    first = answer(client, ENDGAME, {"move": ENDGAME.winning[0].to_json()})
    assert first.status_code == 200, first.text
    verdict = first.json()
    assert verdict["correct"] and verdict["margin"] >= 0 and verdict["rated"]
    assert verdict["line"][0] == ENDGAME.winning[0].to_json() and len(verdict["line_players"]) == len(verdict["line"])
    assert verdict["visitor"]["rating"] > 1500 and verdict["rating"]["rating"] < START_RATINGS[ENDGAME.difficulty]
    assert set(verdict) == VERDICT_FIELDS
    # the answer revealed, each move with its words (core/words.py), for the player who makes it
    start = ENDGAME.state()
    assert verdict["details"] == {"kind": "endgame", "winning": [m.to_json() for m in ENDGAME.winning],
                                  "winning_words": [words_in(start, m) for m in ENDGAME.winning]}
    assert len(verdict["line_words"]) == len(verdict["line"])
    assert verdict["line_words"][0] == verdict["details"]["winning_words"][0]
    visitor = verdict["visitor"]["id"]
    # a wrong fill answer: the visitor goes down, that puzzle up
    before = verdict["visitor"]["rating"]
    short = answer(client, FILL, {"placements": placements_json(FILL.best[:1]), "visitor": visitor}).json()
    assert not short["correct"] and short["margin"] < 0 and set(short) == VERDICT_FIELDS
    assert short["visitor"]["rating"] < before and short["rating"]["rating"] > START_RATINGS[FILL.difficulty]
    square = not FILL.require_bonus or completes_square(FILL, FILL.best[:1])  # else it counts 0
    reached = fill_value(FILL, FILL.best[:1]) if square else 0
    assert short["details"] == {"kind": "fill", "value": reached, "best": FILL.best_value,
                                "optimum": placements_json(FILL.best),
                                "optimum_words": [patch_words(pid, mask) for pid, mask in FILL.best]}
    assert short["margin"] == reached - FILL.best_value
    # answering again changes nothing; the visitor's rating comes back with the next puzzle
    again = answer(client, FILL, {"placements": placements_json(FILL.best), "visitor": visitor}).json()
    assert again["correct"] and not again["rated"] and again["visitor"]["rating"] == short["visitor"]["rating"]
    view = client.post("/api/puzzles", json={"kind": "fill", "visitor": visitor}).json()
    assert view["visitor"]["rating"] == short["visitor"]["rating"] and view["id"] != FILL.id


def test_a_wrong_move_is_refuted_by_best_play_to_the_end(client: TestClient) -> None:
    verdict = answer(client, ENDGAME, {"move": wrong_move(ENDGAME)}).json()
    assert "correct" in verdict, verdict
    assert not verdict["correct"] and verdict["margin"] <= 0 and "refutes" in verdict["text"]
    state = ENDGAME.state()
    for move in verdict["line"]:
        state.apply(Move.from_json(move))
    assert state.is_terminal()


def test_bad_answers_say_why(client: TestClient) -> None:
    state = ENDGAME.state()
    not_offered = next(pid for pid in range(33) if pid not in state.circle[:3])
    cells = [list(c) for c in cells_of(PATCHES[not_offered].placements[0])]
    bad = answer(client, ENDGAME, {"move": {"type": "buy", "patch": not_offered, "cells": cells}})
    assert bad.status_code == 422 and "not on offer" in bad.json()["detail"]
    assert answer(client, ENDGAME, {"move": {"type": "leather", "cell": [0, 0]}}).status_code == 422
    assert answer(client, ENDGAME, {"placements": []}).status_code == 422
    assert answer(client, FILL, {"move": {"type": "advance"}}).status_code == 422
    stranger = next(pid for pid in range(33) if pid not in FILL.patches)
    off = answer(client, FILL, {"placements": [{"patch": stranger, "cells": [[0, 0]]}]})
    assert off.status_code == 422 and f"patch {stranger} is not one of the puzzle's patches" in off.json()["detail"]
    twice = placements_json(FILL.best[:1]) * 2
    assert "used twice" in answer(client, FILL, {"placements": twice}).json()["detail"]
    assert answer(client, ENDGAME, {"move": {"type": "advance"}, "placements": []}).status_code == 422
    assert answer(client, ENDGAME, {"move": None}).status_code == 422
    missing = client.post("/api/puzzles/e000000000000/answer", json={"move": {"type": "advance"}})
    assert missing.status_code == 404 and "no puzzle" in missing.json()["detail"]
    assert client.get("/api/puzzles/e000000000000").status_code == 404
    stranger_visitor = {"move": {"type": "advance"}, "visitor": "x" * 22}
    assert answer(client, ENDGAME, stranger_visitor).status_code == 422
    assert client.post("/api/puzzles", json={"kind": "fill", "visitor": "x" * 22}).status_code == 422
    assert client.post("/api/puzzles", json={"kind": "chess"}).status_code == 422
    assert client.post("/api/puzzles", json={"difficulty": 6}).status_code == 422


def test_a_visitor_who_answered_the_whole_bank_gets_a_new_puzzle_made_in_the_queue(db: str) -> None:
    one = Bank({"endgame": (ENDGAME,), "fill": (FILL,)})
    made: list[tuple[str, int | None]] = []

    def make(kind: str, difficulty: int | None, seed: int, stop: StopSignal) -> Puzzle:
        made.append((kind, difficulty))
        return next(p for p in BANK.puzzles["fill"] if p.id != FILL.id)

    app = create_app(db, Services(make_puzzle=make))
    app.state.puzzle_bank = one
    with TestClient(base_url=LOCAL, app=app) as client:
        visitor = answer(client, FILL, {"placements": []}).json()["visitor"]["id"]
        view = client.post("/api/puzzles", json={"kind": "fill", "visitor": visitor}).json()
        # made at the difficulty that follows the visitor: a newcomer who missed their first, 1
        assert made == [("fill", 1)] and view["id"] != FILL.id
        kept = client.get(f"/api/puzzles/{view['id']}")  # kept in the store: it can be answered
        made_puzzle = BANK.find(view["id"])
        assert kept.status_code == 200 and made_puzzle is not None
        assert answer(client, made_puzzle, {"placements": []}).status_code == 200
