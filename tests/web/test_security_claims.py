"""Claims of docs/security.md that no other test proved: the same password work for an unknown
username, join links counted against the join limit, no CORS, no markup let through a
template unescaped, and a 500 that tells nothing and keeps nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from conftest import app_config
from flask import Flask

from scoresheet import create_app
from scoresheet.storage import passwords
from scoresheet.storage.extensions import db
from scoresheet.storage.models import User

from .test_login_limits import PASSWORD, from_address, limited_app  # noqa: F401  (a fixture)
from .test_security import table_counts

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_username_costs_a_password_check_as_a_known_one_does(
    client: Any, api_user: Any, monkeypatch: Any
) -> None:
    checked: list[str] = []
    real = passwords.check_password_hash

    def counting(stored: str, password: str) -> bool:
        checked.append(password)
        return real(stored, password)

    monkeypatch.setattr(passwords, "check_password_hash", counting)
    for username in ("anna", "nobody-here"):
        answer = client.post("/api/tokens", json={"username": username, "password": "wrong one"})
        assert answer.status_code == 401
    assert checked == ["wrong one", "wrong one"]  # the unknown name is hashed against a dummy


def test_join_links_with_codes_that_are_not_there_count_against_the_join_limit(limited_app: Flask) -> None:  # noqa: F811
    client = from_address(limited_app, "198.51.100.9")
    assert client.post(
        "/register", data={"username": "anna", "password": PASSWORD, "confirm": PASSWORD}
    ).status_code in (200, 302)
    statuses = [client.get(f"/join/GUESS{i}AAAA").status_code for i in range(2)]
    token = (
        from_address(limited_app, "198.51.100.9")
        .post("/api/tokens", json={"username": "anna", "password": PASSWORD})
        .json["token"]
    )
    statuses.append(
        client.post(
            "/api/matches/join", json={"code": "GUESS9AAAA"}, headers={"Authorization": f"Bearer {token}"}
        ).status_code
    )
    statuses.append(client.get("/join/GUESS3AAAA").status_code)
    assert statuses == [404, 404, 404, 429]  # one counter, JOIN_LIMIT_PER_ADDRESS = 3


def test_a_club_nights_check_in_links_with_codes_that_are_not_there_count_against_the_join_limit(
    limited_app: Flask,  # noqa: F811
) -> None:
    client = from_address(limited_app, "198.51.100.10")
    assert client.post(
        "/register", data={"username": "anna", "password": PASSWORD, "confirm": PASSWORD}
    ).status_code in (200, 302)
    statuses = [client.get(f"/events/join/GUESS{i}").status_code for i in range(4)]
    assert statuses == [404, 404, 404, 429]  # the join codes' counter, JOIN_LIMIT_PER_ADDRESS = 3


def test_no_answer_lets_another_site_read_it(client: Any, api_user: Any) -> None:
    other_site = {"Origin": "https://evil.example"}
    for method, url in [("GET", "/api/matches"), ("OPTIONS", "/api/matches"), ("GET", "/"), ("POST", "/api/tokens")]:
        answer = client.open(
            url, method=method, headers={**api_user.headers, **other_site, "Access-Control-Request-Method": "GET"}
        )
        assert not [h for h in answer.headers.keys() if h.lower().startswith("access-control-")]


def test_no_template_lets_text_through_unescaped() -> None:
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text("utf-8")
        assert not re.search(r"\|\s*safe\b|autoescape\s+false|\{%-?\s*autoescape", text), template
    # The Markups: the invite's QR code, an SVG drawn by segno from the join link; fragments
    # these autoescaping templates rendered, kept once per language (and figures); and the
    # sheet's words with a row's number put in, escaped and then given digits alone (`fill`).
    package = ROOT / "scoresheet"
    web = package / "web"
    python = [p for p in package.rglob("*.py") if "Markup(" in p.read_text("utf-8")]
    assert sorted(p.relative_to(package).as_posix() for p in python) == [
        "web/i18n.py",
        "web/links.py",
        "web/players/routes.py",
        "web/template_globals.py",
    ]
    assert re.findall(r"Markup\(.*", (web / "template_globals.py").read_text()) == [
        "Markup(str.replace(escape(word), stand_in, str(int(value))))"
    ]
    assert "Markup(render_template(template))" in (web / "i18n.py").read_text()
    assert re.findall(r"Markup\((\w+\(\"?[\w./]*)", (web / "players" / "routes.py").read_text()) == [
        'render_template("players/_player_figures.html'
    ]
    fragments = {
        name
        for page in (ROOT / "templates").rglob("*.html")
        for name in re.findall(r"per_language\(\"([^\"]+)\"\)", page.read_text("utf-8"))
    }
    assert fragments == {"offline/_offline_words.html", "shared/_language_buttons.html"}  # .html: autoescaped


def test_an_unexpected_error_answers_500_telling_nothing_and_keeping_nothing(database_url: str, tmp_path: Any) -> None:
    app = create_app(app_config(database_url, tmp_path, PROPAGATE_EXCEPTIONS=False))

    def half_done() -> str:
        db.session.add(User(username="half", password_hash="x"))
        db.session.flush()
        raise RuntimeError("secret detail of the failure")

    app.add_url_rule("/half-done", view_func=half_done)
    app.add_url_rule("/api/half-done", "api_half_done", view_func=half_done)
    before = table_counts(app)
    for url in ("/half-done", "/api/half-done"):
        answer = app.test_client().get(url)
        assert answer.status_code == 500
        assert "secret detail" not in answer.text and "Traceback" not in answer.text
        assert "nothing" in answer.text  # "… nothing was saved" / "… nothing was changed"
    assert table_counts(app) == before
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


MARK = "zq7echoed"
QUERY = "&".join(f"{k}={MARK}" for k in ("next", "number", "entry", "lang", "target", "q", "v"))
KNOWN_ECHOES = re.compile(
    r'<input type="hidden" name="next" value="/[^"]*$'  # the language switch: back to this URL
    r'|<a href="/(login|register)\?next=$'  # log-in and register link each other with `next`
    r'|target URL: <a href="/login\?next=[^"]*(">/login\?next=[^<]*)?$'
)  # a redirect
"""Where request text reaches a page's body (docs/security.md, "Compression and BREACH")."""


def test_request_text_reaches_a_page_only_where_the_docs_say(csrf_app: Flask, phone: Any) -> None:
    from .page_helpers import played
    from .test_strangers import url_for_rule

    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    headers = {
        "User-Agent": MARK,
        "Referer": f"http://localhost/{MARK}",
        "Accept-Language": MARK,
        "X-Requested-With": MARK,
        "X-Forwarded-Host": MARK,
    }
    rules = sorted(
        {
            r.rule
            for r in csrf_app.url_map.iter_rules()
            if "GET" in r.methods and not r.rule.startswith(("/api", "/static"))
        }
    )
    assert len(rules) >= 20
    unknown, echoes = [], 0
    for rule in rules:
        url = url_for_rule(rule, match_id)
        for client in (phone.client, csrf_app.test_client()):  # logged in, and not
            answer = client.get(f"{url}?{QUERY}", headers=headers)
            body = answer.get_data()
            answer.close()  # a file sent as it is (an icon) is closed only so
            for found in re.finditer(MARK.encode(), body):
                before = body[max(0, found.start() - 600) : found.start()].decode("utf-8", "replace")
                echoes += 1
                if not KNOWN_ECHOES.search(before):
                    unknown.append((rule, before[-60:]))
    assert echoes > len(rules) and unknown == []


def test_logging_out_ends_every_remember_me_cookie(csrf_app: Flask, phone: Any) -> None:
    from .page_helpers import Phone
    from .test_account import remember_cookie

    browser = Phone(csrf_app.test_client())
    cookie = remember_cookie(browser.post("/login", {"username": "anna", "password": "correct horse", "remember": "y"}))
    assert cookie is not None
    value = cookie.split(";")[0].split("=", 1)[1]
    copy = csrf_app.test_client()
    copy.set_cookie("remember_token", value)
    assert copy.get("/").status_code == 200  # the copy logs in, until…
    phone.post("/logout", {}, form_url="/")  # …anna logs out on another phone
    reopened = csrf_app.test_client()
    reopened.set_cookie("remember_token", value)
    assert reopened.get("/").status_code == 302


def test_cookies_set_for_a_domain_are_not_host_prefixed(tmp_path: Any) -> None:
    names = {}
    for domain in (None, "scores.example.org"):
        app = create_app(
            app_config(
                f"sqlite:///{tmp_path / 'c.sqlite'}", tmp_path, SESSION_COOKIE_SECURE=True, SESSION_COOKIE_DOMAIN=domain
            )
        )
        names[domain] = (app.config["SESSION_COOKIE_NAME"], app.config["REMEMBER_COOKIE_NAME"])
        with app.app_context():
            db.engine.dispose()
    assert names == {
        None: ("__Host-session", "__Host-remember_token"),
        "scores.example.org": ("session", "remember_token"),
    }
