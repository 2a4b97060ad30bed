"""The games database going away mid-request (a SQLite file that cannot be opened, a PostgreSQL
server whose connections are cut): a one-line 503 with Retry-After, one warning line without a
traceback, nothing half-written, and the service answering again once the database is back; a
game's live stream stays open through it. A PostgreSQL server that refuses connections is a 503
after one short wait, where a busy pool keeps a request waiting its turn."""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
import shutil
import socket
import threading
import time
import warnings
from pathlib import Path
from typing import Any, get_args

import httpx
import pytest
from fastapi.routing import APIRoute
from psycopg.conninfo import conninfo_to_dict
from test_web_faults import serving
from test_web_friends_live import stream
from web_databases import pg_url_fixture, postgres_url_or_skip  # noqa: F401  (fixture pg_url)

from patchwork_opt.apps.web import database_postgres
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.database_postgres import POOL_WAIT_SECONDS, RECONNECT_SECONDS, UNREACHABLE_WAIT_SECONDS
from patchwork_opt.apps.web.deps import PeopleDep, PuzzleStoreDep, StoreDep, VisitorStoreDep
from patchwork_opt.apps.web.routers import analysis, games, pages, people, puzzles, reviews, solvers, workshop
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


class Relay:
    """A TCP relay on 127.0.0.1 to the test's PostgreSQL server that the test takes down (its port
    then refuses connections, and the connections through it are cut, as a stopped server's are)
    and up again on the same port: the shared server itself keeps running for the other tests."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        self.thread = self._serve()

    def _serve(self) -> threading.Thread:
        thread = threading.Thread(target=self._accept, args=(self.listener,), daemon=True)
        thread.start()
        return thread

    def _accept(self, listener: socket.socket) -> None:
        listener.settimeout(0.05)
        while listener.fileno() >= 0:
            try:
                near, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            far = socket.create_connection(self.target)
            self.open += [near, far]
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def down(self) -> None:
        self.listener.close()
        self.thread.join(5)
        for end in self.open:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()
        self.open = []

    def up(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.thread = self._serve()


def through(url: str, relay: Relay) -> str:
    """``url`` with its server's address replaced by the relay's."""
    return re.sub(r"@[^/@]+/", f"@127.0.0.1:{relay.port}/", url, count=1)


def test_a_postgresql_server_that_refuses_connections_answers_503_after_one_short_wait(
        pg_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stopped server (connections refused) costs a request one wait of ``UNREACHABLE_WAIT_SECONDS``
    for a pooled connection, not the pool's 30 s; the service answers again once the server is back."""
    assert UNREACHABLE_WAIT_SECONDS <= 3 < POOL_WAIT_SECONDS and RECONNECT_SECONDS <= 10
    server = conninfo_to_dict(pg_url)
    relay = Relay(str(server["host"]), int(server.get("port") or 5432))
    app = create_app(through(pg_url, relay), Services(), Limits())
    with serving(app) as url, httpx.Client(base_url=url, timeout=POOL_WAIT_SECONDS - 5) as client:
        made = client.post("/api/games", json={"opponent": "here"}).json()
        pool = app.state.stores.database.pool
        waits: list[float | None] = []

        def getconn(timeout: float | None = None) -> Any:
            waits.append(timeout)
            return type(pool).getconn(pool, timeout)

        monkeypatch.setattr(pool, "getconn", getconn)
        relay.down()
        for _ in range(3):  # the first may take a cut connection; then the pool tries and fails to connect
            waits.clear()
            assert_unavailable(client.get(f"/api/games/{made['id']}"), caplog)
        assert app.state.stores.database.reach.failing
        assert waits == [UNREACHABLE_WAIT_SECONDS]  # one short wait, not slices up to POOL_WAIT_SECONDS
        waits.clear()
        assert_unavailable(client.post("/api/games", json={"opponent": "here"}), caplog)
        assert waits == [UNREACHABLE_WAIT_SECONDS]
        relay.up()
        for _ in range(10):  # a waiting request has the pool try afresh
            again = client.get(f"/api/games/{made['id']}")
            if again.status_code == 200:
                break
            assert_unavailable(again, caplog)
        assert again.status_code == 200 and not app.state.stores.database.reach.failing
    relay.down()


def test_a_busy_postgresql_pool_keeps_a_request_waiting_past_the_short_wait(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every connection out but the server answering: a request waits its turn, slice after slice,
    and is served once a connection comes back (no 503)."""
    from patchwork_opt.apps.web.database_postgres import PostgresDatabase

    monkeypatch.setattr(database_postgres, "UNREACHABLE_WAIT_SECONDS", 0.05)
    db = PostgresDatabase(pg_url, max_connections=1)
    slices: list[float | None] = []
    answered: list[Any] = []

    def getconn(timeout: float | None = None) -> Any:
        slices.append(timeout)
        return type(db.pool).getconn(db.pool, timeout)

    def read() -> None:
        with db.connect() as conn:
            answered.append(conn.execute("SELECT 1").fetchone())

    monkeypatch.setattr(db.pool, "getconn", getconn)
    try:
        with db.connect():  # the pool's one connection, held
            waiting = threading.Thread(target=read)
            waiting.start()
            for _ in range(400):
                if len(slices) > 4:
                    break
                time.sleep(0.01)
            assert len(slices) > 4 and not db.reach.failing  # waited past several short waits
        waiting.join(POOL_WAIT_SECONDS)
        assert answered == [(1,)]
    finally:
        db.close()


def test_every_route_that_reads_or_writes_the_database_documents_its_503(tmp_path: Path) -> None:
    """The schema tells a client which routes may answer that the store is unavailable, and that the
    answer says when to retry: every route that depends on a store of the database."""
    app = create_app(tmp_path / "g.db", Services(), Limits())
    stores = {get_args(dep)[1].dependency for dep in (StoreDep, PeopleDep, PuzzleStoreDep, VisitorStoreDep)}

    def calls(dependant: Any) -> set[Any]:
        return {dependant.call}.union(*(calls(d) for d in dependant.dependencies))

    paths = app.openapi()["paths"]
    routers = (pages.router, games.router, people.router, solvers.solvers_router(app.state.services.solvers),
               reviews.router, puzzles.router, workshop.router, analysis.router)
    touching = [(route.path, method.lower()) for router in routers for route in router.routes
                if isinstance(route, APIRoute) and route.include_in_schema and calls(route.dependant) & stores
                for method in route.methods or ()]
    assert len(touching) > 15  # the games', seats', puzzles' and reviews' routes
    for path, method in touching:
        answer = paths[path][method]["responses"].get("503")
        assert answer is not None and "Retry-After" in answer["headers"], (method, path)
