"""Notices on the next page: what someone else did to a player's seat, told once per browser
in the player's language (`services.notices`).

A page (a GET: it never writes) flashes the notices this browser has not shown yet and keeps
the id of the last one in the session; the player's next change (any other method) deletes
the notices shown, so they are told once.
"""

from __future__ import annotations

from flask import Flask, flash, request, session
from flask_login import current_user

from ..services import notices
from ..storage.database import READ_ONLY_METHODS

SEEN = "notice_seen"
"""The session key: the id of the last notice this browser showed."""
_QUIET = frozenset({"api", "live", "offline"})
"""Blueprints whose answers are no page a person reads (JSON, polls, the service worker)."""


def init_app(app: Flask) -> None:
    """Tell a player their notices on their next page."""
    app.before_request(_notices)


def _notices() -> None:
    """Flash the notices not shown yet on a page; forget those shown on a change."""
    if request.blueprint in _QUIET or request.endpoint in (None, "static") or not current_user.is_authenticated:
        return
    if request.method not in READ_ONLY_METHODS:
        seen = session.pop(SEEN, None)
        if isinstance(seen, int):
            notices.forget(current_user, seen)
        return
    if request.method != "GET":
        return
    seen, newest = session.get(SEEN, 0), current_user.newest_notice
    if newest is not None and isinstance(seen, int) and newest <= seen:
        return  # read with the user: no notice newer than the last this browser showed
    for notice_id, words in notices.waiting(current_user, seen):
        flash(words, "warning")
        session[SEEN] = notice_id
