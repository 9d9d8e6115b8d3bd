"""The live-update poll's quick answer: the same 304 as the app's own view, given only
when that is what the app would answer; every other request reaches the app."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask_login.utils import _create_identifier

from scoresheet.web.live.quick_poll import QuickPoll, session_identifier

from .page_helpers import Phone, played

USER_AGENT = "Mozilla/5.0 (Linux; Android 14; Pixel 7) Chrome/120 Mobile"


def quick(app: Flask) -> QuickPoll:
    """The middleware in front of the app."""
    assert isinstance(app.wsgi_app, QuickPoll)
    return app.wsgi_app


@contextmanager
def counting(app: Flask) -> Iterator[list[str]]:
    """Count the requests that reach the app behind the middleware."""
    middleware = quick(app)
    inner, reached = middleware.wsgi_app, []

    def app_itself(environ: dict[str, Any], start_response: Any) -> Any:
        reached.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    middleware.wsgi_app = app_itself
    try:
        yield reached
    finally:
        middleware.wsgi_app = inner


def both_answers(app: Flask, phone: Phone, url: str, **kw: Any) -> tuple[Any, Any, bool]:
    """The answer with the middleware, the app's own answer to the same request (the phone's
    cookies as they were before the first), and whether the app was reached."""
    cookies = dict(phone.client._cookies)
    with counting(app) as reached:
        answer = phone.get(url, **kw)
    middleware = quick(app)
    app.wsgi_app = middleware.wsgi_app  # type: ignore[method-assign]
    phone.client._cookies = cookies
    try:
        own = phone.get(url, **kw)
    finally:
        app.wsgi_app = middleware  # type: ignore[method-assign]
    return answer, own, bool(reached)


CSRF_TOKEN = re.compile(rb'(name="csrf_token" value=")[^"]*')
"""A form's CSRF token: signed with the second it was made in, so two answers a second apart differ."""

SESSION_STAMP = re.compile(r"(session=\.?[^.;]+)\.[^.;]+\.[^.;]+")
"""A session cookie's second and signature after its content: two answers a second apart differ."""


def headers(answer: Any) -> list[tuple[str, str]]:
    """The answer's headers but the date, and a session cookie but its second and signature."""
    return sorted((k, SESSION_STAMP.sub(r"\1", v)) for k, v in answer.headers.items() if k != "Date")


def same_answer(answer: Any, own: Any) -> None:
    """Status, headers (but the date) and body alike (but the second in a CSRF token or a
    session cookie)."""
    assert answer.status_code == own.status_code
    assert CSRF_TOKEN.sub(rb"\1", answer.data) == CSRF_TOKEN.sub(rb"\1", own.data)
    assert headers(answer) == headers(own)


@pytest.fixture
def table(csrf_app: Flask) -> tuple[Phone, str]:
    """Anna's phone, registered and logged in with a phone's user agent, and her match with
    one hand."""
    phone = Phone(csrf_app.test_client())
    phone.client.environ_base["HTTP_USER_AGENT"] = USER_AGENT
    assert phone.register("anna").status_code == 302
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    return phone, match_id


def test_an_unchanged_poll_is_answered_quickly_with_the_views_own_304(
    csrf_app: Flask, table: tuple[Phone, str]
) -> None:
    phone, match_id = table
    url = f"/matches/{match_id}/version"
    for etag in ('"1-1"', 'W/"1-1"', '"0-0", "1-1"', "*"):
        answer, own, reached = both_answers(csrf_app, phone, url, headers={"If-None-Match": etag})
        assert answer.status_code == 304 and not reached, etag
        same_answer(answer, own)


@pytest.mark.parametrize(
    "case", ["changed", "no_etag", "other_agent", "forwarded", "broken_cookie", "other_match", "hand_number"]
)
def test_anything_but_an_unchanged_members_poll_reaches_the_app(
    csrf_app: Flask, table: tuple[Phone, str], make_phone: Any, case: str
) -> None:
    phone, match_id = table
    url, headers = f"/matches/{match_id}/version", {"If-None-Match": '"1-1"'}
    if case == "changed":
        phone.hand(match_id, 2, **played(2, 100, [40, 20, None]))
    elif case == "no_etag":
        headers = {}
    elif case == "other_agent":  # Flask-Login marks the session not fresh: the app decides
        headers["User-Agent"] = "Another browser"
    elif case == "forwarded":
        headers["X-Forwarded-For"] = "203.0.113.9"
    elif case == "broken_cookie":
        cookie = phone.client.get_cookie("session")
        assert cookie is not None
        phone.client.set_cookie("session", cookie.value[:-2] + "xx")
    elif case == "other_match":
        url = f"/matches/{make_phone('boris').new_match()}/version"
    elif case == "hand_number":
        url = f"/matches/{match_id}/hands/1/version"
    answer, own, reached = both_answers(csrf_app, phone, url, headers=headers)
    assert reached, case
    same_answer(answer, own)


def test_a_stranger_and_a_phone_logged_out_everywhere_reach_the_app(
    csrf_app: Flask, table: tuple[Phone, str], make_phone: Any
) -> None:
    phone, match_id = table
    url, etag = f"/matches/{match_id}/version", {"If-None-Match": '"1-1"'}
    stranger = make_phone("boris")
    answer, own, reached = both_answers(csrf_app, stranger, url, headers=etag)
    assert reached and answer.status_code == 404
    same_answer(answer, own)

    other = Phone(csrf_app.test_client())  # anna logs out everywhere from another phone
    assert other.post("/login", {"username": "anna", "password": "correct horse"}).status_code == 302
    assert other.post("/account/logout-everywhere", {}, form_url="/account").status_code == 302
    answer, own, reached = both_answers(csrf_app, phone, url, headers=etag)
    assert reached and answer.status_code == 302 and "/login" in answer.headers["Location"]
    same_answer(answer, own)


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"User-Agent": USER_AGENT},
        {"User-Agent": "Ünïcode агент"},
        {"X-Forwarded-For": "203.0.113.9, 10.0.0.1"},
        {"X-Forwarded-For": " 198.51.100.7 "},
    ],
)
def test_the_session_identifier_is_flask_logins_own(csrf_app: Flask, headers: dict[str, str]) -> None:
    with csrf_app.test_request_context("/", headers=headers, environ_base={"REMOTE_ADDR": "192.0.2.1"}) as ctx:
        assert session_identifier(ctx.request.environ) == _create_identifier()
