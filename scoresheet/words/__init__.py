"""Every word a player reads, in one place: the vocabulary of the game (rulesets, calls, suits,
events), the house rules in a player's words, and values written into sentences the way the
reader's language writes them. The catalogs in `scoresheet/translations/` hold the translations.

`_`, `_l` and `ngettext` are Flask-Babel's, typed: a word is looked up in the request's language,
and is English outside a request (the CLI, a test of a service). The other layers take them from
here, so that only this package and the web layer speak to Flask-Babel.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _gettext
from flask_babel import lazy_gettext as _lazy_gettext
from flask_babel import ngettext as _ngettext
from flask_babel import pgettext as _pgettext


def _(message: str, **values: Any) -> str:
    """`message` in the request's language, with `%(name)s` filled from `values`."""
    return str(_gettext(message, **values))


def _l(message: str, **values: Any) -> Any:
    """`message` looked up when it is shown (for tables of words made at import time)."""
    return _lazy_gettext(message, **values)


def ngettext(singular: str, plural: str, num: int, **values: Any) -> str:
    """The singular or the plural form that the request's language uses for `num`."""
    return str(_ngettext(singular, plural, num, **values))


def pgettext(context: str, message: str, **values: Any) -> str:
    """`message` as said in `context`: one English word that other languages say in two ways
    ("Standings": a match's score, a club night's table of places)."""
    return str(_pgettext(context, message, **values))


__all__ = ["_", "_l", "ngettext", "pgettext"]
