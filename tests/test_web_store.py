"""The SQLite game store: moves land whole or not at all, one per ply, and survive reopening."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from web_databases import db_fixture, opened_fixture, pg_url_fixture  # noqa: F401  (fixtures db, opened, pg_url)

from patchwork_opt.apps.web.databases import open_store
from patchwork_opt.apps.web.store import (
    RETRY_AFTER,
    GameNotFoundError,
    GameStore,
    SqliteGameStore,
    StaleGameError,
    StoreError,
    VisitorNotFoundError,
)
from patchwork_opt.core.catalogue import legal_placements
from patchwork_opt.core.errors import IllegalMoveError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State
from patchwork_opt.puzzles.glicko import Rating, rate_answer


def test_games_and_moves_survive_reopening(db: str, opened: Callable[[str], GameStore]) -> None:
    store = opened(db)
    state = State.new(seed=3, leather="classic")
    game = store.create(state, seed=3, ai="greedy", level=2, seat=1)
    pid = state.offers()[0]
    buy = Move.buy(pid, legal_placements(pid, 0)[0])
    store.append(game.id, 0, buy, actor="ai", reason="because")
    store.append(game.id, 1, ADVANCE, actor="human")
    store.close()
    again = opened(db).get(game.id)
    assert again.circle == state.circle and again.leather == (20, 26, 32, 44, 50)
    assert (again.ai, again.level, again.seat, again.seed) == ("greedy", 2, 1, 3)
    assert [(m.ply, m.player, m.actor, m.move, m.reason) for m in again.moves] == [
        (0, 0, "ai", buy, "because"),
        (1, 1, "human", ADVANCE, ""),
    ]
    assert again.state() == again.record.replay()


def test_an_illegal_move_or_a_stale_ply_stores_nothing(db: str, opened: Callable[[str], GameStore]) -> None:
    store = opened(db)
    state = State.new(seed=1)
    game = store.create(state, seed=1, ai="greedy", level=1, seat=0)
    with pytest.raises(IllegalMoveError):
        store.append(game.id, 0, Move("leather", -1, 1), actor="human")
    with pytest.raises(StaleGameError, match="ply 0"):
        store.append(game.id, 1, ADVANCE, actor="human")
    assert store.get(game.id).moves == []
    with pytest.raises(GameNotFoundError):
        store.get("no-such-game-id-here")


def test_racing_writers_for_one_ply_land_exactly_one_move(db: str, opened: Callable[[str], GameStore]) -> None:
    store = opened(db)
    game = store.create(State.new(seed=2), seed=2, ai="greedy", level=1, seat=0)
    outcomes: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(6)

    def writer() -> None:
        start.wait()
        try:
            store.append(game.id, 0, ADVANCE, actor="human")
            result = "stored"
        except StaleGameError:
            result = "stale"
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=writer) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["stale"] * 5 + ["stored"]
    assert len(store.get(game.id).moves) == 1


def test_truncate_undoes_from_a_ply_when_the_game_is_where_expected(
    db: str, opened: Callable[[str], GameStore]
) -> None:
    store = opened(db)
    game = store.create(State.new(seed=4), seed=4, ai="greedy", level=1, seat=0)
    for ply in range(3):
        store.append(game.id, ply, ADVANCE, actor="human" if ply % 2 == 0 else "ai")
    with pytest.raises(StaleGameError):
        store.truncate(game.id, 1, expected_ply=2)
    assert len(store.truncate(game.id, 1, expected_ply=3).moves) == 1
    assert len(store.get(game.id).moves) == 1


def test_ids_are_random_and_the_journal_is_durable(tmp_path: Path) -> None:
    store = SqliteGameStore(tmp_path / "g.db")
    ids = {store.create(State.new(seed=0), seed=0, ai="greedy", level=1, seat=0).id for _ in range(50)}
    assert len(ids) == 50 and all(len(i) >= 22 and i.replace("-", "").replace("_", "").isalnum() for i in ids)
    assert store.count() == 50
    with sqlite3.connect(tmp_path / "g.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_file_that_is_not_a_games_database_is_a_one_line_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all")
    with pytest.raises(StoreError, match=r"junk\.sqlite: cannot use it as the games database"):
        SqliteGameStore(junk)
    with pytest.raises(StoreError, match="cannot use it"):
        SqliteGameStore(tmp_path)  # a directory


def test_a_sqlite_file_from_before_expiry_gets_its_touched_column(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(
            "CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, seed INTEGER, circle TEXT NOT NULL,"
            " leather TEXT NOT NULL, ai TEXT NOT NULL, level INTEGER NOT NULL, seat INTEGER NOT NULL);"
            "INSERT INTO games VALUES ('abcdefghijklmnopqrstuv', 100.0, 1, '[0]', '[]', 'greedy', 1, 0);"
        )
    store = SqliteGameStore(path)
    assert store.count() == 1 and store.purge_idle(10, now=105.0) == 0 and store.purge_idle(10, now=111.0) == 1


def test_an_unreachable_postgres_server_is_a_one_line_error() -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(StoreError, match=r"postgresql://who:\*\*\*@127\.0\.0\.1:1/nothing\S*: cannot connect"):
        open_store("postgresql://who:secret@127.0.0.1:1/nothing?connect_timeout=2")


def test_two_servers_on_one_postgres_database_share_games_and_refuse_stale_moves(
    pg_url: str, opened: Callable[[str], GameStore]
) -> None:
    """What two ``serve`` processes behind a load balancer see: one store each, one database."""
    first, second = opened(pg_url), opened(pg_url)
    try:
        game = first.create(State.new(seed=6), seed=6, ai="greedy", level=1, seat=0)
        second.append(game.id, 0, ADVANCE, actor="human")
        with pytest.raises(StaleGameError, match="ply 1"):
            first.append(game.id, 0, ADVANCE, actor="human")
        assert len(first.get(game.id).moves) == 1
        outcomes: list[str] = []
        start = threading.Barrier(4)

        def writer(store: GameStore) -> None:
            start.wait()
            try:
                store.append(game.id, 1, ADVANCE, actor="ai")
                outcomes.append("stored")
            except StaleGameError:
                outcomes.append("stale")

        threads = [threading.Thread(target=writer, args=(s,)) for s in (first, second, first, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(outcomes) == ["stale"] * 3 + ["stored"]
        assert [m.ply for m in second.get(game.id).moves] == [0, 1]
    finally:
        first.close()
        second.close()


def test_a_missed_puzzle_is_due_again_after_three_answers_until_answered_right(
    db: str, opened: Callable[[str], GameStore]
) -> None:
    store = opened(db)
    me = "m" * 22
    store.new_visitor(me, Rating())
    start = Rating(1300, 250)
    missed = store.rate_answer(me, "f000000000001", False, start, rate_answer)
    assert missed.rated and missed.again and store.due_retries(me) == []
    for i in range(RETRY_AFTER - 1):
        store.rate_answer(me, f"f00000000010{i}", True, start, rate_answer)
        assert store.due_retries(me) == []
    store.rate_answer(me, "f000000000200", False, start, rate_answer)  # the third answer: a miss of its own
    assert store.due_retries(me) == ["f000000000001"]
    rating = store.visitor_rating(me)
    again = store.rate_answer(me, "f000000000001", False, start, rate_answer)  # wrong again: later again
    assert not again.rated and again.again and again.visitor == rating == store.visitor_rating(me)
    assert store.due_retries(me) == []
    for i in range(RETRY_AFTER):
        store.rate_answer(me, f"f00000000030{i}", True, start, rate_answer)
    assert store.due_retries(me) == ["f000000000200", "f000000000001"]  # due longest first
    right = store.rate_answer(me, "f000000000001", True, start, rate_answer)
    assert not right.rated and not right.again and store.due_retries(me) == ["f000000000200"]
    assert store.visitor_stats(me).answers == 2 * RETRY_AFTER + 1  # rated answers: first ones only


def test_a_streak_grows_by_right_first_answers_and_a_miss_ends_it(db: str, opened: Callable[[str], GameStore]) -> None:
    store = opened(db)
    me = "s" * 22
    store.new_visitor(me, Rating())
    assert (store.visitor_stats(me).streak, store.visitor_stats(me).best_streak) == (0, 0)
    start = Rating(1100, 250)
    for i in range(3):
        done = store.rate_answer(me, f"e00000000000{i}", True, start, rate_answer, streak=True)
        assert (done.streak, done.best_streak) == (i + 1, i + 1)
    assert store.rate_answer(me, "e000000000000", True, start, rate_answer, streak=True).streak == 3  # a repeat
    assert store.rate_answer(me, "e000000000009", False, start, rate_answer).streak == 3  # not in streak mode
    ended = store.rate_answer(me, "e000000000008", False, start, rate_answer, streak=True)
    assert (ended.streak, ended.best_streak) == (0, 3)
    store.rate_answer(me, "e000000000007", True, start, rate_answer, streak=True)
    stats = store.visitor_stats(me)
    assert (stats.streak, stats.best_streak, stats.answers) == (1, 3, 6)
    with pytest.raises(VisitorNotFoundError):
        store.visitor_stats("n" * 22)


def test_a_sqlite_file_from_before_the_habits_gets_their_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = SqliteGameStore(path)
    old.new_visitor("o" * 22, Rating())
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE puzzle_retries")
        conn.execute("DROP TABLE visitor_progress")
    store = open_store(str(path))
    assert store.visitor_stats("o" * 22).streak == 0
    store.rate_answer("o" * 22, "f000000000001", False, Rating(), rate_answer)
    assert store.due_retries("o" * 22) == []
