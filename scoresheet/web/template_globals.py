"""Everything a template finds besides what its view passes, registered in one place: the
words for the engine's codes, the page's language and number formats, asset URLs, the links
of a match, its chart and version. None of these reads the database: a view passes what the
page shows (a template never runs a query)."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request, session
from flask_login import current_user
from markupsafe import Markup, escape

from ..rules.tichu import team_names
from ..services.matches.chart import event_mark, race
from ..services.matches.versions import sheet_version
from ..services.players.profiles import CHART_HEIGHT, CHART_WIDTH
from ..storage.models import isoformat
from ..words.house_rules import rule_card
from ..words.values import decimal, figure, number, signed
from ..words.vocabulary import GAME_WORDS
from .assets import static_url
from .i18n import language_context, per_language, utc_time
from .links import event_join_url, join_url, qr_code, watch_url
from .live.push import enabled as live_push
from .match_view import call_statistics_of, words_in_language


def init_app(app: Flask) -> None:
    """Give every template the globals, filters and context below."""
    app.context_processor(words_in_language)
    app.context_processor(language_context)
    globals_: dict[str, Any] = {
        "team_names": team_names,
        "rule_card": rule_card,
        "call_statistics": call_statistics_of,
        "per_language": per_language,
        "static_url": static_url,
        "game_words": GAME_WORDS,
        "chart_size": (CHART_WIDTH, CHART_HEIGHT),
        "live_push": live_push,
        "race": race,
        "event_mark": event_mark,
        "sheet_version": sheet_version,
        "join_url": join_url,
        "event_join_url": event_join_url,
        "watch_url": watch_url,
        "qr_code": qr_code,
        "session_ended": session_ended,
    }
    for name, value in globals_.items():
        app.add_template_global(value, name)
    app.add_template_filter(isoformat, "iso")
    app.add_template_filter(utc_time, "utc_time")
    app.add_template_filter(number, "number")
    app.add_template_filter(decimal, "decimal")
    app.add_template_filter(figure, "figure")
    app.add_template_filter(signed, "signed")
    app.add_template_filter(fill, "fill")


def fill(word: str, stand_in: str, value: int) -> Markup:
    """A word looked up once for many rows with a stand-in number (`stand_in`, digits), with
    one row's own number in its place: the sheet's "made 999999" as "made 125". Cheaper than
    Jinja's `replace`, which escapes its three strings again for every row: the word comes
    escaped from the catalog (escaped here if it does not), and digits need no escaping."""
    return Markup(str.replace(escape(word), stand_in, str(int(value))))


def session_ended() -> bool:
    """The browser came with a session or remember-me cookie naming an account that no longer
    takes it (logged out everywhere, a new password, the account deleted, over 30 days old):
    the server ended its session, so the phone drops that account's kept sheets and hands."""
    if current_user.is_authenticated:
        return False
    return bool(session.get("_user_id")) or current_app.config["REMEMBER_COOKIE_NAME"] in request.cookies
