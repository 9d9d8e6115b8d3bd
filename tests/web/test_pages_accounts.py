"""Pages: register, log in, log out, login required, CSRF on every form."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import User

from .page_helpers import (
    Phone,
    count_hands,
    count_matches,
    errors_next_to,
    flashes,
    played,
)


def count_users(app: Flask) -> int:
    """Accounts stored."""
    with app.app_context():
        return len(db.session.execute(db.select(User)).scalars().all())


def test_register_page_has_both_fields(csrf_app: Flask) -> None:
    response = csrf_app.test_client().get("/register")
    assert response.status_code == 200
    assert 'id="username"' in response.text and 'id="password"' in response.text


def test_registering_logs_in_and_says_welcome(csrf_app: Flask) -> None:
    phone = Phone(csrf_app.test_client())
    response = phone.register("anna")
    assert response.status_code == 302 and response.location == "/"
    home = phone.get("/")
    assert home.status_code == 200
    assert "Welcome, anna." in " ".join(flashes(home.text))


@pytest.mark.parametrize(
    "username, password, field, message",
    [
        ("a", "correct horse", "username", "A username has 3 to 40 characters"),
        ("anna smith", "correct horse", "username", "A username has 3 to 40 characters"),
        ("anna", "short", "password", "A password needs at least 8 characters."),
        ("", "correct horse", "username", "Choose a username."),
        ("anna", "", "password", "Choose a password."),
    ],
)
def test_register_refusals_show_next_to_their_field(
    csrf_app: Flask, username: str, password: str, field: str, message: str
) -> None:
    phone = Phone(csrf_app.test_client())
    response = phone.register(username, password)
    assert response.status_code == 422
    assert any(message in e for e in errors_next_to(response.text, field))
    assert count_users(csrf_app) == 0


def test_a_taken_username_is_refused_next_to_it(make_phone: Any, csrf_app: Flask) -> None:
    make_phone("anna")
    response = Phone(csrf_app.test_client()).register("ANNA")
    assert any("is taken" in e for e in errors_next_to(response.text, "username"))
    assert count_users(csrf_app) == 1


def test_log_in_goes_to_the_page_asked_for(make_phone: Any, csrf_app: Flask) -> None:
    make_phone("anna")
    phone = Phone(csrf_app.test_client())
    response = phone.get("/matches/new")
    assert response.status_code == 302 and response.location.startswith("/login?next=")
    response = phone.post(
        "/login?next=/matches/new", {"username": "anna", "password": "correct horse"}, form_url="/login"
    )
    assert response.status_code == 302 and response.location == "/matches/new"


OFF_SITE = [
    "//evil.example/",
    "https://evil.example/",
    "/\\evil",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/\r\nSet-Cookie: x=1",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "http:evil.example",
    "http:/evil.example",
    "///evil.example",
    "/\x00",
    "",
    "evil.example",
    "/\u3000/evil.example",
    "/\u200b/evil.example",
]


@pytest.mark.parametrize("target", OFF_SITE)
def test_log_in_never_redirects_off_the_site(make_phone: Any, csrf_app: Flask, target: str) -> None:
    make_phone("anna")
    phone = Phone(csrf_app.test_client())
    response = phone.post("/login", {"username": "anna", "password": "correct horse"}, query_string={"next": target})
    assert response.status_code == 302 and response.location == "/"


@pytest.mark.parametrize("target", ["/matches/new", "/matches/abc?x=1#top", "/import", "/%2F%2Fevil.example"])
def test_log_in_keeps_a_path_on_this_site(make_phone: Any, csrf_app: Flask, target: str) -> None:
    make_phone("anna")
    phone = Phone(csrf_app.test_client())
    response = phone.post("/login", {"username": "anna", "password": "correct horse"}, query_string={"next": target})
    assert response.status_code == 302 and response.location == target


def test_a_wrong_password_is_refused_next_to_it(make_phone: Any, csrf_app: Flask) -> None:
    make_phone("anna")
    phone = Phone(csrf_app.test_client())
    response = phone.post("/login", {"username": "anna", "password": "wrong horse"})
    assert response.status_code == 422
    assert errors_next_to(response.text, "password") == ["That username and password do not match."]
    assert phone.get("/").status_code == 302


def test_log_out_is_a_post_and_ends_the_session(phone: Phone) -> None:
    assert phone.get("/logout").status_code == 200  # only the question
    assert phone.get("/").status_code == 200
    response = phone.post("/logout", {}, form_url="/")
    assert response.status_code == 302 and response.location == "/login"
    assert phone.get("/").status_code == 302


def test_a_first_visit_says_what_the_app_is_with_register_and_log_in(csrf_app: Flask, phone: Phone) -> None:
    visitor = csrf_app.test_client()
    response = visitor.get("/")
    assert response.status_code == 302 and response.location == "/welcome"
    page = visitor.get("/welcome").text
    assert "<h1>Tysiacha scoresheet</h1>" in page and "every phone at the table sees the same sheet" in page
    assert 'class="button" href="/register"' in page and 'class="button secondary" href="/login"' in page
    assert flashes(page) == []  # no "Log in to see that page" for someone who never asked for one
    assert phone.get("/welcome").location == "/"  # logged in: home
    other = Phone(csrf_app.test_client())  # a phone whose session the server ends
    assert other.post("/login", {"username": "anna", "password": "correct horse"}).status_code == 302
    assert phone.post("/account/logout-everywhere", {}, form_url="/account").status_code == 302
    assert other.get("/").location == "/welcome"
    # … where the log-in page says the session ended and drops that account's kept sheets
    assert other.get("/welcome").location == "/login"
    assert "data-session-ended" in other.get("/login").text


PAGES = [
    "/matches/new",
    "/matches/{id}",
    "/matches/{id}/hands/new",
    "/matches/{id}/hands/1/edit",
    "/matches/{id}/hands/1/delete",
    "/matches/{id}/bank",
    "/matches/{id}/end",
]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_needs_a_login(phone: Phone, csrf_app: Flask, page: str) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    response = csrf_app.test_client().get(page.format(id=match_id))
    assert response.status_code == 302 and response.location.startswith("/login")


@pytest.mark.parametrize(
    "url, data",
    [
        ("/register", {"username": "boris", "password": "correct horse"}),
        ("/matches/new", {"players-0": "A", "players-1": "B", "players-2": "C"}),
        ("/matches/{id}/hands/new", played(1, 100, [40, None, 20])),
        ("/matches/{id}/end", {"confirm": "y"}),
        ("/join", {"code": "{code}"}),
        ("/logout", {}),
    ],
)
def test_a_post_without_the_csrf_token_is_refused(
    phone: Phone, csrf_app: Flask, url: str, data: dict[str, Any]
) -> None:
    match_id = phone.new_match()
    users, matches = count_users(csrf_app), count_matches(csrf_app)
    response = phone.client.post(url.format(id=match_id), data=data)
    assert response.status_code == 400
    assert "nothing was saved" in response.text
    assert (count_users(csrf_app), count_matches(csrf_app)) == (users, matches)
    assert count_hands(csrf_app) == 0
    assert phone.get("/").status_code == 200  # still logged in
