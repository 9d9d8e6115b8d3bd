"""The change feed: on PostgreSQL each committed change of a match is announced once (a rolled
back one never), a hub whose listening connection is killed reconnects and misses nothing; on
either database a change saved through one server reaches a stream held by another."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import ApiUser, empty_database
from flask import Flask

from bench.load import free_port, stop
from scoresheet.config import psycopg_url
from scoresheet.services.matches import audit
from scoresheet.storage.extensions import db
from scoresheet.storage.feed import CHANNEL, Listener
from scoresheet.storage.hand_rows import store_next_hand
from scoresheet.storage.models import Match, utcnow

from .helpers import call_json
from .test_push import open_stream, read_until
from .test_shared_limits import CHEAP_HASH, ROOT, redis_url, wait_until_serving

on_postgresql = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


@pytest.fixture
def listening(database_url: str) -> Iterator[psycopg.Connection[Any]]:
    """A connection of the test's own listening to the feed's channel."""
    url = psycopg_url(database_url).replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        yield conn


def heard(conn: psycopg.Connection[Any], within: float = 0.5) -> list[str]:
    """Every announcement that arrived within `within` seconds."""
    return [n.payload for n in conn.notifies(timeout=within)]


@on_postgresql
def test_each_committed_change_of_a_match_is_announced_exactly_once(
    api_user: ApiUser, stranger: ApiUser, listening: psycopg.Connection[Any]
) -> None:
    match_id = api_user.new_match()["id"]
    assert heard(listening) == []  # a new match: nobody follows it yet
    changes = [
        lambda: api_user.add_hand(match_id, {"kind": "redeal"}),
        lambda: api_user.add_hand(match_id, {"kind": "redeal"}),
        lambda: api_user.delete(f"/api/matches/{match_id}/hands/2"),
        lambda: api_user.post(f"/api/matches/{match_id}/end"),
    ]
    for change in changes:
        change()
        assert heard(listening) == [match_id]
    api_user.get(f"/api/matches/{match_id}")
    assert stranger.post(f"/api/matches/{match_id}/hands", json={"kind": "redeal"}).status_code == 404
    assert heard(listening) == []  # a read, a refusal: nothing changed


@on_postgresql
def test_a_rolled_back_change_is_never_announced(
    app: Flask, api_user: ApiUser, listening: psycopg.Connection[Any]
) -> None:
    match_id = api_user.new_match()["id"]
    heard(listening)
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        match.revision += 1
        db.session.flush()  # the NOTIFY is sent inside the transaction…
        db.session.rollback()  # …and goes with it
        assert heard(listening) == []
        db.session.get(Match, match_id).revision += 1  # type: ignore[union-attr]
        db.session.commit()
    assert heard(listening) == [match_id]


@on_postgresql
def test_a_hand_stored_in_one_statement_is_announced_only_when_it_commits(
    app: Flask, api_user: ApiUser, listening: psycopg.Connection[Any]
) -> None:
    match_id = api_user.new_match()["id"]
    heard(listening)
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        now = utcnow()
        hand = {"match_id": match_id, "number": 1, "uid": "rolled-back", "record": {"kind": "redeal"}, "version": 1}
        hand |= {"created_by_id": None, "updated_by_id": None, "created_at": now, "updated_at": now}
        entry = audit.row(match, None, "hand_added", 1, after={"kind": "redeal"}, at=now)
        store_next_hand(match, hand, [entry], {"revision": match.revision + 1, "updated_at": now})
        db.session.rollback()  # the announcement goes with the statement that made it
        assert heard(listening) == []
        assert db.session.get(Match, match_id).revision == 0  # type: ignore[union-attr]
    api_user.add_hand(match_id, {"kind": "redeal"})
    assert heard(listening) == [match_id]


@on_postgresql
def test_a_killed_listening_connection_reconnects_and_a_change_made_meanwhile_reaches_the_stream(
    app: Flask, api_user: ApiUser, listening: psycopg.Connection[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    app.config.update(LIVE_PUSH=True, PUSH_HEARTBEAT=0.3, PUSH_STREAM_SECONDS=20)
    hub = app.extensions["push"]
    hub._every = 0.05
    feed: Listener = hub._feed
    assert feed is not None
    connected, may_connect = [], threading.Event()
    may_connect.set()
    connect = feed.connect

    def counted() -> None:
        may_connect.wait(10)
        connect()
        connected.append(feed.pid)

    monkeypatch.setattr(feed, "connect", counted)
    match_id = api_user.new_match()["id"]
    token = api_user.post(f"/api/matches/{match_id}/watch").json["watch_url"].rsplit("/", 1)[1]
    response = app.test_client().get(f"/watch/{token}/events", buffered=False)
    chunks = iter(response.response)
    got = next(chunks).decode()
    assert "data: 0-0" in got

    def kill_then_change() -> None:
        deadline = time.monotonic() + 10
        while not connected and time.monotonic() < deadline:
            time.sleep(0.01)
        may_connect.clear()  # the next connection waits until the change below committed
        with psycopg.connect(listening.info.dsn, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [connected[0]])
        while feed.pid is not None and time.monotonic() < deadline:
            time.sleep(0.01)  # the hub noticed: it dropped the connection
        api_user.add_hand(match_id, {"kind": "redeal"})  # announced while the hub is not listening
        may_connect.set()

    deadline = time.monotonic() + 15
    while "event: alive" not in got and time.monotonic() < deadline:
        got += next(chunks).decode()  # the hub follows the match, listening
    killer = threading.Thread(target=kill_then_change)
    killer.start()
    while "data: 1-1" not in got and time.monotonic() < deadline:
        got += next(chunks).decode()
    killer.join()
    response.close()
    assert "data: 1-1" in got
    assert len(connected) == 2 and connected[0] != connected[1]  # one reconnection, a new backend
    assert heard(listening) == [match_id]  # the one change, announced once


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[tuple[int, int]]:
    """Two gunicorn servers of one gevent worker each on the same database (SQLite: one file,
    as two workers of one machine share it)."""
    empty_database(database_url)
    config = {
        "SECRET_KEY": "test secret key",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "PASSWORD_HASH_METHOD": CHEAP_HASH,
        "RATELIMIT_STORAGE_URI": redis_url(),
        "RATELIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}",
    }
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "RATELIMIT_STORAGE_URI", "SCORESHEET_WORKERS", "LIVE_PUSH")
    }
    servers: list[tuple[subprocess.Popen[bytes], int]] = []
    try:
        for n in range(2):
            port, log = free_port(), tmp_path / f"gunicorn{n}.log"
            served = {**config, "INSTANCE_PATH": str(tmp_path / f"instance{n}")}
            env.update(BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1", WORKER_CLASS="gevent", LOG_LEVEL="warning")
            with open(log, "wb") as out:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", f"scoresheet:create_app({served!r})"],
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=out,
                )
            servers.append((proc, port))
            wait_until_serving(proc, port, log)
        yield servers[0][1], servers[1][1]
    finally:
        for proc, _ in servers:
            stop(proc)


def test_a_change_saved_through_one_server_reaches_a_stream_on_another(two_servers: tuple[int, int]) -> None:
    streaming, saving = two_servers
    status, user = call_json(saving, "POST", "/api/users", {"username": "anna", "password": "correct horse battery"})
    assert status == 201, user
    token = user["token"]
    _, match = call_json(
        saving, "POST", "/api/matches", {"players": ["A", "B", "C"], "rules": "squarescores"}, token=token
    )
    _, links = call_json(saving, "POST", f"/api/matches/{match['id']}/watch", token=token)
    path = links["watch_url"].split("://", 1)[1].split("/", 1)[1]
    sock = open_stream(streaming, f"/{path}/events")
    try:
        assert b"data: 0-0" in read_until(sock, b"data: 0-0", time.monotonic() + 10)
        saved = time.monotonic()
        assert call_json(saving, "POST", f"/api/matches/{match['id']}/hands", {"kind": "redeal"}, token=token)[0] == 201
        assert b"data: 1-1" in read_until(sock, b"data: 1-1", saved + 6)  # (a shared machine: the goal is 1 s)
    finally:
        sock.close()


def test_a_waiting_stream_holds_no_pooled_connection(app: Flask, api_user: ApiUser) -> None:
    """A stream gives its request's connection back before it waits (and the hub's feed is a
    connection of its own): hundreds of streams of one worker never queue for its pool."""
    app.config.update(LIVE_PUSH=True, PUSH_HEARTBEAT=0.2, PUSH_STREAM_SECONDS=5)
    match_id = api_user.new_match()["id"]
    token = api_user.post(f"/api/matches/{match_id}/watch").json["watch_url"].rsplit("/", 1)[1]
    responses = [app.test_client().get(f"/watch/{token}/events", buffered=False) for _ in range(3)]
    chunks = [iter(r.response) for r in responses]
    for stream in chunks:
        assert "data: 0-0" in next(stream).decode()
        assert "event: alive" in next(stream).decode()  # waited a heartbeat on the hub
    with app.app_context():
        assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    for response in responses:
        response.close()
