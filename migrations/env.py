"""Alembic environment: the app's metadata, its engine, or a connection handed over in code.

`flask --app scoresheet db …` runs this with the app's engine; the app's start-up
(`scoresheet.storage.database.upgrade`) and the tests hand over an open connection in
`config.attributes["connection"]` so that the migration runs inside their transaction.
On SQLite that connection's foreign keys must be off (`scoresheet.storage.database.foreign_keys_off`,
which the app's engine gets here too): a batch migration rebuilds a table there, and dropping
the old one with foreign keys on deletes or empties every row that refers to it. Before
committing, `PRAGMA foreign_key_check` must find every reference whole.
"""

from __future__ import annotations

import logging
from logging.config import fileConfig
from typing import Any

from alembic import context
from flask import current_app
from sqlalchemy import Connection

from scoresheet.storage import models  # noqa: F401  (registers the tables)
from scoresheet.storage.database import foreign_keys_off
from scoresheet.storage.extensions import db

config = context.config
if config.config_file_name is not None:
    fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")


def no_empty_revisions(ctx: Any, revision: Any, directives: list[Any]) -> None:
    """`db migrate` with no schema change writes no revision file."""
    if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
        directives[:] = []
        logger.info("No changes in schema detected.")


def run_migrations_offline() -> None:
    """`--sql` mode: print the SQL for the app's database URL."""
    context.configure(url=db.engine.url, target_metadata=db.metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def refuse_foreign_keys_on(connection: Connection) -> None:
    """SQLite: stop before anything is changed if the connection's foreign keys are on.

    A batch migration rebuilds a table there (copy, drop, rename); with foreign keys on,
    dropping the old `users` would delete every member and token and forget the author of
    every hand and history entry. Callers turn them off first (`foreign_keys_off`)."""
    if connection.dialect.name == "sqlite" and connection.exec_driver_sql("PRAGMA foreign_keys").scalar():
        raise RuntimeError(
            "SQLite foreign keys are on for this migration: rebuilding a table would delete "
            "the rows that refer to it. Run it inside scoresheet.storage.database.foreign_keys_off."
        )


def check_foreign_keys(connection: Connection) -> None:
    """SQLite: before the migration commits, every reference must still point at a row
    (foreign keys were off while it ran); otherwise stop, and the transaction rolls back."""
    if connection.dialect.name != "sqlite":
        return
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if broken:
        rows = "; ".join(f"{table} row {rowid} → {parent}" for table, rowid, parent, _ in broken[:20])
        raise RuntimeError(f"The migration would leave {len(broken)} broken references ({rows}). Nothing was changed.")


def migrate_on(connection: Connection, **options: Any) -> None:
    """Run the migrations on `connection` in its transaction, references checked at the end."""
    context.configure(connection=connection, target_metadata=db.metadata, **options)
    with context.begin_transaction():
        refuse_foreign_keys_on(connection)
        context.run_migrations()
        check_foreign_keys(connection)


def run_migrations_online() -> None:
    """Migrate on the handed-over connection, or on a connection of the app's engine."""
    connection = config.attributes.get("connection")
    if connection is not None:
        migrate_on(connection, render_as_batch=True)
        return
    args = dict(current_app.extensions["migrate"].configure_args)
    args.setdefault("process_revision_directives", no_empty_revisions)
    with db.engine.connect() as connection, foreign_keys_off(connection):
        migrate_on(connection, **args)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
