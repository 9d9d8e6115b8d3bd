"""The change feed on PostgreSQL: every committed change of a match is announced (`NOTIFY`, in
the change's own transaction, so a rollback announces nothing), and each process hears them on
one `LISTEN` connection of its own (`Listener`, used by the live updates' hub, web/live/push.py).

A match's version moves exactly when its `revision` does (services/matches/versions.py), and
a deleted match has none: `_announce` watches the session's flushes for both, whichever service
made the change; a new hand, written without a flush (`hand_rows.py`), announces itself in its
one statement. PostgreSQL delivers a transaction's identical notifications once, so a change
that flushes several times is announced once, and only when it commits.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.conninfo import make_conninfo
from sqlalchemy import Engine, event, inspect, text
from sqlalchemy.orm import Session

from .models import Match

CHANNEL = "match_changed"
"""The channel every change of a match is announced on; the payload is the match's id."""
_NOTIFY = text("SELECT pg_notify(:channel, :match_id)")
_KEEPALIVE = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3}
"""TCP keepalives on the listening connection: a server that vanished without a word (a
network cut, no reset) is noticed within about 25 s, as a dropped connection is at once."""


def changed_matches(session: Session) -> set[str]:
    """The ids of the matches this flush changes the version of: a new revision, or deleted."""
    changed = {m.id for m in session.dirty if isinstance(m, Match) and inspect(m).attrs.revision.history.has_changes()}
    return changed | {m.id for m in session.deleted if isinstance(m, Match)}


def _announce(session: Session, _flush_context: Any) -> None:
    """After a flush on PostgreSQL: NOTIFY each match whose version it changed, in the flush's
    transaction (delivered when, and only if, it commits)."""
    changed = changed_matches(session)
    if not changed:
        return
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        for match_id in sorted(changed):
            connection.execute(_NOTIFY, {"channel": CHANNEL, "match_id": match_id})


def init_app() -> None:
    """Announce every session's changes of a match (once per process, whatever the apps)."""
    if not event.contains(Session, "after_flush", _announce):
        event.listen(Session, "after_flush", _announce)


class Listener:
    """One process's `LISTEN` connection (psycopg, outside the pool: it waits on its socket,
    which under gevent lets the rest of the worker run)."""

    def __init__(self, engine: Engine) -> None:
        url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._conninfo = make_conninfo(url, connect_timeout=10, **_KEEPALIVE)
        self._conn: psycopg.Connection[Any] | None = None

    @property
    def pid(self) -> int | None:
        """The listening connection's server process, if connected."""
        return self._conn.info.backend_pid if self._conn is not None and not self._conn.closed else None

    def connect(self) -> None:
        """Open the connection and listen (dropping an old one first)."""
        self.close()
        conn = psycopg.connect(self._conninfo, autocommit=True)
        conn.execute(f"LISTEN {CHANNEL}")
        self._conn = conn

    def heard(self, timeout: float) -> set[str]:
        """The matches announced within `timeout` seconds: as soon as one is, with any others
        that came along. Raises psycopg's OperationalError once the connection is lost."""
        if self._conn is None:
            raise psycopg.OperationalError("not listening")
        heard = {n.payload for n in self._conn.notifies(timeout=timeout, stop_after=1)}
        if heard:
            heard |= {n.payload for n in self._conn.notifies(timeout=0)}
        return heard

    def close(self) -> None:
        """Stop listening (a no-op when not connected)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
