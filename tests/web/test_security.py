"""Security (docs/security.md): headers, cookies, sessions that really end, CSRF on every
state-changing page route, an API that never takes the session cookie, brute-force limits."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import ApiUser
from flask import Flask

from scoresheet import create_app
from scoresheet.storage.extensions import db
from scoresheet.web.extensions import csrf
from scoresheet.web.security import CONTENT_SECURITY_POLICY

from .page_helpers import Phone, played

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def table_counts(app: Flask) -> dict[str, int]:
    """Rows in every table: a refused request changes none of them."""
    with app.app_context():
        return {
            t.name: db.session.execute(db.select(db.func.count()).select_from(t)).scalar_one()
            for t in db.metadata.sorted_tables
        }


def assert_security_headers(response: Any) -> None:
    """Every response carries the headers."""
    h = response.headers
    assert h["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "'unsafe-inline'" not in h["Content-Security-Policy"]
    assert h["X-Content-Type-Options"] == "nosniff"
    assert h["Referrer-Policy"] in ("same-origin", "no-referrer")
    assert h["X-Frame-Options"] == "DENY"
    assert "camera=()" in h["Permissions-Policy"]


def test_the_policy_forbids_inline_script_framing_plugins_and_base_tags() -> None:
    for part in (
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ):
        assert part in CONTENT_SECURITY_POLICY


def test_every_kind_of_response_carries_the_security_headers(phone: Phone, make_user: Any) -> None:
    api_user: ApiUser = make_user("boris")
    match_id = phone.new_match()
    api_match = api_user.new_match()["id"]
    responses = [
        phone.get("/"),
        phone.get(f"/matches/{match_id}"),
        phone.get("/login"),
        phone.get(f"/matches/{match_id}/sheet.csv"),
        phone.get("/no/such/page"),
        phone.client.delete("/logout"),
        phone.get("/static/app.css"),
        phone.get("/healthz"),
        api_user.get("/api/matches"),
        api_user.get(f"/api/matches/{api_match}/sheet.csv"),
        api_user.client.get("/api/matches"),
        api_user.get("/api/nothing"),
        api_user.client.post("/api/users", data="x" * 70_000, content_type="application/json"),
    ]
    assert [r.status_code for r in responses] == [200, 200, 200, 200, 404, 405, 200, 200, 200, 200, 401, 404, 413]
    for response in responses:
        assert_security_headers(response)
        response.close()


def test_templates_hold_no_inline_script_or_style(phone: Phone) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    for url in (
        "/",
        f"/matches/{match_id}",
        f"/matches/{match_id}/hands/new",
        f"/matches/{match_id}/hands/1/edit",
        "/matches/new",
    ):
        html = phone.get(url).text
        assert html.count("<script") == html.count("<script src=")
        assert " style=" not in html and "<style" not in html
        assert " onclick=" not in html and "javascript:" not in html


# --- cookies and sessions -----------------------------------------------------------------


def test_the_session_cookie_is_httponly_and_samesite_lax(csrf_app: Flask) -> None:
    response = Phone(csrf_app.test_client()).register("anna")
    cookie = next(c for c in response.headers.getlist("Set-Cookie") if c.startswith("session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert csrf_app.config["WTF_CSRF_TIME_LIMIT"] is None  # a phone left on the table still saves


def secure_flag(monkeypatch: Any, tmp_path: Any, env: dict[str, str], **config: Any) -> bool:
    """SESSION_COOKIE_SECURE of an app made with this environment and configuration."""
    for name in ("SCORESHEET_INSECURE_COOKIES", "SESSION_COOKIE_SECURE", "FLASK_RUN_FROM_CLI", "FLASK_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    app = create_app(
        {"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "k", **config}
    )
    with app.app_context():
        db.engine.dispose()
    assert app.config["REMEMBER_COOKIE_SECURE"] == app.config["SESSION_COOKIE_SECURE"]
    return bool(app.config["SESSION_COOKIE_SECURE"])


@pytest.mark.parametrize(
    "env, config, secure",
    [
        ({}, {}, True),  # production (gunicorn …): Secure
        ({"FLASK_RUN_FROM_CLI": "true"}, {}, False),  # flask --app scoresheet run
        ({"SCORESHEET_INSECURE_COOKIES": "1"}, {}, False),
        ({"SESSION_COOKIE_SECURE": "0"}, {}, False),
        ({"SESSION_COOKIE_SECURE": "1", "FLASK_RUN_FROM_CLI": "true"}, {}, True),
        ({}, {"TESTING": True}, False),
        ({}, {"TESTING": True, "SESSION_COOKIE_SECURE": True}, True),
        ({"FLASK_RUN_FROM_CLI": "true"}, {"SESSION_COOKIE_SECURE": True}, True),
    ],
)
def test_cookies_are_secure_unless_served_over_plain_http_on_purpose(
    monkeypatch: Any, tmp_path: Any, env: dict[str, str], config: dict[str, Any], secure: bool
) -> None:
    assert secure_flag(monkeypatch, tmp_path, env, **config) is secure


def test_a_copied_session_cookie_stops_working_after_logging_out(phone: Phone, csrf_app: Flask) -> None:
    cookie = phone.client.get_cookie("session")
    assert cookie is not None
    thief = csrf_app.test_client()
    thief.set_cookie("session", cookie.value)
    assert thief.get("/").status_code == 200
    phone.post("/logout", {}, form_url="/")
    assert thief.get("/").status_code == 302
    assert phone.get("/").status_code == 302


def test_logging_out_ends_every_browser_session_but_not_api_tokens(csrf_app: Flask, phone: Phone) -> None:
    other = Phone(csrf_app.test_client())
    other.post("/login", {"username": "anna", "password": "correct horse"})
    token = (
        csrf_app.test_client().post("/api/tokens", json={"username": "anna", "password": "correct horse"}).json["token"]
    )
    phone.post("/logout", {}, form_url="/")
    assert other.get("/").status_code == 302
    api = csrf_app.test_client().get("/api/matches", headers={"Authorization": f"Bearer {token}"})
    assert api.status_code == 200


def test_the_api_never_takes_the_session_cookie(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    before = table_counts(csrf_app)
    for method, url, body in [
        ("GET", "/api/matches", None),
        ("GET", f"/api/matches/{match_id}", None),
        ("POST", "/api/matches", {"players": ["A", "B", "C"]}),
        ("POST", f"/api/matches/{match_id}/hands", {"kind": "redeal"}),
        ("POST", f"/api/matches/{match_id}/end", {}),
        ("DELETE", "/api/tokens/current", None),
    ]:
        response = phone.client.open(url, method=method, json=body)
        assert response.status_code == 401, (method, url)
        assert response.json["error"].startswith("Send a valid token")
    assert table_counts(csrf_app) == before


# --- CSRF ----------------------------------------------------------------------------------


def test_csrf_is_checked_everywhere_but_the_token_api(csrf_app: Flask) -> None:
    assert csrf_app.config.get("WTF_CSRF_CHECK_DEFAULT", True)
    assert {bp.name for bp in csrf._exempt_blueprints} == {"api", "club"}
    assert not csrf._exempt_views
    # The club nights' blueprint is exempt for its API alone: every route of it that can write is
    # under /api/ (a bearer token, no cookie); its pages only read.
    writing = [
        r.rule
        for r in csrf_app.url_map.iter_rules()
        if r.endpoint.startswith("club.") and set(r.methods or ()) - {"GET", "HEAD", "OPTIONS"}
    ]
    assert writing and all(rule.startswith("/api/") for rule in writing), writing


def page_writes(app: Flask) -> list[tuple[str, str]]:
    """Every state-changing (rule, method) outside /api: new routes are covered by themselves."""
    return sorted(
        (rule.rule, method)
        for rule in app.url_map.iter_rules()
        for method in rule.methods & WRITES
        if not rule.rule.startswith("/api/")
    )


def _sample(converter: str | None, arguments: str | None, name: str, match_id: str) -> str:
    """A value for one part of a route: the match, the first choice of an `any`, else 1 (a
    hand, a seat, a history entry): the route must answer 400 before it looks at any."""
    if name == "match_id":
        return match_id
    if converter == "any" and arguments:
        return arguments.split(",")[0].strip()
    return "1"


def test_every_state_changing_page_route_refuses_a_request_without_the_csrf_token(
    phone: Phone, csrf_app: Flask
) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    routes = page_writes(csrf_app)
    assert ("/logout", "POST") in routes and ("/matches/<match_id>/hands/new", "POST") in routes
    before = table_counts(csrf_app)
    data = {
        "confirm": "y",
        "code": "X",
        "username": "boris",
        "password": "correct horse",
        "players-0": "A",
        "players-1": "B",
        "players-2": "C",
        **played(1, 100, [50, None, 10]),
    }
    for rule, method in routes:
        url = re.sub(
            r"<(?:(\w+)(?:\(([^)]*)\))?:)?(\w+)>", lambda m: _sample(m.group(1), m.group(2), m.group(3), match_id), rule
        )
        for headers in ({}, {"X-CSRFToken": "forged"}):
            response = phone.client.open(url, method=method, data=data, headers=headers)
            assert response.status_code == 400, (rule, method)
            assert "nothing was saved" in response.text or "CSRF" in response.text, rule
    assert table_counts(csrf_app) == before
    assert phone.get("/").status_code == 200  # still logged in: the logout was refused too


# Brute-force limits: test_login_limits.py.
