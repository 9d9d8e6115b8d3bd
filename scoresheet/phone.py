"""What a phone at the table needs besides the pages: the hand preview, the sheet's version for
live updates, and the service worker with its offline page.

The preview is the engine's own result for the draft hand (nothing is stored): the page's
script shows it, it never computes a score itself.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request
from flask_babel import force_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from . import bodies, queries, services
from .chart import event_mark, race
from .common import WORDS
from .database import reads_only
from .forms import FORFEIT_WORDS, entry_form
from .i18n import languages
from .models import Match
from .rules import HandResult, MatchState, RuleError, SeatResult, TichuRound
from .security import ascii_number

bp = Blueprint("phone", __name__)
MANIFEST = {
    "id": "/",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "orientation": "any",
    "background_color": "#ffffff",
    "theme_color": "#0b4fa8",
    "icons": [
        {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any maskable"},
        {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any maskable"},
    ],
}
"""The manifest's fields that no language changes (`manifest` adds the words)."""
bp.add_app_template_global(race)
bp.add_app_template_global(event_mark)


@bp.app_template_global()
def sheet_version(match: Match, sheet: MatchState) -> str:
    """The version a page was rendered at (compared with `GET …/version`)."""
    return queries.version_of(match, len(sheet.hands))


@bp.get("/matches/<match_id>/version")
@login_required
def version(match_id: str) -> Response:
    """The match's version, from the database; 304 while it is what the phone already has."""
    v = queries.poll_version(match_id, current_user)
    response = jsonify(version=v)
    response.set_etag(v)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    return response.make_conditional(request)


@bp.post("/matches/<match_id>/hands/preview")
@reads_only
@login_required
def preview(match_id: str) -> Any:
    """The engine's result for the hand form as typed so far (`?number=n`: a correction)."""
    m = queries.get_match(match_id, current_user)
    sheet = queries.sheet_of(m)
    asked = request.args.get("number")
    number = None if asked is None else ascii_number(asked, len(sheet.hands))
    if asked is not None and number is None:
        return {"ok": False, "message": _("There is nothing here.")}, 404
    deal = sheet.next if number is None else sheet.hands[number - 1]
    if m.status != "open" or deal is None:
        return {"ok": False, "message": _("No more hands can be entered in this match.")}
    form = entry_form(sheet, deal.sitting_out)
    if not form.validate():
        message = next(iter(e for errs in form.errors.values() for e in errs), _("Check the form."))
        return {"ok": False, "message": str(message)}
    try:
        record = bodies.hand_body(form.to_data(), sheet.setup.rules).record
        result = services.preview_hand(m, record, number)
    except RuleError as err:
        return {"ok": False, "field": err.field, "message": err.message}
    return {"ok": True, **_preview_words(sheet, result)}


def _debt_words(s: SeatResult) -> str:
    """Why the sheet writes another number than the score moves: the debt grew, or a gain paid
    some or all of it off."""
    entry = f"{s.entry:+d}"
    if s.delta < s.entry:
        return _("(the sheet writes %(entry)s; the debt is now %(owed)d)", entry=entry, owed=s.owed)
    paid = s.delta - s.entry
    if s.owed:
        return _(
            "(the sheet writes %(entry)s; %(paid)d pays off debt, %(owed)d still owed)",
            entry=entry,
            paid=paid,
            owed=s.owed,
        )
    return _("(the sheet writes %(entry)s; %(paid)d pays the debt off)", entry=entry, paid=paid)


def _preview_words(sheet: MatchState, h: HandResult) -> dict[str, Any]:
    """The preview in words: the outcome, then each seat's (Tichu: team's) points this hand."""
    names = [s.name for s in sheet.standings]
    r = h.record
    declarer = names[r.declarer or 0] if not isinstance(r, TichuRound) else ""
    if isinstance(r, TichuRound):
        summary, outcome = _("This round:"), "round"
    elif r.kind == "redeal":
        summary, outcome = _("Redeal: nobody scores; the same dealer deals again."), "redeal"
    elif r.kind == "forfeit":
        summary = _(
            "%(word)s: %(name)s calls %(bid)s off.",
            name=declarer,
            bid=r.bid,
            word=FORFEIT_WORDS.get(sheet.setup.rules, _("Forfeit")),
        )
        outcome = "missed"
    else:
        took = h.took[r.declarer or 0] if h.took else 0
        outcome = "made" if h.made else "missed"
        summary = (
            _("%(name)s made %(bid)s: took %(took)s.", name=declarer, bid=r.bid, took=took)
            if h.made
            else _("%(name)s missed %(bid)s: took %(took)s.", name=declarer, bid=r.bid, took=took)
        )
    seats = []
    for i, s in enumerate(h.results):
        name = _("%(name)s (out)", name=names[i]) if i == h.sitting_out else names[i]
        # What the hand does to the score; the paper sheet's own entry only when it differs: a
        # loss it owes ("Boris: -200 → 220 (the sheet writes +0; the debt is now 200)") or a gain
        # that pays a debt off first (RULES.md §8).
        text = f"{name}: {s.delta:+d} → {s.score}"
        if s.delta != s.entry:
            text += " " + _debt_words(s)
        events = [str(WORDS["events"][e]) for e in s.events if e in WORDS["events"]]
        seats.append(text + (f", {', '.join(events)}" if events else ""))
    return {"outcome": outcome, "summary": summary, "seats": seats}


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served from the root so that its scope is the whole app."""
    response = current_app.send_static_file("sw.js")
    response.cache_control.no_cache = True
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The icon browsers ask for on pages that name none (error pages, the offline page)."""
    response = current_app.send_static_file("icon-192.png")
    response.cache_control.no_cache = None
    response.cache_control.max_age = 24 * 3600
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, its name and description in the page's language (`?lang=`)."""
    lang = request.args.get("lang", "").replace("-", "_")
    with force_locale(lang if lang in languages() else "en"):
        body = {
            **MANIFEST,
            "name": _("Tysiacha scoresheet"),
            "short_name": _("Tysiacha"),
            "description": _("The score sheet of a Tysiacha (1000) table, kept on every player's phone."),
        }
    response = current_app.response_class(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
    response.cache_control.public = True
    response.cache_control.max_age = 24 * 3600
    return response


@bp.get("/offline")
def offline() -> str:
    """The page the service worker shows when a page cannot be loaded, in the language of
    the player's last page (`?lang=`: the worker fetches it without cookies)."""
    lang = request.args.get("lang", "").replace("-", "_")
    if lang not in languages():
        return render_template("offline.html")
    with force_locale(lang):
        return render_template("offline.html")


@bp.get("/csrf-token")
@login_required
def csrf_token() -> Response:
    """A fresh CSRF token for the hands a phone kept offline, fetched when they are sent."""
    response = jsonify(csrf_token=generate_csrf())
    response.cache_control.no_store = True
    return response
