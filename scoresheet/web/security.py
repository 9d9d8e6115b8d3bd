"""Cookies, security headers and URL guards that every response and request goes through.

What this meets of OWASP ASVS level 1 is written down in docs/security.md.
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask, abort, current_app, g, request
from flask_babel import gettext as _
from werkzeug.routing import IntegerConverter
from werkzeug.urls import iri_to_uri
from werkzeug.wrappers import Response

from ..services.accounts import SESSION_LIFETIME

REMEMBER_FOR = SESSION_LIFETIME
"""How long "Stay logged in" keeps a phone logged in (a password change ends it sooner); the
server refuses a cookie issued earlier (`accounts.load_user`)."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
"""What a match id can look like (`models.new_match_id`); anything else is not there."""
MAX_HAND_NUMBER = 100_000
"""No match has more hands; a larger number in a URL is simply not there (no database overflow)."""
MAX_ROW_ID = 2**31 - 1
HOST_PREFIX = "__Host-"
"""Browsers keep a `__Host-` cookie only if it is Secure, for this host alone, and for every
path: no other site (not even a sub-domain) can set or overwrite it."""
BACKUP_UPLOADS = frozenset(
    {"api.import_matches", "recovery.import_match", "club.import_event", "recovery.import_event"}
)
IMPORT_LIMIT = 4 * 1024 * 1024
"""A backup may be larger than an ordinary request (64 KiB): a long match with its history."""


class AsciiIntConverter(IntegerConverter):
    """`<int:…>` in a URL: ASCII digits only (werkzeug's own also takes "１" or "١" as 1)."""

    regex = r"[0-9]+"


def init_app(app: Flask) -> None:
    """Decide the cookie flags, add the headers to every response, guard URL values and bodies
    (call it before any extension that reads the body: the CSRF check, the limiter)."""
    app.url_map.converters["int"] = AsciiIntConverter
    configure_cookies(app)
    app.after_request(security_headers)
    app.after_request(_private_no_store)
    app.url_value_preprocessor(_guard_url_values)
    app.url_value_preprocessor(_allow_large_backups)
    app.before_request(_guard_body)


def configure_cookies(app: Flask) -> None:
    """Session cookie HttpOnly, SameSite=Lax, and Secure unless the app serves plain http.

    `SESSION_COOKIE_SECURE` left unset (None) means: Secure, except under the development
    server (`flask run`, plain http, e.g. http://127.0.0.1:5000), in debug or testing, or with
    `SCORESHEET_INSECURE_COOKIES=1`. The environment variable `SESSION_COOKIE_SECURE=0|1`, the
    instance `config.py` or `create_app`'s argument set it explicitly.
    """
    secure = app.config.get("SESSION_COOKIE_SECURE")
    if secure is None:
        secure = not (app.debug or app.testing or development_server() or app.config["SCORESHEET_INSECURE_COOKIES"])
    app.config["SESSION_COOKIE_SECURE"] = bool(secure)
    app.config.setdefault("REMEMBER_COOKIE_SECURE", bool(secure))
    app.config.setdefault("REMEMBER_COOKIE_HTTPONLY", True)
    app.config.setdefault("REMEMBER_COOKIE_SAMESITE", "Lax")
    app.config.setdefault("REMEMBER_COOKIE_DURATION", REMEMBER_FOR)
    prefix = HOST_PREFIX if _host_prefixed(app.config) else ""
    if app.config["SESSION_COOKIE_NAME"] == "session":
        app.config["SESSION_COOKIE_NAME"] = prefix + "session"
    app.config.setdefault("REMEMBER_COOKIE_NAME", prefix + "remember_token")


def _host_prefixed(config: Any) -> bool:
    """Cookies get the `__Host-` prefix: they are Secure and set for no other domain."""
    return bool(config["SESSION_COOKIE_SECURE"]) and not config.get("SESSION_COOKIE_DOMAIN")


def cookie_name(name: str) -> str:
    """A cookie's name as this app sets it (`__Host-` prefixed wherever cookies are Secure)."""
    return (HOST_PREFIX if _host_prefixed(current_app.config) else "") + name


def development_server() -> bool:
    """Started by the `flask` command (`flask run`: the plain-http development server)."""
    return os.environ.get("FLASK_RUN_FROM_CLI") == "true"


def security_headers(response: Response) -> Response:
    """Add the security headers (a view may have set a stricter one of its own)."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def local_path(target: str | None, fallback: str) -> str:
    """`target` if it is a path on this site, judged as the Location header will carry it
    (`iri_to_uri` drops tabs and newlines: "/\\t/evil" would become "//evil"); anything else,
    or anything holding a control, space, invisible character or backslash: `fallback`."""
    if (
        target
        and target.isprintable()
        and " " not in target
        and "\\" not in target
        and _on_site(target)
        and _on_site(iri_to_uri(target))
    ):
        return target
    return fallback


def _on_site(url: str) -> bool:
    """A path of this site: one slash first, never two (a browser reads "//host" as a host)."""
    return url.startswith("/") and not url.startswith("//")


def _private_no_store(response: Response) -> Response:
    """No cache (the browser's or a proxy's) keeps anything private: every page shown to a
    logged-in user and every API answer (tokens, sheets, backups) is `no-store`."""
    user = g.get("_login_user")  # loaded only if the request looked at it: no extra query
    if request.path.startswith("/api/") or (user is not None and user.is_authenticated):  # a club night's too
        response.cache_control.no_store = True
    return response


def _guard_url_values(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """A match or event id, a hand, round or table number that cannot exist is answered 404,
    naming what was asked for, before any query runs (PostgreSQL refuses NUL bytes and numbers
    beyond its integers with an error, not a miss)."""
    if not values:
        return
    match_id = values.get("match_id")
    if match_id is not None and not MATCH_ID.fullmatch(str(match_id)):
        abort(404, _("There is no such match."))
    event_id = values.get("event_id")  # a club night's id is made as a match's is
    if event_id is not None and not MATCH_ID.fullmatch(str(event_id)):
        abort(404, _("There is nothing here."))
    number = values.get("number")  # a club night's round, else a match's hand
    if isinstance(number, int) and not 1 <= number <= MAX_HAND_NUMBER:
        if event_id is not None:
            abort(404, _("This event has no round %(r)d.", r=number))
        abort(404, _("This match has no hand %(num)d.", num=number))
    table = values.get("table")
    if isinstance(table, int) and isinstance(number, int) and not 1 <= table <= MAX_ROW_ID:
        abort(404, _("Round %(r)d has no table %(t)d.", r=number, t=table))
    seat = values.get("seat")
    if isinstance(seat, int) and not 0 <= seat <= MAX_ROW_ID:
        abort(404, _("This match has no such seat."))
    if any(isinstance(v, int) and not 0 <= v <= MAX_ROW_ID for v in values.values()):
        abort(404, _("There is nothing here."))  # any other id in a URL: an integer column's range


def _allow_large_backups(endpoint: str | None, _values: Any) -> None:
    """A backup upload (page or API) may exceed the 64 KiB of other requests. (This runs
    before every before_request hook, so the body guard and the CSRF check read the body with
    this limit too.)"""
    if endpoint in BACKUP_UPLOADS:
        request.max_content_length = IMPORT_LIMIT


def ascii_number(text: str | None, most: int = MAX_ROW_ID) -> int | None:
    """A number from a query string or form: 1..`most` in ASCII digits, else None (never "１",
    never the 4,300 digits int() refuses, never beyond PostgreSQL's integer column)."""
    if text and text.isascii() and text.isdigit() and len(text) <= len(str(most)):
        number = int(text)
        return number if 0 < number <= most else None
    return None


def _guard_body() -> None:
    """A body sent without a Content-Length (chunked) is held to the same limit as any other
    (werkzeug stops reading at the limit and hands on the cut body: a 400 instead of a 413),
    and a form is UTF-8 throughout (werkzeug keeps "%ED%A0%80" as those nine characters)."""
    limit = request.max_content_length
    if (
        request.content_length is None
        and limit is not None
        and "wsgi.input_terminated" in request.environ
        and len(request.get_data(cache=True)) >= limit
        and request.environ["wsgi.input"].read(1)
    ):
        abort(413)
    if request.mimetype == "application/x-www-form-urlencoded":
        try:
            parse_qsl(request.get_data(cache=True).decode(), errors="strict")
        except UnicodeDecodeError:
            abort(
                400,
                _(
                    "This form held characters that are not text (not UTF-8): nothing "
                    "was saved. Go back, reload the page and type it again."
                ),
            )
