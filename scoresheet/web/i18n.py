"""The table's language: which one a request gets, and the words and numbers in it (the
switch that changes it is a route of `language.py`).

Pages: the account's language, else the `lang` cookie, else the phone's `Accept-Language`,
else English. The JSON API follows `Accept-Language` only (its keys never change). Words are
translated with Flask-Babel from the gettext catalogs in `scoresheet/translations/`
(README, "Developing": `pybabel extract/update/compile`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import cached_property
from typing import Any

from flask import Flask, current_app, g, has_app_context, has_request_context, render_template, request
from flask_babel import Babel, Domain, format_datetime, get_locale, get_translations
from flask_login import current_user
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ..config import LANGUAGES
from ..rules import errors as rule_errors
from ..rules.messages import MESSAGES
from ..storage.extensions import db
from ..words.house_rules import page_refusal
from ..words.values import refusal_params
from .extensions import kept

COOKIE = "lang"
COOKIE_MAX_AGE = 400 * 24 * 3600


def init_app(app: Flask) -> None:
    """Bind Flask-Babel with our locale selector; add the `<html lang>` and number helpers."""
    babel = _Babel(app, locale_selector=_select_locale)  # one per app: its catalogs its own
    babel.install_template_words(app)
    rule_errors.translator = _translate_refusal


class _Domain(Domain):
    """Flask-Babel's message domain, finding the request's catalog once per request instead of
    once per word (a list of 100 matches says ~300 words; each look-up asked for the locale
    again). The catalog is kept where Flask-Babel's own `force_locale` and `refresh` reset it."""

    def get_translations(self) -> Any:
        """This request's catalog (looked up on first use)."""
        state = g.get("_flask_babel") if has_app_context() else None
        found = getattr(state, "babel_translations", None)
        if found is None:
            found = super().get_translations()
            if state is not None:
                state.babel_translations = found
        return found


class _Babel(Babel):
    """Flask-Babel with the domain above."""

    @cached_property
    def domain_instance(self) -> Domain:
        """The message domain for the translations."""
        return _Domain(domain=self.domain)

    def install_template_words(self, app: Flask) -> None:
        """The templates' `_`, `ngettext` and `pgettext` ask this app's domain for the catalog straight
        away (Flask-Babel's own look the domain up again for every word)."""

        def catalog() -> Any:
            return self.domain_instance.get_translations()

        app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
            gettext=lambda s: catalog().ugettext(s),
            ngettext=lambda s, p, n: catalog().ungettext(s, p, n),
            pgettext=lambda c, s: catalog().upgettext(c, s),
            newstyle=True,
        )


def languages() -> list[str]:
    """The languages this app speaks (config `LANGUAGES`; tests add a pseudo-locale)."""
    return list(current_app.config["LANGUAGES"])


def _select_locale() -> str:
    """The language of this request (see the module's docstring)."""
    if not has_request_context():
        return "en"  # the CLI (backup, restore) speaks English
    offered = languages()
    if not (request.path == "/api" or request.path.startswith("/api/")):
        chosen = getattr(current_user, "language", None) if current_user else None
        for choice in (chosen, request.cookies.get(COOKIE)):
            if choice in offered:
                return str(choice)
    return request.accept_languages.best_match(offered) or "en"


def _translate_refusal(code: str, params: Mapping[str, Any]) -> str:
    """An engine refusal in the request's language: its sentence looked up in the catalog by
    the English of its kind (`rules.messages.MESSAGES`), filled with the same values in that
    language's words and numbers (`localize.refusal_params`)."""
    english = MESSAGES[code]
    if not has_request_context():
        return english.format(**params)
    if request.blueprint != "api":  # a page names the house rules by the form's words
        english, params = page_refusal(code, dict(params)) or (english, params)
    if html_lang() == "en":
        if request.blueprint == "api":
            return english.format(**params)  # the engine's own English, as the API documents it
        # A page names the ruleset as players read it ("SquareScores"), never by its key.
        return english.format(**{**params, **{k: v for k, v in refusal_params(params).items() if k == "game"}})
    text = get_translations().ugettext(english)
    try:
        return text.format(**refusal_params(params))
    except (KeyError, IndexError, ValueError):  # a translation that lost a place: English
        return english.format(**params)


def chosen() -> str | None:
    """The language chosen with the switch before logging in (the cookie), if the app has it."""
    choice = request.cookies.get(COOKIE)
    return choice if choice in languages() else None


def adopt_choice(user: Any) -> None:
    """On logging in: a language chosen with the switch before becomes the account's, unless
    the account has one already (a new account takes it as it is made, `accounts.register`)."""
    choice = chosen()
    if user.language is None and choice is not None:
        user.language = choice
        db.session.commit()


def utc_time(moment: datetime) -> str:
    """A stored time as text for the page's language, in UTC (the page's script shows it in
    the phone's own time zone)."""
    return f"{format_datetime(moment, 'short')} UTC"


def html_lang() -> str:
    """The page's language as `<html lang>` wants it (BCP 47: `pt-BR`, not `pt_BR`)."""
    return str(get_locale() or "en").replace("_", "-")


@pass_context
def per_language(context: Context, template: str) -> Markup:
    """A fragment that reads the same for every reader of a language (the phone's offline words,
    the buttons of the language switch), rendered once per app and language: every page has
    both, and they were a sixth of a page's time (docs/performance.md). Rendered afresh
    while templates reload (debug)."""
    return kept("per_language", (template, context["html_lang"]), lambda: Markup(render_template(template)))


def language_context() -> dict[str, Any]:
    return {"html_lang": html_lang(), "language_names": {code: LANGUAGES.get(code, code) for code in languages()}}
