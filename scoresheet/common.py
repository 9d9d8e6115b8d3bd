"""What the page blueprints share (flaskr: a helper two blueprints need lives in a module both
import, so that blueprint modules never import each other): the words for the engine's codes,
and the way back to a match."""

from __future__ import annotations

from typing import Any

from flask import Flask, redirect, url_for
from werkzeug.wrappers import Response

from .models import Match
from .rules import MatchState, TichuRound
from .rules.tichu import CallStatistics, call_statistics, team_names

WORDS = {
    "status": {"in_progress": "in progress", "finished": "finished: bank it",
               "banked": "banked", "ended": "ended"},
    "events": {"zero": "zero", "zero_penalty": "3rd zero −120", "forfeit_penalty": "−120",
               "barrel_on": "on the barrel", "barrel_ignored": "barrel: not counted",
               "barrel_fall": "fell off the barrel", "barrel_off": "off the barrel",
               "locked": "locked", "unlocked": "unlocked", "capped": "capped", "win": "wins",
               "tichu_made": "Tichu made", "tichu_failed": "Tichu failed",
               "grand_made": "Grand made", "grand_failed": "Grand failed",
               "great_grand_made": "Great Grand made", "great_grand_failed": "Great Grand failed",
               "double_victory": "double victory"},
}


def init_app(app: Flask) -> None:
    """Give every template the words for the engine's codes, and Tichu's team names and call
    statistics."""
    app.context_processor(lambda: {"words": WORDS})
    app.add_template_global(team_names)
    app.add_template_global(call_statistics_of, "call_statistics")


def call_statistics_of(sheet: MatchState) -> CallStatistics:
    """The call statistics of a Tichu match's sheet (per player; double victories per team)."""
    rounds = [h.record for h in sheet.hands if isinstance(h.record, TichuRound)]
    return call_statistics(sheet.setup, rounds)


def back_to(match: Match) -> Response:
    """Redirect to the match page."""
    return redirect(url_for("pages.match", match_id=match.id))
