"""A game between people, live (issue 49): ``GET /api/games/{id}/events`` pushes each move to the other
player's stream within a second; a stream reopened with ``Last-Event-ID`` first gets what it missed;
streams count against the per-client cap and a dropped one frees its place; with several servers on
one PostgreSQL database a move on one reaches a stream on another (LISTEN/NOTIFY), also after the
listening connection was dropped; and two real ``patchwork serve`` processes do the same."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from psycopg_pool import PoolTimeout
from test_web_faults import serving
from web_databases import pg_url_fixture, postgres_url_or_skip  # noqa: F401  (fixture pg_url)

from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.routers import people as people_router
from patchwork_opt.apps.web.services import Limits, Services
from patchwork_opt.core.move import Move
from patchwork_opt.formats.models import move_model
from patchwork_opt.formats.record import Record

ROOT = Path(__file__).resolve().parents[1]
LIMITS = Limits(client_games=10_000)
#: the issue's promise: the other player sees a move within a second
WITHIN = 1.0


class Stream:
    """An open ``events`` stream read in a thread: ``next(timeout)`` is the next event (id, data)."""

    def __init__(self, url: str, game_id: str, last_event_id: int | bytes | None = None) -> None:
        sent = last_event_id if isinstance(last_event_id, bytes) else str(last_event_id).encode()
        headers = {} if last_event_id is None else {b"Last-Event-ID": sent}
        self.client = httpx.Client(timeout=httpx.Timeout(30.0, connect=5.0))
        self.response = self.client.send(self.client.build_request(
            "GET", f"{url}/api/games/{game_id}/events", headers=headers), stream=True)
        self.events: queue.Queue[tuple[int, dict[str, Any]]] = queue.Queue()
        if self.response.status_code == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event_id, data = None, None
        try:
            for line in self.response.iter_lines():
                if line.startswith("id:"):
                    event_id = int(line[3:].strip())
                elif line.startswith("data:"):
                    data = line[5:].strip()
                elif line == "" and data is not None:
                    self.events.put((event_id if event_id is not None else -1, json.loads(data)))
                    event_id, data = None, None
        except (httpx.HTTPError, RuntimeError):
            pass

    def next(self, timeout: float = 5.0) -> tuple[int, dict[str, Any]]:
        return self.events.get(timeout=timeout)

    def until_ply(self, ply: int, timeout: float = 5.0) -> tuple[int, dict[str, Any]]:
        ends = time.monotonic() + timeout
        while True:
            event = self.next(max(0.01, ends - time.monotonic()))
            if event[0] == ply:
                return event

    def close(self) -> None:
        """Drop the connection as a browser does (the reading thread holds the response: shut the socket)."""
        network = self.response.extensions.get("network_stream")
        sock = network.get_extra_info("socket") if network is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.response.close()
        self.client.close()


@contextmanager
def stream(url: str, game_id: str, last_event_id: int | bytes | None = None) -> Iterator[Stream]:
    opened = Stream(url, game_id, last_event_id)
    try:
        yield opened
    finally:
        opened.close()


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def friend_game(url: str) -> tuple[str, dict[int, str]]:
    made = httpx.post(f"{url}/api/games", json={"opponent": "friend", "seat": 0}).json()
    joined = httpx.post(f"{url}/api/games/{made['id']}/join").json()
    return made["id"], {0: made["secret"], 1: joined["secret"]}


def play_one_answer(url: str, game_id: str, secrets: dict[int, str]) -> httpx.Response:
    """Play the first legal move of the seat to move: the answer."""
    view = httpx.get(f"{url}/api/games/{game_id}").json()
    position = Record.from_json(httpx.get(f"{url}/api/games/{game_id}/record").json()).replay()
    move: Move = next(iter(position.legal_moves()))
    return httpx.post(f"{url}/api/games/{game_id}/moves", headers=bearer(secrets[position.to_move()]),
                      json={"ply": view["ply"], "move": move_model(move).model_dump(mode="json")})


def play_one(url: str, game_id: str, secrets: dict[int, str]) -> tuple[float, dict[str, Any]]:
    """Play the first legal move of the seat to move; when its answer came, and the answer."""
    answer = play_one_answer(url, game_id, secrets)
    assert answer.status_code == 200, answer.text
    return time.monotonic(), answer.json()


def test_a_move_reaches_the_other_players_stream_within_a_second(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db", Services(), LIMITS)
    with serving(app) as url:
        game_id, secrets = friend_game(url)
        with stream(url, game_id) as watching:
            first_id, first = watching.next()
            assert first_id == 0 and first["ply"] == 0 and first["people"]["seats"][1]["taken"]
            answered, view = play_one(url, game_id, secrets)
            event_id, data = watching.until_ply(1)
            assert time.monotonic() - answered < WITHIN
            assert event_id == 1 and data["ply"] == 1 and data["moves"] == view["moves"]
            text = json.dumps(data)
            assert all(secret not in text for secret in secrets.values())


def test_a_reopened_stream_first_gets_the_plies_it_missed(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db", Services(), LIMITS)
    with serving(app) as url:
        game_id, secrets = friend_game(url)
        with stream(url, game_id) as watching:
            play_one(url, game_id, secrets)
            watching.until_ply(1)
        for _ in range(3):
            play_one(url, game_id, secrets)
        with stream(url, game_id, last_event_id=1) as back:
            got = [back.next() for _ in range(3)]
            assert [event_id for event_id, _ in got] == [2, 3, 4]
            assert [len(data["moves"]) for _, data in got] == [2, 3, 4]
            assert got[-1][1]["people"]["seats"][0]["last_moved"] is not None
        with stream(url, game_id, last_event_id=4) as current:  # nothing missed: the game as it is
            assert current.next()[0] == 4


def test_a_last_event_id_that_names_no_ply_gets_the_game_as_it_is(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db", Services(), LIMITS)
    with serving(app) as url:
        game_id, secrets = friend_game(url)
        play_one(url, game_id, secrets)
        for sent in (b"\xb2", b"-1", b"1.0", b"x", b"9" * 40):  # "\xb2" is a digit to str.isdigit, not to int
            with stream(url, game_id, last_event_id=sent) as back:
                assert back.response.status_code == 200
                assert back.next()[0] == 1


def test_a_long_catch_up_keeps_the_server_answering(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The views a reopened stream missed are made off the event loop: meanwhile other requests are
    answered (each view replays the game; at 100 plies missed they took seconds of the one loop)."""
    app = create_app(tmp_path / "g.db", Services(), LIMITS)
    slow_view = people_router.game_view

    def game_view(*args: Any) -> Any:
        time.sleep(0.3)
        return slow_view(*args)

    with serving(app) as url:
        game_id, secrets = friend_game(url)
        for _ in range(4):
            play_one(url, game_id, secrets)
        monkeypatch.setattr(people_router, "game_view", game_view)
        with stream(url, game_id, last_event_id=0) as back:
            time.sleep(0.2)  # the stream is making its 4 views (1.2 s)
            asked = time.monotonic()
            assert httpx.get(f"{url}/api/ais").status_code == 200
            assert time.monotonic() - asked < 0.6
            assert [back.next()[0] for _ in range(4)] == [1, 2, 3, 4]


def test_streams_count_against_the_client_cap_and_a_dropped_one_frees_its_place(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db", Services(), Limits(client_games=10_000, client_game_streams=2))
    feed = app.state.feed
    with serving(app) as url:
        game_id, _ = friend_game(url)
        with ExitStack() as stack:
            streams = [stack.enter_context(stream(url, game_id)) for _ in range(2)]
            for opened in streams:
                opened.next()
            refused = httpx.get(f"{url}/api/games/{game_id}/events")
            assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
            assert feed.open_streams == 2
            streams[0].close()
            for _ in range(100):
                if feed.open_streams < 2:
                    break
                time.sleep(0.05)
            assert feed.open_streams == 1
            with stream(url, game_id) as again:
                assert again.response.status_code == 200 and again.next()[0] == 0
        for _ in range(100):
            if feed.open_streams == 0:
                break
            time.sleep(0.05)
        assert feed.open_streams == 0
        assert httpx.get(f"{url}/api/games/{'x' * 22}/events").status_code == 404


def _terminate_listeners(base: str) -> int:
    with psycopg.connect(base, autocommit=True) as conn:
        rows = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE application_name = 'patchwork-listen'").fetchall()
    return len(rows)


def test_a_move_on_one_server_reaches_a_stream_on_another_through_postgresql(pg_url: str) -> None:
    one, two = (create_app(pg_url, Services(), LIMITS) for _ in range(2))
    with serving(one) as url_one, serving(two) as url_two:
        game_id, secrets = friend_game(url_one)
        with stream(url_two, game_id) as watching:
            assert watching.next()[0] == 0
            answered, _ = play_one(url_one, game_id, secrets)
            assert watching.until_ply(1)[0] == 1 and time.monotonic() - answered < WITHIN
            # the listening connection dropped: reopened, and the stream catches up on what it missed
            assert _terminate_listeners(postgres_url_or_skip()) >= 2
            play_one(url_one, game_id, secrets)
            assert watching.until_ply(2, timeout=10.0)[0] == 2
            for _ in range(100):
                if two.state.feed.reopened >= 1:
                    break
                time.sleep(0.05)
            assert two.state.feed.reopened >= 1
            answered, _ = play_one(url_one, game_id, secrets)
            assert watching.until_ply(3)[0] == 3 and time.monotonic() - answered < WITHIN


class _Unreachable:
    """A connection pool whose server went away."""

    def getconn(self, timeout: float | None = None) -> Any:
        raise PoolTimeout(f"couldn't get a connection after {timeout or 30.0:.2f} sec")


def test_a_move_stored_whose_notice_cannot_go_out_is_answered_as_stored(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL goes away between the move's commit and its NOTIFY: the mover is told the move
    landed (a 5xx would have them retry a move that is stored); the other servers' streams re-read."""
    app = create_app(pg_url, Services(), LIMITS)
    database, store = app.state.stores.database, app.state.store
    pool, stored = database.pool, store.append

    def then_gone(*args: Any, **kwargs: Any) -> Any:
        game = stored(*args, **kwargs)
        monkeypatch.setattr(database, "pool", _Unreachable())
        return game

    with serving(app) as url:
        game_id, secrets = friend_game(url)
        monkeypatch.setattr(store, "append", then_gone)
        answered = play_one_answer(url, game_id, secrets)
        monkeypatch.setattr(database, "pool", pool)
        assert answered.status_code == 200, answered.text
        assert httpx.get(f"{url}/api/games/{game_id}").json()["ply"] == 1


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def patchwork_serve(db: str, count: int) -> Iterator[list[str]]:
    """``count`` real ``patchwork serve`` processes on ``db``, started side by side, until each says it
    is serving (each loads the compiled searches first)."""
    ports = [_free_port() for _ in range(count)]
    exe = shutil.which("patchwork", path=str(Path(sys.executable).parent)) or "patchwork"
    processes = [subprocess.Popen([exe, "serve", "--port", str(port), "--db", db], stderr=subprocess.PIPE,
                                  stdout=subprocess.DEVNULL, text=True, cwd=ROOT, env={**os.environ})
                 for port in ports]
    try:
        for process in processes:
            assert process.stderr is not None
            for line in process.stderr:
                if "serving on" in line:
                    break
            else:
                raise AssertionError(f"patchwork serve ended with {process.wait()}")
            threading.Thread(target=process.stderr.read, daemon=True).start()  # keep draining its lines
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_two_patchwork_serve_processes_sharing_postgresql(pg_url: str) -> None:
    with patchwork_serve(pg_url, 2) as (one, two):
        game_id, secrets = friend_game(one)
        with stream(two, game_id) as watching:
            assert watching.next()[0] == 0
            answered, _ = play_one(one, game_id, secrets)
            assert watching.until_ply(1)[0] == 1 and time.monotonic() - answered < WITHIN
            answered, _ = play_one(two, game_id, secrets)
            assert watching.until_ply(2)[0] == 2 and time.monotonic() - answered < WITHIN
