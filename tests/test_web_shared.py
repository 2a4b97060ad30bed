"""Two servers over one database, as behind a load balancer: a game made on one is played on
the other, and a move made on a stale view is refused with 409 whichever server gets it."""

from __future__ import annotations

import warnings

from web_databases import db_fixture, pg_url_fixture  # noqa: F401  (fixtures db, pg_url)

from patchwork_opt.ai.base import Bot
from patchwork_opt.ai.registry import make_bot
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import Services

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"


def engine_services() -> Services:
    def factory(name: str, level: int, seed: int, cap: float) -> Bot:
        return make_bot(name, level=level, seed=seed, time_per_move=0.02)

    return Services(make_bot=factory, ai_names=("greedy",), default_ai="greedy")


def test_two_servers_share_games_and_refuse_stale_moves(db: str) -> None:
    with (
        TestClient(create_app(db, engine_services()), base_url=LOCAL) as one,
        TestClient(create_app(db, engine_services()), base_url=LOCAL) as two,
    ):
        game = one.post("/api/games", json={"seed": 8}).json()
        moved = two.post(f"/api/games/{game['id']}/moves", json={"ply": 0, "move": {"type": "advance"}})
        assert moved.status_code == 200
        stale = one.post(f"/api/games/{game['id']}/moves", json={"ply": 0, "move": {"type": "advance"}})
        assert stale.status_code == 409  # the view it was made on is gone
        answered = one.post(f"/api/games/{game['id']}/ai-move", json={"ply": 1})
        assert answered.status_code == 200
        assert two.get(f"/api/games/{game['id']}").json()["moves"] == answered.json()["moves"]
