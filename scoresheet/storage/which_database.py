"""Which database a command of the `flask` CLI works on, said aloud; and no new SQLite file
made by a command that expected a database to be there.

`flask --app scoresheet backup`, `restore` or `db upgrade` run where the settings were not read
(no `DATABASE_URL`: /etc/scoresheet.env missed, or read by nobody) would otherwise make an empty
SQLite database in the instance folder, and back it up or migrate it, and succeed. So a command
(anything but `flask run`, which makes the table's database on purpose) says on stderr which
database it uses, and on the default SQLite file that is not there it stops with that name
instead of creating it; only `restore --create` makes it.
"""

from __future__ import annotations

import os
from typing import Any

import click
from flask import Flask, current_app
from sqlalchemy import Engine, event
from sqlalchemy.engine import make_url

from ..config import default_database_url, from_environment

HELD = "scoresheet.missing_database"
"""`app.extensions` key: the default SQLite file a command found missing (and did not make)."""


def command_name() -> str | None:
    """The `flask` command loading the app (`run`, `backup`, `upgrade`, or the group's own
    name while it looks up an app command), None when no `flask` command loads it."""
    from flask.cli import ScriptInfo

    ctx = click.get_current_context(silent=True)
    if ctx is None or ctx.find_object(ScriptInfo) is None:
        return None
    return ctx.command.name or ""


def default_url(app: Flask) -> str:
    """The database used when none is configured: SQLite in the instance folder."""
    return default_database_url(app.instance_path)


def describe(app: Flask) -> str:
    """The database in words, its password hidden, and where that choice came from."""
    uri = str(app.config["SQLALCHEMY_DATABASE_URI"])
    shown = make_url(uri).render_as_string(hide_password=True)
    if uri == default_url(app):
        return f"{shown} (the default: DATABASE_URL is not set)"
    return f"{shown} (DATABASE_URL)" if from_environment("DATABASE_URL") else f"{shown} (configured)"


def hold_missing_file(app: Flask, engine: Engine) -> bool:
    """Under a `flask` command other than `run`: say which database it uses, and if that is
    the default SQLite file and it is not there, make no file and no schema (True) — any
    connection then stops the command, naming the database (`require`)."""
    name = command_name()
    if name is None or name == "run":
        return False
    meta = click.get_current_context().meta
    if not meta.get(HELD):  # once per command: a SQLite backup opens its snapshot as an app too
        meta[HELD] = True
        click.echo(f"Database: {describe(app)}", err=True)
    path = engine.url.database or ""
    if str(app.config["SQLALCHEMY_DATABASE_URI"]) != default_url(app) or os.path.exists(path):
        return False
    app.extensions[HELD] = path

    @event.listens_for(engine, "do_connect")
    def _refuse(*_args: Any) -> None:
        if not os.path.exists(path):
            raise missing(app)

    return True


def missing(app: Flask) -> click.ClickException:
    """The refusal of a command that found no database."""
    return click.ClickException(
        f"There is no database at {app.extensions[HELD]}: DATABASE_URL is not set, so this would "
        "have made a new, empty one. Set DATABASE_URL (e.g. read /etc/scoresheet.env first, "
        "docs/deploy.md), run the command where the database is, or make a new SQLite "
        "database there with `flask --app scoresheet restore --create FILE`."
    )


def require() -> None:
    """Stop a command that reads the database if there is none (see `hold_missing_file`)."""
    path = current_app.extensions.get(HELD)
    if path and not os.path.exists(path):
        raise missing(current_app)


def held() -> bool:
    """Whether a command found the default SQLite file missing and has not made it yet."""
    path: str | None = current_app.extensions.get(HELD)
    return path is not None and not os.path.exists(path)
