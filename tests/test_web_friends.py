"""Games between people over the API (issue 49): seats proven by their secrets, every refusal (401,
403, 409), two moves racing for one ply, takeback by agreement, resigning, the rematch with seats
swapped, hints only where allowed, the review and exercises for both seats, and no secret in any
view or log line; on SQLite and on PostgreSQL."""

from __future__ import annotations

import logging
import threading
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from rigged_analysis import Rigged, rigged_services
from web_databases import db_fixture, pg_url_fixture  # noqa: F401  (fixtures db, pg_url)

from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import Limits, Services
from patchwork_opt.core.state import State
from patchwork_opt.formats.models import move_model

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

LIMITS = Limits(client_games=10_000)


@pytest.fixture(name="client")
def client_fixture(db: str) -> Iterator[TestClient]:
    app = create_app(db, Services(), LIMITS)
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def friend_game(client: TestClient, **body: Any) -> tuple[dict[str, Any], dict[int, str]]:
    """A friend's game, both seats taken: its view and each seat's secret."""
    made = client.post("/api/games", json={"opponent": "friend", "seat": 0, **body})
    assert made.status_code == 201, made.text
    view = made.json()
    joined = client.post(f"/api/games/{view['id']}/join")
    assert joined.status_code == 200, joined.text
    secrets = {view["seat"]: view["secret"], joined.json()["seat"]: joined.json()["secret"]}
    assert set(secrets) == {0, 1}
    return view, secrets


def state_of(client: TestClient, game_id: str) -> State:
    return client.app.state.store.get(game_id).state()  # type: ignore[attr-defined]


def move_body(client: TestClient, game_id: str) -> tuple[int, dict[str, Any]]:
    """The seat to move and a legal move for it (the first the rules list), as the API takes it."""
    state = state_of(client, game_id)
    ply = client.get(f"/api/games/{game_id}").json()["ply"]
    move = next(iter(state.legal_moves()))
    return state.to_move(), {"ply": ply, "move": move_model(move).model_dump(mode="json")}


def play(client: TestClient, game_id: str, secrets: dict[int, str], moves: int) -> dict[str, Any]:
    view: dict[str, Any] = {}
    for _ in range(moves):
        seat, body = move_body(client, game_id)
        answer = client.post(f"/api/games/{game_id}/moves", json=body, headers=bearer(secrets[seat]))
        assert answer.status_code == 200, answer.text
        view = answer.json()
    return view


def test_a_friend_game_gives_its_creator_a_seat_a_secret_and_an_invite(client: TestClient) -> None:
    made = client.post("/api/games", json={"opponent": "friend", "seat": 1, "hints": False})
    assert made.status_code == 201
    view = made.json()
    assert view["seat"] == 1 and view["invite"] == f"/play/{view['id']}" and len(view["secret"]) >= 22
    people = view["people"]
    assert people["opponent"] == "friend" and people["hints"] is False
    assert [s["taken"] for s in people["seats"]] == [False, True]
    assert client.get(view["invite"]).status_code == 200  # the invite link opens the game page
    joined = client.post(f"/api/games/{view['id']}/join").json()
    assert joined["seat"] == 0 and joined["secret"] != view["secret"]
    assert [s["taken"] for s in client.get(f"/api/games/{view['id']}").json()["people"]["seats"]] == [True, True]
    third = client.post(f"/api/games/{view['id']}/join")
    assert third.status_code == 409 and "watch" in third.json()["detail"]


def test_a_random_seat_is_either_seat_and_a_game_against_the_ai_is_unchanged(db: str) -> None:
    app = create_app(db, rigged_services(None), LIMITS)
    with TestClient(app, base_url="http://localhost") as client:
        seats = {client.post("/api/games", json={"opponent": "friend", "seat": "random"}).json()["seat"]
                 for _ in range(24)}
        assert seats == {0, 1}
        ai = client.post("/api/games", json={"seat": 1})
        assert ai.status_code == 201
        body = ai.json()
        assert "secret" not in body and "invite" not in body and body["people"] is None and body["seat"] == 1
        assert client.post(f"/api/games/{body['id']}/join").status_code == 409
        moved = client.post(f"/api/games/{body['id']}/ai-move", json={"ply": 0})  # no secret, as before
        assert moved.status_code == 200 and moved.json()["ply"] == 1


def test_every_refusal_of_a_move_between_people(client: TestClient) -> None:
    view, secrets = friend_game(client)
    game_id = view["id"]
    seat, body = move_body(client, game_id)
    url = f"/api/games/{game_id}/moves"
    missing = client.post(url, json=body)
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.post(url, json=body, headers={"Authorization": "Basic eDp5"}).status_code == 401
    assert client.post(url, json=body, headers=bearer("not-a-seat-secret")).status_code == 403  # a spectator's
    other = view["secret"] if view["seat"] != seat else secrets[1 - seat]
    assert client.post(url, json=body, headers=bearer(other)).status_code == 409  # out of turn
    assert client.post(url, json=body, headers=bearer(secrets[seat])).status_code == 200
    assert client.post(url, json=body, headers=bearer(secrets[seat])).status_code == 409  # stale ply
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 1
    assert client.post(f"/api/games/{game_id}/undo", json={"ply": 1}).status_code == 409
    assert client.post(f"/api/games/{game_id}/ai-move", json={"ply": 1}).status_code == 409


def test_two_moves_racing_for_one_ply_land_once(client: TestClient) -> None:
    view, secrets = friend_game(client)
    seat, body = move_body(client, view["id"])
    statuses: list[int] = []
    start = threading.Barrier(4)

    def send() -> None:
        start.wait()
        statuses.append(client.post(f"/api/games/{view['id']}/moves", json=body,
                                    headers=bearer(secrets[seat])).status_code)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409, 409, 409]
    assert client.get(f"/api/games/{view['id']}").json()["ply"] == 1


def test_a_move_or_a_takeback_racing_a_resignation_does_not_land_after_it(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other player resigns while a move (or an accepted takeback) is being stored: the game
    ends as resigned, with no move after the resignation (the store checks it inside the transaction)."""
    store, people = client.app.state.store, client.app.state.stores.people  # type: ignore[attr-defined]
    view, secrets = friend_game(client)
    game_id = view["id"]
    seat, body = move_body(client, game_id)
    real_append, real_truncate = store.append, store.truncate

    def resigned_first(real: Any) -> Any:
        def storing(*args: Any, **kwargs: Any) -> Any:
            assert people.resign(game_id, 1 - seat)  # lands while the request is on its way to the store
            return real(*args, **kwargs)
        return storing

    monkeypatch.setattr(store, "append", resigned_first(real_append))
    moved = client.post(f"/api/games/{game_id}/moves", json=body, headers=bearer(secrets[seat]))
    assert moved.status_code == 409 and "resigned" in moved.json()["detail"]
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 0
    monkeypatch.setattr(store, "append", real_append)

    view, secrets = friend_game(client)
    game_id = view["id"]
    first = play(client, game_id, secrets, 1)["moves"][-1]["player"]
    client.post(f"/api/games/{game_id}/takeback", json={"ply": 1}, headers=bearer(secrets[first]))
    seat = first
    monkeypatch.setattr(store, "truncate", resigned_first(real_truncate))
    taken = client.post(f"/api/games/{game_id}/takeback/answer", json={"ply": 1, "accept": True},
                        headers=bearer(secrets[1 - first]))
    assert taken.status_code == 409 and "resigned" in taken.json()["detail"]
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 1


def test_an_offer_racing_a_resignation_says_the_game_is_over(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    people = client.app.state.stores.people  # type: ignore[attr-defined]
    view, secrets = friend_game(client)
    game_id = view["id"]
    first = play(client, game_id, secrets, 1)["moves"][-1]["player"]
    offer = people.offer_takeback

    def resigned_first(game: str, made: Any) -> bool:
        assert people.resign(game, 1 - first)  # lands while the offer is on its way to the store
        return bool(offer(game, made))

    monkeypatch.setattr(people, "offer_takeback", resigned_first)
    offered = client.post(f"/api/games/{game_id}/takeback", json={"ply": 1}, headers=bearer(secrets[first]))
    assert offered.status_code == 409 and "resigned" in offered.json()["detail"], offered.text


def racing(calls: list[Any]) -> list[Any]:
    """Each of ``calls`` at once, from a thread of its own: their answers, in order."""
    answers: list[Any] = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i: int) -> None:
        start.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_joins_racing_for_the_free_seat_and_both_players_asking_for_the_rematch_at_once(client: TestClient) -> None:
    made = client.post("/api/games", json={"opponent": "friend", "seat": 0}).json()
    joins = racing([lambda: client.post(f"/api/games/{made['id']}/join") for _ in range(4)])
    assert sorted(j.status_code for j in joins) == [200, 409, 409, 409]
    secrets = {0: made["secret"], 1: next(j.json()["secret"] for j in joins if j.status_code == 200)}
    client.post(f"/api/games/{made['id']}/resign", json={}, headers=bearer(secrets[0]))
    games = client.app.state.store.count()  # type: ignore[attr-defined]
    asked = racing([lambda seat=seat: client.post(f"/api/games/{made['id']}/rematch", headers=bearer(secrets[seat]))
                    for seat in (0, 1)])
    assert [a.status_code for a in asked] == [201, 201]
    assert asked[0].json()["id"] == asked[1].json()["id"] and [a.json()["seat"] for a in asked] == [1, 0]
    assert client.app.state.store.count() == games + 1  # type: ignore[attr-defined]
    new = {a.json()["seat"]: a.json()["secret"] for a in asked}
    assert play(client, asked[0].json()["id"], new, 2)["ply"] == 2


def test_hints_only_in_a_game_that_allows_them(client: TestClient) -> None:
    off, _ = friend_game(client)
    refused = client.get(f"/api/games/{off['id']}/hint")
    assert refused.status_code == 403 and "without hints" in refused.json()["detail"]
    on, _ = friend_game(client, hints=True)
    assert client.get(f"/api/games/{on['id']}").json()["people"]["hints"] is True
    assert client.get(f"/api/games/{on['id']}/hint").status_code == 503  # allowed: this server has no solver


def test_takeback_by_agreement(client: TestClient) -> None:
    view, secrets = friend_game(client)
    game_id = view["id"]
    first = play(client, game_id, secrets, 1)["moves"][-1]["player"]
    url = f"/api/games/{game_id}/takeback"
    assert client.post(url, json={"ply": 1}).status_code == 401
    assert client.post(url, json={"ply": 0}, headers=bearer(secrets[first])).status_code == 409  # stale
    assert client.post(url, json={"ply": 1}, headers=bearer(secrets[1 - first])).status_code == 409  # no move yet
    offered = client.post(url, json={"ply": 1}, headers=bearer(secrets[first]))
    assert offered.status_code == 200 and offered.json()["people"]["takeback"] == {"seat": first, "ply": 1}
    assert client.post(url, json={"ply": 1}, headers=bearer(secrets[first])).status_code == 409  # one at a time
    answer = f"/api/games/{game_id}/takeback/answer"
    assert client.post(answer, json={"ply": 1, "accept": True}, headers=bearer(secrets[first])).status_code == 403
    declined = client.post(answer, json={"ply": 1, "accept": False}, headers=bearer(secrets[1 - first]))
    assert declined.status_code == 200 and declined.json()["people"]["takeback"] is None
    assert declined.json()["ply"] == 1
    assert client.post(answer, json={"ply": 1, "accept": True}, headers=bearer(secrets[1 - first])).status_code == 409
    client.post(url, json={"ply": 1}, headers=bearer(secrets[first]))
    accepted = client.post(answer, json={"ply": 1, "accept": True}, headers=bearer(secrets[1 - first]))
    assert accepted.status_code == 200
    assert accepted.json()["ply"] == 0 and accepted.json()["takebacks"] == 1
    assert accepted.json()["people"]["takeback"] is None


def test_an_offer_lapses_once_a_move_lands(client: TestClient) -> None:
    view, secrets = friend_game(client)
    game_id = view["id"]
    played = play(client, game_id, secrets, 1)
    first = played["moves"][-1]["player"]
    client.post(f"/api/games/{game_id}/takeback", json={"ply": 1}, headers=bearer(secrets[first]))
    after = play(client, game_id, secrets, 1)
    assert after["people"]["takeback"] is None
    late = client.post(f"/api/games/{game_id}/takeback/answer", json={"ply": 1, "accept": True},
                       headers=bearer(secrets[1 - first]))
    assert late.status_code == 409


def test_a_lapsed_offer_does_not_stop_the_next_one(client: TestClient) -> None:
    view, secrets = friend_game(client)
    game_id = view["id"]
    first = play(client, game_id, secrets, 1)["moves"][-1]["player"]
    url = f"/api/games/{game_id}/takeback"
    assert client.post(url, json={"ply": 1}, headers=bearer(secrets[first])).status_code == 200
    ply = play(client, game_id, secrets, 1)["ply"]  # the offer lapses
    again = client.post(url, json={"ply": ply}, headers=bearer(secrets[first]))
    assert again.status_code == 200, again.text
    assert again.json()["people"]["takeback"] == {"seat": first, "ply": ply}
    answer = f"/api/games/{game_id}/takeback/answer"
    accepted = client.post(answer, json={"ply": ply, "accept": True}, headers=bearer(secrets[1 - first]))
    assert accepted.status_code == 200 and accepted.json()["ply"] < ply


def test_resign_then_a_rematch_with_the_seats_swapped_and_new_secrets(client: TestClient) -> None:
    view, secrets = friend_game(client)
    game_id = view["id"]
    play(client, game_id, secrets, 2)
    assert client.post(f"/api/games/{game_id}/rematch", headers=bearer(secrets[0])).status_code == 409  # not over
    assert client.post(f"/api/games/{game_id}/resign", json={}, headers=bearer("wrong")).status_code == 403
    resigned = client.post(f"/api/games/{game_id}/resign", json={}, headers=bearer(secrets[0]))
    assert resigned.status_code == 200
    people = resigned.json()["people"]
    assert people["resigned"] == 0 and people["winner"] == 1 and people["to_move"] is None
    assert resigned.json()["human_to_move"] is False
    assert client.post(f"/api/games/{game_id}/resign", json={}, headers=bearer(secrets[1])).status_code == 409
    _, body = move_body(client, game_id)
    assert client.post(f"/api/games/{game_id}/moves", json=body, headers=bearer(secrets[0])).status_code == 409
    assert client.post(f"/api/games/{game_id}/rematch").status_code == 401
    first = client.post(f"/api/games/{game_id}/rematch", headers=bearer(secrets[0]))
    assert first.status_code == 201
    rematch = first.json()
    assert rematch["seat"] == 1 and rematch["secret"] not in secrets.values()
    assert rematch["people"]["rematch_of"] == game_id and rematch["invite"] == f"/play/{rematch['id']}"
    assert client.post(f"/api/games/{rematch['id']}/join").status_code == 409  # held for the other player
    second = client.post(f"/api/games/{game_id}/rematch", headers=bearer(secrets[1]))
    assert second.status_code == 201 and second.json()["id"] == rematch["id"] and second.json()["seat"] == 0
    assert client.post(f"/api/games/{game_id}/rematch", headers=bearer(secrets[1])).status_code == 409
    assert client.get(f"/api/games/{game_id}").json()["people"]["rematch"] == rematch["id"]
    new = {1: rematch["secret"], 0: second.json()["secret"]}
    assert play(client, rematch["id"], new, 1)["ply"] == 1


def test_a_rematch_counts_once_against_new_games_and_only_with_a_seat_secret(db: str) -> None:
    app = create_app(db, Services(), Limits(client_games=3))
    with TestClient(app, base_url="http://localhost") as client:
        view, secrets = friend_game(client)  # 1 new game
        game_id = view["id"]
        assert client.post(f"/api/games/{game_id}/resign", json={}, headers=bearer(secrets[0])).status_code == 200
        for _ in range(3):  # refused secrets are no new games
            assert client.post(f"/api/games/{game_id}/rematch", headers=bearer("wrong")).status_code == 403
        assert client.post(f"/api/games/{game_id}/rematch", headers=bearer(secrets[0])).status_code == 201  # 2
        assert client.post(f"/api/games/{game_id}/rematch", headers=bearer(secrets[1])).status_code == 201
        assert client.post("/api/games", json={"opponent": "friend"}).status_code == 201  # 3
        assert client.post("/api/games", json={"opponent": "friend"}).status_code == 429


def test_two_players_at_one_device_share_one_secret(client: TestClient) -> None:
    made = client.post("/api/games", json={"opponent": "here"})
    assert made.status_code == 201
    view = made.json()
    secret = view["secret"]
    assert [s["taken"] for s in view["people"]["seats"]] == [True, True]
    assert client.post(f"/api/games/{view['id']}/join").status_code == 409
    played = play(client, view["id"], {0: secret, 1: secret}, 3)
    assert played["ply"] == 3 and played["people"]["seats"][0]["last_moved"] is not None
    last = played["moves"][-1]["player"]
    offered = client.post(f"/api/games/{view['id']}/takeback", json={"ply": 3}, headers=bearer(secret))
    assert offered.json()["people"]["takeback"]["seat"] == last  # the seat that moved last
    taken = client.post(f"/api/games/{view['id']}/takeback/answer", json={"ply": 3, "accept": True},
                        headers=bearer(secret))
    assert taken.status_code == 200 and taken.json()["ply"] < 3
    gave_up = client.post(f"/api/games/{view['id']}/resign", json={"seat": 1}, headers=bearer(secret))
    assert gave_up.json()["people"]["resigned"] == 1


def test_no_secret_in_any_view_error_or_log_line(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    view, secrets = friend_game(client)
    game_id = view["id"]
    play(client, game_id, secrets, 2)
    texts = [client.get(f"/api/games/{game_id}").text, client.get(f"/api/games/{game_id}/record").text]
    seat, body = move_body(client, game_id)
    texts.append(client.post(f"/api/games/{game_id}/moves", json=body, headers=bearer(secrets[1 - seat])).text)
    texts.append(client.post(f"/api/games/{game_id}/moves", json=body, headers=bearer(secrets[seat] + "x")).text)
    texts.append(client.post(f"/api/games/{game_id}/resign", json={}, headers=bearer(secrets[0])).text)
    rematch = client.post(f"/api/games/{game_id}/rematch", headers=bearer(secrets[0])).json()
    texts.append(client.get(f"/api/games/{rematch['id']}").text)
    everything = "\n".join([*texts, caplog.text, *(r.getMessage() for r in caplog.records)])
    for secret in (*secrets.values(), rematch["secret"]):
        assert secret not in everything
    stored = client.app.state.stores.people.find(game_id)  # type: ignore[attr-defined]
    assert stored is not None and all(h is not None and h not in secrets.values() for h in stored.hashes)


def test_no_answer_that_carries_a_secret_may_be_cached(client: TestClient) -> None:
    made = client.post("/api/games", json={"opponent": "friend"})
    joined = client.post(f"/api/games/{made.json()['id']}/join")
    here = client.post("/api/games", json={"opponent": "here"})
    client.post(f"/api/games/{here.json()['id']}/resign", json={}, headers=bearer(here.json()["secret"]))
    rematch = client.post(f"/api/games/{here.json()['id']}/rematch", headers=bearer(here.json()["secret"]))
    for answer in (made, joined, here, rematch):
        assert answer.status_code in (200, 201) and "secret" in answer.json()
        assert "no-store" in answer.headers.get("Cache-Control", ""), answer.request.url


def test_the_review_and_each_seats_exercises_of_a_friend_game(db: str) -> None:
    rigged = Rigged()
    app = create_app(db, rigged_services(rigged), LIMITS)
    with TestClient(app, base_url="http://localhost") as client:
        view, secrets = friend_game(client)
        played = play(client, view["id"], secrets, 6)
        # hints are off (the default): no review, no exercises while the game runs
        closed = client.get(f"/api/games/{view['id']}/review")
        assert closed.status_code == 403
        assert closed.json()["detail"] == "the review opens when the game is over: hints are off in this game"
        assert client.post(f"/api/games/{view['id']}/mistake-puzzles", json={"plies": [0]}).status_code == 403
        assert client.post(f"/api/games/{view['id']}/resign", json={}, headers=bearer(secrets[0])).status_code == 200
        review = client.get(f"/api/games/{view['id']}/review")
        assert review.status_code == 200, review.text
        names = [p["name"] for p in review.json()["players"]]
        assert names == ["Player 1", "Player 2"]
        plies = {seat: [m["ply"] for m in played["moves"] if m["player"] == seat] for seat in (0, 1)}
        for seat in (0, 1):
            made = client.post(f"/api/games/{view['id']}/mistake-puzzles", json={"plies": plies[seat][:2]})
            assert made.status_code == 200, made.text
            assert made.json()["tried"] == len(set(plies[seat][:2]))


def test_a_game_with_hints_on_is_reviewed_while_it_runs(db: str) -> None:
    app = create_app(db, rigged_services(Rigged()), LIMITS)
    with TestClient(app, base_url="http://localhost") as client:
        view, secrets = friend_game(client, hints=True)
        play(client, view["id"], secrets, 2)
        assert client.get(f"/api/games/{view['id']}/review").status_code == 200
        assert client.post(f"/api/games/{view['id']}/mistake-puzzles", json={"plies": [0]}).status_code == 200


def test_the_openapi_schema_documents_the_routes_between_people(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    answers = {(path, method): set(op["responses"]) for path, ops in paths.items() for method, op in ops.items()}
    for action in ("takeback", "takeback/answer", "resign"):
        assert answers[(f"/api/games/{{game_id}}/{action}", "post")] >= {"200", "401", "403", "404", "409", "422"}
    assert answers[("/api/games/{game_id}/rematch", "post")] >= {"201", "401", "403", "409"}
    assert answers[("/api/games/{game_id}/join", "post")] >= {"200", "404", "409"}
    assert paths["/api/games/{game_id}/resign"]["post"]["security"] == [{"seat secret": []}]
    assert "security" not in paths["/api/games/{game_id}/moves"]["post"]  # games against the AI move without one
    events = paths["/api/games/{game_id}/events"]["get"]
    assert "text/event-stream" in events["responses"]["200"]["content"]
    assert {p["name"] for p in events["parameters"]} >= {"game_id", "last-event-id"}
    for refused in ("404", "429", "503"):
        assert "application/json" in events["responses"][refused]["content"]
    assert all("Retry-After" in events["responses"][busy]["headers"] for busy in ("429", "503"))
    created = paths["/api/games"]["post"]["responses"]["201"]["content"]["application/json"]["schema"]
    assert {"$ref": "#/components/schemas/CreatedGame"} in created["anyOf"]
    request = schema["components"]["schemas"]["CreateGameRequest"]["properties"]
    assert request["opponent"]["enum"] == ["ai", "friend", "here"] and request["hints"]["default"] is False
