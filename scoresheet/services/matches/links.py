"""What brings people to a match: its join code, and its watch link (a long random token that
shows the sheet, read-only, without an account; the links as URLs and QR codes: web/links.py).

Finding a match by either, and making or stopping a watch link, are decided here only: the
pages, the API and `services.join` all call these. The history says who made, replaced or
stopped a watch link, never its token.
"""

from __future__ import annotations

import re

from ...storage.extensions import db
from ...storage.models import Match, User, new_watch_token
from ...words import _
from ..errors import NotFound
from . import audit

WATCH_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
"""What a watch token can look like (`models.new_watch_token`); anything else is not there."""


def normal_code(code: str) -> str | None:
    """A join code (a match's, a club night's) as stored: spaces and dashes left out, upper
    case (codes are forgiving); None for what no code looks like, which is looked up nowhere."""
    code = "".join(code.split()).replace("-", "").upper()
    return code if 0 < len(code) <= 16 and code.isascii() and code.isalnum() else None


def by_join_code(code: str) -> Match | None:
    """The match with this join code (case, spaces and dashes ignored), else None."""
    normal = normal_code(code)
    if normal is None:
        return None
    return db.session.execute(db.select(Match).where(Match.join_code == normal)).scalar_one_or_none()


def by_watch_token(token: str) -> Match:
    """The match this watch link shows, else 404 (a stopped or replaced link is not there)."""
    match: Match | None = (
        db.session.execute(db.select(Match).where(Match.watch_token == token)).scalar_one_or_none()
        if WATCH_TOKEN.fullmatch(token)
        else None
    )
    if match is None:
        raise NotFound(_("This watch link does not work (any more): ask the table for a new one."))
    return match


def make_watch_link(match: Match, user: User) -> str:
    """Give the match a new watch link (an old one stops working); its token."""
    replaced = match.watch_token is not None
    audit.log(match, user, "watch_link_replaced" if replaced else "watch_link_made")
    match.watch_token = new_watch_token()
    db.session.commit()
    return match.watch_token


def stop_watch_link(match: Match, user: User) -> None:
    """Stop the match's watch link: it shows nothing any more."""
    if match.watch_token is not None:  # stopping a stopped link changes nothing
        audit.log(match, user, "watch_link_stopped")
    match.watch_token = None
    db.session.commit()
