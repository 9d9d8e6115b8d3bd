"""What the page blueprints share (flaskr: a helper two blueprints need lives in a module both
import, so that blueprint modules never import each other): the words for the engine's codes,
the way back to a match, and a refused form's status."""

from __future__ import annotations

from typing import Any

from flask import Flask, redirect, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from . import shapes
from .extensions import kept
from .forms import CALL_NAMES, FORFEIT_WORDS, RULESET_LABELS, RULESET_NAMES
from .house_words import rule_card
from .models import Match
from .rules import RULESETS, MatchState, TichuRound
from .rules.tichu import TICHU, CallStatistics, call_statistics, team_names

WORDS = {
    # TRANSLATORS: a match's state in lists; below: a seat's events in the sheet, chart lines
    "status": {
        "in_progress": _l("in progress"),
        "finished": _l("finished: bank it"),
        "banked": _l("banked"),
        "ended": _l("ended"),
    },
    "events": {
        "zero": _l("zero"),
        "zero_penalty": _l("zero penalty"),
        "dump": _l("555: back to 0"),
        "knocked_off": _l("knocked off the barrel"),
        "barrel_reset": _l("third fall: back to 0"),
        "barrel_clash": _l("clash: off the barrel"),
        "forfeit_penalty": _l("−120"),
        "barrel_on": _l("on the barrel"),
        "barrel_ignored": _l("barrel: not counted"),
        "barrel_fall": _l("fell off the barrel"),
        "barrel_off": _l("off the barrel"),
        "locked": _l("locked"),
        "unlocked": _l("unlocked"),
        "capped": _l("capped"),
        "win": _l("wins"),
        "tichu_made": _l("Tichu made"),
        "tichu_failed": _l("Tichu failed"),
        "grand_made": _l("Grand made"),
        "grand_failed": _l("Grand failed"),
        "great_grand_made": _l("Great Grand made"),
        "great_grand_failed": _l("Great Grand failed"),
        "double_victory": _l("double victory"),
    },
    "guides": {"target": _l("target"), "barrel": _l("barrel"), "lock": _l("lock")},
    # TRANSLATORS: markers on the score race chart and their key; → reads "goes to"
    "marks": {
        "dump": _l("555 → 0"),
        "knocked_off": _l("knocked off the barrel"),
        "barrel_fall": _l("fell off the barrel"),
        "barrel_reset": _l("third fall → 0"),
    },
}


def init_app(app: Flask) -> None:
    """Give every template the words for the engine's codes, and Tichu's team names and call
    statistics."""
    app.context_processor(_words_in_language)
    app.add_template_global(team_names)
    app.add_template_global(rule_card)
    app.add_template_global(_call_statistics_of, "call_statistics")


def _words_in_language() -> dict[str, Any]:
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


def _call_statistics_of(sheet: MatchState) -> CallStatistics:
    """The call statistics of a Tichu match's sheet (per player; double victories per team)."""
    rounds = [h.record for h in sheet.hands if isinstance(h.record, TichuRound)]
    return call_statistics(sheet.setup, rounds)


def refused_form(response: Response) -> Response:
    """A form post that did not redirect was refused: it comes back with its errors, as 422
    (each page blueprint runs this after its requests)."""
    if request.method == "POST" and response.status_code == 200:
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
        "status": shapes.match_status(m, sheet.status),
        "ruleset": RULESETS.get(rules),
        "rules_label": RULESET_LABELS.get(rules, rules),
        "forfeit_word": FORFEIT_WORDS.get(rules, _("forfeit")),
        "tichu": rules == TICHU,
        "call_words": CALL_NAMES,
    }
