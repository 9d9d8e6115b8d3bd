"""The players' pages' forms."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, Form, SelectField, StringField
from wtforms.validators import DataRequired

from ..forms import RefusableForm, choices


class HeadToHeadForm(Form):
    """Two players of one's table to compare: a GET form (it stores nothing, so no CSRF
    token); the view gives both lists the table's names and judges the pair itself."""

    one = SelectField(_l("Player"), validate_choice=False)
    two = SelectField(_l("Against"), validate_choice=False)


class PeriodForm(Form):
    """Which banked matches a page counts: a GET form (it stores nothing, so no CSRF token),
    its names those of the URL's query (`?period=month`, `?from=…&to=…`); the service judges
    it (`periods.period_from`)."""

    period = SelectField(
        _l("Period"),
        choices=choices([("all", _l("All time")), ("month", _l("This month")), ("year", _l("This year"))]),
        validate_choice=False,
    )
    first = StringField(_l("From"), name="from", render_kw={"type": "date"})
    last = StringField(_l("To"), name="to", render_kw={"type": "date"})


class ClaimPastForm(RefusableForm):
    """A guest's name on the sheets of my matches, to claim all its free seats at once; the
    view offers the names (`seats.guest_pasts`), the service judges the one chosen."""

    name = SelectField(_l("The name on the sheets"), validate_choice=False)
    confirm = BooleanField(_l("Yes, these seats were mine"), validators=[DataRequired(_l("Tick the box to confirm."))])
