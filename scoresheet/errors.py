"""Error answers: a friendly page for people, JSON under /api; never a crash page."""

from __future__ import annotations

from typing import Any

from flask import Flask, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from .extensions import db

TITLES = {400: "That did not work", 401: "Log in first", 403: "Not allowed",
          404: "Not found", 405: "Not allowed", 409: "Changed meanwhile",
          413: "Too much at once", 415: "That did not work", 422: "That did not work",
          429: "Too many tries", 500: "Something went wrong"}
MESSAGES = {
    404: "There is nothing here.",
    405: "That page cannot be used this way: go back and use its buttons.",
    413: "That was far more than any form here sends (at most 64 KiB): nothing was saved.",
    429: "Too many tries in a short time: nothing was saved. Wait a few minutes, then try again.",
    500: "Something went wrong on our side and nothing was saved. Go back and try again.",
}
CSRF_MESSAGE = ("This form was out of date or not sent from this site: nothing was saved. "
                "Go back, reload the page and try again.")
FALLBACK = ("<!doctype html><html lang=en><meta charset=utf-8><title>Something went wrong"
            "</title><h1>Something went wrong</h1><p>Nothing was saved. Go back and try again.")


def init_app(app: Flask) -> None:
    """Answer every HTTP error (and every unexpected exception, as 500) in kind."""
    app.register_error_handler(HTTPException, http_error)


def is_api() -> bool:
    """The request is for the JSON API."""
    return request.path == "/api" or request.path.startswith("/api/")


def http_error(e: HTTPException) -> Any:
    """The JSON error under /api, an error page everywhere else."""
    code = e.code or 500
    if code >= 500:
        db.session.rollback()
    if is_api():
        from .api import http_error_response

        return http_error_response(e)
    return error_page(e)


def error_page(e: HTTPException) -> Any:
    """A page a player can act on (a stranger's match is simply not there)."""
    code = e.code or 500
    if e.response is not None and code != 429:
        return e.response
    message = MESSAGES.get(code)
    if code in (400, 404, 409, 422) and e.description and \
            not str(e.description).startswith(("The requested URL", "The browser (or proxy)")):
        message = str(e.description)
    if code == 400 and "CSRF" in str(e.description):
        message = CSRF_MESSAGE
    try:
        html = render_template("error.html", title=TITLES.get(code, "That did not work"),
                               message=message or "That did not work.", code=code)
    except Exception:  # noqa: BLE001  (the page itself failed: say so plainly, never a trace)
        if not isinstance(e, InternalServerError):
            raise
        html = FALLBACK
    return html, code
