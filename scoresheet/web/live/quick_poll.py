"""The live-update poll's common case, answered before Flask builds a request.

Every phone at every table asks `GET /matches/<id>/version` every few seconds, and nearly
always the answer is 304: nothing changed. Through Flask that costs the request context, the
session, Flask-Login's user query, the ORM and every after-request hook: about 3.7 times
`GET /healthz`. `QuickPoll` sits in front of the app as WSGI middleware and answers exactly that
case itself — a valid session cookie of a user who is still logged in, is a member of the match,
and already has its current version — with one query and the same 304 the view would send.
Anything else (no or a broken cookie, a session Flask-Login would not accept as it stands,
a stranger, a changed match, any other header that could matter) goes to the app unchanged,
so what strangers, logged-out phones and every other request see is the app's own answer.
`tests/web/test_quick_poll.py` compares both answers header by header.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from hashlib import sha512
from typing import Any

from flask import Flask
from itsdangerous import BadSignature
from werkzeug.http import http_date, parse_cookie, parse_etags

from ...services.accounts import session_parts
from ...services.matches import versions
from ...services.matches.versions import HANDS_AND_REVISION_SQL
from ...storage.database import ReadFailed, read_rows
from ...storage.extensions import db
from ..extensions import login_manager
from ..security import HEADERS, MATCH_ID

_PATH = re.compile(r"/matches/([^/]+)/version")
_VERSION = (
    f"SELECT {HANDS_AND_REVISION_SQL} FROM matches m"
    " JOIN members mb ON mb.match_id = m.id JOIN users u ON u.id = mb.user_id"
    " WHERE m.id = ? AND u.id = ? AND u.session_secret = ?"
)
"""The match's revision and hand count, if the session's user (still logged in with that
session secret) is a member: `versions.poll_version` and `accounts.load_user` in one query."""
_HEADERS = [("Cache-Control", "no-cache, private, no-store"), *HEADERS.items(), ("Vary", "Cookie")]
"""What the version view's 304 carries besides its ETag and Date (`live.version`, then
`security.security_headers` and `_private_no_store`)."""

_OTHER_CONDITIONS = (
    "HTTP_IF_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_UNMODIFIED_SINCE",
    "HTTP_IF_RANGE",
    "HTTP_RANGE",
)
"""Conditions werkzeug weighs beside If-None-Match: a request with any of them reaches the app."""
StartResponse = Callable[..., Any]


class QuickPoll:
    """WSGI middleware: answers an unchanged live-update poll of a member with 304 itself."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self._serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
        with app.app_context():
            self._engine = db.engine

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Answer the poll if it is the common case, else hand the request to the app."""
        version = self._unchanged(environ) if environ.get("REQUEST_METHOD") == "GET" else None
        if version is None:
            return self.wsgi_app(environ, start_response)
        start_response("304 NOT MODIFIED", [("ETag", f'"{version}"'), ("Date", http_date()), *_HEADERS])
        return []

    def _unchanged(self, environ: dict[str, Any]) -> str | None:
        """The version, if this is a member's poll of a match still at that version."""
        path = _PATH.fullmatch(environ.get("PATH_INFO", ""))
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if (
            path is None
            or not asked
            or not MATCH_ID.fullmatch(path[1])
            or any(environ.get(h) for h in _OTHER_CONDITIONS)
        ):
            return None
        session = self._session(environ)
        if session is None:
            return None
        parts = session_parts(str(session.get("_user_id", "")))
        if parts is None:
            return None  # not a session id, or issued too long ago: the app answers
        try:
            rows = read_rows(self._engine, _VERSION, [path[1], *parts])
        except ReadFailed:
            return None  # the app answers (its own query says what fails)
        if not rows:
            return None  # not a member, or logged out since: the app answers
        version = versions.version(rows[0][0], rows[0][1])
        return version if parse_etags(asked).contains_weak(version) else None

    def _session(self, environ: dict[str, Any]) -> dict[str, Any] | None:
        """The session as Flask would open it, if Flask-Login would take it as it stands."""
        config = self.app.config
        value = parse_cookie(environ).get(config["SESSION_COOKIE_NAME"])
        if not value or self._serializer is None:
            return None
        try:
            session = self._serializer.loads(value, max_age=int(self.app.permanent_session_lifetime.total_seconds()))
        except BadSignature:
            return None
        mode = config.get("SESSION_PROTECTION", login_manager.session_protection)
        if not isinstance(session, dict) or (
            mode in ("basic", "strong") and session.get("_id") != session_identifier(environ)
        ):
            return None  # Flask-Login would mark the session not fresh (or end it): the app decides
        return session


def session_identifier(environ: dict[str, Any]) -> str:
    """Flask-Login's session identifier of this request: the first X-Forwarded-For address, else
    the remote address, and the user agent, hashed.

    A seam, not a copy to forget: Flask-Login computes this in a private function
    (`flask_login.utils._create_identifier`) that needs a request context, which is what this
    middleware exists to avoid. tests/web/test_quick_poll.py compares the two for every kind of
    header, so a Flask-Login that changes its identifier fails the tests instead of quietly
    sending every poll to the app.
    """
    address = environ.get("HTTP_X_FORWARDED_FOR", environ.get("REMOTE_ADDR"))
    if address is not None:
        address = address.encode("utf-8").split(b",")[0].strip()
    agent = environ.get("HTTP_USER_AGENT")
    base = f"{address}|{agent.encode('utf-8') if agent is not None else None}"
    return sha512(base.encode("utf8")).hexdigest()


def init_app(app: Flask) -> None:
    """Put `QuickPoll` in front of the app (inside ProxyFix, which must run first)."""
    app.wsgi_app = QuickPoll(app, app.wsgi_app)  # type: ignore[method-assign]
