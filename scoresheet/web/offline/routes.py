"""The app as a phone keeps it for when the connection drops: the service worker
(`static/sw.js`), the web app manifest and icon, the offline page, and a fresh CSRF token for
the hands the phone kept offline and sends later (`static/offline.js`; their answers:
`queued.py`). docs/offline.md tells the whole path.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, request
from flask_babel import force_locale
from flask_babel import gettext as _
from flask_login import login_required
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from .. import manifests
from ..i18n import languages

bp = Blueprint("offline", __name__)


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
            **manifests.APP,
            "name": _("Tysiacha scoresheet"),
            "short_name": _("Tysiacha"),
            "description": _("The score sheet of a Tysiacha (1000) table, kept on every player's phone."),
        }
    response = manifests.answer(body)
    response.cache_control.public = True
    response.cache_control.max_age = 24 * 3600
    return response


@bp.get("/offline")
def offline() -> str:
    """The page the service worker shows when a page cannot be loaded, in the language of
    the player's last page (`?lang=`: the worker fetches it without cookies)."""
    lang = request.args.get("lang", "").replace("-", "_")
    if lang not in languages():
        return render_template("offline/offline.html")
    with force_locale(lang):
        return render_template("offline/offline.html")


@bp.get("/csrf-token")
@login_required
def csrf_token() -> Response:
    """A fresh CSRF token for the hands a phone kept offline, fetched when they are sent."""
    response = jsonify(csrf_token=generate_csrf())
    response.cache_control.no_store = True
    return response
