"""A match's join link and watch link and a club night's check-in link as URLs, and a link as a
QR code drawn on the server (services/matches/links.py finds a match by either and makes or stops
a watch link)."""

from __future__ import annotations

import functools
from typing import Any

import segno
from flask import current_app, url_for
from markupsafe import Markup

from ..storage.models import Event, Match


def _public(endpoint: str, **values: Any) -> str:
    """An absolute URL of this site: under `PUBLIC_URL` where one is set (the request's own
    Host and X-Forwarded-Host then never reach a link a player shares), else the request's."""
    public = str(current_app.config.get("PUBLIC_URL") or "").rstrip("/")
    if public:
        return public + url_for(endpoint, **values)
    return url_for(endpoint, **values, _external=True)


def join_url(match: Match) -> str:
    """The join link: opened, it asks to join the match (after logging in, if need be)."""
    return _public("invite.join_link", code=match.join_code)


def event_join_url(event: Event) -> str:
    """A club night's check-in link: opened, it asks to join the night's roster (after logging in)."""
    return _public("nights.join_link", code=event.code)


def watch_url(match: Match) -> str | None:
    """The watch link, if the match has one."""
    if match.watch_token is None:
        return None
    return _public("invite.watch", token=match.watch_token)


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
