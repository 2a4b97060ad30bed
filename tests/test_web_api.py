"""The HTTP API as a client uses it: games against the AI, moves, undo, export, errors, limits."""

from __future__ import annotations

import random
import threading
import time
import tomllib
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from patchwork_opt.ai.base import Bot, Decision
from patchwork_opt.ai.bots.registry import make_bot
from patchwork_opt.ai.random_play import random_move
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import AnalysisOf, Limits, Services
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import LEATHER_PRINTINGS, legal_placements
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import from_notation, to_notation
from patchwork_opt.formats.record import Record

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)  # starlette suggests httpx2; httpx works the same here
    from fastapi.testclient import TestClient

#: The allowed Host of the app (TestClient's default ``testserver`` is refused, as any foreign name).
LOCAL = "http://127.0.0.1"


def engine_services(**overrides: Any) -> Services:
    """The AI from the registry (engine bots: no solver needed), capped to be quick."""

    def factory(name: str, level: int, seed: int, cap: float, analysis_of: AnalysisOf) -> Bot:
        return make_bot(name, level=level, seed=seed, time_per_move=min(cap, 0.02))

    fields: dict[str, Any] = {"make_bot": factory, "ai_names": ("greedy", "random", "mcts"), "default_ai": "greedy"}
    fields.update(overrides)
    return Services(**fields)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "games.db", engine_services())) as c:
        yield c


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"seed": 11, **body})
    assert response.status_code == 201, response.text
    return response.json()


def human_move(state: State, rng: random.Random) -> Move:
    """A legal move for the player to move: leather on a random empty cell, else a random choice."""
    return random_move(state, rng)


def play(client: TestClient, game: dict[str, Any], move: Move) -> Any:
    return client.post(f"/api/games/{game['id']}/moves", json={"ply": game["ply"], "move": move.to_json()})


def test_new_game_is_set_up_from_the_seed_with_an_unguessable_id(client: TestClient) -> None:
    a = new_game(client, seed=5, printing="classic")
    b = new_game(client, seed=5, printing="classic")
    expected = State.new(seed=5, leather="classic")
    assert a["id"] != b["id"] and len(a["id"]) >= 20
    assert a["state"]["position"] == to_notation(expected)
    assert [o["patch"] for o in a["offers"]] == expected.offers()
    assert a["leather_spaces"] == [20, 26, 32, 44, 50]
    assert a["human_to_move"] and not a["ai_to_move"] and a["ply"] == 0 and a["ai"] == "greedy"
    assert client.get(f"/api/games/{a['id']}").json() == a


def test_ai_moves_first_when_the_human_takes_the_second_seat(client: TestClient) -> None:
    game = new_game(client, seat=1, ai="random", level=1)
    assert game["ai_to_move"] and not game["human_to_move"]
    # the human may not move for the AI
    refused = play(client, game, Move("advance"))
    assert refused.status_code == 409 and "AI's turn" in refused.json()["detail"]
    moved = client.post(f"/api/games/{game['id']}/ai-move", json={"ply": 0})
    assert moved.status_code == 200, moved.text
    after = moved.json()
    assert after["ply"] == 1 and after["moves"][0]["actor"] == "ai" and after["moves"][0]["player"] == 0
    assert after["moves"][0]["reason"]


def test_a_whole_game_through_the_api_ends_with_the_scores_of_its_record(client: TestClient) -> None:
    rng = random.Random(3)
    game = new_game(client, seed=21, ai="greedy")
    plies = 0
    while not game["state"]["over"]:
        plies += 1
        assert plies < 400, "the game does not end"
        if game["human_to_move"]:
            state = from_notation(game["state"]["position"])
            response = play(client, game, human_move(state, rng))
        else:
            response = client.post(f"/api/games/{game['id']}/ai-move", json={"ply": game["ply"]})
        assert response.status_code == 200, response.text
        assert response.json()["ply"] == game["ply"] + 1
        game = response.json()
    final = Record.from_json(client.get(f"/api/games/{game['id']}/record").json()).replay()
    assert final.is_terminal()
    assert game["state"]["winner"] == final.winner()
    assert [p["score"] for p in game["state"]["players"]] == [final.score(0), final.score(1)]
    assert {m["actor"] for m in game["moves"]} == {"human", "ai"}
    # both quilts show exactly the cells covered in the final position
    for p in (0, 1):
        shown = {tuple(cell) for piece in game["boards"][p]["pieces"] for cell in piece["cells"]}
        assert shown == set(cells_of(final.quilts[p]))
        # and a button on each cell that carries one: as many as the player's income
        for piece in game["boards"][p]["pieces"]:
            assert {tuple(b) for b in piece["buttons"]} <= {tuple(c) for c in piece["cells"]}
        assert sum(len(piece["buttons"]) for piece in game["boards"][p]["pieces"]) == final.income[p]
    over = play(client, game, Move("advance"))
    assert over.status_code == 409 and "over" in over.json()["detail"]
    ai_over = client.post(f"/api/games/{game['id']}/ai-move", json={"ply": game["ply"]})
    assert ai_over.status_code == 409 and "over" in ai_over.json()["detail"]


def test_moves_the_rules_refuse_are_422_and_change_nothing(client: TestClient) -> None:
    game = new_game(client, seed=2)
    state = State.new(seed=2)
    offered = state.offers()[0]
    not_offered = state.circle[5]
    first = legal_placements(offered, 0)[0]
    cases = [
        (Move.buy(not_offered, legal_placements(not_offered, 0)[0]), "not on offer"),
        (Move("leather", -1, 1), "no leather patch"),
    ]
    for move, reason in cases:
        response = play(client, game, move)
        assert response.status_code == 422 and reason in response.json()["detail"], response.text
    placed = play(client, game, Move.buy(offered, first)).json()
    while placed["ai_to_move"]:
        placed = client.post(f"/api/games/{game['id']}/ai-move", json={"ply": placed["ply"]}).json()
    assert placed["human_to_move"] and not placed["pending_leather"]
    again = from_notation(placed["state"]["position"])
    patch = again.buyable()[0]
    overlap = next(m for m in legal_placements(patch, 0) if m & first)
    response = play(client, placed, Move.buy(patch, overlap))
    assert response.status_code == 422 and "overlaps" in response.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json()["ply"] == placed["ply"]


def test_malformed_requests_get_a_clear_4xx_naming_the_field(client: TestClient) -> None:
    game = new_game(client)
    gid = game["id"]
    cases: list[tuple[str, str, Any, int, str]] = [
        ("post", "/api/games", {"level": 9}, 422, "body.level"),
        ("post", "/api/games", {"seat": 2}, 422, "body.seat"),
        ("post", "/api/games", {"printing": "deluxe"}, 422, "body.printing"),
        ("post", "/api/games", {"ai": "hal9000"}, 422, "unknown AI"),
        ("post", "/api/games", {"colour": "red"}, 422, "body.colour"),
        ("post", f"/api/games/{gid}/moves", {"ply": 0, "move": {"type": "jump"}}, 422, "body.move"),
        ("post", f"/api/games/{gid}/moves", {"ply": 0, "move": {"type": "buy", "patch": 40, "cells": [[0, 0]]}},
         422, "patch"),
        ("post", f"/api/games/{gid}/moves", {"ply": 0, "move": {"type": "leather", "cell": [9, 0]}}, 422, "cell"),
        ("post", f"/api/games/{gid}/moves", {"move": {"type": "advance"}}, 422, "body.ply"),
        ("post", f"/api/games/{gid}/moves", {"ply": 3, "move": {"type": "advance"}}, 409, "ply"),
        ("post", f"/api/games/{gid}/ai-move", {"ply": 0}, 409, "your turn"),
        ("post", f"/api/games/{gid}/undo", {"ply": 0}, 409, "nothing to undo"),
        ("get", "/api/games/not-an-id", None, 422, "game_id"),
        ("get", "/api/games/" + "x" * 22, None, 404, "no game"),
    ]
    for method, path, body, status, words in cases:
        response = client.request(method.upper(), path, json=body)
        assert response.status_code == status, (path, body, response.text)
        detail = response.json()["detail"]
        assert isinstance(detail, str) and words in detail, (path, body, detail)
    text = client.post(f"/api/games/{gid}/moves", content=b"{not json", headers={"Content-Type": "application/json"})
    assert text.status_code == 422


def test_request_bodies_over_the_cap_are_refused(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db", engine_services(), Limits(max_body_bytes=1000))
    with TestClient(base_url=LOCAL, app=app) as c:
        big = {"seed": 1, "ai": "x" * 2000}
        response = c.post("/api/games", json=big)
        assert response.status_code == 413 and "1000 bytes" in response.json()["detail"]

        def chunks() -> Iterator[bytes]:  # no Content-Length: the cap applies to the stream
            yield b'{"seed": 1, "ai": "'
            for _ in range(20):
                yield b"x" * 100
            yield b'"}'

        streamed = c.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
        assert streamed.status_code == 413
        assert c.post("/api/games", json={"seed": 1}).status_code == 201


def test_undo_takes_back_the_human_move_and_the_ai_replies(client: TestClient) -> None:
    game = new_game(client, seed=8)
    before = game["state"]["position"]
    moved = play(client, game, Move("advance")).json()
    while moved["ai_to_move"]:
        moved = client.post(f"/api/games/{game['id']}/ai-move", json={"ply": moved["ply"]}).json()
    assert moved["ply"] >= 2
    stale = client.post(f"/api/games/{game['id']}/undo", json={"ply": moved["ply"] - 1})
    assert stale.status_code == 409
    undone = client.post(f"/api/games/{game['id']}/undo", json={"ply": moved["ply"]})
    assert undone.status_code == 200
    assert undone.json()["ply"] == 0 and undone.json()["state"]["position"] == before
    assert client.get(f"/api/games/{game['id']}/record").json()["moves"] == []


def test_export_gives_the_record_replay_reads(client: TestClient, tmp_path: Path) -> None:
    game = new_game(client, seed=4, printing="classic")
    game = play(client, game, Move("advance")).json()
    response = client.get(f"/api/games/{game['id']}/record", params={"download": True})
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    path = tmp_path / "exported.json"
    path.write_text(response.text)
    record = Record.load(path)
    assert record.leather == (20, 26, 32, 44, 50)
    assert to_notation(record.replay()) == game["state"]["position"]


def test_games_survive_a_restart_and_failed_requests_store_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with TestClient(base_url=LOCAL, app=create_app(db, engine_services())) as first:
        game = new_game(first, seed=9)
        game = play(first, game, Move("advance")).json()
        position = game["state"]["position"]

    class BrokenBot:
        name = "broken"

        def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
            raise RuntimeError("the AI process died mid-move")

    broken = engine_services(make_bot=lambda *args: BrokenBot())
    with TestClient(base_url=LOCAL, app=create_app(db, broken), raise_server_exceptions=False) as second:
        again = second.get(f"/api/games/{game['id']}").json()
        assert again["state"]["position"] == position and again["ply"] == game["ply"]
        assert again["ai_to_move"]
        crashed = second.post(f"/api/games/{game['id']}/ai-move", json={"ply": again["ply"]})
        assert crashed.status_code == 500
    with TestClient(base_url=LOCAL, app=create_app(db, engine_services())) as third:
        after = third.get(f"/api/games/{game['id']}").json()
        assert after["ply"] == game["ply"] and after["state"]["position"] == position
        assert third.post(f"/api/games/{game['id']}/ai-move", json={"ply": after["ply"]}).status_code == 200


def test_the_server_answers_while_the_ai_thinks(tmp_path: Path) -> None:
    entered = threading.Event()
    release = threading.Event()

    class SlowBot:
        name = "slow"

        def decide(self, state: State, stop: StopSignal | None = None) -> Decision:
            entered.set()
            release.wait(20)
            return Decision(Move("advance"), "waited")

    services = engine_services(make_bot=lambda *args: SlowBot(), ai_names=("slow",), default_ai="slow")
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "g.db", services)) as c:
        game = new_game(c, seat=1)
        results: dict[str, int] = {}
        worker = threading.Thread(
            target=lambda: results.update(ai=c.post(f"/api/games/{game['id']}/ai-move", json={"ply": 0}).status_code)
        )
        worker.start()
        assert entered.wait(10)
        # the AI is still deciding: reads and other games are served meanwhile
        assert c.get("/api/health").status_code == 200
        assert c.get(f"/api/games/{game['id']}").json()["ply"] == 0
        assert new_game(c)["ply"] == 0
        assert not release.is_set() and "ai" not in results
        release.set()
        worker.join(20)
        assert results["ai"] == 200


def test_two_requests_for_the_same_ply_cannot_both_land(client: TestClient) -> None:
    game = new_game(client, seed=13)
    first = play(client, game, Move("advance"))
    second = play(client, game, Move("advance"))
    assert first.status_code == 200 and second.status_code == 409
    assert client.get(f"/api/games/{game['id']}/record").json()["moves"] == [{"type": "advance"}]


def test_catalogue_and_ais_describe_what_the_page_draws(client: TestClient) -> None:
    catalogue = client.get("/api/catalogue").json()
    assert len(catalogue["patches"]) == 33 and catalogue["end"] == 53
    assert sum(p["area"] for p in catalogue["patches"]) == 166
    assert all(len(p["orientations"]) >= 1 for p in catalogue["patches"])
    assert catalogue["leather_printings"] == {name: list(spaces) for name, spaces in LEATHER_PRINTINGS.items()}
    ais = client.get("/api/ais").json()
    assert [a["name"] for a in ais] == ["greedy", "random", "mcts"] and ais[0]["default"]


def test_page_and_docs_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "/static/js/game/main.js" in page.text
    workshop = client.get("/workshop")
    assert workshop.status_code == 200 and "/static/js/workshop/main.js" in workshop.text
    board = client.get("/analysis")
    assert board.status_code == 200 and "/static/js/analysis/main.js" in board.text
    assert workshop.headers["Content-Security-Policy"].startswith("default-src 'self'")
    for asset in ("js/game/main.js", "js/components/quilt.js", "js/puzzles/kinds/fill.js", "style.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text
    # Swagger UI's assets come from swagger-ui-bundle-v2: the docs need no internet
    assert "/docs-assets/swagger-ui-bundle.js" in docs.text
    assert client.get("/docs-assets/swagger-ui-bundle.js").status_code == 200
    schema = client.get("/openapi.json").json()
    for path in ("/api/games", "/api/games/{game_id}/moves", "/api/games/{game_id}/ai-move",
                 "/api/games/{game_id}/undo", "/api/games/{game_id}/record"):
        assert path in schema["paths"]


def test_every_page_file_ships_in_the_package() -> None:
    """pyproject.toml's package data names every file of the pages (a glob's * stops at a folder, so a
    new folder of modules needs a pattern of its own)."""
    root = Path(__file__).parent.parent
    setuptools = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = setuptools["package-data"]["patchwork_opt"]
    package = root / "patchwork_opt"
    shipped = {p for pattern in patterns for p in package.glob(pattern) if p.is_file()}
    pages = {p for p in (package / "apps" / "web" / "static").rglob("*") if p.is_file()}
    assert pages and pages <= shipped, sorted(str(p.relative_to(package)) for p in pages - shipped)


def test_only_a_kinds_own_module_names_the_kind() -> None:
    """The Puzzles page knows its kinds from the registry: none of its modules outside
    js/puzzles/kinds/, nor the components it is built from, names one, so a new kind of puzzle
    touches one front-end module, its own. (Other pages may use the words: the game page counts the
    "exercise"s it made, and the workshop's jobs are "fill"s; neither is the Puzzles page.)"""
    scripts = Path(__file__).parent.parent / "patchwork_opt" / "apps" / "web" / "static" / "js"
    kinds = {p.stem for p in (scripts / "puzzles" / "kinds").glob("*.js")} - {"index"}
    assert kinds == {"endgame", "fill", "exercise"}
    page = [*(scripts / "puzzles").glob("*.js"), *(scripts / "components").rglob("*.js")]
    assert len(page) > 5
    for script in page:
        text = script.read_text(encoding="utf-8")
        named = [k for k in kinds for q in "\"'`" if f"{q}{k}{q}" in text]
        assert not named, (script.name, named)


def test_without_an_ai_games_cannot_be_created(tmp_path: Path) -> None:
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "g.db", Services())) as c:
        response = c.post("/api/games", json={})
        assert response.status_code == 503 and "without an AI" in response.json()["detail"]


def test_the_compiled_searches_load_in_the_background_as_the_server_starts(tmp_path: Path) -> None:
    started, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def warm_up() -> None:  # a compilation that takes as long as the test wants
        calls.append(threading.current_thread().name)
        started.set()
        release.wait(10)

    app = create_app(tmp_path / "games.db", engine_services(warm_up=warm_up))
    with TestClient(base_url=LOCAL, app=app) as client:
        assert started.wait(10), "the server did not start loading the compiled searches"
        assert client.get("/api/health").status_code == 200  # answering while they load
        assert new_game(client, seed=3)["ply"] == 0
        release.set()
    assert calls == ["warm-up"]


@pytest.mark.parametrize("cached", [False, None])
def test_a_served_app_still_to_compile_its_searches_answers_while_they_do(tmp_path: Path, cached: bool | None) -> None:
    started, release = threading.Event(), threading.Event()

    def warm_up() -> None:  # the compile of a new install: as long as the test wants
        started.set()
        release.wait(10)

    services = engine_services(warm_up=warm_up, searches_cached=None if cached is None else lambda: cached)
    app = create_app(tmp_path / "games.db", services, preload=True)
    with TestClient(base_url=LOCAL, app=app) as client:
        assert started.wait(10), "the server did not start compiling the searches"
        assert client.get("/api/health").status_code == 200  # answering while they compile
        release.set()
    assert app.state.preloaded is None


def test_a_served_app_loads_its_cached_searches_before_its_first_request(tmp_path: Path) -> None:
    loaded: list[str] = []

    def warm_up() -> None:
        time.sleep(0.2)  # a load the first request would otherwise overtake
        loaded.append(threading.current_thread().name)

    app = create_app(tmp_path / "games.db", engine_services(warm_up=warm_up, searches_cached=lambda: True),
                     preload=True)
    with TestClient(base_url=LOCAL, app=app) as client:
        assert len(loaded) == 1 and loaded[0] != "warm-up"  # loaded as the app started, not in the background
        assert app.state.preloaded is not None and app.state.preloaded >= 0.2
        assert client.get("/api/health").status_code == 200
    unserved = create_app(tmp_path / "other.db", engine_services(warm_up=warm_up, searches_cached=lambda: True))
    with TestClient(base_url=LOCAL, app=unserved):  # an app not served by ``serve`` (a test's) loads in the background
        pass
    assert unserved.state.preloaded is None
