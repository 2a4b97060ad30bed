"""The puzzle store and the visitor store, in SQLite and PostgreSQL alike: puzzles made on demand kept
by id, ratings moved by first answers only, missed puzzles that come back, streaks; and a database an
older version made (one ``GameStore`` of every concern, the kinds checked by the table) opened by
today's stores with nothing lost."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from web_databases import db_fixture, opened_fixture, pg_url_fixture  # noqa: F401  (fixtures db, opened, pg_url)

from patchwork_opt.apps.web.database import SqliteDatabase
from patchwork_opt.apps.web.storage import Stores, open_stores
from patchwork_opt.apps.web.visitor_store import SqlVisitorStore
from patchwork_opt.puzzles.bank import shipped_bank
from patchwork_opt.puzzles.glicko import Rating, rate_answer
from patchwork_opt.puzzles.stores import RETRY_AFTER, VisitorNotFoundError

FILLS = [p.id for p in shipped_bank().puzzles["fill"][:6]]


def test_a_puzzle_made_on_demand_is_kept_once_by_its_id(db: str, opened: Callable[[str], Stores]) -> None:
    store = opened(db).puzzles
    assert store.stored_puzzle("e000000000001") is None
    store.keep_puzzle("e000000000001", "endgame", '{"first": 1}')
    store.keep_puzzle("e000000000001", "endgame", '{"second": 2}')  # the first kept under an id stays
    assert store.stored_puzzle("e000000000001") == '{"first": 1}'
    store.keep_puzzle("x000000000001", "a-kind-of-tomorrow", "{}")  # any kind of the registry: no list in SQL
    assert opened(db).puzzles.stored_puzzle("x000000000001") == "{}"  # another server, the same database


def test_a_missed_puzzle_is_due_again_after_three_answers_until_answered_right(
    db: str, opened: Callable[[str], Stores]
) -> None:
    store = opened(db).visitors
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


def test_an_unrated_answer_moves_no_rating_but_keeps_the_habits(db: str, opened: Callable[[str], Stores]) -> None:
    """An exercise of one's own game is not rated: the answer counts for the retry queue and the
    streak, never for either rating."""
    store = opened(db).visitors
    me = "u" * 22
    store.new_visitor(me, Rating())
    start = Rating(1300, 250)
    missed = store.rate_answer(me, "x000000000001", False, start, rate_answer, rated=False, streak=True)
    assert not missed.rated and missed.again and missed.visitor == Rating() and missed.puzzle == start
    assert store.visitor_stats(me).answers == 0 and store.answered(me) == {"x000000000001"}
    for i in range(RETRY_AFTER):
        store.rate_answer(me, f"x00000000010{i}", True, start, rate_answer, rated=False, streak=True)
    assert store.due_retries(me) == ["x000000000001"]  # back in the retry queue like any other
    assert store.visitor_stats(me).streak == RETRY_AFTER  # right first answers lengthen the streak
    solved = store.rate_answer(me, "x000000000001", True, start, rate_answer, rated=False)
    assert not solved.again and store.due_retries(me) == [] and store.visitor_rating(me) == Rating()


def test_a_streak_grows_by_right_first_answers_and_a_miss_ends_it(db: str, opened: Callable[[str], Stores]) -> None:
    store = opened(db).visitors
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


def test_concurrent_answers_of_one_visitor_lose_no_update(db: str, opened: Callable[[str], Stores]) -> None:
    store = opened(db).visitors
    store.new_visitor("v" * 22, Rating())

    def answer_one(puzzle_id: str) -> None:
        store.rate_answer("v" * 22, puzzle_id, True, Rating(1500, 250), rate_answer)

    threads = [threading.Thread(target=answer_one, args=(pid,)) for pid in FILLS]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expected = Rating()
    for _ in FILLS:
        expected = rate_answer(expected, Rating(1500, 250), True)[0]
    assert store.visitor_rating("v" * 22).rating == pytest.approx(expected.rating)
    assert store.answered("v" * 22) == set(FILLS)


def test_a_sqlite_file_from_before_the_habits_gets_their_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    SqlVisitorStore(SqliteDatabase(path)).new_visitor("o" * 22, Rating())
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE puzzle_retries")
        conn.execute("DROP TABLE visitor_progress")
    store = open_stores(str(path)).visitors
    assert store.visitor_stats("o" * 22).streak == 0
    store.rate_answer("o" * 22, "f000000000001", False, Rating(), rate_answer)
    assert store.due_retries("o" * 22) == []


#: The tables of the one ``GameStore`` before the stores were split by concern (bd5489f), in SQLite;
#: its ``puzzles`` table allowed two kinds only.
OLD_SQLITE = """
CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, touched REAL, seed INTEGER, circle TEXT NOT NULL,
    leather TEXT NOT NULL, ai TEXT NOT NULL, level INTEGER NOT NULL, seat INTEGER NOT NULL CHECK (seat IN (0, 1)));
CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, ply INTEGER NOT NULL CHECK (ply >= 0),
    player INTEGER NOT NULL CHECK (player IN (0, 1)), actor TEXT NOT NULL CHECK (actor IN ('human', 'ai')),
    move TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', created REAL NOT NULL,
    PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
CREATE TABLE analyses (seq INTEGER PRIMARY KEY AUTOINCREMENT, position TEXT NOT NULL, seconds REAL NOT NULL,
    exact INTEGER NOT NULL CHECK (exact IN (0, 1)), data TEXT NOT NULL, created REAL NOT NULL,
    UNIQUE (position, seconds));
CREATE TABLE puzzles (id TEXT PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('endgame', 'fill')), data TEXT NOT NULL,
    created REAL NOT NULL);
CREATE TABLE puzzle_ratings (puzzle_id TEXT PRIMARY KEY, rating REAL NOT NULL, deviation REAL NOT NULL,
    volatility REAL NOT NULL, answers INTEGER NOT NULL DEFAULT 0, solved INTEGER NOT NULL DEFAULT 0);
CREATE TABLE visitors (id TEXT PRIMARY KEY, rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
    answers INTEGER NOT NULL DEFAULT 0, solved INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL);
CREATE TABLE puzzle_answers (visitor_id TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    puzzle_id TEXT NOT NULL, correct INTEGER NOT NULL CHECK (correct IN (0, 1)), created REAL NOT NULL,
    PRIMARY KEY (visitor_id, puzzle_id));
CREATE TABLE visitor_progress (visitor_id TEXT PRIMARY KEY REFERENCES visitors(id) ON DELETE CASCADE,
    replies INTEGER NOT NULL DEFAULT 0, streak INTEGER NOT NULL DEFAULT 0, best_streak INTEGER NOT NULL DEFAULT 0);
CREATE TABLE puzzle_retries (visitor_id TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    puzzle_id TEXT NOT NULL, due INTEGER NOT NULL, PRIMARY KEY (visitor_id, puzzle_id));
"""
#: One row of every table, as the old store wrote them.
OLD_ROWS = """
INSERT INTO games VALUES ('gggggggggggggggggggggg', 100.0, 100.0, 3, '[0]', '[20, 26, 32, 44, 50]', 'greedy', 1, 0);
INSERT INTO moves VALUES ('gggggggggggggggggggggg', 0, 0, 'human', '{"type": "advance"}', '', 101.0);
INSERT INTO analyses (position, seconds, exact, data, created) VALUES ('p', 0.5, 0, 'kept', 102.0);
INSERT INTO puzzles VALUES ('f000000000777', 'fill', '{"old": true}', 103.0);
INSERT INTO puzzle_ratings VALUES ('f000000000777', 1234.5, 200.0, 0.06, 1, 0);
INSERT INTO visitors VALUES ('vvvvvvvvvvvvvvvvvvvvvv', 1600.0, 120.0, 0.06, 7, 5, 104.0);
INSERT INTO puzzle_answers VALUES ('vvvvvvvvvvvvvvvvvvvvvv', 'f000000000777', 0, 105.0);
INSERT INTO visitor_progress VALUES ('vvvvvvvvvvvvvvvvvvvvvv', 9, 2, 4);
INSERT INTO puzzle_retries VALUES ('vvvvvvvvvvvvvvvvvvvvvv', 'f000000000777', 9);
"""


def _old_database(db: str) -> None:
    """``db`` as the old store left it: its tables, one row in each."""
    statements = [s for s in (OLD_SQLITE + OLD_ROWS).split(";") if s.strip()]
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement.replace("REAL", "DOUBLE PRECISION").replace(" WITHOUT ROWID", "")
                             .replace("seq INTEGER PRIMARY KEY AUTOINCREMENT",
                                      "seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"))
        return
    with sqlite3.connect(db) as conn:
        for statement in statements:
            conn.execute(statement)


def test_a_database_from_before_the_split_keeps_every_row_and_takes_a_new_kind(
    db: str, opened: Callable[[str], Stores]
) -> None:
    _old_database(db)
    stores = opened(db)
    game = stores.games.get("g" * 22)
    assert (game.seed, game.level, [m.ply for m in game.moves]) == (3, 1, [0])
    assert stores.analyses.cached_analysis("p", 0.5) == "kept"
    assert stores.puzzles.stored_puzzle("f000000000777") == '{"old": true}'
    visitor = "v" * 22
    stats = stores.visitors.visitor_stats(visitor)
    assert (stats.rating.rating, stats.answers, stats.streak, stats.best_streak) == (1600.0, 7, 2, 4)
    assert stores.visitors.answered(visitor) == {"f000000000777"}
    assert stores.visitors.due_retries(visitor) == ["f000000000777"]
    assert stores.visitors.puzzle_rating("f000000000777", Rating()).rating == 1234.5
    stores.puzzles.keep_puzzle("x000000000777", "exercise", json.dumps({"kind": "exercise"}))  # the check is gone
    assert opened(db).puzzles.stored_puzzle("x000000000777") == '{"kind": "exercise"}'  # and stays gone
