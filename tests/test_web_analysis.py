"""The analysis board's API: positions opened from a notation, a game's ply, a record or a physical
set-up; legal moves and variations; and the live analysis stream (server-sent events) on a real
server: read, dropped (its worker freed), capped (503 and 429 with Retry-After), refused (422, 409)."""

from __future__ import annotations

import contextlib
import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import late_positions
from test_setup import table_of
from test_web_api import LOCAL, engine_services, new_game
from test_web_faults import serving

from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import Limits
from patchwork_opt.apps.web.solver_services import web_services
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.words import words_in as move_words
from patchwork_opt.formats.notation import from_notation, to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import using

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "games.db", engine_services())) as c:
        yield c


def finished() -> State:
    state = State.new(seed=2)
    while not state.is_terminal():
        state.apply(Move.advance() if state.pending < 0 else next(state.legal_moves()))
    return state


# --- opening positions ------------------------------------------------------------------------------


def test_a_position_opens_from_its_notation(client: TestClient) -> None:
    state = late_positions(4, 30)[0]
    got = client.get("/api/analysis/position", params={"position": to_notation(state)})
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["position"] == to_notation(state) and body["to_move"] == state.to_move()
    assert body["circle"] == state.circle and body["printing"] == list(state.printing)
    assert [len(q) for q in body["quilts"]] == [q.bit_count() for q in state.quilts]
    assert body["game"] is None and body["ply"] is None
    assert body["buyable"] == state.buyable()  # the offers the board lets the player to move buy


def test_the_offers_a_position_can_buy_are_none_while_a_leather_patch_waits(client: TestClient) -> None:
    state = State.new(seed=5)
    while state.pending < 0:
        state.apply(Move.advance())
    body = client.get("/api/analysis/position", params={"position": to_notation(state)}).json()
    assert body["pending_leather"] == state.pending and body["buyable"] == []
    state.apply(next(state.legal_moves()))
    after = client.get("/api/analysis/position", params={"position": to_notation(state)}).json()
    assert after["pending_leather"] is None and after["buyable"] == state.buyable()


@pytest.mark.parametrize(("position", "fault"), [
    ("1 2 3", "not a position in the notation"),
    ("1,1 0/5/0/000000000000000000000 0/5/0/000000000000000000000 0 - - 26,32,38,44,50 - 26,32,38,44,50",
     "circle: a patch id appears twice"),
])
def test_a_position_the_reader_refuses_is_a_422_naming_it(client: TestClient, position: str, fault: str) -> None:
    for path in ("/api/analysis/position", "/api/analysis/moves", "/api/analysis/stream"):
        got = client.get(path, params={"position": position})
        assert got.status_code == 422, (path, got.text)
        assert got.json()["detail"].startswith("query.position: ") and fault in got.json()["detail"]


def test_a_games_ply_opens_with_its_notation(client: TestClient) -> None:
    game = new_game(client)
    game = client.post(f"/api/games/{game['id']}/moves", json={"ply": 0, "move": {"type": "advance"}}).json()
    while game["ai_to_move"]:
        game = client.post(f"/api/games/{game['id']}/ai-move", json={"ply": game["ply"]}).json()
    plies = game["ply"]
    record = Record.from_json(client.get(f"/api/games/{game['id']}/record").json())
    for ply in range(plies + 1):
        got = client.get(f"/api/games/{game['id']}/plies/{ply}/position").json()
        assert got["position"] == to_notation(record.replay(ply)) and got["ply"] == ply and got["game"] == game["id"]
    assert client.get(f"/api/games/{game['id']}/plies/{plies + 1}/position").status_code == 404


def test_a_record_opens_as_positions_to_step_through(client: TestClient) -> None:
    record = Record.start(State.new(seed=5))
    state = record.initial_state()
    for _ in range(6):
        move = next(m for m in state.legal_moves() if m.kind != "advance") if state.pending >= 0 else Move.advance()
        record.moves.append(move)
        state.apply(move)
    got = client.post("/api/analysis/record", json=record.to_json())
    assert got.status_code == 200, got.text
    body = got.json()
    walk = record.initial_state()
    assert len(body["positions"]) == len(record.moves) + 1 and len(body["moves"]) == len(record.moves)
    for ply, (move, step) in enumerate(zip(record.moves, body["moves"], strict=True)):
        assert body["positions"][ply] == to_notation(walk)
        assert step == {"move": move.to_json(), "text": str(move), "words": move_words(walk, move),
                        "player": walk.to_move()}
        walk.apply(move)
    assert body["positions"][-1] == to_notation(walk)
    bad = record.to_json()
    bad["moves"].append({"type": "buy", "patch": bad["circle"][-1], "cells": [[0, 0]]})
    refused = client.post("/api/analysis/record", json=bad)
    assert refused.status_code == 422 and refused.json()["detail"].startswith(f"ply {len(record.moves)}: ")


def test_a_physical_set_up_opens_as_its_position(client: TestClient) -> None:
    state = late_positions(2, 36)[0]
    got = client.post("/api/analysis/setup", json=table_of(state))
    assert got.status_code == 200, got.text
    assert got.json()["position"] == to_notation(state)
    table = table_of(state)
    table["players"][1]["income"] += 2
    refused = client.post("/api/analysis/setup", json=table)
    assert refused.status_code == 422
    said = (f"the players' income adds up to {sum(state.income) + 2}, but the patches off the circle carry "
            f"{sum(state.income)} buttons")
    assert refused.json() == {"detail": said, "words": said}  # a domain error's line is already in words
    table = table_of(state)
    table["players"][0]["position"] = 60
    assert client.post("/api/analysis/setup", json=table).json()["detail"].startswith("body.players.0.position: ")


# --- moves and variations -------------------------------------------------------------------------------


def test_the_legal_moves_come_with_their_words_and_lead_to_the_next_position(client: TestClient) -> None:
    state = late_positions(6, 20)[0]
    moves = client.get("/api/analysis/moves", params={"position": to_notation(state)}).json()
    assert moves["player"] == state.to_move()
    assert [Move.from_json(m["move"]) for m in moves["moves"]] == list(state.legal_moves())
    for m in moves["moves"][:5] + moves["moves"][-2:]:
        move = Move.from_json(m["move"])
        assert m["text"] == str(move) and m["words"] == move_words(state, move)
        after = client.post("/api/analysis/play", json={"position": to_notation(state), "move": m["move"]})
        assert after.status_code == 200, after.text
        expected = state.clone()
        expected.apply(move)
        assert after.json()["position"]["position"] == to_notation(expected)
        assert after.json()["played"]["player"] == state.to_move() and after.json()["played"]["words"] == m["words"]
    assert client.get("/api/analysis/moves", params={"position": to_notation(finished())}).json()["moves"] == []


def test_a_variation_can_be_played_for_either_side(client: TestClient) -> None:
    position = to_notation(State.new(seed=3))
    for _ in range(4):  # advance, advance, ...: each side in turn, as the board plays a tree of variations
        got = client.post("/api/analysis/play", json={"position": position, "move": {"type": "advance"}}).json()
        assert got["played"]["words"].startswith("advance")
        position = got["position"]["position"]
    assert from_notation(position).pos != [0, 0]


def test_a_move_the_rules_refuse_is_a_422_naming_why(client: TestClient) -> None:
    state = State.new(seed=3)
    absent = next(pid for pid in range(33) if pid not in state.offers())
    got = client.post("/api/analysis/play", json={"position": to_notation(state),
                                                  "move": {"type": "buy", "patch": absent, "cells": [[0, 0]]}})
    assert got.status_code == 422 and "not" in got.json()["detail"]
    over = client.post("/api/analysis/play", json={"position": to_notation(finished()), "move": {"type": "advance"}})
    assert over.status_code == 409


# --- the live analysis stream -------------------------------------------------------------------------------

STREAM_LIMITS = Limits(max_analyses=2, client_analyses=1, max_analysis_seconds=3.0, analysis_processes=1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(tmp_path_factory.mktemp("stream") / "g.db", web_services(0.1), STREAM_LIMITS)
    with serving(app, read_timeout=30.0) as url:
        yield url


def _client(url: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=600.0, transport=httpx.HTTPTransport(local_address=address))


def events(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """The ``data`` of each event, as it comes."""
    for line in response.iter_lines():
        if line.startswith("data: "):
            yield json.loads(line[len("data: "):])


def running(url: str) -> int:
    return int(httpx.get(f"{url}/api/health", timeout=30).json()["streams"]["running"])


def test_a_stream_reads_snapshots_until_its_time_is_up(server: str) -> None:
    state = State.new(seed=11)
    with _client(server, "127.0.0.1") as http, http.stream(
            "GET", "/api/analysis/stream", params={"position": to_notation(state), "seconds": 1.5, "lines": 3}) as got:
        assert got.status_code == 200 and got.headers["content-type"].startswith("text/event-stream")
        seen = list(events(got))
    assert len(seen) >= 3 and seen[-1]["done"] and seen[-1]["end"] == "time"
    assert all(not e["done"] for e in seen[:-1]) and [e["nodes"] for e in seen] == sorted(e["nodes"] for e in seen)
    for event in seen:
        assert event["player"] == state.to_move() and 1 <= len(event["lines"]) <= 3
        for line in event["lines"]:
            state.check(Move.from_json(line["move"]))
            assert line["words"] == move_words(state, Move.from_json(line["move"])) and line["line"]
    assert running(server) == 0


def test_a_stream_says_its_words_in_the_language_of_the_request(server: str) -> None:
    """The worker process gets the request's language with the analysis (no context variable crosses
    into it): the moves and lines of ``?lang=de`` are German."""
    state = State.new(seed=11)
    with _client(server, "127.0.0.1") as http, http.stream("GET", "/api/analysis/stream", params={
            "position": to_notation(state), "seconds": 0.6, "lines": 2, "lang": "de"}) as got:
        last = list(events(got))[-1]
    with using("de"):
        said = [move_words(state, Move.from_json(line["move"])) for line in last["lines"]]
    assert [line["words"] for line in last["lines"]] == said
    with using("en"):
        assert said != [move_words(state, Move.from_json(line["move"])) for line in last["lines"]]
    assert all(text.startswith(("Spieler 1: ", "Spieler 2: ")) for line in last["lines"] for text in line["line"])


def test_a_late_position_streams_a_proven_line(server: str) -> None:
    state = late_positions(3, 44)[0]
    with _client(server, "127.0.0.1") as http, http.stream(
            "GET", "/api/analysis/stream", params={"position": to_notation(state)}) as got:
        last = list(events(got))[-1]
    assert last["end"] == "solved" and last["search"] == "exact"
    assert last["lines"][0]["proven"] and "with best play" in last["lines"][0]["outcome"]


def test_a_dropped_stream_frees_its_worker(server: str) -> None:
    state = State.new(seed=12)
    with _client(server, "127.0.0.1") as http, http.stream(
            "GET", "/api/analysis/stream", params={"position": to_notation(state), "seconds": 60}) as got:
        reading = events(got)  # one reader for the response: a reader closed closes the response
        assert not next(reading)["done"] and running(server) == 1
    dropped = time.perf_counter()
    while running(server) and time.perf_counter() - dropped < 10.0:
        time.sleep(0.01)
    assert running(server) == 0  # the bench measures how soon (docs/benchmarks/web.md: within 0.2 s)


def test_the_server_caps_the_analyses_it_runs_at_once(server: str) -> None:
    position = to_notation(State.new(seed=13))
    params: dict[str, str | int] = {"position": position, "seconds": 60}
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(_client(server, f"127.0.0.{i + 1}")) for i in range(3)]
        first = events(stack.enter_context(clients[0].stream("GET", "/api/analysis/stream", params=params)))
        next(first)
        mine = clients[0].get("/api/analysis/stream", params=params)  # a second one for the same client
        assert mine.status_code == 429 and int(mine.headers["Retry-After"]) >= 1, mine.text
        second = events(stack.enter_context(clients[1].stream("GET", "/api/analysis/stream", params=params)))
        next(second)
        full = clients[2].get("/api/analysis/stream", params=params)
        assert full.status_code == 503 and 1 <= int(full.headers["Retry-After"]) <= 60, full.text
        assert "live analyses at once" in full.json()["detail"]
        health = clients[2].get("/api/health")
        assert health.status_code == 200
        assert health.json()["streams"] == {"running": 2, "capacity": 2, "ready_workers": 1}
        game = clients[2].post("/api/games", json={"seed": 3, "ai": "greedy"}).json()
        hint = clients[2].get(f"/api/games/{game['id']}/hint")  # the streams take none of the hints' slots
        assert hint.status_code == 200 and hint.json()["hints"], hint.text
    dropped = time.perf_counter()
    while running(server) and time.perf_counter() - dropped < 10.0:
        time.sleep(0.01)
    assert running(server) == 0


def test_a_finished_game_is_refused_before_any_stream_starts(server: str) -> None:
    got = httpx.get(f"{server}/api/analysis/stream", params={"position": to_notation(finished())}, timeout=60)
    assert got.status_code == 409 and got.json()["detail"].startswith("the game is over")
    bad = httpx.get(f"{server}/api/analysis/stream", params={"position": to_notation(State.new(seed=1)), "lines": 9},
                    timeout=60)
    assert bad.status_code == 422 and bad.json()["detail"].startswith("query.lines: ")


def test_the_stream_is_documented_as_server_sent_events(server: str) -> None:
    schema = httpx.get(f"{server}/openapi.json", timeout=30).json()
    stream = schema["paths"]["/api/analysis/stream"]["get"]
    sse = stream["responses"]["200"]["content"]["text/event-stream"]
    assert sse["itemSchema"]["properties"]["data"]["contentSchema"] == {"$ref": "#/components/schemas/StreamEvent"}
    assert {"409", "422", "429", "503"} <= set(stream["responses"])
    assert "Retry-After" in stream["responses"]["503"]["headers"]
    fields = schema["components"]["schemas"]["StreamLine"]["properties"]
    assert {"move", "words", "win", "margin", "proven", "outcome_proven", "line"} <= set(fields)
