"""The workshop's API: starting from a quilt, a position or a game's ply; the patches; the best
placements with their reasons; the fill and 7x7 jobs (submit, progress, answer, cancel, exports);
and the bad input each refuses with a 422 naming what is wrong."""

from __future__ import annotations

import json
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_web_solvers import LOCAL, cli_json
from typer.testing import CliRunner

import cli
from patchwork_opt.apps.solutions import fill_summary
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import JobProgress, Limits, Services, Workshop
from patchwork_opt.apps.web.solver_services import web_services
from patchwork_opt.core.bitboard import FULL, mask_of
from patchwork_opt.core.catalogue import PATCHES, is_placement
from patchwork_opt.core.clock import Deadline
from patchwork_opt.core.move import Move
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import to_notation
from solvers.fill import FillResult
from solvers.model import PlacedPatch, SolveStatus

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LATE = json.loads(Path(__file__).resolve().parents[1].joinpath("examples/quilts/late.json").read_text())
LATE_PATCHES = [5, 8, 9, 12, 14, 16, 22, 23, 24, 30, 31]
runner = CliRunner()


@pytest.fixture(scope="module")
def services() -> Services:
    built: Services = web_services(max_ai_seconds=0.05)
    return built


@pytest.fixture
def client(tmp_path: Path, services: Services) -> Iterator[TestClient]:
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "games.db", services)) as c:
        yield c



def finished(c: TestClient, job: dict[str, Any]) -> dict[str, Any]:
    """The job once it has ended (long polls of at most 5 s, a minute at most)."""
    for _ in range(12):
        view: dict[str, Any] = c.get(job["links"]["self"], params={"wait": 5}).json()
        if view["state"] not in ("queued", "running"):
            return view
    raise AssertionError(f"job {job['id']} did not end")


# --- something to start from, and the patches -----------------------------------------------------


def test_a_pasted_quilt_is_read_and_one_that_is_not_9x9_is_named(client: TestClient) -> None:
    text = "\n".join(["##......."] * 2 + ["........."] * 7)
    read = client.post("/api/workshop/quilt", json={"text": f"\n  {text}\n\n"})
    assert read.status_code == 200, read.text
    assert read.json()["quilt"] == [[0, 0], [0, 1], [1, 0], [1, 1]] and read.json()["position"] is None
    for bad, words in ((".........\n" * 8, "a quilt has 9 rows, found 8"),
                       (".........\n" * 8 + "........", "quilt row 8 has 8 cells, expected 9"),
                       ("... ......\n" * 9, "not a 9x9 quilt")):
        refused = client.post("/api/workshop/quilt", json={"text": bad})
        assert refused.status_code == 422 and words in refused.json()["detail"], refused.text


def test_a_position_gives_either_players_quilt_and_the_patches_on_offer(client: TestClient) -> None:
    state = State.new(seed=3)
    state.apply(next(m for m in state.legal_moves() if m.kind == "buy"))
    position = to_notation(state)
    mover = client.post("/api/workshop/position", json={"position": position}).json()
    assert mover["player"] == state.to_move() and mover["position"] == position
    assert [o["patch"] for o in mover["offers"]] == state.offers()
    assert mover["upcoming"] == state.circle[3:] and mover["buttons"] == state.buttons[mover["player"]]
    other = client.post("/api/workshop/position", json={"position": position, "player": 0}).json()
    assert Quilt.from_cells(other["quilt"]).mask == state.quilts[0] and other["quilt"]
    assert other["marks_ahead"] == 9 and other["bonus_open"] is True
    for body, status, words in (({"position": "nonsense"}, 422, "not a position in the notation"),
                                ({"position": position, "player": 2}, 422, "body.player"),
                                ({"position": position, "player": None}, 422, "leave the field out"),
                                ({"position": "1,1 0/5/0/000000000000000000000 0/5/0/000000000000000000000 0 - - "
                                  "26,32,38,44,50 - 26,32,38,44,50"}, 422,
                                 "body.position: this position can't be read: circle: a patch id appears twice")):
        refused = client.post("/api/workshop/position", json=body)
        assert refused.status_code == status and words in refused.json()["detail"], refused.text


def test_a_stored_games_quilt_at_any_ply(client: TestClient) -> None:
    game = client.post("/api/games", json={"seed": 5, "ai": "greedy"}).json()
    url = f"/api/games/{game['id']}"
    game = client.post(f"{url}/moves", json={"ply": 0, "move": {"type": "advance"}}).json()
    while game["ai_to_move"]:
        game = client.post(f"{url}/ai-move", json={"ply": game["ply"]}).json()
    state = State.new(seed=5)
    for ply in range(game["ply"] + 1):
        for player in (0, 1):
            view = client.get(f"/api/workshop/games/{game['id']}/plies/{ply}", params={"player": player}).json()
            assert Quilt.from_cells(view["quilt"]).mask == state.quilts[player], (ply, player)
            assert [p["patch"] for p in view["pieces"]] == [pid for pid, _ in state.placed[player]]
            assert [o["patch"] for o in view["offers"]] == state.offers()
        if ply < game["ply"]:
            state.apply(Move.from_json(game["moves"][ply]["move"]))
    beyond = client.get(f"/api/workshop/games/{game['id']}/plies/{game['ply'] + 1}")
    assert beyond.status_code == 404 and f"has {game['ply']} moves" in beyond.json()["detail"]


def test_the_patches_by_their_facts_as_the_cli_lists_them(client: TestClient) -> None:
    every = client.get("/api/workshop/patches").json()
    assert [p["id"] for p in every["patches"]] == list(range(33)) and every["closest"] == []
    some = client.get("/api/workshop/patches", params={"cost": "2-3", "time": "2"}).json()
    assert [p["id"] for p in some["patches"]] == [p.id for p in PATCHES if 2 <= p.cost <= 3 and p.time == 2]
    assert some == cli_json("patches", "--cost", "2-3", "--time", "2")
    none = client.get("/api/workshop/patches", params={"cost": "5", "time": "4", "income": "1"}).json()
    assert none["patches"] == [] and [p["id"] for p in none["closest"]][:1] == [21]
    assert none["words"].startswith("no patch has cost 5, time 4, income 1; the closest: #21")
    bad = client.get("/api/workshop/patches", params={"cells": "many"})
    assert bad.status_code == 422 and "query.cells" in bad.json()["detail"]


# --- the best placements ----------------------------------------------------------------------------


def test_best_placements_have_their_reasons_and_match_the_cli(client: TestClient, tmp_path: Path) -> None:
    quilt = Quilt.from_cells([[r, c] for r in range(4) for c in range(9)])
    body = {"quilt": quilt.to_json(), "patch": 7, "next": [3, 4], "top": 3}
    response = client.post("/api/workshop/placements", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    path = tmp_path / "quilt.txt"
    path.write_text(quilt.to_text())
    printed = cli_json("hint", str(path), "--patch", "7", "--next", "3,4", "--top", "3")
    assert [p["cells"] for p in data["placements"]] == [h["cells"] for h in printed["hints"]]
    assert [p["score"] for p in data["placements"]] == [h["score"] for h in printed["hints"]]
    for rank, placed in enumerate(data["placements"], start=1):
        mask = mask_of(tuple(c) for c in placed["cells"])
        assert placed["rank"] == rank and is_placement(7, mask) and not mask & quilt.mask
        assert len(placed["buttons"]) == PATCHES[7].income and all(b in placed["cells"] for b in placed["buttons"])
        words = placed["reasons"]
        assert words["touches"].endswith("sides touch the edge or covered cells")
        assert words["next_patches"].startswith("the next patches #3, #4")
        assert words["score"].startswith(f"score {placed['score']:+.2f} = ")
    assert data["score_rule"].startswith("score = 2 x the share of its sides")
    text = runner.invoke(cli.app, ["hint", str(path), "--patch", "7", "--next", "3,4", "--top", "3"]).stdout
    assert data["placements"][0]["reasons"]["touches"] in text and data["placements"][0]["reasons"]["score"] in text


def test_a_placement_that_cuts_the_open_area_says_so_on_the_page_and_in_the_terminal(
        client: TestClient, tmp_path: Path) -> None:
    corridor = Quilt(FULL & ~mask_of((0, c) for c in range(9)))  # only row 0 open
    body = {"quilt": corridor.to_json(), "patch": 0, "pool": [1], "top": 8}
    response = client.post("/api/workshop/placements", json=body)
    assert response.status_code == 200, response.text
    told = {tuple(map(tuple, p["cells"])): p["reasons"]["open_area"] for p in response.json()["placements"]}
    assert len(told) == 8
    middle = ("leaves a 2-cell hole no patch still to come can fill; "
              "leaves a 5-cell hole only #1 can go in, covering at most 3 of its cells")
    assert told[((0, 2), (0, 3))] == middle
    assert told[((0, 0), (0, 1))] == ""  # the 7 cells left in one piece: nothing to say
    path = tmp_path / "corridor.txt"
    path.write_text(corridor.to_text())
    text = runner.invoke(cli.app, ["hint", str(path), "--patch", "0", "--pool", "1", "--top", "8"]).stdout
    assert middle in text


def test_bad_placement_requests_are_422_naming_what_is_wrong(client: TestClient) -> None:
    full_but_one = Quilt(FULL & ~1).to_json()
    cases: list[tuple[dict[str, Any], str]] = [
        ({"patch": 33}, "body.patch"),
        ({"patch": 7, "next": [7, 3]}, "patch 7 is the patch being placed"),
        ({"patch": 7, "next": [3, 3]}, "patch 3 is listed twice"),
        ({"patch": 7, "pool": None}, "leave the field out"),
        ({"patch": 7, "quilt": [[9, 0]]}, "body.quilt"),
        ({"patch": 7, "top": 0}, "body.top"),
        ({"patch": 0, "quilt": full_but_one}, "fits nowhere"),
        ({}, "body.patch"),
    ]
    for body, words in cases:
        response = client.post("/api/workshop/placements", json=body)
        assert response.status_code == 422, (body, response.text)
        assert words in response.json()["detail"], (body, response.json())


# --- the jobs: fill and the 7x7 ---------------------------------------------------------------------


def test_a_fill_of_one_patch_is_said_in_the_singular() -> None:
    one = FillResult(status=SolveStatus.OPTIMAL, objective=3, bound=3, optimal=True, covered=3, empty=78,
                     placed_cells=3, cost=2, placements=[PlacedPatch(patch=1, cells=[(0, 0), (0, 1), (0, 2)])])
    assert fill_summary(one) == "1 patch covers 3 cells (3 covered, 78 empty); cost 2 buttons, income 0"


def test_a_fill_job_answers_what_patchwork_fill_prints(client: TestClient, tmp_path: Path) -> None:
    submitted = client.post("/api/workshop/fills", json={"quilt": LATE, "patches": LATE_PATCHES, "workers": 1})
    assert submitted.status_code == 202, submitted.text
    job = submitted.json()
    assert submitted.headers["location"] == job["links"]["self"] == f"/api/workshop/jobs/{job['id']}"
    assert job["kind"] == "fill" and job["state"] in ("queued", "running", "done")
    done = finished(client, job)
    assert done["state"] == "done" and done["words"] == "optimal (proven)"
    answer = done["fill"]
    assert answer["verdict"] == "optimal (proven)" and answer["result"]["objective"] == 25
    assert answer["summary"] == "4 patches cover 25 cells (75 covered, 6 empty); cost 19 buttons, income 4"
    assert [p["patch"] for p in answer["pieces"]] == [p["patch"] for p in answer["result"]["placements"]]
    printed = cli_json("fill", "--quilt", "examples/quilts/late.json", "--patches", ",".join(map(str, LATE_PATCHES)),
                       "--workers", "1")
    exported = client.get(done["links"]["json"])
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    varying = {"wall_time", "method", "placements"}
    assert set(exported.json()) == set(printed)
    assert {k: v for k, v in exported.json().items() if k not in varying} == {
        k: v for k, v in printed.items() if k not in varying}
    svg = client.get(done["links"]["svg"])
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg") and "optimal (proven)" in svg.text
    png = client.get(done["links"]["png"])
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_impossible_fills_and_the_7x7_say_why(client: TestClient) -> None:
    job = client.post("/api/workshop/fills", json={"patches": [1, 2, 3, 4, 5, 6], "require_bonus": True}).json()
    done = finished(client, job)
    assert done["fill"]["result"]["status"] == "infeasible"
    assert done["words"] == ("impossible: the patches cover at most 27 cells; every 7x7 square needs at least 49 "
                             "more")
    square = [[r, c] for r in range(7) for c in range(7) if not (r == 6 and c < 3)]
    yes = finished(client, client.post("/api/workshop/bonus", json={"quilt": square, "patches": [1, 0]}).json())
    assert yes["kind"] == "bonus" and yes["bonus"]["result"]["feasible"] is True
    assert yes["words"] == "feasible: the square at rows 0-6, cols 0-6 can be completed with #1 (cost 2 buttons)"
    assert yes["bonus"]["pieces"][0]["patch"] == 1
    no = finished(client, client.post("/api/workshop/bonus", json={"quilt": square, "patches": [0]}).json())
    assert no["bonus"]["result"]["feasible"] is False and no["words"].startswith("impossible: ")


def test_bad_job_requests_are_422_and_unknown_jobs_404(client: TestClient) -> None:
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("fills", {"patches": [3, 3]}, "patch 3 is listed twice"),
        ("fills", {"patches": [40]}, "body.patches.0"),
        ("fills", {"patches": [3], "budget": -1}, "body.budget"),
        ("fills", {"patches": [3], "objective": "joy"}, "body.objective"),
        ("fills", {"patches": [3], "quilt": [[0, 0, 0]]}, "body.quilt"),
        ("bonus", {"patches": [3]}, "body.quilt"),
        ("bonus", {"quilt": [], "patches": [3, 3]}, "patch 3 is listed twice"),
    ]
    for route, body, words in cases:
        response = client.post(f"/api/workshop/{route}", json=body)
        assert response.status_code == 422 and words in response.json()["detail"], (route, body, response.text)
    missing = "A" * 22
    for method, path in (("GET", ""), ("POST", "/cancel"), ("GET", "/answer.svg"), ("GET", "/answer.json")):
        response = client.request(method, f"/api/workshop/jobs/{missing}{path}")
        assert response.status_code == 404 and "no job" in response.json()["detail"], (method, path)
    assert client.get("/api/workshop/jobs/no!").status_code == 422


def _held_fill(entered: threading.Event, stop_seen: list[float], stubborn: float = 0.0) -> Workshop:
    """A fill that searches until it is told to stop (as the packing search does), reporting its
    progress; ``stubborn`` seconds it cannot be interrupted first (a CP-SAT model being built)."""

    def fill(request: Any, deadline: Deadline, stop: StopSignal, progress: JobProgress) -> FillResult:
        progress(3.0, 9.0, "dfs")
        entered.set()
        time.sleep(stubborn)
        woken = threading.Event()
        stop.attach(woken.set)
        woken.wait(deadline.remaining())
        stop_seen.append(time.monotonic())
        return FillResult(status=SolveStatus.FEASIBLE, objective=3, bound=9, optimal=False, covered=3, empty=78)

    def unused(*args: Any) -> Any:
        raise AssertionError("not called")

    return Workshop(placements=unused, fill=fill, bonus=unused)


def test_cancel_frees_the_worker_for_the_next_job(tmp_path: Path, services: Services) -> None:
    entered, stop_seen = threading.Event(), list[float]()
    held = replace(services, workshop=_held_fill(entered, stop_seen))
    limits = Limits(solver_workers=1, max_solver_seconds=30)
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "g.db", held, limits)) as c:
        first = c.post("/api/workshop/fills", json={"patches": [1]}).json()
        assert entered.wait(10)
        second = c.post("/api/workshop/fills", json={"patches": [2]}).json()
        running = c.get(first["links"]["self"]).json()
        assert running["state"] == "running" and running["progress"]["best"] == 3.0
        assert running["words"] == "searching: 3 cells so far, at most 9 (the packing search)"
        assert c.get(second["links"]["self"]).json()["state"] == "queued"
        assert c.get(f"{second['links']['self']}/answer.svg").status_code == 409  # no answer yet
        cancelled = c.post(first["links"]["cancel"]).json()
        assert stop_seen, "the solver was told to stop before Cancel answered"
        assert cancelled["state"] == "cancelled" and cancelled["stopped_after"] is not None
        assert cancelled["freed_after"] is not None and cancelled["freed_after"] >= cancelled["stopped_after"]
        assert cancelled["words"] == "cancelled; the best found; at most 9 cells can be covered"
        assert cancelled["fill"]["result"]["objective"] == 3  # the best found before Cancel is kept
        assert c.get(second["links"]["self"]).json()["state"] == "running"  # the worker went to the next job
        assert c.post(second["links"]["cancel"]).json()["state"] == "cancelled"
        assert len(stop_seen) == 2
        assert c.post(first["links"]["cancel"]).json()["state"] == "cancelled"  # an ended job stays as it is


def test_a_fill_waiting_in_the_job_queue_keeps_its_whole_time(tmp_path: Path, services: Services) -> None:
    """A job's time is a ``ThinkBudget`` when it is submitted and a deadline only as its work starts:
    the second fill, queued behind the first, has its whole time from when it starts."""
    started: dict[int, Deadline] = {}
    entered, release = threading.Event(), threading.Event()

    def fill(request: Any, deadline: Deadline, stop: StopSignal, progress: JobProgress) -> FillResult:
        started[request.patches[0]] = deadline
        entered.set()
        release.wait(10)
        return FillResult(status=SolveStatus.FEASIBLE, objective=3, bound=9, optimal=False, covered=3, empty=78)

    def unused(*args: Any) -> Any:
        raise AssertionError("not called")

    held = replace(services, workshop=Workshop(placements=unused, fill=fill, bonus=unused))
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "g.db", held, Limits(solver_workers=1))) as c:
        c.post("/api/workshop/fills", json={"patches": [1], "time_limit": 2})
        assert entered.wait(10)
        second = c.post("/api/workshop/fills", json={"patches": [2], "time_limit": 2}).json()
        assert c.get(second["links"]["self"]).json()["state"] == "queued" and second["progress"]["time_limit"] == 2
        released = time.perf_counter()  # the second has waited in line until now
        release.set()
        assert finished(c, second)["state"] == "done"
    assert started[2].at - 2 >= released  # its two seconds started with its work, not when it was queued


def test_a_solver_slow_to_stop_gives_its_slot_on_at_once(tmp_path: Path, services: Services) -> None:
    entered, stop_seen = threading.Event(), list[float]()
    held = replace(services, workshop=_held_fill(entered, stop_seen, stubborn=1.0))
    limits = Limits(solver_workers=1, max_solver_seconds=30)
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "g.db", held, limits)) as c:
        first = c.post("/api/workshop/fills", json={"patches": [1]}).json()
        assert entered.wait(10)
        second = c.post("/api/workshop/fills", json={"patches": [2]}).json()
        entered.clear()
        cancelled = c.post(first["links"]["cancel"]).json()
        assert cancelled["state"] == "cancelled" and not stop_seen  # still building: an orphan now
        assert cancelled["freed_after"] is not None and cancelled["stopped_after"] is None
        assert cancelled["words"] == "cancelled; the best found so far is on its way"
        assert entered.wait(10)  # the next job has the slot while the first is still busy
        assert c.get(second["links"]["self"]).json()["state"] == "running"
        c.post(second["links"]["cancel"])
        kept = finished(c, first)
        for _ in range(50):  # the orphan's answer is kept when it comes
            if kept["fill"] is not None:
                break
            time.sleep(0.1)
            kept = c.get(first["links"]["self"]).json()
        assert kept["fill"]["result"]["objective"] == 3 and kept["stopped_after"] >= 0.5


def _answered_fill(results: dict[int, FillResult]) -> Workshop:
    """A fill that answers at once, with the result given for its first patch."""

    def fill(request: Any, deadline: Deadline, stop: StopSignal, progress: JobProgress) -> FillResult:
        return results[request.patches[0]]

    def unused(*args: Any) -> Any:
        raise AssertionError("not called")

    return Workshop(placements=unused, fill=fill, bonus=unused)


def test_a_fill_whose_time_ran_out_says_how_long_it_may_search_when_asked_again(
    tmp_path: Path, services: Services
) -> None:
    open_ = FillResult(status=SolveStatus.FEASIBLE, objective=3, bound=9, optimal=False, covered=3, empty=78)
    proven = FillResult(status=SolveStatus.OPTIMAL, objective=9, bound=9, optimal=True, covered=9, empty=72)
    impossible = FillResult(status=SolveStatus.INFEASIBLE, objective=None, bound=0, optimal=False, covered=0,
                            empty=81, reason="no room")
    quick = replace(services, workshop=_answered_fill({1: open_, 2: proven, 3: impossible}))
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "g.db", quick, Limits(max_solver_seconds=7))) as c:
        def ended(patch: int, seconds: float) -> dict[str, Any]:
            return finished(c, c.post("/api/workshop/fills", json={"patches": [patch], "time_limit": seconds}).json())

        short = ended(1, 3)
        assert short["progress"]["time_limit"] == 3 and short["more_seconds"] == 7  # the server's cap
        assert ended(1, 100)["more_seconds"] is None  # given the most already (capped to 7)
        assert ended(2, 3)["more_seconds"] is None  # proven optimal: nothing more to find
        assert ended(3, 3)["more_seconds"] is None  # proven impossible


def test_a_client_with_too_many_jobs_waits_and_a_server_without_the_workshop_says_so(
    tmp_path: Path, services: Services
) -> None:
    entered, stop_seen = threading.Event(), list[float]()
    held = replace(services, workshop=_held_fill(entered, stop_seen))
    limits = Limits(solver_workers=1, client_jobs=2, max_solver_seconds=30)
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "g.db", held, limits)) as c:
        jobs = [c.post("/api/workshop/fills", json={"patches": [i]}) for i in (1, 2)]
        assert [j.status_code for j in jobs] == [202, 202]
        refused = c.post("/api/workshop/fills", json={"patches": [3]})
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        for job in jobs:
            c.post(job.json()["links"]["cancel"])
        assert c.post("/api/workshop/fills", json={"patches": [3]}).status_code == 202
    with TestClient(base_url=LOCAL, app=create_app(tmp_path / "h.db", replace(services, workshop=None))) as c:
        missing = c.post("/api/workshop/placements", json={"patch": 3})
        assert missing.status_code == 503 and "without the workshop" in missing.json()["detail"]


def test_the_openapi_schema_says_what_the_workshop_takes_and_answers(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths, models = schema["paths"], schema["components"]["schemas"]
    submit = paths["/api/workshop/fills"]["post"]["responses"]
    assert set(submit) >= {"202", "400", "413", "422", "429", "503"} and "Retry-After" in submit["503"]["headers"]
    assert submit["202"]["links"]["ReadJob"] == {"operationId": "read_workshop_job",
                                                 "parameters": {"job_id": "$response.body#/id"}}
    png = paths["/api/workshop/jobs/{job_id}/answer.png"]["get"]["responses"]
    assert list(png["200"]["content"]) == ["image/png"] and list(png["409"]["content"]) == ["application/json"]
    placements = models["PlacementsRequest"]["properties"]
    assert placements["next"]["uniqueItems"] and placements["patch"]["maximum"] == 32
    assert "pattern" in models["QuiltTextRequest"]["properties"]["text"]
    assert models["FillRequest"]["properties"]["budget"]["anyOf"][0]["minimum"] == 0


@pytest.mark.slow
def test_bench_workshop_measures_the_three_figures_on_a_real_server() -> None:
    result = runner.invoke(cli.app, ["bench", "workshop", "--placements", "3", "--sets", "3", "--cancels", "2",
                                     "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["placements"]["requests"] == 3 and 0 < data["placements"]["p50_ms"] <= data["placements"]["p95_ms"]
    assert data["fills"]["sets"] == 3 and data["fills"]["proven"] == 3 and len(data["fills"]["rows"]) == 3
    assert data["fills"]["agree_with_in_process"] == 3
    cancels = data["cancel"]["rows"]
    assert len(cancels) == 2 and all(0 < row["freed"] <= row["answered"] for row in cancels)
