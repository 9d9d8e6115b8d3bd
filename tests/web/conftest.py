"""Fixtures of the page tests (defined in page_helpers) and of the migration tests."""

from collections.abc import Iterator

import pytest
from conftest import empty_database
from sqlalchemy import Engine, create_engine, event

from scoresheet.config import psycopg_url

from .page_helpers import csrf_app, make_phone, phone  # noqa: F401


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on an empty database, without the app (SQLite with foreign keys on)."""
    empty_database(database_url)
    engine = create_engine(psycopg_url(database_url))
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", lambda conn, _: conn.execute("PRAGMA foreign_keys = ON"))
    yield engine
    engine.dispose()
