"""Errors and their answers, in one place: a page a player can act on, JSON under /api.

One handler per error (microblog): every HTTP error (and every unexpected exception, as 500),
an engine refusal (`Malformed` → 400, `Refused` → 422), the service layer's refusals
(services/errors.py: `NotFound` → 404, `Forbidden` → 403, `Conflict` → 409, `WrongPassword`
→ 403), and a writer that could not wait (503: SQLite's write lock held too long, or
PostgreSQL rolling back one of two writers that clashed). Views that put a refusal
next to its form field catch it themselves; whatever they do not catch ends here.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, jsonify, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, InternalServerError

from ..club import MESSAGES as CLUB_MESSAGES
from ..club import ClubError
from ..rules import Malformed, RuleError
from ..services.errors import Conflict, Forbidden, Invalid, NotFound, WrongPassword
from ..storage.database import form_page
from ..storage.extensions import db
from .forms import OUT_OF_DATE
from .offline import queued

_DID_NOT_WORK = _l("That did not work")
_TITLES = {
    400: _DID_NOT_WORK,
    401: _l("Log in first"),
    403: _l("Not allowed"),
    404: _l("Not found"),
    405: _l("Not allowed"),
    409: _l("Changed meanwhile"),
    413: _l("Too much at once"),
    415: _DID_NOT_WORK,
    422: _DID_NOT_WORK,
    429: _l("Too many tries"),
    500: _l("Something went wrong"),
    503: _l("Busy"),
}
_PAGE_MESSAGES = {
    404: _l("There is nothing here."),
    405: _l("That page cannot be used this way: go back and use its buttons."),
    413: _l("That was far more than any form here sends (at most 64 KiB): nothing was saved."),
    429: _l("Too many tries in a short time: nothing was saved. Wait a few minutes, then try again."),
    500: _l("Something went wrong on our side and nothing was saved. Go back and try again."),
}
_API_MESSAGES = {
    400: _l("The request is not valid JSON."),
    401: _l("Send a valid token: Authorization: Bearer <token>."),
    404: _l("There is nothing here."),
    413: _l("The request is too large: at most 64 KiB."),
    429: _l("Too many tries in a short time: wait a few minutes, then try again."),
    500: _l("Something went wrong on our side; nothing was changed."),
}
_BUSY_MESSAGE = _l(
    "Another phone was saving at the same moment and this could not wait any longer: nothing was saved. Try again."
)
_FALLBACK = (
    "<!doctype html><html lang=en><meta charset=utf-8><title>Something went wrong"
    "</title><h1>Something went wrong</h1><p>Nothing was saved. Go back and try again."
)


def init_app(app: Flask) -> None:
    """Answer every error in kind: HTTP errors, engine refusals and conflicts."""
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(RuleError, _rule_error)
    app.register_error_handler(Conflict, conflict)
    app.register_error_handler(WrongPassword, _wrong_password)
    app.register_error_handler(NotFound, _not_found)
    app.register_error_handler(Forbidden, _forbidden)
    app.register_error_handler(Invalid, _invalid)
    app.register_error_handler(ClubError, _club_error)
    app.register_error_handler(OperationalError, _database_busy)


def _is_api() -> bool:
    """The request is for the JSON API."""
    return request.path == "/api" or request.path.startswith("/api/")


def error_response(status: int, message: Any = None, field: str | None = None) -> Response:
    """The API's error body: a sentence a person can act on, and the request key at fault."""
    response = jsonify(error=str(message or _API_MESSAGES.get(status) or _fallback(status)), field=field)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    return response


def _http_error(e: HTTPException) -> Any:
    """The JSON error under /api, an error page everywhere else (JSON for a hand the phone
    kept offline and sends now: scoresheet/queued.py)."""
    if (e.code or 500) >= 500:
        db.session.rollback()
    if not _is_api() and queued.wanted():
        return _queued_error(e)
    return _api_http_error(e) if _is_api() else _error_page(e)


def _queued_error(e: HTTPException) -> Response:
    """An error page's words, as JSON for the phone's queue."""
    code = e.code or 500
    csrf = code == 400 and "CSRF" in str(e.description)
    message = OUT_OF_DATE if csrf else _PAGE_MESSAGES.get(code)
    if (
        not csrf
        and code in (400, 404)
        and e.description
        and not str(e.description).startswith(("The requested URL", "The browser (or proxy)"))
    ):
        message = e.description
    return queued.failed(code, str(message or _fallback(code)), csrf)


def _rule_error(e: RuleError) -> Any:
    """Malformed → 400, refused by the rules → 422: the engine's sentence, nothing stored."""
    db.session.rollback()
    code = 400 if isinstance(e, Malformed) else 422
    return error_response(code, e.message, e.field) if _is_api() else _page(code, e.message)


def conflict(e: Conflict) -> Any:
    """A clash with the current state → 409."""
    db.session.rollback()
    return error_response(409, e.message, e.field) if _is_api() else _page(409, e.message)


def _not_found(e: NotFound) -> Any:
    """What is not there, or not the user's to see → 404, in the service's words."""
    return _refusal(404, e)


def _forbidden(e: Forbidden) -> Any:
    """Not the user's to do → 403."""
    return _refusal(403, e)


def _invalid(e: Invalid) -> Any:
    """A value out of range (a club night's rounds, limits, names) → 422 with its field."""
    db.session.rollback()
    return error_response(422, e.message, e.field) if _is_api() else _page(422, e.message)


def _club_error(e: ClubError) -> Any:
    """The club engine's refusal (a seating it cannot make, a table's scores that do not fit)
    → 422 with its field, its sentence in the reader's language (looked up by its English)."""
    db.session.rollback()
    message = club_message(e)
    return error_response(422, message, e.field) if _is_api() else _page(422, message)


def club_message(e: ClubError) -> str:
    """The club engine's refusal in the reader's language (its sentence looked up by its English)."""
    return str(_(CLUB_MESSAGES[e.code])).format(**e.params)


def _refusal(code: int, e: NotFound | Forbidden) -> Any:
    """A service's refusal that stored nothing: JSON under /api and for the phone's queue, else
    the error page."""
    if _is_api():
        return error_response(code, e.message, e.field)
    return queued.failed(code, e.message, False) if queued.wanted() else _page(code, e.message)


def _wrong_password(e: WrongPassword) -> Any:
    """A wrong password where one is asked for again → 403."""
    db.session.rollback()
    return error_response(403, e.message, e.field) if _is_api() else _page(403, e.message)


_WRITERS_CLASHED = frozenset({"40P01", "40001"})
"""PostgreSQL's deadlock_detected and serialization_failure: two writers took the same rows in
opposite orders and one was rolled back. The app's writers take a match before its club night
(`events.unseat_round`): this is the safety net."""


def _database_busy(e: OperationalError) -> Any:
    """SQLite's write lock still held by another writer after the busy timeout, or PostgreSQL
    rolling back one of two writers that clashed → 503, to try again (a phone's waiting hand is
    sent again by itself); any other database error is a 500."""
    sqlstate = getattr(e.orig, "sqlstate", None)
    if "database is locked" not in str(e.orig) and sqlstate not in _WRITERS_CLASHED:
        raise e
    db.session.rollback()
    if sqlstate in _WRITERS_CLASHED:  # the app takes its rows in one order: worth looking into
        current_app.logger.warning("two writers clashed (%s), one was answered 503: %s", sqlstate, e.orig)
    answer = error_response(503, _BUSY_MESSAGE) if _is_api() else _page(503, _BUSY_MESSAGE)
    response = current_app.make_response(answer)
    response.headers["Retry-After"] = "1"
    return response


def _api_http_error(e: HTTPException) -> Response:
    """An HTTP error as the API's JSON error (unknown routes, wrong methods, 500s)."""
    code = e.code or 500
    if code == 405:
        return error_response(405, _("%(method)s is not allowed here.", method=request.method))
    message = (
        e.description
        if code in (401, 404) and e.description and not e.description.startswith("The requested URL")
        else None
    )
    if code >= 500:
        message = _API_MESSAGES[500]
    return error_response(code, message)


def _fallback(code: int) -> str:
    """A sentence for a status code no message above names."""
    return _("That did not work (HTTP %(code)d).", code=code)


def _error_page(e: HTTPException) -> Any:
    """A page a player can act on (a stranger's match is simply not there)."""
    code = e.code or 500
    if e.response is not None and code != 429:
        return e.response
    message = _PAGE_MESSAGES.get(code)
    if (
        code in (400, 404, 409, 422)
        and e.description
        and not str(e.description).startswith(("The requested URL", "The browser (or proxy)"))
    ):
        message = str(e.description)
    if code == 400 and "CSRF" in str(e.description):
        message = OUT_OF_DATE
    return _page(code, message, fallback=isinstance(e, InternalServerError))


def _page(code: int, message: Any, fallback: bool = False) -> Any:
    """The error page (drawn as a refused form's is: nothing of the request kept, no lock held);
    if it cannot be rendered while answering a crash, a plain one."""
    try:
        with form_page():
            html = render_template(
                "shared/error.html",
                title=_TITLES.get(code, _DID_NOT_WORK),
                message=message or _("That did not work."),
                code=code,
            )
    except Exception:  # noqa: BLE001  (the page itself failed: say so plainly, never a trace)
        if not fallback:
            raise
        html = _FALLBACK
    return html, code
