"""The games databases the store's tests run against: SQLite always, PostgreSQL when
``PATCHWORK_TEST_PG`` names a server (``.ci/run`` starts one; in CI its absence is a failure).

Each PostgreSQL test gets a schema of its own (``search_path`` in the URL), dropped afterwards,
so tests never see each other's games."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from patchwork_opt.apps.web.storage import Stores

PG_ENV = "PATCHWORK_TEST_PG"
BACKENDS = ["sqlite", "postgres"]


def postgres_url_or_skip() -> str:
    url = os.environ.get(PG_ENV, "")
    if url:
        return url
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{PG_ENV} is not set: .ci/run must start PostgreSQL for the store's tests")
    pytest.skip(f"no PostgreSQL server: set {PG_ENV}=postgresql://USER:PASSWORD@127.0.0.1:5432/DB to run these")


@pytest.fixture(name="pg_url")
def pg_url_fixture() -> Iterator[str]:
    """A fresh schema on the test server, as a URL every connection of the store uses."""
    import psycopg

    base = postgres_url_or_skip()
    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in base else "?"
    try:
        yield f"{base}{joiner}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(name="db", params=BACKENDS)
def db_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where the games go: a SQLite file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "games.db")
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture(name="opened")
def opened_fixture() -> Iterator[Callable[[str], Stores]]:
    """``open_stores`` whose stores are closed after the test (a PostgreSQL database holds a pool)."""
    from patchwork_opt.apps.web.storage import open_stores

    stores: list[Stores] = []

    def open_(db: str) -> Stores:
        stores.append(open_stores(db))
        return stores[-1]

    yield open_
    for opened in stores:
        opened.close()
