"""The app factory: configuration sources, the secret key file, the database, /healthz."""

from __future__ import annotations

import os
import stat
from typing import Any

import pytest
from sqlalchemy import inspect, text
from werkzeug.security import generate_password_hash

from scoresheet import create_app
from scoresheet.config import DEFAULT_PASSWORD_HASH, psycopg_url
from scoresheet.storage.extensions import db
from scoresheet.web.extensions import kept


def dispose(app: Any) -> None:
    """Close the app's database connections."""
    with app.app_context():
        db.engine.dispose()


def test_healthz_answers_ok(client: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json == {"status": "ok"}


def test_empty_database_gets_its_schema(app: Any) -> None:
    with app.app_context():
        tables = set(inspect(db.engine).get_table_names())
    assert {"users", "api_tokens", "matches", "members", "hands"} <= tables


@pytest.mark.parametrize(
    "url, expected",
    [
        ("postgres://u:p@db:5432/x", "postgresql+psycopg://u:p@db:5432/x"),
        ("postgresql://u@127.0.0.1/x", "postgresql+psycopg://u@127.0.0.1/x"),
        ("postgresql+psycopg://u@h/x", "postgresql+psycopg://u@h/x"),
        ("sqlite:////tmp/x.sqlite", "sqlite:////tmp/x.sqlite"),
    ],
)
def test_postgres_urls_use_psycopg_3(url: str, expected: str) -> None:
    assert psycopg_url(url) == expected


def test_database_url_from_environment_is_rewritten(monkeypatch: Any, tmp_path: Any) -> None:
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set")
    monkeypatch.setenv("DATABASE_URL", url.replace("postgresql://", "postgres://", 1))
    app = create_app({"SECRET_KEY": "k", "INSTANCE_PATH": str(tmp_path)})
    assert app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql+psycopg://")
    with app.app_context():
        assert db.session.execute(text("SELECT 1")).scalar() == 1
    dispose(app)


def test_without_anything_set_sqlite_lives_in_the_instance_folder(monkeypatch: Any, tmp_path: Any) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    app = create_app({"INSTANCE_PATH": str(tmp_path)})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'scoresheet.sqlite'}"
    assert (tmp_path / "scoresheet.sqlite").exists()
    dispose(app)


def test_secret_key_is_generated_once_private_and_reused(monkeypatch: Any, tmp_path: Any) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    config = {"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    first = create_app(config)
    key_file = tmp_path / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(first.secret_key) >= 32
    second = create_app(config)
    assert second.secret_key == first.secret_key
    assert os.listdir(tmp_path).count("secret_key") == 1
    dispose(first)
    dispose(second)


def test_secret_key_from_environment_wins_over_the_file(monkeypatch: Any, tmp_path: Any) -> None:
    monkeypatch.setenv("SECRET_KEY", "from the environment")
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert app.secret_key == "from the environment"
    assert not (tmp_path / "secret_key").exists()
    dispose(app)


def test_config_argument_overrides_environment_and_config_file(monkeypatch: Any, tmp_path: Any) -> None:
    (tmp_path / "config.py").write_text("SECRET_KEY = 'file'\nMAX_CONTENT_LENGTH = 5\n")
    monkeypatch.setenv("SECRET_KEY", "env")
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "given"})
    assert app.secret_key == "given"
    assert app.config["MAX_CONTENT_LENGTH"] == 5
    dispose(app)


def test_sqlite_connections_have_foreign_keys_wal_and_a_busy_timeout(app: Any) -> None:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite only")
        pragma = lambda name: db.session.execute(text(f"PRAGMA {name}")).scalar()  # noqa: E731
        assert pragma("foreign_keys") == 1
        assert pragma("journal_mode") == "wal"
        assert pragma("busy_timeout") >= 1000


def test_production_password_hash_is_scrypt_at_owasp_strength(tmp_path: Any) -> None:
    assert DEFAULT_PASSWORD_HASH == "scrypt:32768:8:3"
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "k"})
    method = app.config["PASSWORD_HASH_METHOD"]
    name, n, r, p = method.split(":")
    assert name == "scrypt" and int(n) >= 32768 and int(r) >= 8 and int(p) >= 3
    assert generate_password_hash("x", method=method).startswith("scrypt:32768:8:3$")
    dispose(app)


def test_what_an_app_keeps_with_a_limit_is_emptied_when_full(app: Any) -> None:
    """`kept(…, most=n)` keeps at most n things (a player's figures are keyed by data): the
    n+1st empties it; until then each is made once."""
    made: list[int] = []

    def make(n: int) -> Any:
        return lambda: made.append(n) or n

    with app.app_context():
        assert [kept("test", n, make(n), most=2) for n in (1, 2, 1, 2)] == [1, 2, 1, 2]
        assert made == [1, 2]
        assert kept("test", 3, make(3), most=2) == 3 and app.extensions["test"] == {3: 3}
        assert kept("test", 1, make(1), most=2) == 1 and made == [1, 2, 3, 1]
