"""The tiers of the suite, a PostgreSQL database per pytest-xdist worker, and the fixtures of
the web tests: an app on each database, a test client, API users."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, make_url, text
from werkzeug.routing.rules import Rule

from scoresheet import create_app
from scoresheet.config import psycopg_url
from scoresheet.storage.database import newest_revisions
from scoresheet.storage.extensions import db

CHEAP_HASH = "pbkdf2:sha256:1"
"""Tests hash passwords cheaply; production uses scrypt (see test_app.py)."""
TIERS = {
    "tests/rules/": "fast",
    "tests/services/": "fast",
    "tests/web/test_services.py": "fast",  # the service layer's tests, until they move to tests/services/
    "tests/web/test_smoke.py": "fast",
    "tests/web/": "web",
    "tests/browser/": "browser",
    "tests/test_package.py": "web",  # builds a wheel and serves it
    "tests/": "fast",
}
"""Each test's tier (markers registered in pyproject.toml), by the first path that holds it.
The fast tier needs no database server: a fast test's PostgreSQL twin is in the web tier."""
WORKER_DATABASE = pytest.StashKey[tuple[str, str]]()


def _builders_compiled_once() -> None:
    """The suite makes an app per test, and werkzeug compiles each app's URL builders from
    generated source: most of the time `create_app` takes. A builder is a function of its
    rule's text, parts, defaults and kind alone (it reaches the rule's converters through the
    rule it is bound to), so a test process compiles each one once."""
    compile_builder = Rule._compile_builder
    compiled: dict[tuple[Any, ...], Any] = {}

    def once(rule: Rule, append_unknown: bool = True) -> Any:
        defaults = tuple(sorted((rule.defaults or {}).items()))
        converters = tuple(sorted((name, type(c)) for name, c in rule._converters.items()))
        key = (rule.rule, tuple(rule._trace), defaults, converters, append_unknown)
        if key not in compiled:
            compiled[key] = compile_builder(rule, append_unknown)
        return compiled[key]

    Rule._compile_builder = once  # type: ignore[method-assign]


_builders_compiled_once()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test with its tier."""
    for item in items:
        where = item.path.relative_to(config.rootpath).as_posix()
        tier = next((tier for path, tier in TIERS.items() if where.startswith(path)), None)
        callspec = getattr(item, "callspec", None)
        if tier == "fast" and callspec is not None and callspec.params.get("database_url") == "postgresql":
            tier = "web"
        if tier is not None:
            item.add_marker(tier)


def pytest_configure(config: pytest.Config) -> None:
    """A pytest-xdist worker tests on a PostgreSQL database of its own, made empty now:
    TEST_DATABASE_URL's database name followed by the worker's id (`…_gw0`)."""
    worker, url = os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get("TEST_DATABASE_URL")
    if not worker or not url:
        return
    own = make_url(url).set(database=f"{make_url(url).database}_{worker}")
    _admin(url, f'DROP DATABASE IF EXISTS "{own.database}" WITH (FORCE)', f'CREATE DATABASE "{own.database}"')
    config.stash[WORKER_DATABASE] = (url, str(own.database))
    os.environ["TEST_DATABASE_URL"] = own.render_as_string(hide_password=False)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Drop the worker's own database."""
    if WORKER_DATABASE in config.stash:
        url, name = config.stash[WORKER_DATABASE]
        os.environ["TEST_DATABASE_URL"] = url
        _admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _admin(url: str, *statements: str) -> None:
    """Run statements outside a transaction on the database at `url` (CREATE/DROP DATABASE)."""
    engine = create_engine(psycopg_url(url), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        for statement in statements:
            conn.execute(text(statement))
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A database for one test: a temporary SQLite file, or TEST_DATABASE_URL's PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("CI is set but TEST_DATABASE_URL is not: PostgreSQL tests cannot run.")
        pytest.skip("TEST_DATABASE_URL is not set")
    return url


def app_config(database_url: str, tmp_path: Any, **extra: Any) -> dict[str, Any]:
    """The configuration tests run with."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test secret key",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "PASSWORD_HASH_METHOD": CHEAP_HASH,
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,  # test_security.py turns the limits on and proves the 429s
        "INSTANCE_PATH": str(tmp_path / "instance"),
        **extra,
    }


def empty_database(database_url: str) -> None:
    """Make a PostgreSQL database empty: no tables, no migration revision (SQLite: a new file)."""
    if database_url.startswith("sqlite"):
        return
    engine = create_engine(psycopg_url(database_url))
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database the app migrated to the head revision itself, as in production."""
    folder = tmp_path_factory.mktemp("migrated")
    stop(create_app(app_config(f"sqlite:///{folder / 'head.sqlite'}", folder)))
    return folder / "head.sqlite"


def migrated_database(database_url: str, migrated_sqlite: Path) -> None:
    """Make a database empty at the head revision, as the app leaves a new one (without
    migrating each test's afresh): SQLite, a copy of `migrated_sqlite`; PostgreSQL, its tables
    emptied when it is at the head revision, else the whole database (the app migrates it)."""
    if database_url.startswith("sqlite"):
        shutil.copyfile(migrated_sqlite, make_url(database_url).database or "")
        return
    engine = create_engine(psycopg_url(database_url))
    with engine.begin() as conn:
        kept = conn.execute(text("SELECT to_regclass('public.alembic_version')")).scalar()
        at_head = (
            kept is not None
            and {row[0] for row in conn.execute(text("SELECT version_num FROM alembic_version"))} == newest_revisions()
        )
        if at_head:
            conn.execute(text(_emptying(conn)))
    engine.dispose()
    if not at_head:
        empty_database(database_url)


def _emptying(conn: Any) -> str:
    """SQL that empties every table and restarts every sequence: a DELETE per table, the
    referring tables first (a tenth of the time a TRUNCATE takes, which makes new files for
    every table); a TRUNCATE when the tables are not the models' own."""
    tables = set(
        conn.execute(
            text("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename != 'alembic_version'")
        ).scalars()
    )
    ordered = [table.name for table in reversed(db.metadata.sorted_tables)]
    if tables != set(ordered):
        return f"TRUNCATE {', '.join(f'public.{name}' for name in tables)} RESTART IDENTITY CASCADE"
    sequences = conn.execute(text("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")).scalars()
    return "; ".join(
        [
            *(f"DELETE FROM public.{name}" for name in ordered),
            *(f"ALTER SEQUENCE public.{name} RESTART" for name in sequences),
        ]
    )


def stop(app: Flask) -> None:
    """Stop the app: its live-update reads, then its database connections."""
    app.extensions["push"].stop()  # its live-update reads end before the engine does
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(database_url: str, tmp_path: Any, migrated_sqlite: Path) -> Iterator[Flask]:
    """The app started on an empty database at the head revision (the migrations are tested
    from an empty database in test_migrations.py)."""
    migrated_database(database_url, migrated_sqlite)
    app = create_app(app_config(database_url, tmp_path))
    yield app
    stop(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client."""
    return app.test_client()


@dataclass
class ApiUser:
    """A registered user calling the API with its token."""

    client: FlaskClient
    username: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        """The Authorization header."""
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, url: str, **kw: Any) -> Any:
        """GET with the token."""
        return self.client.get(url, headers=self.headers, **kw)

    def post(self, url: str, json: Any = None, **kw: Any) -> Any:
        """POST JSON with the token."""
        return self.client.post(url, json=json, headers=self.headers, **kw)

    def put(self, url: str, json: Any = None, **kw: Any) -> Any:
        """PUT JSON with the token."""
        return self.client.put(url, json=json, headers=self.headers, **kw)

    def delete(self, url: str, **kw: Any) -> Any:
        """DELETE with the token."""
        return self.client.delete(url, headers=self.headers, **kw)

    def new_match(self, **data: Any) -> dict[str, Any]:
        """Create a match (three players by default) and return the match object."""
        data.setdefault("players", ["Anna", "Boris", "Vera"])
        response = self.post("/api/matches", json=data)
        assert response.status_code == 201, response.json
        return response.json

    def add_hand(self, match_id: str, hand: dict[str, Any], status: int = 201) -> Any:
        """Add a hand, asserting the status code; the JSON answer."""
        response = self.post(f"/api/matches/{match_id}/hands", json=hand)
        assert response.status_code == status, response.json
        return response.json


@pytest.fixture
def make_user(app: Flask) -> Any:
    """A factory: register a user through the API (each with its own client)."""

    def make(username: str = "anna", password: str = "correct horse") -> ApiUser:
        client = app.test_client()
        response = client.post("/api/users", json={"username": username, "password": password})
        assert response.status_code == 201, response.json
        return ApiUser(client, username, response.json["token"])

    return make


@pytest.fixture
def api_user(make_user: Any) -> ApiUser:
    """A registered user, anna."""
    return make_user("anna")


@pytest.fixture
def stranger(make_user: Any) -> ApiUser:
    """A registered user who is a member of nothing."""
    return make_user("stranger")
