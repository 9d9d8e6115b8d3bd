"""Storage: the stored records (models), the database set-up for SQLite and PostgreSQL, and the
migrations' wiring."""

from __future__ import annotations

from flask import Flask

from . import database


def init_app(app: Flask) -> None:
    """Bind the database (and its migrations) to the app."""
    database.init_app(app)
