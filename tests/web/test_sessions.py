"""What a session and a remember-me cookie name: an account by an id never handed out again and
a secret that dies with the account, a password change or log out everywhere; an issue time the
server checks; a new session (and CSRF token) at every log-in."""

from __future__ import annotations

import time
from typing import Any

from flask import Flask
from itsdangerous import URLSafeTimedSerializer

from scoresheet.services import accounts
from scoresheet.storage.extensions import db
from scoresheet.storage.models import User

from .page_helpers import TOKEN, Phone

PASSWORD = "correct horse"


def cookie_of(phone: Phone, name: str) -> str:
    """The value of one of the phone's cookies."""
    cookie = phone.client.get_cookie(name)
    assert cookie is not None, name
    return cookie.value


def opened_with(app: Flask, name: str, value: str) -> Any:
    """A new browser holding only this cookie: its home page."""
    browser = app.test_client()
    browser.set_cookie(name, value)
    return browser.get("/")


def account_id(app: Flask, username: str) -> int:
    """The id of an account."""
    with app.app_context():
        user = accounts.find_user(username)
        assert user is not None
        return user.id


def test_a_deleted_accounts_cookies_never_open_the_next_account_registered(csrf_app: Flask) -> None:
    Phone(csrf_app.test_client()).register("anna")
    mallory = Phone(csrf_app.test_client())
    mallory.post("/register", {"username": "mallory", "password": PASSWORD, "remember": "y"})
    old_id = account_id(csrf_app, "mallory")
    session, remember = cookie_of(mallory, "session"), cookie_of(mallory, "remember_token")
    response = mallory.post("/account/delete", {"password": PASSWORD}, form_url="/account")
    assert response.status_code == 302
    Phone(csrf_app.test_client()).register("victim")
    assert account_id(csrf_app, "victim") > old_id  # the id is not handed out again
    for name, value in (("session", session), ("remember_token", remember)):
        assert opened_with(csrf_app, name, value).status_code == 302, name


def test_the_database_never_hands_out_a_deleted_accounts_id_again(app: Flask) -> None:
    with app.app_context():
        first = User(username="first", password_hash="x")
        db.session.add(first)
        db.session.commit()
        gone = first.id
        db.session.delete(first)
        db.session.commit()
        second = User(username="second", password_hash="x")
        db.session.add(second)
        db.session.commit()
        assert second.id > gone
        assert second.session_secret and len(second.session_secret) == 32


def test_log_out_everywhere_ends_a_copied_session_and_remember_me_cookie(csrf_app: Flask) -> None:
    anna = Phone(csrf_app.test_client())
    anna.post("/register", {"username": "anna", "password": PASSWORD, "remember": "y"})
    session, remember = cookie_of(anna, "session"), cookie_of(anna, "remember_token")
    assert opened_with(csrf_app, "session", session).status_code == 200
    anna.post("/account/logout-everywhere", {}, form_url="/account")
    for name, value in (("session", session), ("remember_token", remember)):
        assert opened_with(csrf_app, name, value).status_code == 302, name


def remember_value(app: Flask, session_id: str) -> str:
    """A remember-me cookie as Flask-Login signs one, for this session id."""
    from flask_login.utils import encode_cookie

    with app.test_request_context():
        return encode_cookie(session_id)


def test_a_remember_me_cookie_carries_its_issue_time_and_is_refused_after_30_days(csrf_app: Flask) -> None:
    anna = Phone(csrf_app.test_client())
    anna.post("/register", {"username": "anna", "password": PASSWORD, "remember": "y"})
    user_id, secret, issued = cookie_of(anna, "remember_token").split("|")[0].split(":")
    assert abs(int(issued) - time.time()) < 60
    fresh = f"{user_id}:{secret}:{int(time.time()) - 29 * 86400}"
    stale = f"{user_id}:{secret}:{int(time.time()) - 31 * 86400}"
    assert opened_with(csrf_app, "remember_token", remember_value(csrf_app, fresh)).status_code == 200
    assert opened_with(csrf_app, "remember_token", remember_value(csrf_app, stale)).status_code == 302


def test_every_log_in_gives_a_new_session_and_csrf_token(csrf_app: Flask) -> None:
    Phone(csrf_app.test_client()).register("anna")
    browser = Phone(csrf_app.test_client())
    before = browser.token("/login")
    session_before = cookie_of(browser, "session")
    response = browser.client.post("/login", data={"username": "anna", "password": PASSWORD, "csrf_token": before})
    assert response.status_code == 302
    signer = URLSafeTimedSerializer(csrf_app.secret_key or "", salt="wtf-csrf-token")
    assert cookie_of(browser, "session") != session_before
    after = TOKEN.search(browser.get("/logout").text)
    assert after is not None and (after.group(1) or after.group(2)) != before
    assert signer.loads(before)  # the old token is well signed, yet no longer this session's
    refused = browser.client.post("/logout", data={"csrf_token": before})
    assert refused.status_code == 400
    assert browser.get("/").status_code == 200  # still logged in
