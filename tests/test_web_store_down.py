"""The games database going away mid-request (a SQLite file that cannot be opened, a PostgreSQL
server whose connections are cut): a one-line 503 with Retry-After, one warning line without a
traceback, nothing half-written, and the service answering again once the database is back."""

from __future__ import annotations

import logging
import secrets
import shutil
import warnings
from pathlib import Path

import pytest
from web_databases import pg_url_fixture, postgres_url_or_skip  # noqa: F401  (fixture pg_url)

from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import Limits, Services

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

UNAVAILABLE = "the game store is unavailable; try again shortly"


def assert_unavailable(answer: object, caplog: pytest.LogCaptureFixture) -> None:
    """The 503 a player reads, and the one warning line the operator reads (no traceback, no password)."""
    from httpx import Response

    assert isinstance(answer, Response)
    assert answer.status_code == 503, answer.text
    assert answer.json() == {"detail": UNAVAILABLE, "words": UNAVAILABLE}
    assert int(answer.headers["Retry-After"]) > 0
    said = [r for r in caplog.records if "unavailable" in r.getMessage()]
    assert said and all(r.levelno == logging.WARNING and r.exc_info is None for r in said)
    assert all("\n" not in r.getMessage() and ":patchwork_ci@" not in r.getMessage() for r in said)
    assert "Traceback" not in caplog.text
    caplog.clear()


def test_a_sqlite_file_that_cannot_be_opened_answers_503(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "games.db"
    with TestClient(create_app(str(path), Services(), Limits()), base_url="http://localhost") as client:
        game = client.post("/api/games", json={"opponent": "here"}).json()
        moved = tmp_path / "kept"
        moved.mkdir()
        for part in tmp_path.glob("games.db*"):
            shutil.move(part, moved / part.name)
        path.mkdir()  # a directory where the file was: SQLite cannot open it
        assert_unavailable(client.get(f"/api/games/{game['id']}"), caplog)
        assert_unavailable(client.post("/api/games", json={"opponent": "here"}), caplog)
        path.rmdir()
        for part in moved.iterdir():
            shutil.move(part, tmp_path / part.name)
        assert client.get(f"/api/games/{game['id']}").status_code == 200  # back


def test_postgresql_connections_cut_mid_game_answer_503_and_write_nothing(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    import psycopg

    name = f"patchwork-down-{secrets.token_hex(4)}"
    url = f"{pg_url}&application_name={name}"
    with TestClient(create_app(url, Services(), Limits()), base_url="http://localhost") as client:
        made = client.post("/api/games", json={"opponent": "here"}).json()
        game_id, secret = made["id"], made["secret"]
        state = client.app.state.store.get(game_id).state()  # type: ignore[attr-defined]
        move = client.get(f"/api/games/{game_id}").json()
        from patchwork_opt.formats.models import move_model

        body = {"ply": move["ply"], "move": move_model(next(iter(state.legal_moves()))).model_dump(mode="json")}
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
