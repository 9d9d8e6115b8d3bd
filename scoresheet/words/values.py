"""Values inside sentences, in the reader's language: numbers written the way the
language writes them, and the engine's word parameters (suits, calls, ruleset names, "3 or 4")
looked up in the catalog. The sheet's cells, the CSV and the JSON keep plain digits: there a
player compares them with the paper."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal, get_minus_sign_symbol
from flask import has_request_context
from flask_babel import get_locale
from flask_babel import gettext as _

from ..rules.messages import Coded, OneOf
from ..rules.tichu import CALL_WORDS
from .vocabulary import CALL_NAMES, RULESET_NAMES, SUIT_WORDS

_GROUPED_FROM = 10_000
"""The smallest number written with a group separator, in every language: the game's own
figures (scores, targets, bids: below 10 000) are written as on the sheet, 1000 and 1020,
in a sentence too, so that a screen or a shared picture never says "1 000" beside "1000"
(as CLDR's minimumGroupingDigits of 2, which Polish has and Babel 2.19 does not apply)."""
MINUS = "\u2212"
"""The minus sign a player reads (U+2212, as wide as the plus); the CSV and the JSON keep
ASCII's hyphen-minus."""

_WORDS: dict[str, Mapping[str, Any]] = {
    "suit": SUIT_WORDS,
    "game": {**RULESET_NAMES, "Tichu": RULESET_NAMES["tichu"]},
    "call": {CALL_WORDS[code]: word for code, word in CALL_NAMES.items()},
}
"""The engine's parameters that are words, by parameter name, to the catalog's words (never by
value alone: a player may well be called "Classic")."""


def _locale() -> Locale:
    return (get_locale() if has_request_context() else None) or Locale("en")


def number(value: int) -> str:
    """A whole number as the request's language writes it in a sentence: 1020 as on the
    sheet; from 10 000 grouped, 12,345 / 12 345 / 12.345; negative with the language's minus
    sign (an API refusal's sentence carries it too)."""
    locale = _locale()
    digits = str(abs(value))
    if abs(value) >= _GROUPED_FROM:
        digits = format_decimal(abs(value), locale=locale)
    return f"{get_minus_sign_symbol(locale)}{digits}" if value < 0 else digits


def figure(value: int) -> str:
    """A score as the page shows it: plain digits, a negative one with the minus sign
    (−150, never the hyphen of -150)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """A hand's entry or change as the page shows it: +35, −150, 0."""
    return f"+{value}" if value > 0 else figure(value)


_DECIMAL_POINT = {"en": "."}
"""CLDR's decimal sign where it is not a comma (ru, uk, pl and de write 2,4); written here, as
loading Babel's number data costs a fresh process ~17 ms on the page that first needs it."""


def decimal(value: float) -> str:
    """A figure below 1000 with one decimal (a rating, an average place, an average bid) as the
    request's language writes it: 2.4 / 2,4; below zero with the minus sign, as a score (−2,8)."""
    digits = f"{abs(value):.1f}".replace(".", _DECIMAL_POINT.get(_locale().language, ","))
    return f"{MINUS}{digits}" if round(value, 1) < 0 else digits


def one_of(words: list[str]) -> str:
    """Words of which one is meant, joined with the reader's "or": "a, b or c"."""
    return format_list(words, style="or", locale=_locale())


def refusal_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """An engine refusal's parameters for a translated sentence: numbers in the language's
    way, known words through the catalog, "one of" lists joined with the language's "or"."""
    return {name: _value(name, value) for name, value in params.items()}


def _value(name: str, value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return number(value)
    if isinstance(value, OneOf):
        return one_of([str(_value(name, item)) for item in value.items])
    if isinstance(value, Coded):
        word = next((str(words[value.word]) for words in _WORDS.values() if value.word in words), value.word)
        return _("“%(code)s” (%(word)s)", code=value.code, word=word)
    words = _WORDS.get(name, {})
    return words.get(value, value) if isinstance(value, str) else value
