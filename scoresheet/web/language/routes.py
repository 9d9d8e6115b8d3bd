"""The language switch at the foot of every page (the language itself: `i18n.py`)."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, request, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from ...storage.extensions import db
from ..i18n import COOKIE, COOKIE_MAX_AGE, languages
from ..security import local_path

bp = Blueprint("language", __name__)


@bp.post("/language")
def switch() -> Response:
    """Remember the chosen language (cookie, and the account when logged in); back to the page."""
    choice = request.form.get("lang", "")
    response = redirect(local_path(request.form.get("next"), url_for("pages.index")))
    if choice in languages():
        if current_user.is_authenticated:
            current_user.language = choice
            db.session.commit()
        response.set_cookie(
            COOKIE,
            choice,
            max_age=COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=bool(current_app.config["SESSION_COOKIE_SECURE"]),
        )
    return response
