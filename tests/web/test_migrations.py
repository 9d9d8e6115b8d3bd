"""Schema migrations: they make exactly the models' schema, step down and up, and run on start."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from conftest import app_config, empty_database
from sqlalchemy import Engine, create_engine, event, inspect

from scoresheet import create_app, models, psycopg_url
from scoresheet.database import MIGRATIONS, downgrade, upgrade
from scoresheet.extensions import db
from scoresheet.replay_cache import summary_of
from scoresheet.rules import hand_from_dict, hand_to_dict, replay, setup_from_dict

from .helpers import WINNING_HAND, WINNING_START, played

assert models  # imported for its tables
SCRIPTS = ScriptDirectory(MIGRATIONS)
REVISIONS = [s.revision for s in reversed(list(SCRIPTS.walk_revisions()))]
"""Every revision, oldest first."""
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on an empty database, without the app (SQLite with foreign keys on)."""
    empty_database(database_url)
    engine = create_engine(psycopg_url(database_url))
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect",
                     lambda conn, _: conn.execute("PRAGMA foreign_keys = ON"))
    yield engine
    engine.dispose()


def differences(engine: Engine) -> list[Any]:
    """What autogenerate would change to make the database match the models."""
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, db.metadata))


def current(engine: Engine) -> set[str]:
    """The database's revision(s)."""
    with engine.connect() as conn:
        return set(MigrationContext.configure(conn).get_current_heads())


def migrate(engine: Engine, revision: str, down: bool = False) -> None:
    """Upgrade (or downgrade) the database to `revision` in one transaction."""
    with engine.begin() as conn:
        (downgrade if down else upgrade)(conn, revision)


def test_there_is_one_line_of_revisions() -> None:
    assert len(SCRIPTS.get_heads()) == 1, "two heads: run `flask --app scoresheet db merge`"


def test_migrations_make_exactly_the_models_schema(engine: Engine) -> None:
    migrate(engine, "head")
    assert differences(engine) == [], (
        "models.py and migrations/ differ: run `flask --app scoresheet db migrate -m '…'` "
        "(migrations/README.md)")
    assert current(engine) == set(SCRIPTS.get_heads())


def test_every_migration_steps_down_and_up_again(engine: Engine) -> None:
    for revision in REVISIONS:
        migrate(engine, revision)
        migrate(engine, "-1", down=True)
        migrate(engine, revision)
        assert current(engine) == {revision}
    migrate(engine, "base", down=True)
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    migrate(engine, "head")
    assert differences(engine) == []


def test_the_app_migrates_an_empty_database_on_start(app: Any) -> None:
    with app.app_context():
        assert current(db.engine) == set(SCRIPTS.get_heads())
        assert differences(db.engine) == []


def test_a_sqlite_database_behind_is_brought_up_to_date_on_start(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    engine = create_engine(url)
    migrate(engine, REVISIONS[0])
    app = create_app(app_config(url, tmp_path))
    assert current(engine) == set(SCRIPTS.get_heads())
    engine.dispose()
    with app.app_context():
        db.engine.dispose()


def test_a_postgresql_database_with_tables_is_left_to_db_upgrade(engine: Engine,
                                                                 tmp_path: Any) -> None:
    if engine.dialect.name == "sqlite":
        pytest.skip("PostgreSQL only")
    migrate(engine, REVISIONS[0])
    app = create_app(app_config(engine.url.render_as_string(hide_password=False), tmp_path))
    assert current(engine) == {REVISIONS[0]}
    with app.app_context():
        db.engine.dispose()


def flask_cli(database_url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `flask --app scoresheet …` in a fresh process on this database."""
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scoresheet", *args], cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "x", **env},
        capture_output=True, text=True, timeout=60, check=False)


def test_flask_db_upgrade_is_the_deployment_step(engine: Engine, database_url: str) -> None:
    if engine.dialect.name == "sqlite":
        pytest.skip("PostgreSQL only (SQLite upgrades itself)")
    migrate(engine, REVISIONS[0])
    done = flask_cli(database_url, "db", "upgrade")
    assert done.returncode == 0, done.stderr
    assert current(engine) == set(SCRIPTS.get_heads())
    assert differences(engine) == []


def test_workers_starting_together_on_an_empty_database_migrate_it_once(
        engine: Engine, database_url: str) -> None:
    start = ("from scoresheet import create_app; from scoresheet.extensions import db\n"
             "with create_app().app_context(): db.engine.dispose()")
    workers = [subprocess.Popen(
        [sys.executable, "-W", "error", "-c", start], cwd=ROOT, text=True,
        env={**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "x"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outputs = [worker.communicate(timeout=60) for worker in workers]
    for worker, (out, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err
        assert out == "" and err == "", "starting up logs nothing"
    assert current(engine) == set(SCRIPTS.get_heads())
    assert differences(engine) == []


def test_the_summary_migration_fills_every_match_from_its_replay(engine: Engine) -> None:
    migrate(engine, "0002")
    setup = {"players": ["A", "B", "C"], "start_scores": WINNING_START}
    bodies = [played(1, 100, [20, None, 20]), WINNING_HAND]
    records = [hand_from_dict(b) for b in bodies]
    with engine.begin() as conn:
        for match_id, hands in (("won", records), ("new", [])):
            conn.execute(models.Match.__table__.insert().values(
                id=match_id, setup=setup, status="open", revision=0, join_code=match_id,
                created_at=models.utcnow(), updated_at=models.utcnow()))
            for number, record in enumerate(hands, start=1):
                conn.execute(models.Hand.__table__.insert().values(
                    match_id=match_id, number=number, record=hand_to_dict(record), version=1,
                    created_at=models.utcnow(), updated_at=models.utcnow()))
    migrate(engine, "head")
    with engine.connect() as conn:
        stored = dict(conn.execute(db.select(models.Match.id, models.Match.summary)).all())
    assert stored["won"] == summary_of(replay(setup_from_dict(setup), records))
    assert stored["won"]["winner"] == 0 and stored["won"]["hands"] == 2
    assert stored["new"] == summary_of(replay(setup_from_dict(setup), []))
