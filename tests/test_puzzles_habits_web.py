"""Puzzle playing habits through the API (fill puzzles: judged at once): the difficulty that follows
the visitor, missed puzzles that come back until answered right, the streak, the daily puzzle and
the theme filter."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from web_databases import db_fixture, pg_url_fixture  # noqa: F401  (fixtures db, pg_url)

from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import Services
from patchwork_opt.puzzles.bank import Bank, shipped_bank
from patchwork_opt.puzzles.kinds import THEME_WORDS
from patchwork_opt.puzzles.kinds.endgame import ENDGAME_THEMES
from patchwork_opt.puzzles.kinds.fill import FILL_THEMES, FillPuzzle
from patchwork_opt.puzzles.model import placements_json
from patchwork_opt.puzzles.selection import NEWCOMER_ANSWERS, daily_puzzle
from patchwork_opt.puzzles.stores import RETRY_AFTER

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"
BANK = shipped_bank()


#: The shipped bank with its endgames' "leather" tag taken off: a theme no puzzle of the server carries.
THEMED = Bank({"endgame": tuple(dataclasses.replace(p, themes=tuple(t for t in p.themes if t != "leather"))
                                for p in BANK.puzzles["endgame"]),
               "fill": BANK.puzzles["fill"]})


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    app = create_app(db, Services())
    app.state.puzzle_bank = THEMED
    with TestClient(base_url=LOCAL, app=app) as c:
        yield c


def ask(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/puzzles", json={"kind": "fill", **body})
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


def reply(client: TestClient, puzzle_id: str, right: bool, visitor: str | None = None, **extra: Any) -> dict[str, Any]:
    """Answer a fill puzzle with its proven optimum (right) or with nothing placed (wrong)."""
    puzzle = THEMED.find(puzzle_id)
    assert isinstance(puzzle, FillPuzzle)
    body: dict[str, Any] = {"placements": placements_json(puzzle.best) if right else [], **extra}
    if visitor is not None:
        body["visitor"] = visitor
    answer = client.post(f"/api/puzzles/{puzzle_id}/answer", json=body)
    assert answer.status_code == 200, answer.text
    verdict: dict[str, Any] = answer.json()
    assert verdict["correct"] is right
    return verdict


def test_a_newcomer_starts_at_difficulty_1_or_2_and_climbs_with_their_rating(client: TestClient) -> None:
    first = ask(client)
    assert first["difficulty"] == 1 and first["visitor"] is None  # nobody known: the easiest
    visitor = reply(client, first["id"], True)["visitor"]["id"]
    served = []
    for _ in range(10):
        view = ask(client, visitor=visitor)
        served.append(view["difficulty"])
        reply(client, view["id"], True, visitor)
    assert all(d <= 2 for d in served[:NEWCOMER_ANSWERS - 1]), served
    assert served[-1] >= 3 and served == sorted(served), served  # it climbs as the rating does
    # a named difficulty is served as asked
    assert ask(client, visitor=visitor, difficulty=1)["difficulty"] == 1
    # one who misses everything stays at the easiest
    weak = reply(client, ask(client)["id"], False)["visitor"]["id"]
    for _ in range(NEWCOMER_ANSWERS + 1):
        view = ask(client, visitor=weak)
        if not view["retry"]:
            assert view["difficulty"] == 1
        reply(client, view["id"], False, weak)


def test_a_missed_puzzle_comes_back_after_three_answers_until_answered_right(client: TestClient) -> None:
    missed = ask(client)
    first = reply(client, missed["id"], False)
    visitor, rating = first["visitor"]["id"], first["visitor"]["rating"]
    assert first["rated"] and first["again"] and not missed["retry"]
    for rounds in range(2):
        for _ in range(RETRY_AFTER):
            other = ask(client, visitor=visitor)
            assert other["id"] != missed["id"] and not other["retry"]
            rating = reply(client, other["id"], True, visitor)["visitor"]["rating"]
        back = ask(client, visitor=visitor)
        assert back["id"] == missed["id"] and back["retry"]
        again = reply(client, back["id"], rounds == 1, visitor)
        assert not again["rated"] and again["visitor"]["rating"] == rating  # only the first answer counts
        assert again["again"] is (rounds == 0)
    # answered right: it does not come back
    for _ in range(RETRY_AFTER + 2):
        view = ask(client, visitor=visitor)
        assert view["id"] != missed["id"] and not view["retry"]
        reply(client, view["id"], True, visitor)


def test_a_retry_comes_back_only_for_its_kind_and_theme(client: TestClient) -> None:
    missed = ask(client, theme="7x7")
    visitor = reply(client, missed["id"], False)["visitor"]["id"]
    for _ in range(RETRY_AFTER):
        reply(client, ask(client, visitor=visitor, theme="points")["id"], True, visitor)
    assert not ask(client, visitor=visitor, theme="points")["retry"]  # due, but not of that theme
    assert client.post("/api/puzzles", json={"kind": "endgame", "visitor": visitor}).json()["retry"] is False
    assert ask(client, visitor=visitor)["id"] == missed["id"]


def test_a_new_puzzle_is_another_than_the_one_on_screen_while_another_fits(client: TestClient) -> None:
    easy = [p.id for p in THEMED.of("fill", 1, None)]
    assert len(easy) >= 2  # the shipped bank has several easy fills: another always fits
    shown = ask(client, streak=True)["id"]  # a streak starts at difficulty 1
    for _ in range(12):  # the bank's choice is random: unanswered, the one on screen could come again
        other = ask(client, streak=True, instead_of=shown)
        assert other["id"] != shown and other["id"] in easy
        shown = other["id"]
    # a missed puzzle that is due comes back, but not while it is the one on screen
    missed = ask(client)
    visitor = reply(client, missed["id"], False)["visitor"]["id"]
    for _ in range(RETRY_AFTER):
        reply(client, ask(client, visitor=visitor, instead_of=missed["id"])["id"], True, visitor)
    assert not ask(client, visitor=visitor, instead_of=missed["id"])["retry"]
    assert ask(client, visitor=visitor)["id"] == missed["id"]
    refused = client.post("/api/puzzles", json={"kind": "fill", "instead_of": "not an id"})
    assert refused.status_code == 422 and refused.json()["detail"].startswith("body.instead_of: ")


def test_a_streak_climbs_in_difficulty_until_the_first_miss(client: TestClient) -> None:
    view = ask(client, streak=True)
    assert view["difficulty"] == 1
    verdict = reply(client, view["id"], True, streak=True)
    visitor = verdict["visitor"]["id"]
    assert (verdict["visitor"]["streak"], verdict["visitor"]["best_streak"]) == (1, 1)
    served = [view["difficulty"]]
    for length in range(2, 8):
        view = ask(client, visitor=visitor, streak=True, difficulty=5)  # the streak, not the request, says
        served.append(view["difficulty"])
        assert view["visitor"]["streak"] == length - 1 and not view["retry"]
        assert reply(client, view["id"], True, visitor, streak=True)["visitor"]["streak"] == length
    assert served == [1, 1, 2, 2, 3, 3, 4]
    # an answer outside streak mode leaves the streak alone, a repeat answer does not lengthen it
    outside = ask(client, visitor=visitor)
    assert reply(client, outside["id"], False, visitor)["visitor"]["streak"] == 7
    assert reply(client, view["id"], True, visitor, streak=True)["visitor"]["streak"] == 7
    # the first miss ends it; the best stays, and the difficulty starts over
    miss = ask(client, visitor=visitor, streak=True)
    ended = reply(client, miss["id"], False, visitor, streak=True)["visitor"]
    assert (ended["streak"], ended["best_streak"]) == (0, 7)
    again = ask(client, visitor=visitor, streak=True)
    assert again["difficulty"] == 1 and again["visitor"]["best_streak"] == 7


def test_the_daily_puzzle_is_the_same_for_everyone_all_day(client: TestClient) -> None:
    one, two = client.get("/api/puzzles/daily").json(), client.get("/api/puzzles/daily").json()
    today = datetime.now(UTC).date()
    if one["daily"] != two["daily"]:  # midnight passed between the two
        one = two
        today = date.fromisoformat(two["daily"])
    assert one["daily"] == today.isoformat() and one["id"] == daily_puzzle(THEMED, today).id
    assert client.get(f"/api/puzzles/{one['id']}").json()["daily"] is None  # by id it is any puzzle
    # the bank's order does not matter; the date does
    shuffled = Bank({kind: tuple(reversed(ps)) for kind, ps in THEMED.puzzles.items()})
    days = [today + timedelta(days=n) for n in range(30)]
    assert [daily_puzzle(shuffled, d).id for d in days] == [daily_puzzle(THEMED, d).id for d in days]
    assert len({daily_puzzle(THEMED, d).id for d in days}) > 20


def test_the_theme_filter_serves_that_theme_and_names_a_wrong_one(client: TestClient) -> None:
    themes = client.get("/api/puzzles/themes").json()["kinds"]
    assert list(themes) == ["endgame", "fill"]  # the kinds a new puzzle may be of, in the page's order
    assert [t["theme"] for t in themes["fill"]] == ["budget", "7x7", "points"]
    assert all(t["words"] == THEME_WORDS[t["theme"]] for kind in ("endgame", "fill") for t in themes[kind])
    assert [t["puzzles"] for t in themes["fill"]] == [len(THEMED.of("fill", theme=t)) for t in FILL_THEMES]
    assert [t["puzzles"] for t in themes["endgame"]] == [len(THEMED.of("endgame", theme=t)) for t in ENDGAME_THEMES]
    assert all(t["puzzles"] > 0 for t in themes["fill"])
    assert [t["theme"] for t in themes["endgame"] if t["puzzles"] == 0] == ["leather"]
    for theme in ("budget", "7x7", "points"):
        for _ in range(3):
            view = ask(client, theme=theme)
            assert theme in [t["theme"] for t in view["themes"]]
            assert {t["words"] for t in view["themes"]} == {THEME_WORDS[t["theme"]] for t in view["themes"]}
    unknown = client.post("/api/puzzles", json={"kind": "fill", "theme": "knights"})
    assert unknown.status_code == 422 and "'knights'" in unknown.json()["detail"]
    other_kind = client.post("/api/puzzles", json={"kind": "endgame", "theme": "budget"})
    assert other_kind.status_code == 422 and "'budget' is no endgame theme" in other_kind.json()["detail"]
    for theme in ("placement", "tie-break"):
        view = client.post("/api/puzzles", json={"kind": "endgame", "theme": theme}).json()
        assert theme in [t["theme"] for t in view["themes"]]
    none_tagged = client.post("/api/puzzles", json={"kind": "endgame", "theme": "leather"})
    assert none_tagged.status_code == 404 and "theme 'leather'" in none_tagged.json()["detail"]
