"""The service speaks the reader's language about a game: a review names "you" and "the AI" in whole
sentences per kind of player (never an English name in a German sentence), its win-chance chart's
title, axis and percentages follow the language asked for, and so do a friends' game's refusals."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from patchwork_opt.apps.seated import chart_title, named, the_ai, won_words, you
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.solver_services import web_services
from patchwork_opt.i18n import using

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"
FAST = 0.05


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(tmp_path_factory.mktemp("review") / "games.db", web_services(max_ai_seconds=FAST))
    with TestClient(app, base_url=LOCAL) as c:
        yield c


@pytest.fixture(scope="module")
def reviews(client: TestClient) -> dict[str, dict[str, Any]]:
    """One game against the greedy AI, six plies in, reviewed in English and in German."""
    c = client
    game = c.post("/api/games", json={"seed": 5, "ai": "greedy"}).json()
    url = f"/api/games/{game['id']}"
    while game["ply"] < 6:
        if game["ai_to_move"]:
            game = c.post(f"{url}/ai-move", json={"ply": game["ply"]}).json()
        else:
            game = c.post(f"{url}/moves", json={"ply": game["ply"], "move": {"type": "advance"}}).json()
    said = {}
    for code in ("en", "de"):
        response = c.get(f"{url}/review", params={"time_per_move": FAST, "lang": code})
        assert response.status_code == 200, response.text
        said[code] = response.json()
    return said


def test_a_german_review_names_you_and_the_ai_in_german(reviews: dict[str, dict[str, Any]]) -> None:
    english, german = reviews["en"], reviews["de"]
    assert sorted(p["name"] for p in english["players"]) == ["The AI (greedy)", "You"]
    assert sorted(p["name"] for p in german["players"]) == ["Die KI (greedy)", "Du"]
    text = german["summary"] + german["chart_svg"]
    assert "You" not in text and "The AI" not in text and "Player" not in text


def test_the_chart_speaks_the_language_asked_for(reviews: dict[str, dict[str, Any]]) -> None:
    english, german = reviews["en"]["chart_svg"], reviews["de"]["chart_svg"]
    assert ">ply</text>" in english and ">Halbzug</text>" in german
    assert "chance to win" in english and "Gewinnchance" in german and "chance to win" not in german
    assert re.search(r">50\u00a0%</text>", german) and ">50%</text>" in english
    # the marks' titles (the moves a browser shows) are German too, where the review marked any
    assert all(t.startswith("Halbzug") for t in re.findall(r"<title>([^<]*)</title>", german))


@pytest.mark.parametrize(("code", "yours", "ais", "named_won"), [
    ("de", "Du hast gewonnen, 20 zu 12", "Die KI (greedy) hat gewonnen, 20 zu 12", "Anna hat gewonnen, 20 zu 12"),
    ("fr", "Vous avez gagné, 20 à 12", "L'IA (greedy) a gagné, 20 à 12", "Anna a gagné, 20 à 12"),
    ("ru", "Вы выиграли со счётом 20:12", "ИИ (greedy) выиграл со счётом 20:12", None),
])
def test_who_won_is_one_sentence_per_kind_of_player(code: str, yours: str, ais: str, named_won: str | None) -> None:
    with using(code):
        assert won_words(you(), 20, 12) == yours
        assert won_words(the_ai("greedy"), 20, 12) == ais
        if named_won is not None:
            assert won_words(named("Anna"), 20, 12) == named_won
        title = chart_title(you(), the_ai("greedy"))
    assert "You" not in title and "The AI" not in title and "(greedy)" in title


def test_a_friends_game_refuses_in_the_language_asked_for(client: TestClient) -> None:
    made = client.post("/api/games", json={"opponent": "friend", "seat": 0}).json()
    assert client.post(f"/api/games/{made['id']}/join").status_code == 200
    full = client.post(f"/api/games/{made['id']}/join", params={"lang": "de"})
    assert full.status_code == 409 and full.json()["detail"] == (
        f"beide Plätze der Partie {made['id']} sind besetzt: Du kannst zuschauen")
    early = client.post(f"/api/games/{made['id']}/rematch", params={"lang": "fr"},
                        headers={"Authorization": f"Bearer {made['secret']}"})
    assert early.status_code == 409 and early.json()["detail"] == (
        "la partie n'est pas encore terminée : une revanche vient après")
    english = client.post(f"/api/games/{made['id']}/join")
    assert english.json()["detail"] == f"both seats of game {made['id']} are taken: you can watch it"
