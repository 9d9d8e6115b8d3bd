"""An event stream ends within seconds of its access ending: the member's log-out, log-out
everywhere, password change, account deletion or removal from the match; a stopped watch link.
The hub checks every open stream of the process in one query."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match
from scoresheet.web.live import push

from .page_helpers import Phone

OLD, NEW = "correct horse", "violin meadow candle trout"


@pytest.fixture
def long_streams(csrf_app: Flask, monkeypatch: pytest.MonkeyPatch) -> Flask:
    """Streams that would last 20 s, their access checked every 0.2 s."""
    csrf_app.config.update(LIVE_PUSH=True, PUSH_EVERY=0.05, PUSH_HEARTBEAT=0.3, PUSH_STREAM_SECONDS=20)
    csrf_app.extensions["push"]._every = 0.05
    monkeypatch.setattr(push, "ACCESS_EVERY", 0.2, raising=False)  # (the check did not exist before)
    return csrf_app


def seconds_until_the_stream_ends(response: Any, change: Callable[[], Any]) -> float:
    """Read the stream while `change` happens 0.5 s in; how long after it the stream ended."""
    done = threading.Event()
    changed_at: list[float] = []

    def run() -> None:
        time.sleep(0.5)
        change()
        changed_at.append(time.monotonic())
        done.set()

    thread = threading.Thread(target=run)
    thread.start()
    for _chunk in response.response:
        pass
    ended = time.monotonic()
    thread.join()
    assert done.is_set()
    return ended - changed_at[0]


CHANGES: dict[str, Callable[[Phone], Any]] = {
    "log out": lambda p: p.post("/logout", {}),
    "log out everywhere": lambda p: p.post("/account/logout-everywhere", {}, form_url="/account"),
    "password change": lambda p: p.post(
        "/account/password", {"current_password": OLD, "new_password": NEW}, form_url="/account"
    ),
    "account deletion": lambda p: p.post("/account/delete", {"password": OLD}, form_url="/account"),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_members_stream_ends_soon_after_the_access_ends(long_streams: Flask, phone: Phone, change: str) -> None:
    match_id = phone.new_match()
    other = Phone(long_streams.test_client())
    other.client._cookies = dict(phone.client._cookies)  # the same session, on the phone that acts
    response = phone.get(f"/matches/{match_id}/events", buffered=False)
    assert response.status_code == 200
    assert seconds_until_the_stream_ends(response, lambda: CHANGES[change](other)) < 5


def test_a_watch_links_stream_ends_soon_after_the_link_is_stopped(long_streams: Flask, phone: Phone) -> None:
    match_id = phone.new_match()
    phone.post(f"/matches/{match_id}/watch", {}, form_url=f"/matches/{match_id}")
    page = phone.get(f"/matches/{match_id}").text
    token = page.split("/watch/", 1)[1].split('"', 1)[0].split("<", 1)[0]
    watcher = long_streams.test_client()
    response = watcher.get(f"/watch/{token}/events", buffered=False)
    assert response.status_code == 200
    stop = lambda: phone.post(f"/matches/{match_id}/watch/stop", {}, form_url=f"/matches/{match_id}")  # noqa: E731
    assert seconds_until_the_stream_ends(response, stop) < 5


def test_a_removed_members_stream_ends_soon_after(long_streams: Flask, make_phone: Any) -> None:
    anna, boris = make_phone("anna"), make_phone("boris")
    match_id = anna.new_match()
    with long_streams.app_context():
        code = db.session.get(Match, match_id).join_code
    assert boris.post("/join", {"code": code}, form_url="/").status_code == 302
    response = boris.get(f"/matches/{match_id}/events", buffered=False)
    assert response.status_code == 200
    remove = lambda: anna.post(f"/matches/{match_id}/members/boris/remove", {}, form_url=f"/matches/{match_id}")  # noqa: E731
    assert seconds_until_the_stream_ends(response, remove) < 5


def test_one_query_checks_every_stream_of_the_process(
    long_streams: Flask, make_phone: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    phones = [make_phone(name) for name in ("anna", "boris", "vera")]
    matches = [p.new_match() for p in phones]
    streams = [
        p.get(f"/matches/{m}/events", buffered=False) for p, m in zip(phones, matches, strict=True) for _ in range(2)
    ]
    checks: list[int] = []
    read = push.read_rows

    def counted(engine: Any, sql: str, params: Any) -> Any:
        if "watch_token" in sql:
            checks.append(len(params))
        return read(engine, sql, params)

    monkeypatch.setattr(push, "read_rows", counted)
    readers = [threading.Thread(target=lambda r=r: [None for _ in r.response]) for r in streams]
    for reader in readers:
        reader.start()
    time.sleep(1.0)  # about five checks of the six streams (ACCESS_EVERY is 0.2 s here)
    before = list(checks)
    phones[0].post("/logout", {})  # anna's two streams end; the others go on
    for reader in readers[:2]:
        reader.join(5)
        assert not reader.is_alive()
    assert all(reader.is_alive() for reader in readers[2:])
    # one query for the six streams of three matches (the first may be before all had opened)
    assert 2 <= len(before) <= 10 and set(before[1:]) == {3}, before
    for phone in phones[1:]:
        phone.post("/logout", {})
    for reader in readers[2:]:
        reader.join(5)
        assert not reader.is_alive()
