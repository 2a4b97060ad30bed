"""``POST /api/fill`` answers an impossible requirement as ``patchwork fill --json`` does: status
``infeasible`` with the reason that proves it (a 200, not an error), and ``unknown`` only for
what the time limit left open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import test_web_solvers
from test_web_solvers import TestClient, cli_json

from patchwork_opt.core.bitboard import FULL, bit, cells_of

#: The web solver tests' fixtures: the app as ``patchwork serve`` wires it, over a fresh database.
services = test_web_solvers.services
client = test_web_solvers.client


def _hole_quilt() -> list[list[int]]:
    """A quilt covered everywhere but a 2x5 hole that lies in every 7x7 square."""
    hole = 0
    for c in range(2, 7):
        hole |= bit(3, c) | bit(4, c)
    return [list(cell) for cell in cells_of(FULL & ~hole)]


def _fill(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/fill", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_infeasible_by_area_is_what_the_cli_prints(client: TestClient) -> None:
    data = _fill(client, {"patches": [1, 2, 3, 4, 5, 6], "require_bonus": True})
    assert data["status"] == "infeasible" and data["objective"] is None and data["placements"] == []
    assert data["reason"] == "the patches cover at most 27 cells; every 7x7 square needs at least 49 more"
    printed = cli_json("fill", "--patches", "1,2,3,4,5,6", "--require-bonus")
    assert {k: v for k, v in data.items() if k != "wall_time"} == {
        k: v for k, v in printed.items() if k != "wall_time"
    }


def test_infeasible_by_budget_and_by_shape(client: TestClient, tmp_path: Path) -> None:
    data = _fill(client, {"patches": list(range(11)), "budget": 10, "require_bonus": True})
    assert data["status"] == "infeasible" and not data["optimal"]
    assert data["reason"] == "completing a 7x7 square costs at least 50 buttons; the budget is 10"
    quilt = _hole_quilt()
    data = _fill(client, {"quilt": quilt, "patches": [8, 5, 0, 1], "budget": 5, "require_bonus": True})
    assert data["status"] == "infeasible"
    assert data["reason"] == "completing a 7x7 square costs at least 6 buttons; the budget is 5"
    # 2 + 3 + 5 = 10 cells for the 10-cell hole (every patch fits in it), but the shapes do not tile it
    data = _fill(client, {"quilt": quilt, "patches": [0, 1, 20], "require_bonus": True, "workers": 1})
    assert data["status"] == "infeasible" and data["reason"].startswith("every 7x7 square is refuted")


def test_a_feasible_requirement_keeps_its_answer_and_an_empty_reason(client: TestClient) -> None:
    data = _fill(client, {"quilt": _hole_quilt(), "patches": [8, 5, 0, 1], "budget": 6, "require_bonus": True,
                          "workers": 1})
    assert data["status"] == "optimal" and data["reason"] == ""
    assert data["objective"] == 10 and data["cost"] <= 6 and data["bonus_window"] is not None


def test_the_published_fill_model_has_the_reason(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "reason" in schema["components"]["schemas"]["FillResult"]["properties"]
