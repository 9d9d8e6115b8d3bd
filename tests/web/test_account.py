"""Your account : change the password, log out
everywhere, delete the account, commonly used passwords refused, remember-me for 30 days,
`__Host-` cookies, `Cache-Control: no-store` on everything private."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import ApiUser, app_config, empty_database
from flask import Flask

from scoresheet import create_app
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match, Member, User

from .page_helpers import Phone, errors_next_to, flashes

OLD, NEW = "correct horse", "violin meadow candle trout"
COMMON = ["password123", "12345678", "qwertyuiop", "iloveyou1", "anna1234"]


def token_works(client: Any, token: str) -> bool:
    """The API takes this token."""
    return client.get("/api/matches", headers={"Authorization": f"Bearer {token}"}).status_code == 200


def log_in_token(client: Any, password: str, username: str = "anna") -> Any:
    """POST /api/tokens."""
    return client.post("/api/tokens", json={"username": username, "password": password})


def new_password(user: ApiUser, body: Any) -> Any:
    """PUT /api/users/me/password."""
    return user.put("/api/users/me/password", json=body)


# --- change the password: the API ------------------------------------------------------------


def test_a_password_change_ends_every_other_token_and_session(app: Flask, api_user: ApiUser, csrf_app: Flask) -> None:
    other_token = log_in_token(app.test_client(), OLD).json["token"]
    browser = Phone(csrf_app.test_client())
    assert browser.post("/login", {"username": "anna", "password": OLD}).status_code == 302
    response = new_password(api_user, {"current_password": OLD, "new_password": NEW})
    assert response.status_code == 204 and response.data == b""
    assert token_works(api_user.client, api_user.token)  # the token that asked keeps working
    assert not token_works(app.test_client(), other_token)
    assert browser.get("/").status_code == 302  # logged out
    assert log_in_token(app.test_client(), OLD).status_code == 401
    assert log_in_token(app.test_client(), NEW).status_code == 201


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({"current_password": "wrong horse", "new_password": NEW}, 403, "current_password"),
        ({"current_password": OLD, "new_password": "short"}, 422, "new_password"),
        ({"current_password": OLD, "new_password": OLD}, 422, "new_password"),
        ({"current_password": OLD, "new_password": "password123"}, 422, "new_password"),
        ({"current_password": OLD, "new_password": "x" * 1025}, 422, "new_password"),
        ({"current_password": OLD, "new_password": 12345678}, 400, "new_password"),
        ({"current_password": None, "new_password": NEW}, 400, "current_password"),
        ({"new_password": NEW}, 400, "current_password"),
        ({"current_password": OLD, "new_password": NEW, "admin": True}, 400, "admin"),
        ([OLD, NEW], 400, None),
    ],
)
def test_a_refused_password_change_changes_nothing(
    app: Flask, api_user: ApiUser, body: Any, status: int, field: str | None
) -> None:
    other_token = log_in_token(app.test_client(), OLD).json["token"]
    response = new_password(api_user, body)
    assert response.status_code == status
    assert response.json["field"] == field and response.json["error"]
    assert token_works(app.test_client(), other_token)
    assert log_in_token(app.test_client(), OLD).status_code == 201


# --- commonly used passwords ------------------------------------------------------------------


@pytest.mark.parametrize("password", COMMON)
def test_commonly_used_passwords_are_refused_on_registration(client: Any, password: str) -> None:
    response = client.post("/api/users", json={"username": "anna", "password": password})
    assert response.status_code == 422 and response.json["field"] == "password"
    assert "guess" in response.json["error"]


@pytest.mark.parametrize(
    "password", ["sunny table orange river", "Борщ на кухне у бабушки", "correct horse battery staple", OLD]
)
def test_ordinary_passphrases_are_taken(client: Any, password: str) -> None:
    response = client.post("/api/users", json={"username": "anna", "password": password})
    assert response.status_code == 201, response.json


def test_the_register_page_refuses_a_common_password_next_to_the_field(csrf_app: Flask) -> None:
    response = Phone(csrf_app.test_client()).register("anna", "password123")
    assert response.status_code == 422
    assert any("guess" in e for e in errors_next_to(response.text, "password"))


# --- delete the account ----------------------------------------------------------------------


def test_deleting_an_account_keeps_the_tables_sheets_and_drops_matches_nobody_is_left_in(
    app: Flask, make_user: Any
) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    shared = anna.new_match(players=["Аня", "Boris", "Vera"])
    assert boris.post("/api/matches/join", json={"code": shared["join_code"]}).status_code == 200
    anna.add_hand(shared["id"], {"kind": "redeal"})
    alone = anna.new_match()
    before = boris.get(f"/api/matches/{shared['id']}").json
    history = boris.get(f"/api/matches/{shared['id']}/history").json
    with app.app_context():
        revision = db.session.get(Match, shared["id"]).revision
    wrong = anna.delete("/api/users/me", json={"password": "wrong horse"})
    assert wrong.status_code == 403 and wrong.json["field"] == "password"
    assert token_works(anna.client, anna.token)
    response = anna.delete("/api/users/me", json={"password": OLD})
    assert response.status_code == 204 and response.data == b""
    assert not token_works(anna.client, anna.token)
    assert log_in_token(app.test_client(), OLD).status_code == 401
    after = boris.get(f"/api/matches/{shared['id']}").json
    assert after["members"] == ["boris"]  # the accounts; the players' names are the match's
    assert {**after, "members": before["members"]} == before  # the rest exactly as it was
    gone, *kept = boris.get(f"/api/matches/{shared['id']}/history").json["history"]
    assert kept == history["history"]  # anna's entries still name her
    assert (gone["action"], gone["user"], gone["words"]) == ("account_deleted", "anna", "anna deleted their account")
    with app.app_context():
        assert db.session.get(Match, shared["id"]).revision == revision + 1  # open sheets show it gone
        assert db.session.get(Match, alone["id"]) is None
        assert db.session.execute(db.select(User.username)).scalars().all() == ["boris"]
        assert len(db.session.execute(db.select(Member)).scalars().all()) == 1
    assert make_user("ANNA").username == "ANNA"  # the name is free again


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({}, 400, "password"),
        ({"password": 1}, 400, "password"),
        ({"password": OLD, "more": 1}, 400, "more"),
        ({"password": ""}, 403, "password"),
    ],
)
def test_a_refused_deletion_deletes_nothing(api_user: ApiUser, body: Any, status: int, field: str) -> None:
    response = api_user.delete("/api/users/me", json=body)
    assert response.status_code == status and response.json["field"] == field
    assert token_works(api_user.client, api_user.token)


# --- the pages --------------------------------------------------------------------------------


def test_the_account_page_is_in_the_menu_and_changes_the_password(csrf_app: Flask, phone: Phone) -> None:
    home = phone.get("/")
    assert 'href="/account"' in home.text
    page = phone.get("/account")
    assert page.status_code == 200
    for box in ("current_password", "new_password", "password"):
        assert f'id="{box}"' in page.text
    other = Phone(csrf_app.test_client())
    assert other.post("/login", {"username": "anna", "password": OLD}).status_code == 302
    wrong = phone.post(
        "/account/password", {"current_password": "wrong horse", "new_password": NEW}, form_url="/account"
    )
    assert wrong.status_code == 422
    assert errors_next_to(wrong.text, "current_password") == ["That is not your current password."]
    common = phone.post(
        "/account/password", {"current_password": OLD, "new_password": "password123"}, form_url="/account"
    )
    assert common.status_code == 422 and errors_next_to(common.text, "new_password")
    same = phone.post("/account/password", {"current_password": OLD, "new_password": OLD}, form_url="/account")
    assert same.status_code == 422
    assert errors_next_to(same.text, "new_password") == ["The new password is your current one: choose another."]
    assert other.get("/").status_code == 200  # nothing changed: the other phone stays logged in
    done = phone.post("/account/password", {"current_password": OLD, "new_password": NEW}, form_url="/account")
    assert done.status_code == 302 and done.location == "/account"
    assert "Your password is changed" in " ".join(flashes(phone.get("/account").text))
    assert phone.get("/").status_code == 200  # this phone stays logged in …
    assert other.get("/").status_code == 302  # … every other one is logged out


def test_log_out_everywhere_ends_every_session_and_token(csrf_app: Flask, phone: Phone) -> None:
    token = log_in_token(csrf_app.test_client(), OLD).json["token"]
    other = Phone(csrf_app.test_client())
    assert other.post("/login", {"username": "anna", "password": OLD}).status_code == 302
    response = phone.post("/account/logout-everywhere", {}, form_url="/account")
    assert response.status_code == 302
    for browser in (phone, other):
        assert browser.get("/").status_code == 302
    assert not token_works(csrf_app.test_client(), token)


def test_the_delete_page_asks_for_the_password(csrf_app: Flask, phone: Phone) -> None:
    wrong = phone.post("/account/delete", {"password": "wrong horse"}, form_url="/account")
    assert wrong.status_code == 422
    assert errors_next_to(wrong.text, "password") == ["That is not your password."]
    empty = phone.post("/account/delete", {"password": ""}, form_url="/account")
    assert errors_next_to(empty.text, "password") == ["Enter your password to confirm."]
    done = phone.post("/account/delete", {"password": OLD}, form_url="/account")
    assert done.status_code == 302
    assert phone.get("/").status_code == 302
    assert log_in_token(csrf_app.test_client(), OLD).status_code == 401


def test_log_out_asks_first(csrf_app: Flask, phone: Phone) -> None:
    home = phone.get("/")
    assert 'href="/logout"' in home.text and 'action="/logout"' not in home.text
    question = phone.get("/logout")
    assert question.status_code == 200 and 'action="/logout"' in question.text
    assert phone.get("/").status_code == 200  # asking did not log out
    assert phone.post("/logout", {}).status_code == 302
    assert phone.get("/").status_code == 302


# --- stay logged in ---------------------------------------------------------------------------


def remember_cookie(response: Any) -> str | None:
    """The remember-me Set-Cookie header of a response, if any."""
    return next((c for c in response.headers.getlist("Set-Cookie") if c.split("=")[0].endswith("remember_token")), None)


def test_the_log_in_page_stays_logged_in_for_30_days_unless_told_otherwise(csrf_app: Flask, phone: Phone) -> None:
    form = csrf_app.test_client().get("/login").text
    assert 'id="remember"' in form and "Stay logged in" in form
    box = re.search(r'<input[^>]*id="remember"[^>]*>', form)
    assert box is not None and "checked" in box.group(0)
    browser = Phone(csrf_app.test_client())
    response = browser.post("/login", {"username": "anna", "password": OLD, "remember": "y"})
    cookie = remember_cookie(response)
    assert cookie is not None and "HttpOnly" in cookie
    expires = datetime.strptime(cookie.split("Expires=")[1].split(";")[0], "%a, %d %b %Y %H:%M:%S GMT").replace(
        tzinfo=UTC
    )
    assert timedelta(days=29) < expires - datetime.now(UTC) <= timedelta(days=30)
    # The browser is closed (the session cookie is gone) and opened again: still logged in.
    reopened = csrf_app.test_client()
    reopened.set_cookie("remember_token", cookie.split(";")[0].split("=", 1)[1])
    assert reopened.get("/").status_code == 200
    unticked = Phone(csrf_app.test_client())
    assert remember_cookie(unticked.post("/login", {"username": "anna", "password": OLD})) is None


def test_a_password_change_ends_every_remember_me_cookie(csrf_app: Flask, phone: Phone) -> None:
    browser = Phone(csrf_app.test_client())
    cookie = remember_cookie(browser.post("/login", {"username": "anna", "password": OLD, "remember": "y"}))
    assert cookie is not None
    value = cookie.split(";")[0].split("=", 1)[1]
    phone.post("/account/password", {"current_password": OLD, "new_password": NEW}, form_url="/account")
    reopened = csrf_app.test_client()
    reopened.set_cookie("remember_token", value)
    assert reopened.get("/").status_code == 302


def test_cookies_are_host_prefixed_wherever_they_are_secure(tmp_path: Any, database_url: str) -> None:
    empty_database(database_url)
    app = create_app(app_config(database_url, tmp_path, SESSION_COOKIE_SECURE=True))
    try:
        client = app.test_client()
        client.post("/api/users", json={"username": "anna", "password": OLD})
        response = client.post("/login", data={"username": "anna", "password": OLD, "remember": "y"})
        cookies = response.headers.getlist("Set-Cookie")
        names = sorted(c.split("=")[0] for c in cookies)
        assert names == ["__Host-known_device", "__Host-remember_token", "__Host-session"]
        for c in cookies:
            assert "Secure" in c and "Path=/" in c and "Domain" not in c, c
    finally:
        with app.app_context():
            db.engine.dispose()


# --- no-store ---------------------------------------------------------------------------------


def test_private_answers_are_never_stored_by_a_cache(client: Any, phone: Phone, make_user: Any) -> None:
    api_user = make_user("carol")
    match_id = phone.new_match()
    registered = client.post("/api/users", json={"username": "boris", "password": OLD})
    answers = [
        registered,
        log_in_token(client, OLD, "boris"),
        api_user.get("/api/matches"),
        api_user.get("/api/backup"),
    ]
    night = api_user.post("/api/events", json={"name": "Friday", "game": {"rules": "squarescores"}}).json["id"]
    answers += [
        api_user.get(f"/api/events/{night}{part}") for part in ("", "/backup", "/standings")
    ]  # their blueprint's
    answers += [
        phone.get(url)
        for url in (
            "/",
            f"/matches/{match_id}",
            "/account",
            f"/matches/{match_id}/backup.json",
            "/backup.json",
            f"/matches/{match_id}/history",
        )
    ]
    for response in answers:
        assert response.status_code in (200, 201), response.request.path
        assert "no-store" in response.headers.get("Cache-Control", ""), response.request.path


def test_wrong_passwords_where_one_is_asked_again_are_limited(tmp_path: Any, database_url: str) -> None:
    empty_database(database_url)
    app = create_app(app_config(database_url, tmp_path, RATELIMIT_ENABLED=True, PASSWORD_CHECK_LIMIT="2 per minute"))
    try:
        client = app.test_client()
        token = client.post("/api/users", json={"username": "anna", "password": OLD}).json["token"]
        thief = ApiUser(app.test_client(), "anna", token)
        wrong = {"current_password": "a guess", "new_password": NEW}
        assert [new_password(thief, wrong).status_code for _ in range(3)] == [403, 403, 429]
        assert thief.delete("/api/users/me", json={"password": "guess"}).status_code == 429
        other = ApiUser(app.test_client(), "anna", log_in_token(app.test_client(), OLD).json["token"])
        assert (
            new_password(other, {"current_password": OLD, "new_password": NEW}).status_code == 204
        )  # another token is counted on its own
    finally:
        with app.app_context():
            db.engine.dispose()
