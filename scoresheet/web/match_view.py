"""What the page blueprints share (flaskr: a helper two blueprints need lives in a module both
import, so that blueprint modules never import each other): the words for the engine's codes,
the way back to a match, and a refused form's status."""

from __future__ import annotations

from typing import Any

from flask import redirect, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ..rules import RULESETS, MatchState, TichuRound
from ..rules.tichu import TICHU, CallStatistics, call_statistics
from ..services.matches import commands
from ..services.matches.serialize import match_status
from ..storage.models import Match
from ..words.vocabulary import CALL_NAMES, FORFEIT_WORDS, RULESET_LABELS, RULESET_NAMES, WORDS
from .extensions import kept


def words_in_language() -> dict[str, Any]:
    """The words above and the rulesets' names as text in the request's language, looked up
    once per app and language (as lazy strings a list of 100 matches asked the catalog for
    them twice a row)."""
    return kept("words_in_language", str(get_locale()), _words_as_text)


def _words_as_text() -> dict[str, Any]:
    words = {group: {code: str(word) for code, word in named.items()} for group, named in WORDS.items()}
    return {
        "words": words,
        "guide_words": words["guides"],
        "mark_words": words["marks"],
        "ruleset_names": {k: str(v) for k, v in RULESET_NAMES.items()},
    }


def call_statistics_of(sheet: MatchState) -> CallStatistics:
    """The call statistics of a Tichu match's sheet (per player; double victories per team)."""
    rounds = [h.record for h in sheet.hands if isinstance(h.record, TichuRound)]
    return call_statistics(sheet.setup, rounds)


def refused_form(response: Response) -> Response:
    """A form post that did not redirect was refused: its page comes back with its errors, as
    422 (each page blueprint runs this after its requests; the hand preview's JSON is no form's
    page)."""
    if request.method == "POST" and response.status_code == 200 and response.mimetype == "text/html":
        response.status_code = 422
    return response


def back_to(match: Match) -> Response:
    """Redirect to the match page."""
    return redirect(url_for("pages.match", match_id=match.id))


def match_context(m: Match, sheet: MatchState) -> dict[str, Any]:
    """What every template of a match's sheet needs besides the sheet (the match page, the
    watch page)."""
    rules = sheet.setup.rules
    return {
        "status": match_status(m, sheet.status),
        "corrects": commands.takes_corrections(m),
        "deletes": commands.takes_deletions(m),
        "ruleset": RULESETS.get(rules),
        "rules_label": RULESET_LABELS.get(rules, rules),
        "forfeit_word": FORFEIT_WORDS.get(rules, _("forfeit")),
        "tichu": rules == TICHU,
        "call_words": CALL_NAMES,
    }
