"""Alembic environment: the app's metadata, its engine, or a connection handed over in code.

`flask --app scoresheet db …` runs this with the app's engine; the app's start-up
(`scoresheet.database.upgrade`) and the tests hand over an open connection in
`config.attributes["connection"]` so that the migration runs inside their transaction.
"""

from __future__ import annotations

import logging
from logging.config import fileConfig
from typing import Any

from alembic import context
from flask import current_app

from scoresheet import models  # noqa: F401  (registers the tables)
from scoresheet.extensions import db

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
    context.configure(url=db.engine.url, target_metadata=db.metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Migrate on the handed-over connection, or on a connection of the app's engine."""
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=db.metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    args = dict(current_app.extensions["migrate"].configure_args)
    args.setdefault("process_revision_directives", no_empty_revisions)
    with db.engine.connect() as connection:
        context.configure(connection=connection, target_metadata=db.metadata, **args)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
