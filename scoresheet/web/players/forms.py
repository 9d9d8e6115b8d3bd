"""The players' pages' forms."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import Form, SelectField


class HeadToHeadForm(Form):
    """Two players of one's table to compare: a GET form (it stores nothing, so no CSRF
    token); the view gives both lists the table's names and judges the pair itself."""

    one = SelectField(_l("Player"), validate_choice=False)
    two = SelectField(_l("Against"), validate_choice=False)
