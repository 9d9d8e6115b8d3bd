"""Answers for the hands a phone kept while it was offline and sends later (static/offline.js).

They come through the same page forms and the same checks as a hand typed online; only the
answer differs: JSON the phone's script reads instead of a redirect with a flash or a page.
Every answer is JSON, an error too (`failed`), so that the phone tells our server's word on the
hand from a Wi-Fi sign-in page or a proxy: 201 recorded, 409 changed meanwhile, 422 refused,
404 gone (the match or the hand), 400 with `csrf: true` a token to fetch again; 403, 429, 5xx
or an answer that is not ours: sent again later. A log-in that ran out is the form's redirect
to the log-in page, as for any page.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request


def wanted() -> bool:
    """The phone's queue sent this form and reads JSON (`Accept: application/json`)."""
    return request.method == "POST" and request.accept_mimetypes.best == "application/json"


def recorded(number: int) -> Response:
    """201: the hand (or correction) `number` is recorded (its flash waits for the next page)."""
    response = jsonify(ok=True, number=number)
    response.status_code = 201
    return response


def conflict(message: str, next_hand: int | None, closed: bool = False) -> Response:
    """409: nothing stored, the match changed meanwhile; `next` is the hand it expects now;
    `closed`: it takes no hand or correction any more (won, banked or ended), so the phone
    offers only to drop what it kept."""
    response = jsonify(ok=False, conflict=True, closed=closed, message=message, next=next_hand)
    response.status_code = 409
    return response


def deleted(message: str) -> Response:
    """404: the hand a correction was for was deleted meanwhile (`deleted`: the phone shows
    `message`, which says so, and offers only to drop the correction)."""
    response = jsonify(ok=False, conflict=False, deleted=True, message=message)
    response.status_code = 404
    return response


def refused(form: Any) -> Response:
    """422: the rules refuse the hand as typed; the first refusal, as the form would show it."""
    messages = [
        *form.top_errors,
        *(e for errs in form.group_errors.values() for e in errs),
        *(e for errs in form.errors.values() for e in errs),
    ]
    response = jsonify(ok=False, conflict=False, message=str(messages[0]) if messages else "")
    response.status_code = 422
    return response


def failed(code: int, message: str, csrf: bool) -> Response:
    """Any other error (an HTTP error the page would show as an error page), as JSON: `csrf`
    true when the CSRF token was refused (the phone fetches another and sends the hand again)."""
    response = jsonify(ok=False, conflict=False, csrf=csrf, message=message)
    response.status_code = code
    return response
