"""Binding the database: SQLite pragmas, migrations, and the schema of an empty database."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from sqlalchemy import Connection, event, inspect, text

from .extensions import db, migrate

MIGRATIONS = str(Path(__file__).resolve().parent.parent / "migrations")
"""The Alembic scripts (`flask --app scoresheet db …` uses them too)."""
ADVISORY_LOCK = 0x5C0_5EE7
"""PostgreSQL advisory lock key: of several workers starting at once, one migrates."""


def init_app(app: Flask) -> None:
    """Bind `db` and `migrate`, configure SQLite connections, and bring the schema up to date."""
    db.init_app(app)
    migrate.init_app(app, db, directory=MIGRATIONS)
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            timeout = int(app.config["SQLITE_BUSY_TIMEOUT_MS"])
            event.listen(engine, "connect", sqlite_pragmas(timeout))
        from . import models  # noqa: F401  (registers the tables)

        if app.config["DATABASE_AUTO_UPGRADE"]:
            auto_upgrade()


def auto_upgrade() -> None:
    """Migrate to the newest schema an empty database, or a SQLite one that is behind.

    A PostgreSQL database that already has tables is left alone: deployments run
    `flask --app scoresheet db upgrade` (docs/deploy.md). Takes a lock first, so that several
    workers starting on one empty database migrate it once.
    """
    engine = db.engine
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # waits up to the busy timeout
        elif engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
        if needs_upgrade(conn):
            upgrade(conn)


def needs_upgrade(conn: Connection) -> bool:
    """True for an empty database, and for a SQLite one not at the newest revision."""
    tables = inspect(conn).get_table_names()
    if not tables:
        return True
    if conn.dialect.name != "sqlite" or "alembic_version" not in tables:
        return False
    current = MigrationContext.configure(conn).get_current_heads()
    return set(current) != set(ScriptDirectory(MIGRATIONS).get_heads())


def upgrade(conn: Connection, revision: str = "head") -> None:
    """Run the migrations to `revision` on this connection, without logging each step."""
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    config.attributes["connection"] = conn
    alembic_logger = logging.getLogger("alembic")
    level = alembic_logger.level
    alembic_logger.setLevel(logging.WARNING)
    try:
        command.upgrade(config, revision)
    finally:
        alembic_logger.setLevel(level)


def sqlite_pragmas(timeout_ms: int) -> Any:
    """A connect hook: foreign keys on, WAL journal, and a busy timeout for waiting writers."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA busy_timeout = {int(timeout_ms)}")
        cursor.close()

    return on_connect
