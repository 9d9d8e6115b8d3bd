"""Only real writes take SQLite's write lock: a log-in's password hash, a backup and the page of
a refused hand form never hold it, so hands are saved meanwhile without waiting. Run on
PostgreSQL too."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from conftest import ApiUser, app_config, empty_database
from flask import Flask, before_render_template

from scoresheet import create_app
from scoresheet.services.matches import backup
from scoresheet.storage import passwords
from scoresheet.storage.extensions import db

from .helpers import played

SHORT_WAIT_MS = 300
"""The busy timeout of the app under test: a save that had to wait for a held write lock
fails at once instead of after the usual 10 s."""


@pytest.fixture
def impatient_app(database_url: str, tmp_path: Any) -> Iterator[Flask]:
    """The app on an empty database, with a short busy timeout."""
    empty_database(database_url)
    app = create_app(app_config(database_url, tmp_path, SQLITE_BUSY_TIMEOUT_MS=SHORT_WAIT_MS))
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def register(app: Flask, username: str) -> ApiUser:
    """A user registered through the API."""
    client = app.test_client()
    response = client.post("/api/users", json={"username": username, "password": "correct horse"})
    assert response.status_code == 201, response.json
    return ApiUser(client, username, response.json["token"])


class HeldHash:
    """Password checks that stay "in the hash" until released: a hash as slow as we like."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, expected: int) -> None:
        self.inside = threading.Semaphore(0)
        self.release = threading.Event()
        self.expected = expected
        real = passwords.check_password_hash

        def held(pwhash: str, password: str) -> bool:
            self.inside.release()
            assert self.release.wait(60)
            return real(pwhash, password)

        monkeypatch.setattr(passwords, "check_password_hash", held)

    def wait_until_all_inside(self) -> None:
        """Every expected log-in is now hashing."""
        for _ in range(self.expected):
            assert self.inside.acquire(timeout=20), "a log-in never reached its hash"


def test_hands_are_saved_while_wrong_log_ins_are_hashing(impatient_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    anna = register(impatient_app, "anna")
    match = anna.new_match()
    held = HeldHash(monkeypatch, expected=4)
    answers: list[int] = []

    def wrong_log_in(url: str, body: dict[str, str], as_json: bool) -> None:
        client = impatient_app.test_client()
        response = client.post(url, json=body) if as_json else client.post(url, data=body)
        answers.append(response.status_code)

    guesses = [
        ("/api/tokens", {"username": "anna", "password": "wrong guess"}, True),
        ("/api/tokens", {"username": "nobody", "password": "wrong guess"}, True),
        ("/login", {"username": "anna", "password": "wrong guess"}, False),
        ("/api/tokens", {"username": "anna", "password": "correct horse"}, True),
    ]
    threads = [threading.Thread(target=wrong_log_in, args=g) for g in guesses]
    for t in threads:
        t.start()
    held.wait_until_all_inside()  # four log-ins are in the middle of their password hash
    for number in range(1, 6):
        response = anna.post(
            f"/api/matches/{match['id']}/hands",
            json=played(number % 3, 100, [20 if s != number % 3 else None for s in range(3)]),
        )
        assert response.status_code == 201, response.json
    held.release.set()
    for t in threads:
        t.join(60)
    assert sorted(answers) == [201, 401, 401, 422]  # the right password still gets its token


def test_writers_proceed_while_the_whole_database_is_backed_up(
    impatient_app: Flask, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    anna = register(impatient_app, "anna")
    match = anna.new_match()
    anna.add_hand(match["id"], played(0, 100, [None, 20, 20]))
    saved: list[int] = []
    real_document = backup.document

    def document_while_a_hand_is_saved(*args: Any, **kw: Any) -> Any:
        """Half-way through the backup, another phone saves a hand (and must not wait)."""
        writer = threading.Thread(
            target=lambda: saved.append(
                anna.post(f"/api/matches/{match['id']}/hands", json={"kind": "redeal"}).status_code
            )
        )
        writer.start()
        writer.join(60)
        return real_document(*args, **kw)

    monkeypatch.setattr(backup, "document", document_while_a_hand_is_saved)
    file = tmp_path / "all.json"
    result = impatient_app.test_cli_runner().invoke(args=["backup", str(file)])
    assert result.exit_code == 0, result.output
    assert saved == [201]
    assert '"kind": "played"' in file.read_text() or '"kind":"played"' in file.read_text()
    assert len(anna.get(f"/api/matches/{match['id']}").json["hands"]) == 2


def test_the_sqlite_files_are_readable_by_their_owner_only(tmp_path: Any) -> None:
    path = tmp_path / "new.sqlite"
    app = create_app(app_config(f"sqlite:///{path}", tmp_path))
    register(app, "anna")  # a write: the WAL and shared-memory files exist now
    try:
        for name in ("new.sqlite", "new.sqlite-wal", "new.sqlite-shm"):
            assert (tmp_path / name).stat().st_mode & 0o777 == 0o600, name
    finally:
        with app.app_context():
            db.engine.dispose()


@contextmanager
def write_lock_held(app: Flask, database_url: str) -> Iterator[None]:
    """Another writer in the middle of its transaction: SQLite's write lock (PostgreSQL: every
    match row locked for update, as a hand being saved locks its match)."""
    with app.app_context():
        with db.engine.connect() as other:
            if database_url.startswith("sqlite"):
                other.exec_driver_sql("COMMIT")  # the event's BEGIN IMMEDIATE is the lock itself
                other.exec_driver_sql("BEGIN IMMEDIATE")
            other.exec_driver_sql(
                "SELECT id FROM matches FOR UPDATE" if not database_url.startswith("sqlite") else "SELECT 1"
            )
            try:
                yield
            finally:
                other.rollback()


def test_the_hand_preview_never_waits_for_a_writer(impatient_app: Flask, database_url: str) -> None:
    anna = register(impatient_app, "anna")
    match = anna.new_match()
    page = impatient_app.test_client()
    assert page.post("/login", data={"username": "anna", "password": "correct horse"}).status_code == 302
    with write_lock_held(impatient_app, database_url):
        api = anna.post(f"/api/matches/{match['id']}/hands/preview", json=played(0, 100, [None, 20, 20]))
        form = page.post(
            f"/matches/{match['id']}/hands/preview",
            data={"kind": "played", "declarer": "0", "bid": "100", "points_1": "20", "points_2": "20"},
        )
        if database_url.startswith("sqlite"):  # (PostgreSQL's writer would wait for ever)
            adding = anna.post(f"/api/matches/{match['id']}/hands", json={"kind": "redeal"})
            # A real write waits for the lock, gives up after the busy timeout and says so.
            assert adding.status_code == 503, adding.json
            assert "nothing was saved" in adding.json["error"]
            assert adding.headers["Retry-After"] == "1"
    assert api.status_code == 200, api.json
    assert api.json["hand"]["number"] == 1
    assert form.status_code == 200 and form.json["ok"], form.json
    assert anna.get(f"/api/matches/{match['id']}").json["hands"] == []


REFUSED_POSTS: dict[str, tuple[str, dict[str, Any], int]] = {
    "hand": (
        "/matches/{match}/hands/new",
        {"kind": "played", "declarer": "0", "bid": "7", "points_1": "20", "points_2": "20", "expected_hand": "2"},
        422,
    ),
    "new match": ("/matches/new", {}, 422),
    "match's code": ("/join", {"code": "WRONG1"}, 422),
    "delete not ticked": ("/matches/{match}/hands/1/delete", {}, 422),
    "no such hand (the error page)": ("/matches/{match}/hands/9/edit", {}, 404),
    "night's director": ("/events/{event}/directors", {"director": "nobody-here"}, 422),
    "night's check-in": ("/events/join", {"code": "WRONG1"}, 422),
    "night's result": ("/events/{event}/rounds/1/tables/1/result", {}, 422),
    "account's password": ("/account/password", {"current_password": "wrong horse", "new_password": "x"}, 422),
    "import": ("/import", {"file": b"not json"}, 422),
}
"""A post of each kind of form, refused: its page is drawn with the errors (bytes: a file), or
the error page; and the status it answers."""


@pytest.mark.parametrize("form", REFUSED_POSTS)
def test_a_refused_form_lets_the_other_phones_save_while_its_page_is_drawn(
    impatient_app: Flask, database_url: str, form: str
) -> None:
    anna = register(impatient_app, "anna")
    match = anna.new_match()
    assert anna.post(f"/api/matches/{match['id']}/hands", json={"kind": "redeal"}).status_code == 201
    event = anna.post("/api/events", json={"name": "Friday", "game": {"rules": "squarescores"}, "rounds": 1})
    assert event.status_code == 201, event.json
    for name in ("boris", "vera"):
        register(impatient_app, name).post("/api/events/join", json={"code": event.json["code"]})
    anna.post(f"/api/events/{event.json['id']}/roster", json={"guest": "Gosha"})
    assert anna.post(f"/api/events/{event.json['id']}/rounds").status_code == 201
    page = impatient_app.test_client()
    assert page.post("/login", data={"username": "anna", "password": "correct horse"}).status_code == 302
    saved: list[int] = []
    waited: list[bool] = []

    def another_phone_saves(_app: Flask, **_context: Any) -> None:
        """While the refused form's page is drawn, another phone saves a hand (SQLite: it would
        give up after the short busy timeout; PostgreSQL: wait on the match's row)."""
        if waited:
            return  # (a part of the page drawn inside it)
        writer = threading.Thread(
            target=lambda: saved.append(
                anna.post(f"/api/matches/{match['id']}/hands", json={"kind": "redeal"}).status_code
            )
        )
        writer.start()
        writer.join(5)
        waited.append(writer.is_alive())  # (PostgreSQL before: still waiting for the row)

    url, fields, status = REFUSED_POSTS[form]
    data = {k: (io.BytesIO(v), "backup.json") if isinstance(v, bytes) else v for k, v in fields.items()}
    with before_render_template.connected_to(another_phone_saves, impatient_app):
        refused = page.post(url.format(match=match["id"], event=event.json["id"]), data=data)
    assert refused.status_code == status
    assert waited == [False] and saved == [201]
    assert [h["kind"] for h in anna.get(f"/api/matches/{match['id']}").json["hands"]] == ["redeal", "redeal"]


def test_an_older_sqlite_file_others_could_read_is_narrowed_to_its_owner(tmp_path: Any) -> None:
    path = tmp_path / "old.sqlite"
    app = create_app(app_config(f"sqlite:///{path}", tmp_path))
    register(app, "anna")
    with app.app_context():
        db.engine.dispose()  # (the WAL is folded into the file and removed)
    path.chmod(0o644)  # as a file made before the 0600 rule was
    app = create_app(app_config(f"sqlite:///{path}", tmp_path))
    try:
        assert path.stat().st_mode & 0o777 == 0o600
        assert (
            app.test_client().post("/api/tokens", json={"username": "anna", "password": "correct horse"}).status_code
            == 201
        )
    finally:
        with app.app_context():
            db.engine.dispose()


def test_a_page_that_waited_too_long_for_the_write_lock_says_so_on_its_error_page(
    impatient_app: Flask, database_url: str
) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("SQLite only: PostgreSQL's writer waits on the row")
    anna = register(impatient_app, "anna")
    match = anna.new_match()
    page = impatient_app.test_client()
    assert page.post("/login", data={"username": "anna", "password": "correct horse"}).status_code == 302
    with write_lock_held(impatient_app, database_url):
        busy = page.post(f"/matches/{match['id']}/hands/new", data={"kind": "redeal", "expected_hand": "1"})
    assert busy.status_code == 503, busy.status_code
    assert busy.headers["Retry-After"] == "1"
    assert "anna" in busy.text  # the page of a logged-in player, drawn without the lock it waited for
    assert anna.get(f"/api/matches/{match['id']}").json["hands"] == []
