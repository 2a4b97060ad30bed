"""Teaching games through the HTTP API (KaTrain's): each of your moves answered with the review's
verdict on it and the better move, a take-back of it, and reviews that count the take-backs; on
SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import sqlite3
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rigged_analysis import POINTS, Rigged, figures, rigged_services
from web_databases import db_fixture, opened_fixture, pg_url_fixture  # noqa: F401  (fixtures db, opened, pg_url)

from patchwork_opt.apps.judge import label_of
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.game_store import GameStore
from patchwork_opt.apps.web.routers.games import TEACHING_SECONDS
from patchwork_opt.apps.web.routers.reviews import REVIEW_SECONDS
from patchwork_opt.apps.web.services import Limits, Services
from patchwork_opt.apps.web.solver_services import web_services
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.formats.record import Record

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"
FAST = 0.05  # seconds of a real analysis: enough for figures, quick for tests


@pytest.fixture
def rigged() -> Rigged:
    return Rigged()


@pytest.fixture
def client(db: str, rigged: Rigged) -> Iterator[TestClient]:
    with TestClient(create_app(db, rigged_services(rigged)), base_url=LOCAL) as c:
        yield c


def new_game(c: TestClient, **body: Any) -> dict[str, Any]:
    response = c.post("/api/games", json={"seed": 11, **body})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def play(c: TestClient, game: dict[str, Any], move: Move) -> Any:
    return c.post(f"/api/games/{game['id']}/moves", json={"ply": game["ply"], "move": move.to_json()})


def test_a_blunder_is_answered_with_the_better_move_and_can_be_taken_back(client: TestClient) -> None:
    game = new_game(client, teaching=True)
    assert game["teaching"] and game["takebacks"] == 0
    start = from_notation(game["state"]["position"])
    better = Rigged.best(start)
    response = play(client, game, ADVANCE)
    assert response.status_code == 200, response.text
    after = response.json()
    verdict = after["moves"][-1]["verdict"]
    assert verdict["label"] == "blunder" and verdict["flagged"] and verdict["ply"] == 0
    assert verdict["played"] == {"type": "advance"} and verdict["played_text"].startswith("advance")
    # the better move, as a move the page can draw (its cells) and in words
    assert verdict["best"] == better.to_json() and verdict["best"]["cells"] == [list(c) for c in cells_of(better.mask)]
    assert verdict["best_text"].startswith(f"buy #{better.patch}")
    # the rigged world's figures: the start even, a deviation costs its player POINTS
    (win_before, margin_before), (win_after, margin_after) = figures((0, 0), 0), figures((1, 0), 0)
    assert verdict["win_before"] == round(win_before, 4) and verdict["win_after"] == round(win_after, 4)
    assert verdict["points_lost"] == margin_before - margin_after == POINTS
    assert verdict["label"] == label_of(win_before - win_after, POINTS, is_best=False) == "blunder"  # the rule
    # the verdict stays with the move when the game is read again
    assert client.get(f"/api/games/{game['id']}").json()["moves"][-1]["verdict"] == verdict
    # take it back: the game is at the start again, one take-back counted and kept in the record
    back = client.post(f"/api/games/{game['id']}/undo", json={"ply": after["ply"]})
    assert back.status_code == 200, back.text
    assert back.json()["ply"] == 0 and back.json()["takebacks"] == 1
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["takebacks"] == [{"ply": 0, "move": {"type": "advance"}}]
    # the better move this time: best, nothing flagged
    again = play(client, back.json(), better).json()["moves"][-1]["verdict"]
    assert again["label"] == "best" and not again["flagged"] and again["best"] == again["played"]


def test_the_review_counts_the_take_backs_of_the_person(client: TestClient) -> None:
    game = new_game(client, teaching=True, seat=0)
    for _ in range(2):
        game = play(client, game, ADVANCE).json()
        game = client.post(f"/api/games/{game['id']}/undo", json={"ply": game["ply"]}).json()
    game = play(client, game, ADVANCE).json()
    review = client.get(f"/api/games/{game['id']}/review", params={"time_per_move": 0.05})
    assert review.status_code == 200, review.text
    players = review.json()["players"]
    assert [p["takebacks"] for p in players] == [2, 0]
    for p in players:
        assert 0 <= p["error_rate"] <= 1 and p["decisions"] >= 0
    assert "Error rate" in review.json()["measures_rule"] and "deal" in review.json()


def test_a_game_that_is_not_teaching_answers_no_verdict_and_still_counts_undos(client: TestClient,
                                                                               rigged: Rigged) -> None:
    game = new_game(client)
    assert not game["teaching"]
    after = play(client, game, ADVANCE).json()
    assert after["moves"][-1]["verdict"] is None and rigged.calls == 0  # no analysis for it
    back = client.post(f"/api/games/{game['id']}/undo", json={"ply": after["ply"]}).json()
    assert back["takebacks"] == 1


def test_refusals_come_before_any_analysis(client: TestClient, rigged: Rigged) -> None:
    game = new_game(client, teaching=True)
    illegal = play(client, game, Move("leather", -1, 1))
    assert illegal.status_code == 422 and "leather" in illegal.json()["detail"]
    stale = client.post(f"/api/games/{game['id']}/moves", json={"ply": 3, "move": {"type": "advance"}})
    assert stale.status_code == 409 and "ply" in stale.json()["detail"]
    assert rigged.calls == 0
    ai_first = new_game(client, teaching=True, seat=1)
    refused = play(client, ai_first, ADVANCE)
    assert refused.status_code == 409 and "AI's turn" in refused.json()["detail"]
    assert rigged.calls == 0
    bad = client.post("/api/games", json={"seed": 1, "teaching": "yes"})
    assert bad.status_code == 422


def test_a_server_without_the_analysis_refuses_teaching_games(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "g.db", rigged_services(None)), base_url=LOCAL) as c:
        refused = c.post("/api/games", json={"seed": 1, "teaching": True})
        assert refused.status_code == 503 and "teaching" in refused.json()["detail"]
        assert c.post("/api/games", json={"seed": 1}).status_code == 201


def test_the_verdict_takes_the_review_s_default_depth() -> None:
    assert TEACHING_SECONDS == REVIEW_SECONDS


@pytest.fixture(scope="module")
def real_services() -> Services:
    built: Services = web_services(max_ai_seconds=FAST)
    return built


def test_the_review_and_the_verdicts_speak_with_one_voice(tmp_path: Path, real_services: Services) -> None:
    """The verdicts' analyses are the cache's: the review of the game reads them again and names each
    of the person's moves and its best move as its verdict did, each labelled by the one rule from the
    figures it shows. The review knows how the game went on (its figures chain from ply to ply), so a
    verdict is the judgement with what was known right after the move."""
    limits = Limits(max_ai_seconds=FAST)
    with TestClient(create_app(tmp_path / "g.db", real_services, limits), base_url=LOCAL) as c:
        game = new_game(c, seed=5, teaching=True, ai="greedy", level=1)
        rng_moves = 0
        while game["ply"] < 8 and not game["state"]["over"]:
            if game["ai_to_move"]:
                game = c.post(f"/api/games/{game['id']}/ai-move", json={"ply": game["ply"]}).json()
                continue
            state = from_notation(game["state"]["position"])
            moves = list(state.legal_moves())
            move = moves[(7 * rng_moves) % len(moves)]  # any legal move, a different one each time
            rng_moves += 1
            response = play(c, game, move)
            assert response.status_code == 200, response.text
            game = response.json()
        verdicts = {m["ply"]: m["verdict"] for m in game["moves"] if m["actor"] == "human"}
        assert verdicts and all(v is not None for v in verdicts.values())
        review = c.get(f"/api/games/{game['id']}/review", params={"time_per_move": FAST}).json()
        for ply, verdict in verdicts.items():
            reviewed = review["plies"][ply]
            assert (reviewed["played"], reviewed["played_words"]) == (verdict["played"], verdict["played_words"])
            if "best" not in (reviewed["label"], verdict["label"]):  # (a move as good as the best is named the best)
                assert (reviewed["best"], reviewed["best_words"]) == (verdict["best"], verdict["best_words"]), ply
            for judged in (reviewed, verdict):
                assert judged["label"] == label_of(judged["loss"], judged["points_lost"], judged["label"] == "best")
                assert judged["win_after"] <= judged["win_before"] and judged["margin_after"] <= judged["margin_before"]


_OLD_GAMES = """CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, touched REAL, seed INTEGER,
    circle TEXT NOT NULL, leather TEXT NOT NULL, ai TEXT NOT NULL, level INTEGER NOT NULL,
    seat INTEGER NOT NULL CHECK (seat IN (0, 1)))"""
_OLD_MOVES = """CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL, player INTEGER NOT NULL, actor TEXT NOT NULL, move TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '', created REAL NOT NULL, PRIMARY KEY (game_id, ply))"""


def _old_database(db: str) -> None:
    """A games database as written before teaching games: no ``teaching``, no ``verdict``, no take-backs."""
    state = State.new(seed=2)
    row = ("old-game-0000000000", 1.0, 1.0, 2, json.dumps(state.circle), json.dumps(list(state.printing)),
           "greedy", 1, 0)
    move = ("old-game-0000000000", 0, 0, "human", json.dumps(ADVANCE.to_json()), "", 1.0)
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(_OLD_GAMES.replace("REAL", "DOUBLE PRECISION"))
            conn.execute(_OLD_MOVES.replace("REAL", "DOUBLE PRECISION"))
            conn.execute("INSERT INTO games VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)", row)
            conn.execute("INSERT INTO moves VALUES (%s,%s,%s,%s,%s,%s,%s)", move)
        return
    with sqlite3.connect(db) as conn:
        conn.execute(_OLD_GAMES)
        conn.execute(_OLD_MOVES)
        conn.execute("INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?)", row)
        conn.execute("INSERT INTO moves VALUES (?,?,?,?,?,?,?)", move)


def test_a_database_from_before_teaching_games_opens_and_keeps_its_games(db: str, opened: Any) -> None:
    _old_database(db)
    store: GameStore = opened(db).games
    old = store.get("old-game-0000000000")
    assert not old.teaching and old.moves[0].verdict is None and old.takebacks == []
    assert store.truncate(old.id, 0, expected_ply=1).takebacks[0].move == ADVANCE
    assert store.get(old.id).record.takebacks[0].ply == 0
    new = store.create(State.new(seed=3), seed=3, ai="greedy", level=1, seat=0, teaching=True)
    verdict = {"label": "best"}
    store.append(new.id, 0, ADVANCE, actor="human", verdict=verdict)
    again = store.get(new.id)
    assert again.teaching and again.moves[0].verdict == verdict
    assert replace(again, takebacks=[]).record.to_json() == Record(again.circle, [ADVANCE]).to_json()


def test_a_verdict_stored_before_the_figures_chained_still_reads_back(tmp_path: Path, rigged: Rigged) -> None:
    """A teaching game stored by an older server: its verdicts have no margins nor within_noise."""
    db = str(tmp_path / "old.db")
    with TestClient(create_app(db, rigged_services(rigged)), base_url=LOCAL) as c:
        game = new_game(c, teaching=True)
        verdict = play(c, game, ADVANCE).json()["moves"][-1]["verdict"]
    older = {k: v for k, v in verdict.items() if k not in ("margin_before", "margin_after", "within_noise")}
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE moves SET verdict = ? WHERE game_id = ?", (json.dumps(older), game["id"]))
    with TestClient(create_app(db, rigged_services(rigged)), base_url=LOCAL) as c:
        read = c.get(f"/api/games/{game['id']}")
    assert read.status_code == 200, read.text
    again = read.json()["moves"][-1]["verdict"]
    assert again["margin_before"] is None and again["label"] == verdict["label"] and not again["within_noise"]
