"""Live updates pushed, in Chromium: where the server holds connections, a phone
following the match listens to one event stream instead of asking every 1.5 s, hears a hand saved
elsewhere within 3 s, and sends nothing while the table is thinking."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .helpers import Phone, api_match, api_user, serving, unique


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app with live updates pushed (as under gevent workers), on the threaded werkzeug
    server, which holds each stream in a thread of its own."""
    with serving(tmp_path_factory.mktemp("push"), LIVE_PUSH=True, PUSH_STREAM_SECONDS=20.0) as url:
        yield url


def test_a_following_phone_hears_a_saved_hand_within_3_s_and_is_silent_meanwhile(new_phone: Any) -> None:
    anna: Phone = new_phone()
    auth = api_user(anna, unique("anna"))
    match_id = api_match(anna, auth, hands=3)
    code = anna.context.request.get(f"/api/matches/{match_id}", headers=auth).json()["join_code"]
    boris: Phone = new_phone()
    boris.register(unique("boris"))
    boris.page.goto(f"/join/{code}")
    boris.tap("form.stack button[type=submit]")
    boris.page.wait_for_url(f"**/matches/{match_id}")
    boris.page.wait_for_function("() => document.querySelectorAll('#live tbody tr').length >= 3")

    time.sleep(4)  # the table thinks: more than a poll's 3 s
    asked = [u for u in boris.requests if "/version" in u or "/events" in u]
    assert [u for u in asked if u.endswith(f"/matches/{match_id}/events")], asked
    assert not [u for u in asked if "/version" in u], "the phone polled instead of listening"

    nxt = anna.context.request.get(f"/api/matches/{match_id}", headers=auth).json()["next"]
    heard = len(boris.requests)
    saved = time.monotonic()
    reply = anna.context.request.post(
        f"/api/matches/{match_id}/hands", headers=auth, data={"kind": "redeal", "expected_hand": nxt["hand"]}
    )
    assert reply.status == 201, reply.text()
    boris.page.wait_for_function("n => document.querySelectorAll('#live tbody tr').length >= n", arg=4, timeout=3000)
    assert time.monotonic() - saved < 3
    assert not [u for u in boris.requests if "/version" in u]
    # The phone fetched the sheet's live part alone, not the page around it.
    fetched = [u.split("?")[0] for u in boris.requests[heard:] if f"/matches/{match_id}" in u]
    assert [u for u in fetched if u.endswith(f"/matches/{match_id}/live")], fetched
    assert not [u for u in fetched if u.endswith(f"/matches/{match_id}")], fetched
