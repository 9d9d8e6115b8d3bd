"""The players' pages' forms."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, Form, SelectField
from wtforms.validators import DataRequired

from ..forms import RefusableForm


class HeadToHeadForm(Form):
    """Two players of one's table to compare: a GET form (it stores nothing, so no CSRF
    token); the view gives both lists the table's names and judges the pair itself."""

    one = SelectField(_l("Player"), validate_choice=False)
    two = SelectField(_l("Against"), validate_choice=False)


class ClaimPastForm(RefusableForm):
    """A guest's name on the sheets of my matches, to claim all its free seats at once; the
    view offers the names (`seats.guest_pasts`), the service judges the one chosen."""

    name = SelectField(_l("The name on the sheets"), validate_choice=False)
    confirm = BooleanField(_l("Yes, these seats were mine"), validators=[DataRequired(_l("Tick the box to confirm."))])
