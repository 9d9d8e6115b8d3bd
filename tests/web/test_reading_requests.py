"""A reading request on PostgreSQL runs its statements without a transaction: no BEGIN and no
ROLLBACK round trip (the player's page, every page). A request that may write keeps its
transaction, a snapshot keeps its REPEATABLE READ, and a write in a reading request is refused
(it would be committed alone): nothing of it is stored."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from psycopg.pq import TransactionStatus

from scoresheet.storage import database
from scoresheet.storage.extensions import db
from scoresheet.storage.models import User


def _status() -> str:
    """Read one row, then say whether the driver's connection is inside a transaction."""
    db.session.execute(db.select(User.id).limit(1)).all()
    driver = db.session.connection().connection.driver_connection
    return TransactionStatus(driver.info.transaction_status).name


@pytest.fixture
def pg_app(app: Flask) -> Flask:
    """The app on PostgreSQL, with routes that tell how their statements ran."""
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("PostgreSQL only: SQLite's reading requests begin a deferred transaction")

    @app.route("/test/status", methods=["GET", "POST"])
    def status() -> str:
        return _status()

    @app.post("/test/preview-status")
    @database.reads_only
    def preview_status() -> str:
        return _status()

    @app.get("/test/snapshot-status")
    def snapshot_status() -> str:
        with database.snapshot():
            level = db.session.execute(db.text("SHOW transaction_isolation")).scalar_one()
            return f"{_status()} {level}"

    @app.get("/test/write")
    def write() -> str:
        db.session.add(User(username="written-by-a-get", password_hash="x"))
        db.session.commit()
        return "written"

    return app


def test_a_reading_request_reads_outside_any_transaction(pg_app: Flask) -> None:
    client = pg_app.test_client()
    assert client.get("/test/status").text == "IDLE"
    assert client.post("/test/preview-status").text == "IDLE"  # a view marked reads_only


def test_a_request_that_may_write_keeps_its_transaction(pg_app: Flask) -> None:
    client = pg_app.test_client()
    assert client.post("/test/status").text == "INTRANS"
    assert client.get("/test/status").text == "IDLE"  # the same pooled connection, reading again
    assert client.post("/test/status").text == "INTRANS"


def test_a_connection_goes_back_to_the_pool_out_of_autocommit(pg_app: Flask) -> None:
    assert pg_app.test_client().get("/test/status").text == "IDLE"
    with pg_app.app_context():
        pooled = db.engine.raw_connection()  # the one the GET gave back (the only one idle)
        try:
            assert pooled.driver_connection.autocommit is False
        finally:
            pooled.close()


def test_a_snapshot_read_by_a_get_keeps_its_repeatable_read_transaction(pg_app: Flask) -> None:
    assert pg_app.test_client().get("/test/snapshot-status").text == "INTRANS repeatable read"


def test_a_write_in_a_reading_request_is_refused_and_nothing_is_stored(pg_app: Flask, caplog: Any) -> None:
    pg_app.testing = False  # answered as a player would get it, not raised into the test
    response = pg_app.test_client().get("/test/write")
    assert response.status_code == 500
    assert "a reading request wrote: INSERT INTO users" in caplog.text
    with pg_app.app_context():
        assert db.session.execute(db.select(User).where(User.username == "written-by-a-get")).first() is None
