"""What the forms of every blueprint share: a form that puts the engine's refusals next to the
field they name, the number, username and password boxes, and the one-button and confirm forms.

The rules are judged once, by the engine (the same path as the JSON API); a form only reads its
fields and puts the engine's refusal next to the field it names (`refuse`).
"""

from __future__ import annotations

import json
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, HiddenField, IntegerField, PasswordField, SelectChoice, StringField
from wtforms.validators import DataRequired, InputRequired, Optional, ValidationError

from ..rules import RuleError
from ..storage.models import START_KEY, new_start_key
from .security import ascii_number

NUMBER = _l("Enter a whole number.")
OUT_OF_DATE = _l(
    "This form was out of date or not sent from this site: nothing was saved. Go back, reload the page and try again."
)
"""A form the page did not make as it came (a stale or forged token or key)."""


def choices(pairs: Any) -> list[SelectChoice]:
    """Choices for a radio, select or checkbox group from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


def as_json(data: Any) -> str:
    """Data for the page's script in an attribute (its words as they are, not escaped)."""
    return json.dumps(data, ensure_ascii=False)


def strip(value: Any) -> Any:
    """Trim spaces a phone keyboard adds around a word."""
    return value.strip() if isinstance(value, str) else value


class NumberField(IntegerField):
    """A whole number typed on the numeric keypad, refused in words a player understands."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        """Read the number; anything else is refused with a plain message."""
        try:
            super().process_formdata(valuelist)
        except ValueError as err:
            raise ValueError(str(NUMBER)) from err


def number_field(label: Any, **kw: Any) -> NumberField:
    """An optional whole number typed on the numeric keypad."""
    kw.setdefault("validators", [Optional()])
    render_kw = {"inputmode": "numeric", **kw.pop("render_kw", {})}
    return NumberField(label, render_kw=render_kw, **kw)


def hidden_field(**kw: Any) -> HiddenField:
    """A hidden field. It shows no label, so it names an empty one: else WTForms makes one up
    through Flask-WTF, which loads WTForms' own catalog from disk for it on every request."""
    return HiddenField("", **kw)


class RefusableForm(FlaskForm):
    """A form that shows the engine's refusals next to the field (or group) they name."""

    GROUPS: tuple[str, ...] = ()
    """Field names judged as a group: their errors show at the top of the group."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group_errors: dict[str, list[str]] = {}
        self.top_errors: list[str] = []

    def refuse(self, field: str | None, message: str) -> None:
        """Attach a refusal to its field, its group, or the top of the form."""
        target = getattr(self, field, None) if field else None
        if field in self.GROUPS:
            self.group_errors.setdefault(field, []).append(message)
        elif isinstance(target, Field) and not isinstance(target, HiddenField):
            target.errors = [*target.errors, message]
        else:
            self.top_errors.append(message)

    def refuse_rule(self, err: RuleError, hand: int | None = None) -> None:
        """Attach an engine refusal (`.field`, `.message`); one about another hand than
        `hand` (a later hand a correction would break) goes to the top of the form."""
        if err.hand is not None and hand is not None and err.hand != hand:
            self.top_errors.append(err.message)
        else:
            self.refuse(err.field, err.message)


def username_field(missing: Any) -> StringField:
    """A username box: trimmed, never auto-capitalised or spell-checked; `missing` if empty."""
    return StringField(
        _l("Username"),
        filters=[strip],
        validators=[InputRequired(missing)],
        render_kw={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"},
    )


def password_field(label: Any, missing: Any, new: bool = False) -> PasswordField:
    """A password box the phone's password manager understands; `missing` if empty."""
    return PasswordField(
        label,
        validators=[InputRequired(missing)],
        render_kw={"autocomplete": "new-password" if new else "current-password"},
    )


def remember_field() -> BooleanField:
    """ "Stay logged in", ticked unless the player unticks it."""
    return BooleanField(_l("Stay logged in on this phone for 30 days"), default=True)


def written_by_the_page(form: RefusableForm, field: Field) -> None:
    """A hidden number the page wrote (a hand's version): anything else is a form the page did
    not make."""
    if field.data and ascii_number(field.data) is None:
        raise _from_elsewhere(form)


def _from_elsewhere(form: RefusableForm) -> ValidationError:
    """The refusal of a hidden value the page did not write, said at the top of the form (a
    hidden field has no place of its own)."""
    form.top_errors.append(str(OUT_OF_DATE))
    return ValidationError(str(OUT_OF_DATE))


class StartForm(RefusableForm):
    """A form that starts a match, once: the page gives it a key of its own, and the same form
    sent again (a second tap, a tap again after an answer lost on a bad connection) opens the
    match the first one started (`commands.start_match`)."""

    start = hidden_field(default=new_start_key, render_kw={"autocomplete": "off"})  # never a browser's old one

    def validate_start(self, field: Field) -> None:
        """Refuse a key the page did not make."""
        if field.data and not START_KEY.fullmatch(field.data):
            raise _from_elsewhere(self)

    def start_key(self) -> str | None:
        """The form's key; None if it was sent without one."""
        return self.start.data or None


class ButtonForm(RefusableForm):
    """A form that is one button (join, rematch, make or stop a watch link): its CSRF token is
    the whole form."""


class ConfirmForm(RefusableForm):
    """A final step (bank, end, delete) that needs a ticked box."""

    confirm = BooleanField(_l("Yes, I am sure"), validators=[DataRequired(_l("Tick the box to confirm."))])
