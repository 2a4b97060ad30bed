"""The SQLite game store: moves land whole or not at all, one per ply, and survive reopening."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from patchwork_opt.apps.web.store import GameNotFoundError, GameStore, StaleGameError, StoreError
from patchwork_opt.core.catalogue import legal_placements
from patchwork_opt.core.errors import IllegalMoveError
from patchwork_opt.core.move import ADVANCE, Move
from patchwork_opt.core.state import State


def test_games_and_moves_survive_reopening(tmp_path: Path) -> None:
    db = tmp_path / "sub" / "games.db"
    store = GameStore(db)
    state = State.new(seed=3, leather="classic")
    game = store.create(state, seed=3, ai="greedy", level=2, seat=1)
    pid = state.offers()[0]
    buy = Move.buy(pid, legal_placements(pid, 0)[0])
    store.append(game.id, 0, buy, actor="ai", reason="because")
    store.append(game.id, 1, ADVANCE, actor="human")
    again = GameStore(db).get(game.id)
    assert again.circle == state.circle and again.leather == (20, 26, 32, 44, 50)
    assert (again.ai, again.level, again.seat, again.seed) == ("greedy", 2, 1, 3)
    assert [(m.ply, m.player, m.actor, m.move, m.reason) for m in again.moves] == [
        (0, 0, "ai", buy, "because"),
        (1, 1, "human", ADVANCE, ""),
    ]
    assert again.state() == again.record.replay()


def test_an_illegal_move_or_a_stale_ply_stores_nothing(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.db")
    state = State.new(seed=1)
    game = store.create(state, seed=1, ai="greedy", level=1, seat=0)
    with pytest.raises(IllegalMoveError):
        store.append(game.id, 0, Move("leather", -1, 1), actor="human")
    with pytest.raises(StaleGameError, match="ply 0"):
        store.append(game.id, 1, ADVANCE, actor="human")
    assert store.get(game.id).moves == []
    with pytest.raises(GameNotFoundError):
        store.get("no-such-game-id-here")


def test_racing_writers_for_one_ply_land_exactly_one_move(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.db")
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


def test_truncate_undoes_from_a_ply_when_the_game_is_where_expected(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.db")
    game = store.create(State.new(seed=4), seed=4, ai="greedy", level=1, seat=0)
    for ply in range(3):
        store.append(game.id, ply, ADVANCE, actor="human" if ply % 2 == 0 else "ai")
    with pytest.raises(StaleGameError):
        store.truncate(game.id, 1, expected_ply=2)
    assert len(store.truncate(game.id, 1, expected_ply=3).moves) == 1
    assert len(store.get(game.id).moves) == 1


def test_ids_are_random_and_the_journal_is_durable(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.db")
    ids = {store.create(State.new(seed=0), seed=0, ai="greedy", level=1, seat=0).id for _ in range(50)}
    assert len(ids) == 50 and all(len(i) >= 22 and i.replace("-", "").replace("_", "").isalnum() for i in ids)
    assert store.count() == 50
    with sqlite3.connect(tmp_path / "g.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_file_that_is_not_a_games_database_is_a_one_line_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all")
    with pytest.raises(StoreError, match=r"junk\.sqlite: cannot use it as the games database"):
        GameStore(junk)
    with pytest.raises(StoreError, match="cannot use it"):
        GameStore(tmp_path)  # a directory
