"""Every word a player reads, in one place: the vocabulary of the game (rulesets, calls, suits,
events), the house rules in a player's words, and values written into sentences the way the
reader's language writes them. The catalogs in `scoresheet/translations/` hold the translations.

`_`, `_l` and `ngettext` are Flask-Babel's: a word is looked up in the request's language, and
is English outside a request (the CLI, a test of a service). The other layers take them from
here, so that only this package and the web layer speak to Flask-Babel.
"""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

__all__ = ["_", "_l", "ngettext"]
