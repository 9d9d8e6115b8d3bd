"""Links that bring people to a match: the join link (the join code as a URL, with its QR code)
and the watch link (a long random token that shows the sheet, read-only, without an account).

Finding a match by either, and making or stopping a watch link, are decided here only: the
pages, the API and `services.join` all call these. The history says who made, replaced or
stopped a watch link, never its token.
"""

from __future__ import annotations

import functools
import re

import segno
from flask import abort, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from ...storage.extensions import db
from ...storage.models import Match, User, new_watch_token
from . import audit

_WATCH_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
"""What a watch token can look like (`models.new_watch_token`); anything else is not there."""


def _normal_code(code: str) -> str:
    """A join code as stored: spaces and dashes left out, upper case (codes are forgiving)."""
    return "".join(code.split()).replace("-", "").upper()


def by_join_code(code: str) -> Match | None:
    """The match with this join code (case, spaces and dashes ignored), else None."""
    code = _normal_code(code)
    if not (0 < len(code) <= 16 and code.isascii() and code.isalnum()):
        return None  # never a query for what no code looks like
    return db.session.execute(db.select(Match).where(Match.join_code == code)).scalar_one_or_none()


def by_watch_token(token: str) -> Match:
    """The match this watch link shows, else 404 (a stopped or replaced link is not there)."""
    match = (
        db.session.execute(db.select(Match).where(Match.watch_token == token)).scalar_one_or_none()
        if _WATCH_TOKEN.fullmatch(token)
        else None
    )
    if match is None:
        abort(404, _("This watch link does not work (any more): ask the table for a new one."))
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


def join_url(match: Match) -> str:
    """The join link: opened, it asks to join the match (after logging in, if need be)."""
    return url_for("invite.join_link", code=match.join_code, _external=True)


def watch_url(match: Match) -> str | None:
    """The watch link, if the match has one."""
    if match.watch_token is None:
        return None
    return url_for("invite.watch", token=match.watch_token, _external=True)


def qr_code(text: str) -> Markup:
    """`text` as a QR code in inline SVG, drawn here (no request leaves the page)."""
    return Markup(_qr_svg(text))


@functools.lru_cache(maxsize=256)
def _qr_svg(text: str) -> str:
    """The SVG of a QR code: black on white with its quiet zone (also in dark mode), hidden
    from screen readers (the link is written beside it)."""
    svg = segno.make(text, error="m").svg_inline(
        scale=5, border=4, dark="#000", light="#fff", svgclass="qr", lineclass=None
    )
    return svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)
