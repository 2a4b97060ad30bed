"""Two servers over one database, as behind a load balancer: a game made on one is played on
the other, and a move made on a stale view is refused with 409 whichever server gets it."""

from __future__ import annotations

from test_web_guards import LOCAL, TestClient, engine_services
from web_databases import db_fixture, pg_url_fixture  # noqa: F401  (fixtures db, pg_url)

from patchwork_opt.apps.web.app import create_app


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
