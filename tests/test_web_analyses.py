"""The analysis cache of the service: an analysis made for a hint, an AI move or a review is reused by
the others when at least as deep, by every server on the database; it is bounded, oldest out."""

from __future__ import annotations

import itertools
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from web_databases import db_fixture, opened_fixture, pg_url_fixture  # noqa: F401  (fixtures db, opened, pg_url)

from patchwork_opt.ai.analysis.position import analyse_position
from patchwork_opt.ai.base import AnalysedMove, SearchedPosition
from patchwork_opt.apps.web.analyses import AnalysisBot, analysis_from_json, analysis_to_json
from patchwork_opt.apps.web.app import create_app
from patchwork_opt.apps.web.services import Limits, Services
from patchwork_opt.apps.web.solver_services import web_services
from patchwork_opt.apps.web.storage import Stores
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import to_notation

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"
FAST = 0.05  # seconds of analysis: enough for figures, quick for tests


class Counting:
    """``Services.analyse`` that counts each analysis it makes (what the cache did not answer)."""

    def __init__(self, real: Callable[..., SearchedPosition]) -> None:
        self.real = real
        self.calls: list[tuple[str, float]] = []
        self.lock = threading.Lock()

    def __call__(self, state: State, budget: ThinkBudget, extra: Sequence[Move], stop: StopSignal) -> SearchedPosition:
        with self.lock:
            self.calls.append((to_notation(state), budget.seconds))
        return self.real(state, budget, extra, stop)


@pytest.fixture(scope="module")
def base_services() -> Services:
    built: Services = web_services(max_ai_seconds=FAST)
    return built


def counted(services: Services) -> tuple[Services, Counting]:
    assert services.analyse is not None
    counting = Counting(services.analyse)
    return replace(services, analyse=counting), counting


def test_an_analysis_reads_back_as_it_was_made() -> None:
    state = State.new(seed=3)
    state.apply(ADVANCE)
    made = analyse_position(state, iterations=300, seed=0)
    again = analysis_from_json(analysis_to_json(made))
    assert again is not None
    assert (again.player, again.quilt) == (made.player, made.quilt)
    assert again.seconds == pytest.approx(made.seconds)
    assert [m.move for m in again.moves] == [m.move for m in made.moves]
    for old, new in zip(made.moves, again.moves, strict=True):
        assert (new.win, new.margin, new.visits, new.exact) == (old.win, old.margin, old.visits, old.exact)
        assert new.searched == old.searched
        assert new.line == old.line[: len(new.line)] and new.line[0] == old.move
    assert any(m.searched is not None for m in again.moves)  # the search's own chances, before the map
    for junk in ("", "{}", "[]", '{"v": 999, "moves": []}', '{"v": 1, "player": 0, "moves": [["Q@99"]]}'):
        assert analysis_from_json(junk) is None  # another format: a miss, never an error


def test_a_move_proven_won_reads_back_proven() -> None:
    """A move an unfinished exact search proved to win (a floor on its margin) stays proven from the
    cache: a review from the cache labels it as the fresh analysis did (a teaching game's verdict)."""
    from patchwork_opt.ai.search.exact import won_move

    state = State.new(seed=3)
    best, other = list(state.legal_moves())[:2]
    made = SearchedPosition.of(state, [replace(won_move(best, 4), margin=2.5, visits=30),
                                       AnalysedMove(other, 0.4, -1.0, 30, False, (other,))])
    again = analysis_from_json(analysis_to_json(made))
    assert again is not None
    assert [m.floor for m in again.moves] == [m.floor for m in made.moves] and again.moves[0].floor is not None
    assert [m.outcome_proven for m in again.moves] == [True, False]


def test_the_store_answers_with_an_analysis_at_least_as_deep_and_forgets_the_oldest(
    db: str, opened: Callable[..., Stores]
) -> None:
    from patchwork_opt.apps.web.analysis_store import SqlAnalysisStore

    store = SqlAnalysisStore(opened(db).database, max_analyses=3)
    store.keep_analysis("p", 0.5, False, "half")
    store.keep_analysis("p", 1.0, False, "one")
    store.keep_analysis("p", 1.0, False, "again")  # one per position and budget: the first stays
    assert store.cached_analysis("p", 0.2) == "one"  # the deepest of those deep enough
    assert store.cached_analysis("p", 0.5) == "one" and store.cached_analysis("p", 1.0) == "one"
    assert store.cached_analysis("p", 2.0) is None  # nothing that deep
    assert store.cached_analysis("q", 0.1) is None
    store.keep_analysis("q", 0.1, True, "exact")
    assert store.cached_analysis("q", 60.0) == "exact"  # an exhaustive search answers any budget
    store.keep_analysis("r", 0.1, False, "newest")
    assert store.analysis_count() == 3
    assert store.cached_analysis("p", 0.5) == "one" and store.cached_analysis("p", 0.4) == "one"
    assert store.cached_analysis("p", 0.1) == "one"  # "half", the oldest, was deleted...
    store.keep_analysis("s", 0.1, False, "later")
    assert store.cached_analysis("p", 0.1) is None  # ...and now "one" too
    assert store.analysis_count() == 3


def _game_at_human_turn(c: TestClient, seed: int) -> dict[str, Any]:
    game: dict[str, Any] = c.post("/api/games", json={"seed": seed, "ai": "greedy", "level": 1}).json()
    game = c.post(f"/api/games/{game['id']}/moves", json={"ply": 0, "move": {"type": "advance"}}).json()
    while game["ai_to_move"]:
        game = c.post(f"/api/games/{game['id']}/ai-move", json={"ply": game["ply"]}).json()
    return game


def test_two_servers_on_one_postgres_database_share_their_analyses(pg_url: str, base_services: Services) -> None:
    """Behind a load balancer: the second hint for a position, asked of the other server, is answered
    from the cache the first one filled."""
    services, counting = counted(base_services)
    limits = Limits(game_hint_seconds=FAST)
    with (
        TestClient(create_app(pg_url, services, limits), base_url=LOCAL) as one,
        TestClient(create_app(pg_url, services, limits), base_url=LOCAL) as two,
    ):
        game = _game_at_human_turn(one, seed=12)
        first = one.get(f"/api/games/{game['id']}/hint")
        assert first.status_code == 200, first.text
        assert counting.calls == [(game["state"]["position"], FAST)]
        second = two.get(f"/api/games/{game['id']}/hint")
        assert second.status_code == 200, second.text
        assert len(counting.calls) == 1  # answered from the shared cache
        assert second.json() == first.json()  # the same analysis, not a second search
        assert one.get("/api/health").json()["analyses"] == {"made": 1, "reused": 0}
        assert two.get("/api/health").json()["analyses"] == {"made": 0, "reused": 1}
        # a deeper hint than anything cached is a new analysis
        deeper = TestClient(create_app(pg_url, services, Limits(game_hint_seconds=2 * FAST)), base_url=LOCAL)
        with deeper:
            assert deeper.get(f"/api/games/{game['id']}/hint").status_code == 200
        assert counting.calls[1:] == [(game["state"]["position"], 2 * FAST)]


def test_a_review_reuses_what_hints_and_the_ai_analysed(tmp_path: Path, base_services: Services) -> None:
    """The human asks a hint before each move and plays it, the solver AI (level 3: its best play)
    answers from the analysis: the review of the game then analyses nothing again."""
    services, counting = counted(base_services)
    limits = Limits(game_hint_seconds=FAST, max_ai_seconds=FAST)
    with TestClient(create_app(tmp_path / "g.db", services, limits), base_url=LOCAL) as c:
        game = c.post("/api/games", json={"seed": 4, "ai": "solver", "level": 3}).json()
        url = f"/api/games/{game['id']}"
        while game["ply"] < 12 and not game["state"]["over"]:
            if game["ai_to_move"]:
                game = c.post(f"{url}/ai-move", json={"ply": game["ply"]}).json()
                assert game["moves"][-1]["reason"], game
                continue
            best = c.get(f"{url}/hint").json()["hints"][0]
            game = c.post(f"{url}/moves", json={"ply": game["ply"], "move": best["line"][0]}).json()
        analysed = {position for position, _ in counting.calls}
        assert len(analysed) == len(counting.calls) == game["ply"]  # each position once
        before = len(counting.calls)
        review = c.get(f"{url}/review", params={"time_per_move": FAST / 2})
        assert review.status_code == 200, review.text
        positions = game["ply"] + 1
        assert len(counting.calls) == before + 1  # only the position now, which nobody analysed yet
        assert len(review.json()["plies"]) == game["ply"] and positions == len(analysed) + 1
        # asking for more than anything cached analyses every position again
        deeper = c.get(f"{url}/review", params={"time_per_move": 2 * FAST})
        assert deeper.status_code == 200 and len(counting.calls) == before + 1 + positions


def test_a_hint_and_the_review_speak_with_one_voice(tmp_path: Path, base_services: Services) -> None:
    """The person plays a hinted move each turn (the first, or now and then the second), and the
    review at the page's default depth (the hints' budget) reads the same analyses: the hint's first
    move is the review's best, never flagged, each move played is named as the hint named it, and the
    review's figures chain from ply to ply."""
    limits = Limits(game_hint_seconds=FAST, max_ai_seconds=FAST)
    with TestClient(create_app(tmp_path / "g.db", base_services, limits), base_url=LOCAL) as c:
        game = c.post("/api/games", json={"seed": 6, "ai": "solver", "level": 2}).json()
        url = f"/api/games/{game['id']}"
        shown: dict[int, tuple[dict[str, Any], bool]] = {}  # ply -> (the hint of the move played, first?)
        while game["ply"] < 14 and not game["state"]["over"]:
            if game["ai_to_move"]:
                game = c.post(f"{url}/ai-move", json={"ply": game["ply"]}).json()
                continue
            hints = c.get(f"{url}/hint").json()["hints"]
            assert len({h["words"] for h in hints}) == len(hints)  # no two hinted moves read the same
            first = game["ply"] % 3 != 2 or len(hints) == 1
            chosen = hints[0] if first else hints[1]
            shown[game["ply"]] = (chosen, first)
            game = c.post(f"{url}/moves", json={"ply": game["ply"], "move": chosen["line"][0]}).json()
            assert game["moves"][-1]["words"] == chosen["words"] == chosen["line_words"][0]
        review = c.get(f"{url}/review", params={"time_per_move": FAST})
        assert review.status_code == 200, review.text
        plies = {p["ply"]: p for p in review.json()["plies"]}
        assert any(not first for _, first in shown.values())
        for ply, (hint, first) in shown.items():
            p = plies[ply]
            assert p["played_words"] == p["played_text"] == hint["words"]
            if first:  # the hint's first move is the review's best, shown with no loss
                assert p["label"] == "best" and p["best"] == p["played"], (p, hint)
                assert p["win_before"] == p["win_after"] and p["loss"] == p["points_lost"] == 0.0
        # the figures chain: one figure per position, the hint's estimate of a move giving way to the
        # figure of the position it led to
        listed = review.json()["plies"]
        for earlier, later in itertools.pairwise(listed):
            after = earlier["win_after"] if earlier["player"] == 0 else 1 - earlier["win_after"]
            before = later["win_before"] if later["player"] == 0 else 1 - later["win_before"]
            assert abs(after - before) <= 1e-3


def test_the_analysis_bot_plays_the_best_move_of_the_cached_analysis() -> None:
    start = State.new(seed=8)
    analysis = analyse_position(start, iterations=300, seed=0)
    asked: list[ThinkBudget] = []

    def analysis_of(state: State, budget: ThinkBudget, extra: Sequence[Move] = ()) -> SearchedPosition:
        asked.append(budget)
        return analysis

    decision = AnalysisBot(analysis_of, ThinkBudget(0.7)).decide(start)
    assert decision.move == analysis.best.move and asked == [ThinkBudget(0.7)]
    assert decision.expected == analysis.best.win and decision.stats["margin"] == analysis.best.margin
    assert "simulations" in decision.reason


def test_a_stopped_analysis_is_not_kept(tmp_path: Path, base_services: Services) -> None:
    """An analysis cut short (its client went away) is shallower than its budget says."""
    from patchwork_opt.apps.web.analyses import AnalysisCache
    from patchwork_opt.apps.web.analysis_store import SqlAnalysisStore
    from patchwork_opt.apps.web.database import SqliteDatabase

    store = SqlAnalysisStore(SqliteDatabase(tmp_path / "g.db"))
    cache = AnalysisCache(store, base_services.analyse)
    stop = StopSignal()
    stop.set()
    state = State.new(seed=2)
    cache.analysis(state, ThinkBudget(FAST), stop)
    assert store.analysis_count() == 0
    cache.analysis(state, ThinkBudget(FAST), StopSignal())
    assert store.analysis_count() == 1 and cache.stats() == {"made": 2, "reused": 0}
    cache.analysis(state, ThinkBudget(FAST / 2), StopSignal())
    assert cache.stats() == {"made": 2, "reused": 1}
