"""A username holding NUL or another control character is no account's: 404 or 422 on both
databases (PostgreSQL answers a NUL in a query with an error, SQLite with a miss)."""

from __future__ import annotations

import pytest
from conftest import ApiUser
from flask import Flask

from .helpers import played

NAMES = ["\x00", "a\x00", "anna\x00", "\x01", "anna\x1f"]


@pytest.mark.parametrize("name", NAMES)
def test_a_username_with_a_control_character_is_nobody(
    app: Flask, api_user: ApiUser, stranger: ApiUser, name: str
) -> None:
    from urllib.parse import quote

    match = api_user.new_match()
    api_user.add_hand(match["id"], played(1, 100, [40, None, 20]))
    page = app.test_client()
    assert page.post("/login", data={"username": "anna", "password": "correct horse"}).status_code == 302
    assert page.post("/login", data={"username": name, "password": "correct horse"}).status_code < 500
    quoted = quote(name, safe="")
    assert page.get(f"/players/{quoted}").status_code == 404
    assert api_user.get(f"/api/players/{quoted}").status_code == 404
    assert api_user.get(f"/api/players/stranger/versus/{quoted}").status_code == 404
    assert page.get("/head-to-head", query_string={"one": name, "two": "anna"}).status_code == 404
    seat = api_user.put(f"/api/matches/{match['id']}/seats/0", json={"username": name})
    assert seat.status_code == 422 and seat.json["field"] == "username"
    form = page.post(f"/matches/{match['id']}/seats/0/assign", data={"username": name})
    assert form.status_code < 500
    assert api_user.post("/api/tokens", json={"username": name, "password": "x"}).status_code in (400, 401)
