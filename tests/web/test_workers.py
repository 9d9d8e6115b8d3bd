"""Several workers or servers on one database: the live state is the database's, not a worker's."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ApiUser, app_config
from flask import Flask

from scoresheet import create_app
from scoresheet.services import accounts
from scoresheet.services.errors import NotFound
from scoresheet.services.matches import queries, versions
from scoresheet.storage.extensions import db

from .helpers import played


@pytest.fixture
def second_app(app: Flask, database_url: str, tmp_path: Any) -> Iterator[Flask]:
    """Another app (another worker) on the same database, with its own engine and pool."""
    other = create_app(app_config(database_url, tmp_path / "second"))
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def phone_on(app: Flask, user: ApiUser) -> ApiUser:
    """The same user calling another worker."""
    return ApiUser(app.test_client(), user.username, user.token)


def test_a_hand_added_on_one_worker_is_seen_on_the_other(app: Flask, second_app: Flask, make_user: Any) -> None:
    anna = make_user("anna")
    boris = phone_on(second_app, make_user("boris"))
    match = anna.new_match()
    assert boris.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
    before = boris.get(f"/api/matches/{match['id']}").json  # worker two has read the match
    assert before["hands"] == []
    anna.add_hand(match["id"], played(1, 100, [20, None, 20]))
    seen = boris.get(f"/api/matches/{match['id']}").json
    assert [h["number"] for h in seen["hands"]] == [1]
    assert seen["standings"] == anna.get(f"/api/matches/{match['id']}").json["standings"]
    boris.add_hand(match["id"], {"kind": "redeal"})
    assert len(anna.get(f"/api/matches/{match['id']}").json["hands"]) == 2


def test_two_phones_on_two_workers_record_one_hand(app: Flask, second_app: Flask, make_user: Any) -> None:
    anna = make_user("anna")
    match = anna.new_match()
    phones = [anna, phone_on(second_app, anna)]
    hand = {**played(1, 100, [20, None, 20]), "expected_hand": 1}
    start = threading.Barrier(len(phones))
    codes: list[int] = []

    def tap(phone: ApiUser) -> None:
        start.wait()
        codes.append(phone.post(f"/api/matches/{match['id']}/hands", json=hand).status_code)

    threads = [threading.Thread(target=tap, args=(p,)) for p in phones]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(codes) == [201, 409]
    assert len(phones[1].get(f"/api/matches/{match['id']}").json["hands"]) == 1


def test_the_live_update_version_moves_on_every_worker(app: Flask, second_app: Flask, make_user: Any) -> None:
    anna = make_user("anna")
    match = anna.new_match()

    def version_on(an_app: Flask, username: str = "anna") -> str:
        with an_app.app_context():
            user = accounts.find_user(username)
            assert user is not None
            version = versions.poll_version(match["id"], user)
            assert version == versions.version_of(queries.get_match(match["id"], user))
            return version

    before = version_on(second_app)
    anna.add_hand(match["id"], played(1, 100, [20, None, 20]))
    assert version_on(second_app) != before
    assert version_on(second_app) == version_on(app)
    make_user("boris")
    with second_app.app_context(), pytest.raises(NotFound):
        version_on(second_app, "boris")  # not a member: exactly like no such match
