"""Concurrent phones against the real server: many threads entering and correcting hands of
one match at once. No duplicate, no lost acknowledged hand or correction, no 500."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event
from sqlalchemy.orm import Session
from werkzeug.serving import make_server

from scoresheet.services.club import results
from scoresheet.storage import models
from scoresheet.storage.extensions import db

from .helpers import call_json

THREADS = 12
REQUESTS_PER_THREAD = 25
DEADLINE_S = 90


class Server:
    """The app served by werkzeug on 127.0.0.1 (a thread per request), in a thread."""

    def __init__(self, app: Flask) -> None:
        self.httpd = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.httpd.server_port
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        """One request on a fresh connection: (status, JSON answer)."""
        return call_json(self.port, method, path, body, token)

    def stop(self) -> None:
        """Shut the server down."""
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


@pytest.fixture
def server(app: Flask) -> Iterator[Server]:
    """The real server on the parametrised database."""
    running = Server(app)
    yield running
    running.stop()


def signed_hand(i: int, declarer: int) -> dict[str, Any]:
    """A legal hand whose defenders' points make it unique for request `i` (21–60 each, so
    the declarer always misses and nobody ever wins)."""
    points: list[int | None] = [21 + i % 40, 21 + (i // 40) % 40]
    points.insert(declarer, None)
    return {"kind": "played", "declarer": declarer, "bid": 100, "points": points, "marriages": [[], [], []]}


def signature(hand: dict[str, Any]) -> tuple[Any, ...]:
    """What identifies a hand across corrections (a correction changes only the bid)."""
    points = list(hand["points"])
    points[hand["declarer"]] = None
    return hand["declarer"], *points


def test_many_phones_at_once_store_every_acknowledged_hand_once_and_lose_no_correction(
    server: Server, app: Flask
) -> None:
    tokens = []
    for name in ("anna", "boris", "vera", "gleb"):
        status, answer = server.call("POST", "/api/users", {"username": name, "password": "correct horse"})
        assert status == 201, answer
        tokens.append(answer["token"])
    status, match = server.call("POST", "/api/matches", {"players": ["Anna", "Boris", "Vera"]}, tokens[0])
    assert status == 201
    mid, code = match["id"], match["join_code"]
    for token in tokens[1:]:
        assert server.call("POST", "/api/matches/join", {"code": code}, token)[0] == 200

    lock = threading.Lock()
    statuses: Counter[int] = Counter()
    added: dict[tuple[Any, ...], int] = {}  # signature → hand number acknowledged with 201
    edits_ok: Counter[tuple[Any, ...]] = Counter()  # signature → corrections acknowledged
    failures: list[str] = []
    deadline = time.monotonic() + DEADLINE_S

    def phone(t: int) -> None:
        rng = random.Random(t)
        token = tokens[t % len(tokens)]
        seen: list[dict[str, Any]] = []  # the hands as this phone last saw them
        for k in range(REQUESTS_PER_THREAD):
            if time.monotonic() > deadline:
                return
            i = t * REQUESTS_PER_THREAD + k
            if seen and rng.random() < 0.35:  # correct a hand with the version last seen
                hand = rng.choice(seen)
                body = {
                    **signed_hand(0, hand["declarer"]),
                    "points": list(hand["points"]),
                    "bid": rng.choice([100, 105, 110, 115]),
                    "version": hand["version"],
                }
                body["points"][hand["declarer"]] = None
                status, answer = server.call("PUT", f"/api/matches/{mid}/hands/{hand['number']}", body, token)
                if status == 200:
                    with lock:
                        edits_ok[signature(hand)] += 1
            else:  # enter the next hand, half the time saying which number it expects
                body = signed_hand(i, rng.randrange(3))
                if rng.random() < 0.5:
                    body["expected_hand"] = len(seen) + 1
                status, answer = server.call("POST", f"/api/matches/{mid}/hands", body, token)
                if status == 201:
                    with lock:
                        added[signature(body)] = len(answer["hands"])
            with lock:
                statuses[status] += 1
                if status not in (200, 201, 409):
                    failures.append(f"{status}: {answer}")
            if status in (200, 201):
                seen = answer["hands"]
            elif status == 409:
                refreshed, answer = server.call("GET", f"/api/matches/{mid}", token=token)
                seen = answer["hands"] if refreshed == 200 else seen

    threads = [threading.Thread(target=phone, args=(t,)) for t in range(THREADS)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE_S + 30)
    elapsed = time.monotonic() - started
    assert not any(thread.is_alive() for thread in threads)
    assert failures == []
    assert sum(statuses.values()) == THREADS * REQUESTS_PER_THREAD, "ran out of time"

    status, final = server.call("GET", f"/api/matches/{mid}", token=tokens[0])
    assert status == 200
    stored = [signature(h) for h in final["hands"]]
    assert len(stored) == len(set(stored)), "a hand was stored twice"
    assert sorted(stored) == sorted(added), "an acknowledged hand is missing, or a refused one"
    for hand in final["hands"]:
        sig = signature(hand)
        assert added[sig] == hand["number"], "a hand moved from the number it was given"
        assert hand["version"] == 1 + edits_ok[sig], "an acknowledged correction was lost"
    assert [h["number"] for h in final["hands"]] == list(range(1, len(stored) + 1))
    with app.app_context():
        history = db.session.execute(
            db.text("SELECT action, count(*) FROM audit_entries WHERE match_id = :m GROUP BY action"), {"m": mid}
        ).all()
    assert dict(history).get("hand_added") == len(added)
    assert dict(history).get("hand_edited", 0) == sum(edits_ok.values())
    print(
        f"\n{app.config['SQLALCHEMY_DATABASE_URI'].split(':')[0]}: "
        f"{sum(statuses.values())} requests in {elapsed:.1f} s from {THREADS} threads, "
        f"statuses {dict(statuses)}, hands {len(stored)}, corrections {sum(edits_ok.values())}, "
        "duplicates 0, lost 0"
    )


def test_players_checking_in_and_tables_ending_at_once_keep_the_nights_standings_whole(
    server: Server, app: Flask
) -> None:
    status, director = server.call("POST", "/api/users", {"username": "director", "password": "correct horse"})
    assert status == 201
    body = {"name": "Friday", "game": {"rules": "squarescores"}, "rounds": 2, "seed": 4}
    status, night = server.call("POST", "/api/events", body, director["token"])
    assert status == 201
    url = f"/api/events/{night['id']}"
    for n in range(12):
        assert server.call("POST", f"{url}/roster", {"guest": f"Guest {n}"}, director["token"])[0] == 201
    status, round_ = server.call("POST", f"{url}/rounds", None, director["token"])
    assert status == 201
    players = []
    for n in range(8):
        status, answer = server.call("POST", "/api/users", {"username": f"late{n}", "password": "correct horse"})
        assert status == 201
        players.append(answer["token"])
    answers: list[int] = []

    def check_in(token: str) -> None:  # eight phones scan the event's QR at once
        answers.append(server.call("POST", "/api/events/join", {"code": night["code"]}, token)[0])

    def end(match_id: str) -> None:  # every table of the round ends at once (its standings ranked)
        answers.append(server.call("POST", f"/api/matches/{match_id}/end", None, director["token"])[0])

    threads = [threading.Thread(target=check_in, args=(t,)) for t in players]
    threads += [threading.Thread(target=end, args=(t["match_id"],)) for t in round_["tables"]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE_S)
    assert sorted(answers) == [200] * 12
    with app.app_context():
        kept = db.session.get(models.Event, night["id"])
        assert kept is not None
        rounds = results.engine_rounds(kept)
        assert kept.standings == results.kept_form(results.standings(kept, rounds), len(rounds))
        assert len(kept.standings["rows"]) == 20 and sum(row[6] for row in kept.standings["rows"]) == 12


def test_sqlite_write_requests_begin_immediate_and_reads_do_not(app: Flask, server: Server) -> None:
    with app.app_context():
        engine = db.engine
    if engine.dialect.name != "sqlite":
        pytest.skip("SQLite only")
    begins: list[str] = []

    def remember(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.startswith("BEGIN"):
            begins.append(statement)

    event.listen(engine, "before_cursor_execute", remember)
    try:
        status, answer = server.call("POST", "/api/users", {"username": "anna", "password": "correct horse"})
        assert status == 201 and set(begins) == {"BEGIN IMMEDIATE"}
        begins.clear()
        assert server.call("GET", "/api/matches", token=answer["token"])[0] == 200
        assert set(begins) == {"BEGIN"}
    finally:
        event.remove(engine, "before_cursor_execute", remember)
    with app.app_context():
        pragmas = {
            p: db.session.execute(db.text(f"PRAGMA {p}")).scalar()
            for p in ("journal_mode", "foreign_keys", "busy_timeout")
        }
    assert pragmas == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 10_000}


def test_a_deadlock_between_two_writers_is_a_503_that_stores_nothing(
    app: Flask, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Two writers that take the same rows in opposite orders: PostgreSQL rolls one back. Here
    a table's first hand ends its match (a hand limit of 1): it locks the match, then the night
    to keep its standings; the other writer holds the night and then wants the match (as
    re-seating a round did before it locked the matches first). The hand's request answers 503
    (nothing saved, the phone sends it again), and sent again it is saved."""
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL only: SQLite has one writer at a time, which cannot deadlock")
    phone = app.test_client()
    token, night_id, match_id = seated_night(phone, hand_limit=1)
    answers: list[Any] = []
    with app.app_context():  # the hand looks for a deadlock once, after waiting 5 s (not 1 s): by
        db.engine.dispose()  # then the other writer waits too, however slow the machine
        event.listen(db.engine, "connect", _deadlock_timeout_5s)

    def first_hand() -> None:
        answers.append(phone.post(f"/api/matches/{match_id}/hands", json={"kind": "redeal"}, headers=bearer(token)))

    with app.app_context(), db.engine.connect() as other, db.engine.connect() as watcher:
        other.exec_driver_sql("SET deadlock_timeout = '60s'")  # the hand's request notices first
        other.execute(db.text("SELECT id FROM events WHERE id = :id FOR UPDATE"), {"id": night_id})
        hand = threading.Thread(target=first_hand)
        hand.start()
        wait_for_a_lock(watcher, hand)  # the hand waits for the night
        other.execute(db.text("SELECT id FROM matches WHERE id = :id FOR UPDATE"), {"id": match_id})
        hand.join(DEADLINE_S)
        other.rollback()
    (answer,) = answers
    assert answer.status_code == 503, answer.json
    assert "nothing was saved" in answer.json["error"] and answer.headers["Retry-After"] == "1"
    assert "two writers clashed (40P01)" in caplog.text  # the app takes its rows in one order: logged
    assert call_json_of(phone, "GET", f"/api/matches/{match_id}", None, token)[1]["hands"] == []
    again = phone.post(f"/api/matches/{match_id}/hands", json={"kind": "redeal"}, headers=bearer(token))
    assert again.status_code == 201, again.json
    assert call_json_of(phone, "GET", f"/api/matches/{match_id}", None, token)[1]["status"] == "ended"


def test_a_round_seated_again_waits_for_a_hand_being_saved_and_then_keeps_it(app: Flask, database_url: str) -> None:
    """Re-seating a round locks its tables' matches before the night, in the order a hand takes
    them (its match, then the night): while a table's first hand is being saved the re-seat
    waits without holding the night, then finds the hand and refuses (409) instead of deleting
    it with the match."""
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL only: SQLite's writers take the one write lock, one after another")
    phone = app.test_client()
    token, night_id, match_id = seated_night(phone)
    answers: list[Any] = []

    def reseat() -> None:
        answers.append(phone.delete(f"/api/events/{night_id}/rounds/1", headers=bearer(token)))

    with app.app_context(), Session(db.engine) as saving, db.engine.connect() as watcher:
        saving.execute(db.select(models.Match.id).where(models.Match.id == match_id).with_for_update())
        saving.add(models.Hand(match_id=match_id, number=1, record={"kind": "redeal"}))
        saving.flush()  # a hand being saved: its match locked, its row written, not committed yet
        director = threading.Thread(target=reseat)
        director.start()
        wait_for_a_lock(watcher, director)
        # The night is free meanwhile (the hand's standings can be kept): locked and let go at once.
        watcher.execute(db.text("SELECT id FROM events WHERE id = :id FOR UPDATE NOWAIT"), {"id": night_id})
        saving.commit()
        director.join(DEADLINE_S)
    (answer,) = answers
    assert answer.status_code == 409, answer.json
    assert "has played" in answer.json["error"]
    assert len(call_json_of(phone, "GET", f"/api/matches/{match_id}", None, token)[1]["hands"]) == 1


def seated_night(client: Any, **body: Any) -> tuple[str, str, str]:
    """A director's token, their night of three guests with round 1 seated, and its one
    table's match id."""
    status, director = call_json_of(client, "POST", "/api/users", {"username": "director", "password": "correct horse"})
    assert status == 201
    token = director["token"]
    body = {"name": "Friday", "game": {"rules": "squarescores"}, "rounds": 2, "seed": 4, **body}
    status, night = call_json_of(client, "POST", "/api/events", body, token)
    assert status == 201
    for n in range(3):
        guest = {"guest": f"Guest {n}"}
        assert call_json_of(client, "POST", f"/api/events/{night['id']}/roster", guest, token)[0] == 201
    status, round_ = call_json_of(client, "POST", f"/api/events/{night['id']}/rounds", None, token)
    assert status == 201
    return token, night["id"], round_["tables"][0]["match_id"]


def _deadlock_timeout_5s(dbapi_connection: Any, _record: Any) -> None:
    """A new connection checks for a deadlock after waiting 5 s for a lock."""
    dbapi_connection.execute("SET deadlock_timeout = '5s'")
    dbapi_connection.commit()


def wait_for_a_lock(watcher: Any, thread: threading.Thread) -> None:
    """Wait until a request of this database waits for a row lock (`thread` making it)."""
    watcher.execution_options(isolation_level="AUTOCOMMIT")  # (a transaction reads one snapshot)
    waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
    deadline = time.monotonic() + DEADLINE_S
    while watcher.exec_driver_sql(waiting).scalar_one() == 0:
        assert time.monotonic() < deadline and thread.is_alive(), "nothing waited for a lock"
        time.sleep(0.05)


def bearer(token: str) -> dict[str, str]:
    """The API's authorization header."""
    return {"Authorization": f"Bearer {token}"}


def call_json_of(client: Any, method: str, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
    """One JSON request through the test client: (status, answer)."""
    answer = client.open(path, method=method, json=body, headers=bearer(token) if token else {})
    return answer.status_code, answer.json
