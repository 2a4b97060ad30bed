"""The games store, in SQLite and PostgreSQL alike: moves land whole or not at all, one per ply, and
survive reopening; a database an older version made keeps working."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from web_databases import db_fixture, opened_fixture, pg_url_fixture  # noqa: F401  (fixtures db, opened, pg_url)

from patchwork_opt.apps.web.database import StoreError
from patchwork_opt.apps.web.game_store import GameNotFoundError, GameStore, SqliteGameStore, StaleGameError
from patchwork_opt.apps.web.storage import Stores, open_stores
from patchwork_opt.core.catalogue import legal_placements
from patchwork_opt.core.errors import IllegalMoveError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State


def test_games_and_moves_survive_reopening(db: str, opened: Callable[[str], Stores]) -> None:
    stores = opened(db)
    store = stores.games
    state = State.new(seed=3, leather="classic")
    game = store.create(state, seed=3, ai="greedy", level=2, seat=1)
    pid = state.offers()[0]
    buy = Move.buy(pid, legal_placements(pid, 0)[0])
    store.append(game.id, 0, buy, actor="ai", reason="because")
    store.append(game.id, 1, ADVANCE, actor="human")
    stores.close()
    again = opened(db).games.get(game.id)
    assert again.circle == state.circle and again.leather == (20, 26, 32, 44, 50)
    assert (again.ai, again.level, again.seat, again.seed) == ("greedy", 2, 1, 3)
    assert [(m.ply, m.player, m.actor, m.move, m.reason) for m in again.moves] == [
        (0, 0, "ai", buy, "because"),
        (1, 1, "human", ADVANCE, ""),
    ]
    assert again.state() == again.record.replay()


def test_an_illegal_move_or_a_stale_ply_stores_nothing(db: str, opened: Callable[[str], Stores]) -> None:
    store = opened(db).games
    state = State.new(seed=1)
    game = store.create(state, seed=1, ai="greedy", level=1, seat=0)
    with pytest.raises(IllegalMoveError):
        store.append(game.id, 0, Move("leather", -1, 1), actor="human")
    with pytest.raises(StaleGameError, match="ply 0"):
        store.append(game.id, 1, ADVANCE, actor="human")
    assert store.get(game.id).moves == []
    with pytest.raises(GameNotFoundError):
        store.get("no-such-game-id-here")


def test_racing_writers_for_one_ply_land_exactly_one_move(db: str, opened: Callable[[str], Stores]) -> None:
    store = opened(db).games
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
    db: str, opened: Callable[[str], Stores]
) -> None:
    store = opened(db).games
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
        open_stores("postgresql://who:secret@127.0.0.1:1/nothing?connect_timeout=2")


def test_two_servers_on_one_postgres_database_share_games_and_refuse_stale_moves(
    pg_url: str, opened: Callable[[str], Stores]
) -> None:
    """What two ``serve`` processes behind a load balancer see: one store each, one database."""
    first, second = opened(pg_url).games, opened(pg_url).games  # closed by the fixture
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
