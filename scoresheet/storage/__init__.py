"""Storage: the stored records (models), the database set-up for SQLite and PostgreSQL, and the
migrations' wiring."""

from __future__ import annotations

from flask import Flask

from . import database, feed


def init_app(app: Flask) -> None:
    """Bind the database (and its migrations) to the app; announce changes of a match
    (PostgreSQL: the change feed, `feed.py`)."""
    database.init_app(app)
    feed.init_app()
