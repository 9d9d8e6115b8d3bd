"""The database's Flask extensions, created unbound and bound to an app in `create_app`: the
ORM's `db` and the migrations."""

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base of every stored record."""


db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
"""Objects stay readable after a commit (a response is built from what was just written);
every change re-reads what it depends on under the match's lock."""
migrate = Migrate(render_as_batch=True)
"""Alembic migrations in `migrations/` (batch mode: SQLite cannot ALTER most things)."""
