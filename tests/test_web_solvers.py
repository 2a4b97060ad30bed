"""The solver endpoints of the service, wired as `patchwork serve` wires them: the same objects as `--json`."""

from __future__ import annotations

import json
import re
import threading
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cli
from patchwork_opt.ai.base import SearchedPosition
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import Limits, PositionAnalysis, Services, SolverEndpoint
from patchwork_opt.apps.web.solver_services import web_services
from patchwork_opt.core.catalogue import is_placement, legal_placements
from patchwork_opt.core.clock import Deadline, ThinkBudget
from patchwork_opt.core.move import Move
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)  # starlette suggests httpx2; httpx works the same here
    from fastapi.testclient import TestClient

#: The allowed Host of the app (TestClient's default ``testserver`` is refused, as any foreign name).
LOCAL = "http://127.0.0.1"

runner = CliRunner()


@pytest.fixture(scope="module")
def services() -> Services:
    built: Services = web_services(max_ai_seconds=0.05)
    return built


@pytest.fixture
def client(tmp_path: Path, services: Services) -> Iterator[TestClient]:
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "games.db", services)) as c:
        yield c


def without_times(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k not in ("wall_time", "seconds")}
    if any("win" in h for h in out.get("hints", [])):
        # a position's hints come from the AI's timed search: compare their form, not the figures
        out["hints"] = [sorted(h) for h in out["hints"]]
    return out


def cli_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(cli.app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_hint_of_a_position_is_what_the_cli_prints(client: TestClient) -> None:
    position = to_notation(State.new(seed=1))
    response = client.post("/api/hint", json={"position": position, "top": 2})
    assert response.status_code == 200, response.text
    assert without_times(response.json()) == without_times(cli_json("hint", position, "--top", "2"))


def test_hint_of_a_record_and_of_a_bare_quilt(client: TestClient, tmp_path: Path) -> None:
    state = State.new(seed=4)
    record = Record.start(state)
    record.moves.append(Move("advance"))
    path = tmp_path / "game.json"
    record.save(path)
    by_record = client.post("/api/hint", json={"record": record.to_json()})
    assert by_record.status_code == 200
    assert without_times(by_record.json()) == without_times(cli_json("hint", str(path)))
    assert by_record.json()["player"] == 1

    quilt = Quilt.from_cells([[r, c] for r in range(4) for c in range(9)])
    placed = client.post("/api/hint", json={"quilt": quilt.to_json(), "patch": 7, "next": [3, 4], "top": 4})
    assert placed.status_code == 200, placed.text
    data = placed.json()
    assert data["patch"] == 7 and 1 <= len(data["hints"]) <= 4
    for hint in data["hints"]:
        mask = sum(1 << (r * 9 + c) for r, c in hint["cells"])
        assert is_placement(7, mask) and not mask & quilt.mask
    quilt_file = tmp_path / "quilt.txt"
    quilt_file.write_text(quilt.to_text())
    assert without_times(data) == without_times(
        cli_json("hint", str(quilt_file), "--patch", "7", "--next", "3,4", "--top", "4"))


def _twice(position: str) -> str:
    """The position with its circle's first patch id replaced by its second."""
    circle, rest = position.split(" ", 1)
    ids = circle.split(",")
    return ",".join([ids[1], *ids[1:]]) + " " + rest


def test_hint_requests_are_validated(client: TestClient) -> None:
    position = to_notation(State.new(seed=1))
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({}, 422, "exactly one of position, record or quilt"),
        ({"position": position, "quilt": []}, 422, "exactly one"),
        ({"position": position, "record": None}, 422, "leave the field out"),
        ({"quilt": [[0, 0]]}, 422, "needs a patch to place"),
        ({"quilt": [[0, 0]], "patch": 33}, 422, "body.patch"),
        ({"quilt": [[0, 9]], "patch": 3}, 422, "body.quilt"),
        ({"quilt": "x", "patch": 3}, 422, "body.quilt: the quilt must be a list; \"x\" is not one"),
        ({"record": {"circle": 3, "moves": []}}, 422, "body.record.circle: the circle must be a list; 3 is not one"),
        ({"quilt": [[0, 0]], "patch": 3, "pool": [4, 4]}, 422, "patch 4 is listed twice"),
        ({"position": "nonsense"}, 422, "not a position in the notation"),
        ({"position": position.replace(" ", ",", 1)}, 422, "not a position in the notation"),
        ({"position": _twice(position)}, 400, "circle: a patch id appears twice"),  # matches the pattern
        ({"position": position, "top": 0}, 422, "body.top"),
        ({"position": position, "time_limit": -1}, 422, "body.time_limit"),
        ({"position": position, "next": [1, 2]}, 422, "next patches need a patch"),
        ({"position": position, "pool": [1, 2]}, 422, "a pool is for a bare quilt"),
        ({"quilt": [[r, c] for r in range(9) for c in range(9)], "patch": 3}, 422, "fits nowhere"),
    ]
    for body, status, words in cases:
        response = client.post("/api/hint", json=body)
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["detail"], (body, response.json())
        assert "should be null" not in response.json()["detail"], (body, response.json())


def test_game_hint_is_the_hint_of_the_game_position(client: TestClient) -> None:
    game = client.post("/api/games", json={"seed": 6, "ai": "greedy"}).json()
    game = client.post(f"/api/games/{game['id']}/moves", json={"ply": 0, "move": {"type": "advance"}}).json()
    while game["ai_to_move"]:
        game = client.post(f"/api/games/{game['id']}/ai-move", json={"ply": game["ply"]}).json()
    hint = client.get(f"/api/games/{game['id']}/hint")
    assert hint.status_code == 200
    direct = client.post("/api/hint", json={"position": game["state"]["position"]}).json()
    assert without_times(hint.json()) == without_times(direct)
    assert hint.json()["player"] == game["seat"]
    # the best hint is a legal move the page can play
    best = hint.json()["hints"][0]
    state = State.new(seed=6)
    for m in game["moves"]:
        state.apply(Move.from_json(m["move"]))
    if best["type"] == "buy":
        mask = sum(1 << (r * 9 + c) for r, c in best["cells"])
        assert mask in legal_placements(best["patch"], state.quilts[state.to_move()])
    played = client.post(
        f"/api/games/{game['id']}/moves",
        json={"ply": game["ply"], "move": {"type": best["type"], **(
            {"patch": best["patch"], "cells": best["cells"]} if best["type"] == "buy" else
            {"cell": best["cells"][0]} if best["type"] == "leather" else {})}},
    )
    assert played.status_code == 200, played.text


def test_the_server_caps_the_solver_time_a_request_asks_for(tmp_path: Path, services: Services) -> None:
    seen: list[float] = []
    real = services.solvers["hint"]

    def recording(request: Any, deadline: Deadline, stop: StopSignal, analysis: PositionAnalysis) -> Any:
        seen.append(deadline.remaining())
        return real.run(request, deadline, stop, analysis)

    capped = replace(services, solvers={"hint": SolverEndpoint(real.request, real.response, recording, "hint")})
    app = create_app(tmp_path / "g.db", capped, Limits(max_solver_seconds=0.5))
    with TestClient(base_url=LOCAL, app=app) as c:
        position = to_notation(State.new(seed=2))
        response = c.post("/api/hint", json={"position": position, "time_limit": 3000})
        assert response.status_code == 200
        assert len(seen) == 1 and 0.4 < seen[0] <= 0.5  # the deadline made of the cap, as the job started


def test_a_hint_waiting_in_the_job_queue_keeps_its_whole_thinking_time(
    tmp_path: Path, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client's second hint waits in line while its first is analysed; its analysis still gets the
    request's whole budget, its deadline started as the analysis starts (the cache keeps it under that
    budget: a shallower analysis under the full budget's key would answer later hints)."""
    import patchwork_opt.ai.analysis.position as position

    real = position.analyse_position
    given: list[float] = []
    entered, release = threading.Event(), threading.Event()

    def analysis(state: State, *, deadline: Deadline, extra: Sequence[Move] = (), **_: object) -> SearchedPosition:
        given.append(deadline.remaining())
        entered.set()
        release.wait(10)
        return real(state, iterations=100, seed=0, extra=extra)

    monkeypatch.setattr(position, "analyse_position", analysis)
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "g.db", services, Limits(solver_workers=2))) as c:
        answers: list[int] = []

        def ask(seed: int) -> None:
            body = {"position": to_notation(State.new(seed=seed)), "time_limit": 1.0}
            answers.append(c.post("/api/hint", json=body).status_code)

        first = threading.Thread(target=ask, args=(1,))
        first.start()
        assert entered.wait(10)
        second = threading.Thread(target=ask, args=(2,))
        second.start()
        time.sleep(0.5)  # the second waits in line (one job running per client)
        assert len(given) == 1
        release.set()
        first.join(10)
        second.join(10)
    assert answers == [200, 200]
    assert len(given) == 2 and all(0.9 < left <= 1.0 for left in given), given


def test_openapi_publishes_the_solver_models(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert {"/api/hint", "/api/fill", "/api/bonus", "/api/games/{game_id}/hint"} <= set(schema["paths"])
    names = set(schema["components"]["schemas"])
    assert {"HintRequest", "AdvisedHints", "BestFitResult", "FillRequest", "FillResult", "BonusRequest",
            "BonusResult"} <= names


def test_without_the_solvers_the_game_hint_is_503(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.db", replace(web_services(0.05), game_hint=None))
    with TestClient(base_url=LOCAL, app=app) as c:
        game = c.post("/api/games", json={"ai": "greedy"}).json()
        response = c.get(f"/api/games/{game['id']}/hint")
        assert response.status_code == 503 and "without the hint solver" in response.json()["detail"]


def test_fill_is_what_the_cli_prints(client: TestClient, tmp_path: Path) -> None:
    quilt = Quilt.from_cells([[r, c] for r in range(9) for c in range(9) if r < 5 or c < 3])
    body = {"quilt": quilt.to_json(), "patches": [0, 1, 2, 5, 9, 13], "time_limit": 5, "workers": 1}
    response = client.post("/api/fill", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    quilt_file = tmp_path / "quilt.json"
    quilt_file.write_text(json.dumps(quilt.to_json()))
    printed = cli_json("fill", "--patches", "0,1,2,5,9,13", "--quilt", str(quilt_file),
                       "--time-limit", "5", "--workers", "1")
    # Which of several optimal fills is found (and by which method) depends on timing: compare the rest.
    varying = {"wall_time", "method", "placements"}
    assert {k: v for k, v in data.items() if k not in varying} == {
        k: v for k, v in printed.items() if k not in varying
    }
    assert set(data) == set(printed)
    assert data["optimal"] and data["objective"] == data["bound"]
    covered = quilt.mask
    for placed in data["placements"]:
        mask = sum(1 << (r * 9 + c) for r, c in placed["cells"])
        assert is_placement(placed["patch"], mask) and not mask & covered
        covered |= mask
    assert data["covered"] == covered.bit_count() and data["placed_cells"] == data["objective"]


def test_fill_requests_are_validated(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"patches": [1, 1]}, 422, "listed twice"),
        ({"patches": [40]}, 422, "body.patches"),
        ({"patches": []}, 422, "body.patches"),
        ({"patches": [1], "objective": "joy"}, 422, "body.objective"),
        ({"patches": [1], "marks": 10}, 422, "body.marks"),
        ({"patches": [1], "quilt": [[0, 0, 0]]}, 422, "body.quilt"),
        ({"quilt": []}, 422, "body.patches"),
    ]
    for body, status, words in cases:
        response = client.post("/api/fill", json=body)
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["detail"], (body, response.json())


def test_bonus_is_what_the_cli_prints(client: TestClient, tmp_path: Path) -> None:
    # a 7x7 square missing only a 1x3 strip: patch 1 (1x3) completes it, patch 0 (1x2) cannot
    square = [[r, c] for r in range(7) for c in range(7) if not (r == 6 and c < 3)]
    done = client.post("/api/bonus", json={"quilt": square, "patches": [1, 0], "workers": 1})
    assert done.status_code == 200, done.text
    assert done.json()["feasible"] is True and done.json()["placements"][0]["patch"] == 1
    quilt_file = tmp_path / "square.json"
    quilt_file.write_text(json.dumps(square))
    assert without_times(done.json()) == without_times(
        cli_json("bonus", str(quilt_file), "--patches", "1,0", "--workers", "1"))
    refuted = client.post("/api/bonus", json={"quilt": square, "patches": [0]}).json()
    assert refuted["feasible"] is False and refuted["status"] == "infeasible"
    bad = client.post("/api/bonus", json={"patches": [0]})
    assert bad.status_code == 422 and "body.quilt" in bad.json()["detail"]


def _played_out(c: TestClient, seed: int, stop_at: int | None = None) -> dict[str, Any]:
    """A game against the greedy AI, the human only advancing (leather on the first empty cell),
    played to the end or until ``stop_at`` moves."""
    game: dict[str, Any] = c.post("/api/games", json={"seed": seed, "ai": "greedy", "level": 1}).json()
    url = f"/api/games/{game['id']}"
    while not game["state"]["over"] and (stop_at is None or game["ply"] < stop_at):
        if game["ai_to_move"]:
            game = c.post(f"{url}/ai-move", json={"ply": game["ply"]}).json()
            continue
        move: dict[str, Any] = {"type": "advance"}
        if game["pending_leather"]:
            covered = {tuple(x) for piece in game["boards"][game["seat"]]["pieces"] for x in piece["cells"]}
            empty = next([r, k] for r in range(9) for k in range(9) if (r, k) not in covered)
            move = {"type": "leather", "cell": empty}
        game = c.post(f"{url}/moves", json={"ply": game["ply"], "move": move}).json()
    return game


def test_review_of_a_stored_game_has_the_shape_analyze_prints(tmp_path: Path, services: Services) -> None:
    app = create_app(tmp_path / "g.db", services, Limits(max_review_seconds=2.0))
    with TestClient(base_url=LOCAL, app=app) as c:
        game = _played_out(c, seed=3)
        response = c.get(f"/api/games/{game['id']}/review", params={"time_per_move": 0.02})
        assert response.status_code == 200, response.text
        data = response.json()
        record = Record.from_json(c.get(f"/api/games/{game['id']}/record").json())
    path = tmp_path / "game.json"
    record.save(path)
    printed = cli_json("analyze", str(path), "--time-per-move", "0.01")
    # the CLI's keys, each ply's and each player's, plus the page's extras
    assert set(printed) <= set(data) and {"seat", "chart_svg", "seconds_per_move"} <= set(data)
    assert set(printed["plies"][0]) <= set(data["plies"][0]) and set(printed["players"][0]) == set(data["players"][0])
    assert [p["played"] for p in data["plies"]] == [m.to_json() for m in record.moves]
    assert [p["ply"] for p in data["plies"]] == list(range(len(record.moves)))
    assert all(p["label"] in ("best", "good", "inaccuracy", "mistake", "blunder") for p in data["plies"])
    assert all(p["played_text"] and p["best_text"] for p in data["plies"])
    assert len(data["first_wins"]) == len(record.moves) + 1
    assert data["final_scores"] == [game["state"]["players"][s]["score"] for s in (0, 1)]
    assert data["seat"] == game["seat"] and data["players"][game["seat"]]["name"] == "You"
    # the chart marks exactly the flagged plies, each one clickable by its ply
    flagged = [p["ply"] for p in data["plies"] if p["label"] in ("inaccuracy", "mistake", "blunder")]
    svg = data["chart_svg"]
    assert svg.startswith("<svg") and "polyline" in svg
    assert [int(x) for x in re.findall(r'class="mark" data-ply="(\d+)"', svg)] == flagged


def test_review_is_bounded_like_the_other_solver_work(tmp_path: Path, services: Services) -> None:
    assert services.analyse is not None
    real = services.analyse
    seen: list[tuple[float, str]] = []

    def recording(state: State, budget: ThinkBudget, extra: Sequence[Move], stop: StopSignal) -> SearchedPosition:
        seen.append((budget.seconds, threading.current_thread().name))
        return real(state, budget, extra, stop)

    limits = Limits(max_review_seconds=0.6)
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "g.db", replace(services, analyse=recording),
                                                   limits)) as c:
        game = _played_out(c, seed=5, stop_at=5)  # a game still running is reviewed up to its last move
        assert not game["state"]["over"]
        response = c.get(f"/api/games/{game['id']}/review", params={"time_per_move": 60})
        assert response.status_code == 200, response.text
        data = response.json()
        positions = game["ply"] + 1  # every move's position and the one now
        assert [s for s, _ in seen] == [pytest.approx(0.6 / positions)] * positions
        assert all(name.startswith("patchwork-job") for _, name in seen)  # workers of the bounded job queue
        assert data["seconds_per_move"] == pytest.approx(round(0.6 / positions, 4))
        assert len(data["plies"]) == game["ply"] and data["final_scores"] is None
        for asked, words in ((0, "time_per_move"), (61, "time_per_move"), ("soon", "time_per_move")):
            bad = c.get(f"/api/games/{game['id']}/review", params={"time_per_move": asked})
            assert bad.status_code == 422 and words in bad.json()["detail"], bad.text
        assert len(seen) == positions  # nothing more reached the analysis


def test_review_of_an_unknown_or_empty_game_is_a_clear_4xx(client: TestClient) -> None:
    missing = client.get("/api/games/" + "A" * 22 + "/review")
    assert missing.status_code == 404 and "no game with id" in missing.json()["detail"]
    malformed = client.get("/api/games/no!/review")
    assert malformed.status_code in (404, 422)
    fresh = client.post("/api/games", json={"seed": 1, "ai": "greedy"}).json()
    empty = client.get(f"/api/games/{fresh['id']}/review")
    assert empty.status_code == 409 and "no moves to review" in empty.json()["detail"]
    schema = client.get("/openapi.json").json()
    assert {"/api/games/{game_id}/review", "/api/games/{game_id}/plies/{ply}"} <= set(schema["paths"])
    assert "GameReviewView" in schema["components"]["schemas"]
    parameters = schema["paths"]["/api/games/{game_id}/review"]["get"]["parameters"]
    asked = next(p for p in parameters if p["name"] == "time_per_move")
    assert "max_review_seconds" in asked["description"]  # the docs say how the server cuts it


def test_without_the_analysis_the_review_is_503(tmp_path: Path, services: Services) -> None:
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "g.db", replace(services, analyse=None))) as c:
        game = _played_out(c, seed=2, stop_at=2)
        response = c.get(f"/api/games/{game['id']}/review")
        assert response.status_code == 503 and "without the game review" in response.json()["detail"]


def test_a_past_position_of_a_game_is_the_game_as_it_was(client: TestClient) -> None:
    game = _played_out(client, seed=4, stop_at=6)
    state = State.new(seed=4)
    for ply in range(game["ply"] + 1):
        then = client.get(f"/api/games/{game['id']}/plies/{ply}")
        assert then.status_code == 200, then.text
        view = then.json()
        assert view["ply"] == ply and view["moves"] == game["moves"][:ply]
        assert view["state"]["position"] == to_notation(state)
        if ply < game["ply"]:
            state.apply(Move.from_json(game["moves"][ply]["move"]))
    past = client.get(f"/api/games/{game['id']}/plies/{game['ply'] + 1}")
    assert past.status_code == 404 and f"has {game['ply']} moves" in past.json()["detail"]
