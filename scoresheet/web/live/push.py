"""Live updates pushed to the phones as Server-Sent Events, where the server can hold
connections open (`LIVE_PUSH`: gunicorn's gevent workers, or the development server, `flask run`,
which holds each in a thread of its own).

A phone following a match keeps one `GET /matches/<id>/events` (a watch link:
`/watch/<token>/events`) open instead of asking for the version every 1.5 s: a table that is
thinking costs an idle connection and a short `alive` event every `PUSH_HEARTBEAT` seconds, and
a saved hand reaches the other phones at once: one thread per process listens to PostgreSQL's
change feed (storage/feed.py) and reads a followed match's version only when the match is
announced; on SQLite (or with `LIVE_FEED=poll`) it reads the versions of every match its
streams follow, in one query, every `PUSH_EVERY` seconds. Each stream says the
match's version first, then each new one; after `PUSH_STREAM_SECONDS` it says `reopen` and ends, and
the page opens the next stream at once, logged in afresh (a session logged out since gets the app's own
answer). Whether each stream may still be read is checked by the same thread for every stream of
the process at once, every `ACCESS_EVERY` seconds: one query, however many streams are open.
Without push the pages poll `…/version` as before (`static/app.js` falls back to it).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app
from sqlalchemy import Engine
from werkzeug.wrappers import Response

from ...services.accounts import same_secret, session_parts
from ...services.matches.versions import HANDS_AND_REVISION_SQL, newer, version
from ...storage.database import read_rows
from ...storage.extensions import db
from ...storage.feed import Listener
from ..security import development_server

ACCESS_EVERY = 2.0
"""How often, in seconds, the hub checks that each stream may still be read: its session's user
is still that session's (not logged out, password unchanged, account there) and a member, or its
watch link still the match's. A stream whose access ended stops within this (and a read)."""
KEEP = 10.0
"""How long, in seconds, the hub keeps following a match after its last stream stopped
waiting: a stream between two waits, or a page opening its next stream, is never a match the
hub forgot (a change announced meanwhile would go unheard until the next)."""
GONE = ""
"""The version of a match that is no longer there: its streams end."""
_CHUNK = 500
_VERSIONS = f"SELECT m.id, {HANDS_AND_REVISION_SQL} FROM matches m WHERE m.id IN ({{}})"
_ACCESS = (
    "SELECT m.id, m.watch_token, mb.user_id, u.session_secret FROM matches m"
    " LEFT JOIN members mb ON mb.match_id = m.id LEFT JOIN users u ON u.id = mb.user_id"
    " WHERE m.id IN ({})"
)
"""Who may read the streams of these matches: each match's watch token, and each member's
account with its session secret (what `accounts.load_user` and a membership check would read
for each stream, for every stream of the process in one query)."""
_log = logging.getLogger(__name__)
_WHAT = {
    "versions": "reading the versions",
    "feed": "listening to the change feed",
    "access": "checking the streams' access",
}
"""The hub's troubles as its log names them once they are over."""


@dataclass(frozen=True, slots=True)
class Pass:
    """What lets a stream be read: a member's session (`<id>:<secret>:<issued>`, `User.get_id`)
    or a watch link's token, for one match."""

    match_id: str
    session_id: str | None = None
    token: str | None = None

    def holds(self, rows: Iterable[tuple[Any, ...]]) -> bool:
        """Whether the pass still holds, by the match's rows of `_ACCESS` (none: the match is gone)."""
        if self.token is not None:
            return any(token == self.token for _m, token, _u, _s in rows)
        parts = session_parts(self.session_id or "")
        if parts is None:  # issued too long ago
            return False
        user_id, secret = parts
        return any(u == user_id and s is not None and same_secret(s, secret) for _m, _t, u, s in rows)


class Hub:
    """One per process: the matches its streams follow and their versions; a change wakes only
    that match's streams. One thread learns of the changes: on PostgreSQL it listens to the
    change feed (storage/feed.py) and reads the version of a followed match only when that
    match is announced, after each (re)connection the versions of all followed matches once
    (what changed while it was not listening); without a feed (SQLite, or `LIVE_FEED=poll`) it
    reads the versions of every followed match, in one query, every `every` seconds."""

    def __init__(self, engine: Engine, every: float, feed: Listener | None = None) -> None:
        self._engine, self._every, self._feed = engine, every, feed
        self._lock = threading.Lock()
        self._changed: dict[str, threading.Condition] = {}
        """Per followed match, what its streams wait on (all on `_lock`)."""
        self._following: Counter[str] = Counter()
        self._left_at: dict[str, float] = {}
        """When the last stream of a match stopped waiting (it is remembered `KEEP` seconds)."""
        self._new: set[str] = set()
        """Matches the hub began following since its thread last looked: their versions are
        read once (a change announced before the hub followed them was not heard)."""
        self._versions: dict[str, str] = {}
        self._reader: threading.Thread | None = None
        self._stopped = threading.Event()
        self._read_at = time.monotonic()
        """When the hub last knew it had heard of every change (a poll read the versions, the
        feed answered, or there was nothing to follow)."""
        self._passes: Counter[Pass] = Counter()
        """The passes of the streams open now (several streams may hold the same)."""
        self._refused: set[Pass] = set()
        self._checked_at = time.monotonic()
        self._troubles: set[str] = set()
        """What the hub could not do last time it tried (said once in the log until it can)."""

    def current(self, within: float) -> bool:
        """Whether the hub knew of every change in the last `within` seconds (and the two rounds
        a slow one may take): while the database does not answer, the streams say nothing, and
        the pages say they may be out of date."""
        return time.monotonic() - self._read_at <= within + 2 * self._every

    def wait(self, match_id: str, known: str, timeout: float, pass_: Pass | None = None) -> str:
        """The match's version once it is not `known` any more, else `known` after `timeout`
        (or at once when the hub finds `pass_` no longer holds)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            self._following[match_id] += 1
            if match_id not in self._changed:
                self._changed[match_id] = threading.Condition(self._lock)
                self._new.add(match_id)
            changed = self._changed[match_id]
            if self._reader is None:
                target = self._poll if self._feed is None else self._listen
                self._reader = threading.Thread(target=target, name="push-hub", daemon=True)
                self._reader.start()
            try:
                while not _newer(self._versions.get(match_id, known), known) and pass_ not in self._refused:
                    left = deadline - time.monotonic()
                    if left <= 0 or not changed.wait(left):
                        break
                fresh = self._versions.get(match_id, known)
                return fresh if _newer(fresh, known) else known
            finally:
                self._following[match_id] -= 1
                if not self._following[match_id]:
                    del self._following[match_id]
                    self._left_at[match_id] = time.monotonic()

    def admit(self, pass_: Pass) -> None:
        """A stream opens with this pass (checked by the hub from now on)."""
        with self._lock:
            self._passes[pass_] += 1

    def leave(self, pass_: Pass) -> None:
        """A stream with this pass ended."""
        with self._lock:
            self._passes[pass_] -= 1
            if not self._passes[pass_]:
                del self._passes[pass_]
                self._refused.discard(pass_)

    def allowed(self, pass_: Pass) -> bool:
        """Whether the pass held at the hub's last check (while the database does not answer,
        the last answer stands)."""
        return pass_ not in self._refused

    def _poll(self) -> None:
        """Every `every` seconds, the versions of the matches followed; wake their streams."""
        while not self._stopped.wait(self._every):
            try:
                read = self._refresh(self._followed()[0])
            except ConnectionError as err:  # the database is away: the streams wait, we try again
                self._trouble("versions", f"the versions could not be read ({err})")
                continue
            if read:  # (with nothing followed nothing was read: no news of the database)
                self._untroubled("versions")
            self._read_at = time.monotonic()
            self._check_access_or_say()  # a failure is decided at the next check: the versions are read

    def _listen(self) -> None:
        """Listen to the change feed; read the versions of the followed matches announced, and
        of those newly followed. Connected (again), first read every followed match's version:
        a change committed while nobody listened (before the first stream, or while the
        connection was lost) is then heard all the same."""
        feed = self._feed
        assert feed is not None
        while not self._stopped.is_set():
            try:
                feed.connect()
                self._refresh(self._followed()[0])
                self._read_at = time.monotonic()
                self._untroubled("feed")
                while not self._stopped.is_set():
                    heard = feed.heard(self._every)
                    self._read_at = time.monotonic()
                    followed, new = self._followed()
                    self._refresh([m for m in followed if m in heard or m in new])
                    self._check_access_or_say()  # a failure is decided at the next check: the feed is fine
            except Exception as err:  # noqa: BLE001 — lost, or the database is away: connect again after a pause
                self._trouble("feed", f"listening to the change feed failed ({type(err).__name__}: {err})")
                feed.close()
                self._stopped.wait(self._every)
        feed.close()

    def _followed(self) -> tuple[list[str], set[str]]:
        """The matches followed now or in the last `KEEP` seconds, and which of them are new
        since the last call; older ones are forgotten."""
        now = time.monotonic()
        with self._lock:
            for gone in [m for m, at in self._left_at.items() if now - at > KEEP and m not in self._following]:
                del self._left_at[gone]
                self._changed.pop(gone, None)
                self._versions.pop(gone, None)
            new, self._new = self._new, set()
            return list(self._changed), new

    def _refresh(self, match_ids: list[str]) -> bool:
        """Read these matches' versions and wake the streams of each that changed (a missing
        match is gone). Whether it read (none to read: no); raises ConnectionError if the
        database did not answer."""
        if not match_ids:
            return False
        fresh = self._versions_of(match_ids)
        with self._lock:
            for match_id in match_ids:
                version = fresh.get(match_id, GONE)
                if self._versions.get(match_id) != version and match_id in self._changed:
                    self._versions[match_id] = version
                    self._changed[match_id].notify_all()
        return True

    def _check_access_or_say(self) -> None:
        """`_check_access`, its failure said in the log (the last answer stands meanwhile)."""
        try:
            checked = self._check_access()
        except ConnectionError as err:
            self._trouble("access", f"the streams' access could not be checked ({err})")
        else:
            if checked:
                self._untroubled("access")

    def _trouble(self, what: str, saying: str) -> None:
        """Say in the log, once until it works again, what the hub could not do."""
        if what not in self._troubles:
            self._troubles.add(what)
            _log.warning("live updates: %s; the hub keeps trying", saying)

    def _untroubled(self, what: str) -> None:
        """What the hub could not do works again: say so, if the log said it did not."""
        if what in self._troubles:
            self._troubles.discard(what)
            _log.warning("live updates: %s works again", _WHAT[what])

    def _check_access(self) -> bool:
        """Every `ACCESS_EVERY` seconds, check every open stream's pass in one query; wake the
        streams of a pass that no longer holds (they end). Whether it checked now; raises
        ConnectionError if the database did not answer."""
        if time.monotonic() - self._checked_at < ACCESS_EVERY:
            return False
        with self._lock:
            passes = list(self._passes)
        if not passes:  # (the first stream to come is checked at once)
            return False
        self._checked_at = time.monotonic()
        rows: dict[str, list[tuple[Any, ...]]] = {}
        for row in self._read(_ACCESS, sorted({p.match_id for p in passes})):
            rows.setdefault(row[0], []).append(row)
        refused = {p for p in passes if not p.holds(rows.get(p.match_id, ()))}
        with self._lock:
            for pass_ in refused - self._refused:
                if pass_.match_id in self._changed:
                    self._changed[pass_.match_id].notify_all()
            self._refused = refused & set(self._passes)
        return True

    def stop(self) -> None:
        """End the hub's thread and wait for it (an app that is done with its database: its
        last read must not outlive the engine)."""
        self._stopped.set()
        if self._reader is not None:
            self._reader.join()

    def _versions_of(self, match_ids: list[str]) -> dict[str, str]:
        """`<hands>-<revision>` of each of these matches that is still there (read outside any
        transaction: on SQLite no write lock, which would stall every stream of the worker)."""
        return {m: version(n, r) for m, n, r in self._read(_VERSIONS, match_ids)}

    def _read(self, sql: str, match_ids: list[str]) -> list[tuple[Any, ...]]:
        """The rows of `sql` (its `IN ({})` filled with a placeholder per id) for these matches,
        `_CHUNK` at a time. Raises `ReadFailed` (a ConnectionError) if the database failed."""
        rows: list[tuple[Any, ...]] = []
        for start in range(0, len(match_ids), _CHUNK):
            chunk = match_ids[start : start + _CHUNK]
            rows.extend(read_rows(self._engine, sql.format(", ".join("?" * len(chunk))), chunk))
        return rows


def _newer(version: str, known: str) -> bool:
    """Whether `version` comes after `known` (the revision counts every change; a version the
    hub read before the stream read its own is not news) or the match is gone."""
    return version == GONE or newer(version, known)


def enabled() -> bool:
    """Whether this server pushes live updates (the pages then listen instead of polling)."""
    return bool(current_app.config.get("LIVE_PUSH"))


def init_app(app: Flask) -> None:
    """Give the app its hub (it starts when the first stream waits), listening to the change
    feed on PostgreSQL unless `LIVE_FEED` is `poll`. `LIVE_PUSH` left
    unset (None) means: push under the development server (`flask run`), which holds each
    stream in a thread of its own, and poll elsewhere."""
    if app.config.get("LIVE_PUSH") is None:
        app.config["LIVE_PUSH"] = development_server()
    with app.app_context():
        engine = db.engine
        listens = engine.dialect.name == "postgresql" and app.config["LIVE_FEED"] != "poll"
        app.extensions["push"] = Hub(engine, float(app.config["PUSH_EVERY"]), Listener(engine) if listens else None)


def stream(version: str, pass_: Pass) -> Response:
    """The event stream of the pass's match: the version now, each new one, `alive` while
    nothing changes; it ends once the hub finds the pass no longer holds (`ACCESS_EVERY`)."""
    hub: Hub = current_app.extensions["push"]
    beat = float(current_app.config["PUSH_HEARTBEAT"])
    lifetime = float(current_app.config["PUSH_STREAM_SECONDS"])
    match_id = pass_.match_id

    def events() -> Iterator[str]:
        hub.admit(pass_)
        try:
            yield from _events()
        finally:
            hub.leave(pass_)

    def _events() -> Iterator[str]:
        yield f"retry: 2000\ndata: {version}\n\n"
        known, now = version, time.monotonic()
        end, said = now + lifetime, now
        while (left := end - now) > 0:
            fresh = hub.wait(match_id, known, max(0.0, min(beat - (now - said), left)), pass_)
            now = time.monotonic()
            if fresh == GONE or not hub.allowed(pass_):
                return
            if fresh != known:
                known, said = fresh, now
                yield f"data: {known}\n\n"
            elif now - said >= beat:
                said = now
                if hub.current(beat):  # else silence: the page says it may be out of date
                    yield "event: alive\ndata: \n\n"
        # Time is up: the page opens the next stream at once (not after `retry`, the pause
        # for a lost connection), which names the version first.
        yield "event: reopen\ndata: \n\n"

    response = Response(events(), mimetype="text/event-stream")
    response.cache_control.no_store = True
    response.headers["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response
