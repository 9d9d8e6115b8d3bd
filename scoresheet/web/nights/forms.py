"""The club nights' forms: each turns what was typed into the plain data `services.club` takes;
the service judges it, and its refusal is shown next to the field it names."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import RadioField, SelectField, StringField
from wtforms.validators import InputRequired, Optional, ValidationError

from ...rules import RuleError
from ...services.club import events
from ...services.club.events import MAX_EVENT_NAME, MAX_NAME, MOST_ROUNDS
from ...words.vocabulary import RULESET_NAMES
from ..forms import NumberField, RefusableForm, StartForm, choices, hidden_field, number_field, strip
from ..house_form import HouseRulesForm

TARGETS = ("500", "1000", "1001", "1500", "2000", "3000")
"""The targets a night may play to (the ruleset's own when none is chosen)."""


def _within(_form: Any, field: Any) -> None:
    """The service's bounds of a night's number (`events.within`), judged with the other fields:
    the form shows every field's refusal at once, not the service's first one after the
    form's. A number that did not read (not a number) is refused as that, not as out of bounds
    too."""
    if field.data is not None and not events.within(field.data, field.name):
        raise ValidationError(events.bounds_refusal(field.name))


class EventForm(StartForm, HouseRulesForm):
    """Make a club night (CLUB.md §1): its game with its house rules (`HouseRulesForm`, as a new
    match offers them), rounds, seating and limits."""

    name = StringField(
        _l("Name of the night"),
        filters=[strip],
        validators=[InputRequired(_l("Give the night a name."))],
        render_kw={"maxlength": MAX_EVENT_NAME, "autocomplete": "off"},
    )
    rules = SelectField(
        _l("Rules"),
        choices=choices(RULESET_NAMES.items()),
        default="squarescores",
        invalid_choice_message=_l("Choose one of the rulesets."),
    )
    target = SelectField(
        _l("Target"),
        default="",
        choices=choices([("", _l("The ruleset's own"))] + [(t, t) for t in TARGETS]),
        invalid_choice_message=_l("Choose one of the targets."),
    )
    rounds = number_field(
        _l("Rounds"),
        default=3,
        validators=[
            InputRequired(_l("Enter a whole number.")),
            _within,
        ],
        render_kw={"max": MOST_ROUNDS},
    )
    seating = RadioField(
        _l("Players left over"),
        default="fours",
        choices=choices(
            [
                ("fours", _l("Tables of four (the dealer sits out)")),
                ("byes", _l("A bye for the one or two left over")),
            ]
        ),
        invalid_choice_message=_l("Choose what happens to the players left over."),
    )
    hand_limit = number_field(_l("Hand limit (optional)"), validators=[Optional(), _within])
    time_limit = number_field(_l("Minutes a round (optional)"), validators=[Optional(), _within])

    def refuse_rule(self, err: RuleError, hand: int | None = None) -> None:
        """The engine's refusal of the game's set-up (judged as a match's, RULES.md §1, §11):
        a house rule's next to that rule, any other next to the target or the rules."""
        self.refuse(self.refused_house_rule(err) or ("target" if err.code == "target" else "rules"), err.message)

    def to_data(self) -> dict[str, Any]:
        """The API's body (POST /api/events)."""
        options: dict[str, Any] = {"target": int(self.target.data)} if self.target.data else {}
        options |= self.house_rules()
        return {
            "name": self.name.data,
            "game": {"rules": self.rules.data, "options": options},
            "rounds": self.rounds.data,
            "seating": self.seating.data,
            "hand_limit": self.hand_limit.data,
            "time_limit": self.time_limit.data,
        }


class RosterForm(RefusableForm):
    """Put a player on the roster: a guest's name, or an account's username."""

    guest = StringField(_l("Guest's name"), filters=[strip], render_kw={"maxlength": MAX_NAME, "autocomplete": "off"})
    username = StringField(
        _l("Or an account's username"),
        filters=[strip],
        render_kw={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"},
    )
    team = StringField(_l("Team (Tichu)"), filters=[strip], render_kw={"maxlength": MAX_NAME, "autocomplete": "off"})

    def validate(self, extra_validators: Any = None) -> bool:
        """One of the two boxes filled, said next to them in the page's words (the service's
        refusal names the API's keys)."""
        valid = super().validate(extra_validators)
        if bool(self.guest.data) == bool(self.username.data):
            self.refuse("guest", _l("Type a guest's name, or an account's username: one of the two."))
            return False
        return valid

    def to_data(self) -> tuple[str | None, str | None, str | None]:
        """Username, guest name and team, each None when left empty."""
        return (self.username.data or None, self.guest.data or None, self.team.data or None)


class StatusForm(RefusableForm):
    """Mark a roster entry present, absent or dropped (one button each), or (no status) give it
    a Tichu team (empty: none)."""

    status = hidden_field()
    team = StringField(_l("Team"), filters=[strip], render_kw={"maxlength": MAX_NAME, "autocomplete": "off"})


class DirectorForm(RefusableForm):
    """Make an account a co-director."""

    director = StringField(
        _l("Co-director's username"),
        filters=[strip],
        validators=[InputRequired(_l("Enter a username."))],
        render_kw={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"},
    )


class JoinEventForm(RefusableForm):
    """Check in to a club night with its code (Tichu: with a team)."""

    code = StringField(
        _l("Club night's code"),
        filters=[strip],
        validators=[InputRequired(_l("Enter the code."))],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"},
    )
    team = StringField(_l("Team (Tichu)"), filters=[strip], validators=[Optional()], render_kw={"maxlength": MAX_NAME})
    name = StringField(
        _l("Already on the list as a guest? Your name there"),
        filters=[strip],
        validators=[Optional()],
        render_kw={"maxlength": MAX_NAME, "autocomplete": "off"},
    )


class ResultForm(RefusableForm):
    """A paper table's final scores: one box per player (Tichu: per team), seat order."""

    GROUPS = ("scores",)
    count = 0

    def scores(self) -> list[Any]:
        """The score boxes, seat order."""
        return [self[f"score_{i}"] for i in range(self.count)]


def result_form(names: list[str], **kwargs: Any) -> ResultForm:
    """The result form of a table whose players (Tichu: teams) are `names`, seat order."""

    class TableResultForm(ResultForm):
        count = len(names)

    for i, name in enumerate(names):
        setattr(
            TableResultForm,
            f"score_{i}",
            NumberField(
                name,
                validators=[InputRequired(_l("Enter a whole number."))],
                render_kw={"autocomplete": "off"},
            ),
        )
    return TableResultForm(**kwargs)
