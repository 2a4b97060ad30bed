"""Who may use the service and how: the Host allow-list, security headers on every HTML page,
strict request types, the per-client limit on new games, idle games expiring, `serve` start-up."""

from __future__ import annotations

import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from patchwork_opt.ai.base import Bot
from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.apps.web import game_store as store_module
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.game_store import GameNotFoundError, SqliteGameStore
from patchwork_opt.apps.web.guards import PAGE_CSP, host_name
from patchwork_opt.apps.web.server import bind, default_db_path
from patchwork_opt.apps.web.services import AnalysisOf, Limits, Services
from patchwork_opt.core.move import ADVANCE
from patchwork_opt.core.state import State

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"


def engine_services() -> Services:
    def factory(name: str, level: int, seed: int, cap: float, analysis_of: AnalysisOf) -> Bot:
        return make_bot(name, level=level, seed=seed, time_per_move=0.02)

    return Services(make_bot=factory, ai_names=("greedy",), default_ai="greedy")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "g.db", engine_services()), base_url=LOCAL) as c:
        yield c


def test_host_names_without_their_port() -> None:
    assert host_name("[::1]:8000") == "::1" and host_name("LocalHost:80") == "localhost"
    assert host_name("127.0.0.1") == "127.0.0.1" and host_name("::1") == "::1"


def test_a_foreign_host_header_is_refused(client: TestClient) -> None:
    """DNS rebinding: a page of evil.example resolving to 127.0.0.1 still sends its own name."""
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", ""):
        response = client.get("/api/health", headers={"Host": host})
        assert response.status_code == 400, host
        assert "not served here" in response.json()["detail"]
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8000"):
        assert client.get("/api/health", headers={"Host": host}).status_code == 200, host


def test_the_allow_list_is_configurable(tmp_path: Path) -> None:
    limits = Limits(allowed_hosts=("localhost", "games.example.org"))
    with TestClient(create_app(tmp_path / "g.db", engine_services(), limits), base_url=LOCAL) as c:
        assert c.get("/api/health", headers={"Host": "games.example.org"}).status_code == 200
        assert c.get("/api/health", headers={"Host": "127.0.0.1"}).status_code == 400
    with TestClient(create_app(tmp_path / "g.db", engine_services(), Limits(allowed_hosts=("*",)))) as c:
        assert c.get("/api/health", headers={"Host": "anything.example"}).status_code == 200


def test_every_html_response_has_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/static/index.html"):
        response = client.get(path)
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
        assert response.headers["content-security-policy"] == PAGE_CSP
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["referrer-policy"] == "no-referrer"
    docs = client.get("/docs")
    policy = docs.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "'sha256-" in policy and "unsafe-inline" not in policy.split(
        "style-src")[0]
    assert client.get("/api/health").headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    "body",
    [{"level": "2"}, {"seat": True}, {"seed": "5"}, {"seed": 5.5}, {"level": 2.5}, {"printing": 1}, {"ai": 3}],
)
def test_request_types_are_strict(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422, body
    assert "body." in response.json()["detail"]


def test_a_whole_number_written_with_a_fraction_is_an_integer(client: TestClient) -> None:
    """JSON Schema's ``integer`` is any number without a fractional part: 523.0 is 523."""
    game = client.post("/api/games", json={"seed": 5.0, "level": 1.0, "seat": 0.0})
    assert game.status_code == 201, game.text
    assert (game.json()["seed"], game.json()["level"], game.json()["seat"]) == (5, 1, 0)
    moved = client.post(f"/api/games/{game.json()['id']}/moves", json={"ply": 0.0, "move": {"type": "advance"}})
    assert moved.status_code == 200, moved.text
    stale = client.post(f"/api/games/{game.json()['id']}/undo", json={"ply": 523.0})
    assert stale.status_code == 409  # read as ply 523: the game is at ply 1


def test_strict_moves_and_plies(client: TestClient) -> None:
    game = client.post("/api/games", json={"seed": 3}).json()
    url = f"/api/games/{game['id']}/moves"
    assert client.post(url, json={"ply": "0", "move": {"type": "advance"}}).status_code == 422
    buy = {"type": "buy", "patch": "1", "cells": [[0, 0], [0, 1]]}
    assert client.post(url, json={"ply": 0, "move": buy}).status_code == 422
    assert client.post(url, json={"ply": 0, "move": {"type": "advance"}}).status_code == 200


def test_a_client_may_create_only_so_many_games(tmp_path: Path) -> None:
    limits = Limits(client_games=3, game_window_seconds=600)
    with TestClient(create_app(tmp_path / "g.db", engine_services(), limits), base_url=LOCAL) as c:
        for _ in range(3):
            assert c.post("/api/games", json={}).status_code == 201
        refused = c.post("/api/games", json={})
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 600
        assert c.get("/api/health").status_code == 200  # reading stays open


def test_idle_games_expire_and_played_ones_stay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = SimpleNamespace(time=lambda: 1000.0)
    monkeypatch.setattr(store_module, "time", clock)
    store = SqliteGameStore(tmp_path / "g.db")
    idle = store.create(State.new(seed=1), seed=1, ai="greedy", level=1, seat=0)
    played = store.create(State.new(seed=2), seed=2, ai="greedy", level=1, seat=0)
    undone = store.create(State.new(seed=3), seed=3, ai="greedy", level=1, seat=0)
    store.append(undone.id, 0, ADVANCE, actor="human")
    clock.time = lambda: 3000.0
    store.append(played.id, 0, ADVANCE, actor="human")
    store.truncate(undone.id, 0, expected_ply=1)  # an undo is activity too
    assert store.purge_idle(3600, now=4000.0) == 0
    assert store.purge_idle(3600, now=4700.0) == 1
    with pytest.raises(GameNotFoundError):
        store.get(idle.id)
    assert len(store.get(played.id).moves) == 1 and store.get(undone.id).moves == []
    assert store.purge_idle(3600, now=6700.0) == 2 and store.count() == 0


def test_the_app_deletes_idle_games_when_it_starts(tmp_path: Path) -> None:
    store = SqliteGameStore(tmp_path / "g.db")
    store.create(State.new(seed=1), seed=1, ai="greedy", level=1, seat=0)
    time.sleep(0.05)
    with TestClient(create_app(tmp_path / "g.db", engine_services(), Limits(game_idle_seconds=0.01)), base_url=LOCAL):
        pass
    assert store.count() == 0
    store.create(State.new(seed=1), seed=1, ai="greedy", level=1, seat=0)
    with TestClient(create_app(tmp_path / "g.db", engine_services(), Limits(game_idle_seconds=0)), base_url=LOCAL):
        pass
    assert store.count() == 1  # 0 keeps games for ever


def test_the_default_database_is_per_user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "patchwork-opt" / "games.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path() == Path.home() / ".local" / "share" / "patchwork-opt" / "games.sqlite3"


def test_serve_on_a_busy_port_is_one_error_line_and_exit_2(tmp_path: Path) -> None:
    taken = bind("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", str(tmp_path / "g.db")],
            capture_output=True, text=True, timeout=60, cwd=Path(__file__).parents[1],
        )
    finally:
        taken.close()
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: port {port} on 127.0.0.1 is already in use (choose another with --port)"
    ]
    assert "serving on" not in done.stderr + done.stdout
