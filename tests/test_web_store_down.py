"""The games database going away mid-request (a SQLite file that cannot be opened, a PostgreSQL
server whose connections are cut): a one-line 503 with Retry-After, one warning line without a
traceback, nothing half-written, and the service answering again once the database is back; a
game's live stream stays open through it."""

from __future__ import annotations

import logging
import secrets
import shutil
import time
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_faults import serving
from test_web_friends_live import stream
from web_databases import pg_url_fixture, postgres_url_or_skip  # noqa: F401  (fixture pg_url)

from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.routers import people as people_router
from patchwork_opt.apps.web.services import Limits, Services
from patchwork_opt.formats.models import move_model

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

UNAVAILABLE = "the game store is unavailable; try again shortly"


def assert_unavailable(answer: httpx.Response, caplog: pytest.LogCaptureFixture) -> None:
    """The 503 a player reads, and the one warning line the operator reads (no traceback, no password)."""
    assert answer.status_code == 503, answer.text
    assert answer.json() == {"detail": UNAVAILABLE, "words": UNAVAILABLE}
    assert int(answer.headers["Retry-After"]) > 0
    said = [r for r in caplog.records if "unavailable" in r.getMessage()]
    assert said and all(r.levelno == logging.WARNING and r.exc_info is None for r in said)
    assert all("\n" not in r.getMessage() and ":patchwork_ci@" not in r.getMessage() for r in said)
    assert "Traceback" not in caplog.text
    caplog.clear()


def hide(path: Path) -> None:
    """Put a directory where the SQLite file was (SQLite cannot open it); its files kept aside."""
    kept = path.parent / "kept"
    kept.mkdir()
    for part in path.parent.glob(f"{path.name}*"):
        shutil.move(part, kept / part.name)
    path.mkdir()


def restore(path: Path) -> None:
    path.rmdir()
    kept = path.parent / "kept"
    for part in kept.iterdir():
        shutil.move(part, path.parent / part.name)
    kept.rmdir()


def a_move(app: Any, game_id: str) -> dict[str, Any]:
    """A legal move of the game as the API takes it (the first the rules list)."""
    game = app.state.store.get(game_id)
    return {"ply": len(game.moves), "move": move_model(next(iter(game.state().legal_moves()))).model_dump(mode="json")}


def test_a_sqlite_file_that_cannot_be_opened_answers_503(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "games.db"
    with TestClient(create_app(str(path), Services(), Limits()), base_url="http://localhost") as client:
        game = client.post("/api/games", json={"opponent": "here"}).json()
        hide(path)
        assert_unavailable(client.get(f"/api/games/{game['id']}"), caplog)
        assert_unavailable(client.post("/api/games", json={"opponent": "here"}), caplog)
        restore(path)
        assert client.get(f"/api/games/{game['id']}").status_code == 200  # back


def test_a_stream_outlives_the_store_going_away(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(people_router, "RECHECK_SECONDS", 0.1)  # the stream reads the store often
    path = tmp_path / "games.db"
    app = create_app(str(path), Services(), Limits())
    with serving(app) as url:
        made = httpx.post(f"{url}/api/games", json={"opponent": "here"}).json()
        with stream(url, made["id"]) as watching:
            assert watching.next()[0] == 0
            hide(path)
            for _ in range(100):
                if "stream of game" in caplog.text:
                    break
                time.sleep(0.05)
            restore(path)
            moved = httpx.post(f"{url}/api/games/{made['id']}/moves", json=a_move(app, made["id"]),
                               headers={"Authorization": f"Bearer {made['secret']}"})
            assert moved.status_code == 200
            assert watching.until_ply(1)[0] == 1  # the same stream, still open
    said = [r for r in caplog.records if "unavailable" in r.getMessage()]
    assert said and all(r.levelno == logging.WARNING and r.exc_info is None for r in said)
    assert "Traceback" not in caplog.text and not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_postgresql_connections_cut_mid_game_answer_503_and_write_nothing(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    import psycopg

    name = f"patchwork-down-{secrets.token_hex(4)}"
    url = f"{pg_url}&application_name={name}"
    with TestClient(create_app(url, Services(), Limits()), base_url="http://localhost") as client:
        made = client.post("/api/games", json={"opponent": "here"}).json()
        game_id, secret = made["id"], made["secret"]
        body = a_move(client.app, game_id)
        with psycopg.connect(postgres_url_or_skip(), autocommit=True) as admin:
            cut = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                                (name,)).fetchall()
        assert cut  # the app's pooled connections
        moved = client.post(f"/api/games/{game_id}/moves", json=body, headers={"Authorization": f"Bearer {secret}"})
        assert_unavailable(moved, caplog)
        for _ in range(20):  # the pool opens new connections in place of the cut ones
            again = client.get(f"/api/games/{game_id}")
            if again.status_code == 200:
                break
            assert_unavailable(again, caplog)
        assert again.status_code == 200 and again.json()["ply"] == 0  # the refused move left nothing behind
