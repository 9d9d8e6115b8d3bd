"""What the page blueprints share (flaskr: a helper two blueprints need lives in a module both
import, so that blueprint modules never import each other): the words for the engine's codes,
and the way back to a match."""

from __future__ import annotations

from typing import Any

from flask import Flask, redirect, url_for
from werkzeug.wrappers import Response

from .models import Match

WORDS = {
    "status": {"in_progress": "in progress", "finished": "finished: bank it",
               "banked": "banked", "ended": "ended"},
    "events": {"zero": "zero", "zero_penalty": "3rd zero −120", "forfeit_penalty": "−120",
               "barrel_on": "on the barrel", "barrel_ignored": "barrel: not counted",
               "barrel_fall": "fell off the barrel", "barrel_off": "off the barrel",
               "locked": "locked", "unlocked": "unlocked", "capped": "capped", "win": "wins"},
}


def init_app(app: Flask) -> None:
    """Give every template the words for the engine's codes."""
    app.context_processor(lambda: {"words": WORDS})


def back_to(match: Match) -> Response:
    """Redirect to the match page."""
    return redirect(url_for("pages.match", match_id=match.id))
