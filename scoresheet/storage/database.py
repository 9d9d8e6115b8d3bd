"""Binding the database: SQLite pragmas, migrations, the schema of an empty database, and
reading a match's row locked."""

from __future__ import annotations

import functools
import logging
import os
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app, g, has_app_context, has_request_context, request
from sqlalchemy import Connection, Engine, bindparam, create_engine, event, inspect, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from ..config import folder
from . import which_database
from .extensions import db, migrate
from .models import Event, Match

MIGRATIONS = folder("migrations")
"""The Alembic scripts (`flask --app scoresheet db …` uses them too)."""
ADVISORY_LOCK = 0x5C0_5EE7
"""PostgreSQL advisory lock key: of several workers starting at once, one migrates."""


def init_app(app: Flask) -> None:
    """Bind `db` and `migrate`, configure SQLite connections, and bring the schema up to date."""
    db.init_app(app)
    migrate.init_app(app, db, directory=MIGRATIONS)
    with app.app_context():
        engine = db.engine
        held = which_database.hold_missing_file(app, engine)  # a command finding no database makes none
        if engine.dialect.name == "sqlite":
            if not held:
                _create_private_file(engine.url.database)
            timeout = int(app.config["SQLITE_BUSY_TIMEOUT_MS"])
            event.listen(engine, "connect", _sqlite_pragmas(timeout))
            event.listen(engine, "begin", _sqlite_begin)
            for name in ("commit", "rollback"):
                event.listen(engine, name, _open_write_gate)
            event.listen(engine, "checkin", _open_gate_on_return)  # kept across dispose()
        elif engine.dialect.driver == "psycopg":
            event.listen(engine, "begin", _postgres_begin)
            event.listen(engine, "before_cursor_execute", _refuse_writes_while_reading)
            event.listen(engine, "checkin", _postgres_checkin)
        from . import models  # noqa: F401  (registers the tables)

        if app.config["DATABASE_AUTO_UPGRADE"] and not held:
            _auto_upgrade()


def create_missing() -> None:
    """Make the SQLite database a command found missing (`--create`): the file (0600) and
    the newest schema, as a start of the app would."""
    _create_private_file(db.engine.url.database)
    _auto_upgrade()


def _create_private_file(path: str | None) -> None:
    """Keep the SQLite database readable by its owner only (0600): a new file is created so
    (SQLite gives its WAL and shared-memory files the same mode), and an older file that others
    may read (made before this rule) is narrowed, with its WAL and shared-memory files."""
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        for name in (path, f"{path}-wal", f"{path}-shm"):
            _narrow(name)


def _narrow(path: str) -> None:
    """Take away what group and others may do with a file of ours (a no-op if it is not)."""
    try:
        mode = os.stat(path).st_mode & 0o777
        if mode & 0o077:
            os.chmod(path, mode & 0o700)
            logging.getLogger(__name__).warning(
                "%s could be read by other users of this machine: now by its owner only", path
            )
    except (FileNotFoundError, PermissionError):
        pass


def _auto_upgrade() -> None:
    """Migrate to the newest schema an empty database, or a SQLite one that is behind.

    A PostgreSQL database that already has tables is left alone: deployments run
    `flask --app scoresheet db upgrade` (docs/deploy.md). Takes a lock first, so that several
    workers starting on one empty database migrate it once.
    """
    engine = db.engine
    with engine.connect() as conn, foreign_keys_off(conn), conn.begin():
        # SQLite: `_sqlite_begin` began this with BEGIN IMMEDIATE (waits up to the busy timeout)
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
        if _needs_upgrade(conn):
            upgrade(conn)


@contextmanager
def foreign_keys_off(conn: Connection) -> Iterator[None]:
    """SQLite: foreign keys off on this connection for the block, which must begin no
    transaction before it (`PRAGMA foreign_keys` does nothing inside one); a no-op elsewhere.

    Migrations run so: a batch migration rebuilds a table on SQLite (copy, drop, rename), and
    with foreign keys on, dropping the old table deletes the rows that refer to it (ON DELETE
    CASCADE) or forgets their reference (SET NULL). The migrations check every reference
    before they commit instead (migrations/env.py, `PRAGMA foreign_key_check`).
    """
    if conn.dialect.name != "sqlite":
        yield
        return
    if conn.in_transaction():
        raise RuntimeError("foreign_keys_off: a transaction is already open on this connection")
    driver = conn.connection.driver_connection
    assert driver is not None
    (was_on,) = driver.execute("PRAGMA foreign_keys").fetchone()
    driver.execute("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        if was_on:
            driver.execute("PRAGMA foreign_keys = ON")


def _needs_upgrade(conn: Connection) -> bool:
    """True for an empty database, and for a SQLite one not at the newest revision."""
    tables = inspect(conn).get_table_names()
    if not tables:
        return True
    if conn.dialect.name != "sqlite" or "alembic_version" not in tables:
        return False
    return set(MigrationContext.configure(conn).get_current_heads()) != newest_revisions()


@functools.cache
def newest_revisions() -> frozenset[str]:
    """The head revisions of the migrations this code ships (read once: they are files of the
    installed package, and reading them parses every migration)."""
    return frozenset(ScriptDirectory(MIGRATIONS).get_heads())


def upgrade(conn: Connection, revision: str = "head") -> None:
    """Run the migrations up to `revision` on this connection, without logging each step.
    On SQLite the connection's foreign keys must be off (`foreign_keys_off`): migrations/env.py
    refuses to run otherwise."""
    _alembic_command(command.upgrade, conn, revision)


def downgrade(conn: Connection, revision: str) -> None:
    """Run the migrations down to `revision` on this connection (for tests and emergencies)."""
    _alembic_command(command.downgrade, conn, revision)


def _alembic_command(run: Any, conn: Connection, revision: str) -> None:
    """Run an Alembic command on `conn` (inside its transaction), logging warnings only."""
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    config.attributes["connection"] = conn
    alembic_logger = logging.getLogger("alembic")
    level = alembic_logger.level
    alembic_logger.setLevel(logging.WARNING)
    try:
        run(config, revision)
    finally:
        alembic_logger.setLevel(level)


def _sqlite_pragmas(timeout_ms: int) -> Any:
    """A connect hook: foreign keys on, WAL journal, a busy timeout for waiting writers, and
    the driver's own transaction handling off (`sqlite_begin` emits BEGIN itself)."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(timeout_ms)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        _switch_to_wal(cursor, timeout_ms)
        cursor.close()

    return on_connect


def _switch_to_wal(cursor: Any, timeout_ms: int) -> None:
    """Put the database in WAL mode. Switching needs a moment of exclusive access that SQLite
    does not wait for (busy timeout or not), so when workers start together on a new file and
    another one holds it, try again until the busy timeout has passed."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


READ_ONLY_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def reads_only(view: Any) -> Any:
    """Mark a view that answers a POST without writing (a hand preview): its transactions stay
    deferred on SQLite, so it never waits for a writer nor holds one up."""
    view.reads_only = True
    return view


def end_transaction() -> None:
    """Commit what the session holds so far and give its connection back: a writing request
    on SQLite took the write lock with its first statement (BEGIN IMMEDIATE), which long work
    that needs no database (checking a large backup) must not hold; the next statement begins
    afresh."""
    db.session.commit()


def _reading_request() -> bool:
    """Whether this request only reads: by its method, or by its view's `reads_only` mark."""
    if request.method in READ_ONLY_METHODS:
        return True
    view = current_app.view_functions.get(request.endpoint or "")
    return getattr(view, "reads_only", False)


def _reading() -> bool:
    """Whether what begins now only reads: a reading request, or a block of `read_only`."""
    return (has_app_context() and g.get("_read_only", False)) or (has_request_context() and _reading_request())


def _postgres_begin(connection: Connection) -> None:
    """Begin a transaction, or none when only reading (the driver in autocommit): a reading
    request's statements then make no BEGIN and no ROLLBACK round trip. Under READ COMMITTED,
    PostgreSQL's default, each statement of a transaction reads its own snapshot anyway, so
    the same statements see the same rows. A connection given an isolation level of its own
    (`snapshot`'s REPEATABLE READ) keeps its transaction."""
    reading = _reading() and "isolation_level" not in connection.get_execution_options()
    if reading:
        driver: Any = connection.connection.driver_connection
        driver.autocommit = True
    connection.info["reading"] = reading


def _postgres_checkin(dbapi_connection: Any, record: Any) -> None:
    """A connection went back to the pool: one a reading request had in autocommit leaves it,
    so that the pool hands every connection out as the driver made it (`read_rows` counts on
    it)."""
    if record.info.pop("reading", False) and dbapi_connection is not None and not dbapi_connection.closed:
        dbapi_connection.autocommit = False


class WriteWhileReading(RuntimeError):
    """A reading request (GET, or a view marked `reads_only`) tried to write."""


READING_STATEMENTS = ("SELECT", "SHOW")


def _refuse_writes_while_reading(connection: Connection, _cursor: Any, statement: str, *_args: Any) -> None:
    """Refuse a writing statement in a reading request on PostgreSQL: it would run without a
    transaction (committed at once, alone). A GET never writes; this makes a bug loud."""
    if connection.info.get("reading") and not statement.lstrip()[:6].upper().startswith(READING_STATEMENTS):
        raise WriteWhileReading(f"a reading request wrote: {statement[:60]}")


def _sqlite_begin(connection: Any) -> None:
    """Begin a transaction: one that may write takes the write lock up front.

    A deferred transaction that reads first and writes later cannot wait for the lock once
    another writer has committed after its read ("database is locked" at once); BEGIN IMMEDIATE
    waits (busy timeout) instead. Reading requests (and views marked `reads_only`), and the
    blocks of `read_only` in any other (a log-in's look-up), stay deferred: WAL readers never
    block and are never blocked.
    """
    if _reading():
        connection.exec_driver_sql("BEGIN")
        return
    _pass_write_gate(connection.info, connection.engine.url.database or "")
    try:
        if _under_gevent():
            _begin_immediate_yielding(connection)
        else:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
    except BaseException:
        _leave_write_gate(connection.info)
        raise


def _busy_timeout_ms() -> int:
    """How long a writer waits for the write lock (the app's `SQLITE_BUSY_TIMEOUT_MS`)."""
    return int(current_app.config["SQLITE_BUSY_TIMEOUT_MS"]) if has_app_context() else 10_000


def _under_gevent() -> bool:
    """Whether gevent has patched this process (gunicorn's gevent workers)."""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey and monkey.is_module_patched("time"))


def _begin_immediate_yielding(connection: Any) -> None:
    """BEGIN IMMEDIATE without waiting inside SQLite: its busy timeout sleeps in C, which
    under gevent stops the whole worker (every open stream, every request) while a writer of
    another worker holds the lock. Ask without waiting, and sleep between tries (a gevent
    sleep lets the rest of the worker run), within the busy timeout."""
    timeout_ms = _busy_timeout_ms()
    deadline = time.monotonic() + timeout_ms / 1000
    cursor = connection.connection.driver_connection.cursor()
    cursor.execute("PRAGMA busy_timeout = 0")
    try:
        while True:
            try:
                cursor.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) and "busy" not in str(err):
                    raise
                if time.monotonic() > deadline:
                    raise OperationalError("BEGIN IMMEDIATE", None, err) from None
                time.sleep(0.002)
    finally:
        cursor.execute(f"PRAGMA busy_timeout = {int(timeout_ms)}")
        cursor.close()


_WRITE_GATES: dict[str, threading.BoundedSemaphore] = {}
"""Per database file: one writer of this process at a time asks SQLite for its write lock.
Under gevent workers (`WORKER_CLASS=gevent`) this is what keeps a worker alive: SQLite waits
for its lock in C, without letting other greenlets run, so a greenlet waiting there while
another greenlet of the same process holds the lock (paused on a socket, e.g. Redis) would
wait out the whole busy timeout. Waiting here yields; writers in other processes still wait on
SQLite's lock. A semaphore, not a lock: whoever returns the connection gives it back (a
connection the pool takes back from another thread too); one thread never holds two (its second
BEGIN IMMEDIATE on the same file would wait for its own first one in SQLite anyway)."""


def _pass_write_gate(info: dict[str, Any], database: str) -> None:
    """Take the database's gate (within the busy timeout) for the connection of `info`."""
    gate = _WRITE_GATES.setdefault(database, threading.BoundedSemaphore(1))
    timeout_ms = _busy_timeout_ms()
    if not gate.acquire(timeout=timeout_ms / 1000):
        raise OperationalError("BEGIN IMMEDIATE", None, sqlite3.OperationalError("database is locked"))
    info.setdefault("write_gates", []).append(gate)


def _leave_write_gate(info: dict[str, Any]) -> None:
    """Give back every gate this connection holds."""
    held = info.get("write_gates") or []
    while held:
        held.pop().release()


def _open_write_gate(connection: Connection) -> None:
    """A transaction ended (commit or rollback): its writer leaves the gate (an invalidated
    connection's info cannot be read: its return to the pool gives the gate back)."""
    if not connection.invalidated:
        _leave_write_gate(connection.info)


def _open_gate_on_return(_dbapi_connection: Any, record: Any) -> None:
    """A connection went back to the pool: whatever it began is over."""
    _leave_write_gate(record.info)


T = TypeVar("T")
Made = TypeVar("Made", Match, Event)


def made_once(
    model: type[Made], user_id: int, key: str | None, make: Callable[[str | None], Made], same: Callable[[Made], bool]
) -> tuple[Made, bool]:
    """What `make(key)` makes and commits, once per page form's `key` (`Match.start_key`,
    `Event.start_key`): the one user `user_id` made with that key already if `same` finds it
    made of the same contents, else (the form corrected and sent again after a lost answer) a
    new one, `make(None)`. Also when another request makes it at the same moment: the unique
    key refuses this one's rows, and the other's is found. What was made or found, and whether
    it was made now."""
    found = made_with(model, user_id, key)
    if found is not None:
        return (found, False) if same(found) else (make(None), True)
    try:
        return make(key), True
    except IntegrityError:
        db.session.rollback()
        found = made_with(model, user_id, key)
        if found is None:
            raise
        return found, False


def made_with(model: type[Made], user_id: int, key: str | None) -> Made | None:
    """The match or event user `user_id` made with the page's form of this key, if any."""
    if key is None:
        return None
    return db.session.execute(
        db.select(model).where(model.created_by_id == user_id, model.start_key == key)
    ).scalar_one_or_none()


def once_more_if_refused(write: Callable[[], T]) -> T:
    """`write()`, and once more if the database refused what it sent as a duplicate of a row
    another request wrote meanwhile (a unique key): then `write`'s own checks find that row
    and refuse in words. Not committed."""
    try:
        return write()
    except IntegrityError:
        db.session.rollback()
        return write()


def read_locked(match: Match, share: bool = False) -> None:
    """Read the match's row afresh, locked (PostgreSQL) until the transaction ends, `share`d or
    not: a writer that committed since this request loaded the match is waited for and seen
    (revision, status, rematch). Only rows fetched refresh the object, so the row is fetched;
    unless this transaction read it locked already (`hold_lock`): nobody can have changed it."""
    if _lock_held(match):
        return
    db.session.execute(_locked_row(share), {"match_id": match.id}).scalar_one()
    if not share:
        hold_lock(match)


def read_locked_in_order(match_ids: Iterable[str]) -> None:
    """`read_locked` for several matches in one statement, in the order of their ids: a change
    of several (a round taken back, a guest's seats claimed) never waits in a circle with
    another, nor with a hand, which locks its one match and then the night."""
    ids = sorted(set(match_ids))
    if ids:
        for match in db.session.execute(_locked_rows(), {"match_ids": ids}).scalars():
            hold_lock(match)


@functools.cache
def _locked_rows() -> Any:
    """The query of `read_locked_in_order`, built once."""
    return (
        db.select(Match)
        .where(Match.id.in_(bindparam("match_ids", expanding=True)))
        .order_by(Match.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )


@functools.cache
def _locked_row(share: bool) -> Any:
    """The query of `read_locked`, built once."""
    return (
        db.select(Match)
        .where(Match.id == bindparam("match_id"))
        .with_for_update(read=share)
        .execution_options(populate_existing=True)
    )


def hold_lock(match: Match) -> None:
    """Note that this transaction has just read the match's row afresh, locked for update (on
    SQLite, by a writing transaction: BEGIN IMMEDIATE holds the write lock from its first
    statement), so that `read_locked` need not read it again until the transaction ends. A
    reading request's statements on PostgreSQL each commit alone: nothing is held there."""
    session = db.session()
    if session.connection().info.get("reading"):
        return
    transaction = session.get_transaction()
    held = session.info.get("held_locks")
    if held is None or held[0] is not transaction:
        held = (transaction, set[str]())
        session.info["held_locks"] = held
    held[1].add(match.id)


def _lock_held(match: Match) -> bool:
    """Whether this very transaction read the match's row locked for update already."""
    session = db.session()
    held = session.info.get("held_locks")
    return held is not None and held[0] is session.get_transaction() and match.id in held[1]


class ReadFailed(ConnectionError):
    """The database failed `read_rows`' statement: the driver's reason is in the message."""


def read_rows(engine: Engine, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Run one reading statement through the driver on a pooled connection, outside any
    transaction: no BEGIN, no ROLLBACK, no write lock (what the live updates read every
    moment, `quick_poll.py` and `push.py`). `sql` marks its parameters with `?`. Raises
    `ReadFailed` if the database failed (the connection is thrown away)."""
    if engine.dialect.paramstyle != "qmark":
        sql = sql.replace("%", "%%").replace("?", "%s")
    psycopg = engine.dialect.driver == "psycopg"  # SQLite's connections run without BEGIN already
    pooled = None
    try:
        pooled = engine.raw_connection()
        driver: Any = pooled.driver_connection
        if psycopg:
            driver.autocommit = True
        cursor = pooled.cursor()
        cursor.execute(sql, list(params))
        rows = [tuple(row) for row in cursor.fetchall()]
        cursor.close()
        if psycopg:
            driver.autocommit = False  # as the pool hands its connections out
    except Exception as err:  # whatever went wrong, the caller's fallback answers
        if pooled is not None:
            pooled.invalidate()
        reason = " ".join(str(err).split())  # (the driver's lines, on one line of the log)
        raise ReadFailed(f"the database failed: {type(err).__name__}: {reason}") from err
    finally:
        if pooled is not None:
            pooled.close()
    return rows


@contextmanager
def read_only() -> Iterator[None]:
    """Run the block's queries in a transaction of their own that only reads (on SQLite: no
    write lock), ended with the block; what it loaded stays readable. Call nothing slow (a
    password hash) inside a transaction: after the block none is open."""
    db.session.commit()
    g._read_only = True
    try:
        yield
    finally:
        g._read_only = False
        db.session.commit()


@contextmanager
def form_page() -> Iterator[None]:
    """Draw a form's page. After a refused post, what the request began is rolled back (nothing
    of a refusal is stored) and the page reads in a transaction that only reads: drawing it must
    not hold the lock the post took to save (on SQLite the whole database's write lock, on
    PostgreSQL the rows it locked), which would hold up every other phone's save meanwhile. On a
    reading request (the form shown for the first time) it does nothing. (What the page shows is
    read again unlocked: a row another phone deleted in the moment between is not there.)"""
    if _reading():
        yield
        return
    db.session.rollback()
    with read_only():
        yield


@contextmanager
def snapshot() -> Iterator[None]:
    """A consistent copy of the whole database to read from, made without the write lock, for
    the block inside: on SQLite `db.session` reads a `VACUUM INTO` copy (a read transaction:
    writers go on), on PostgreSQL this database in one REPEATABLE READ transaction."""
    engine = db.engine
    if engine.dialect.name != "sqlite":
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        try:
            yield
        finally:
            db.session.rollback()
        return
    fd, path = tempfile.mkstemp(prefix="snapshot-", suffix=".sqlite", dir=current_app.instance_path)  # empty, mode 0600
    os.close(fd)
    try:
        source = sqlite3.connect(engine.url.database or "", isolation_level=None)
        try:
            source.execute(f"PRAGMA busy_timeout = {int(current_app.config['SQLITE_BUSY_TIMEOUT_MS'])}")
            source.execute("VACUUM INTO ?", (path,))
        finally:
            source.close()
        copy = create_engine(f"sqlite:///{path}")
        working = db.session.registry()  # this app context's session, set aside for the block
        db.session.registry.set(Session(copy))  # type: ignore[arg-type]  # a plain session reads as well
        try:
            yield
        finally:
            db.session.remove()
            db.session.registry.set(working)
            copy.dispose()
    finally:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.unlink(path + suffix)
