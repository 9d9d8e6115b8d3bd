"""Binding the database: SQLite pragmas and creating the schema on an empty database."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import event

from .extensions import db


def init_app(app: Flask) -> None:
    """Bind `db`, configure SQLite connections, and create missing tables."""
    db.init_app(app)
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            timeout = int(app.config["SQLITE_BUSY_TIMEOUT_MS"])
            event.listen(engine, "connect", sqlite_pragmas(timeout))
        from . import models  # noqa: F401  (registers the tables)

        db.create_all()


def sqlite_pragmas(timeout_ms: int) -> Any:
    """A connect hook: foreign keys on, WAL journal, and a busy timeout for waiting writers."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA busy_timeout = {int(timeout_ms)}")
        cursor.close()

    return on_connect
