"""The pages' forms: each turns what was typed into the plain data the services take.

The rules are judged once, by the engine (the same path as the JSON API); a form only reads
its fields and puts the engine's refusal next to the field it names (`refuse`).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import InputRequired, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from ...rules import RULESETS, SUITS, MatchState
from ...rules.records import ACES
from ...rules.rulesets import GOLD_MIN_BID
from ...rules.tichu import CALL_WORDS, HIGHEST_CARD_POINTS, LOWEST_CARD_POINTS, TICHU
from ...words.house_rules import BLIND_BIDS, FORCED, THE_USUAL
from ...words.vocabulary import CALL_LABELS, FORFEIT_WORDS, MARRIAGE_LABELS, RULESET_NAMES
from ..forms import (
    RefusableForm,
    StartForm,
    choices,
    hidden_field,
    number_field,
    password_field,
    remember_field,
    strip,
    username_field,
    written_by_the_page,
)
from ..house_form import HouseRulesForm
from ..security import MAX_HAND_NUMBER, ascii_number

MAX_SEATS = 4


def _seat_number(value: Any) -> int | None:
    """A seat number as sent (None if empty or blank: `Optional` reads a blank as not sent, and
    would let a -1 through); anything else is -1, which no choice has, so the field says its
    own plain message (not WTForms' "could not coerce")."""
    if value is None or isinstance(value, int):
        return value
    if isinstance(value, str) and not value.strip():
        return None
    try:
        return int(value)
    except ValueError:
        return -1


class RegisterForm(RefusableForm):
    """A new account."""

    username = username_field(_l("Choose a username."))
    password = password_field(_l("Password"), _l("Choose a password."), new=True)
    remember = remember_field()


class LoginForm(RefusableForm):
    """Log in with a username and password."""

    username = username_field(_l("Enter your username."))
    password = password_field(_l("Password"), _l("Enter your password."))
    remember = remember_field()


class JoinForm(RefusableForm):
    """Join a match with the code its table shares."""

    code = StringField(
        _l("Join code"),
        filters=[strip],
        validators=[InputRequired(_l("Enter the code."))],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"},
    )


class MatchForm(StartForm, HouseRulesForm):
    """Start a match (API.md POST /api/matches), with its house rules (`HouseRulesForm`)."""

    GROUPS = ("players", "options", "start_scores")
    rules = SelectField(
        _l("Rules"),
        choices=choices(RULESET_NAMES.items()),
        default="squarescores",
        invalid_choice_message=_l("Choose one of the rulesets."),
    )
    target = SelectField(
        _l("Target"),
        default="",
        invalid_choice_message=_l("Choose one of the targets."),
        choices=choices([("", THE_USUAL)] + [(t, t) for t in ("500", "1000", "1001", "1500", "2000", "3000")]),
    )
    gold_set = BooleanField(_l("Gold set: the first deal round doubled, minimum bid 120"))
    blind_bids = BooleanField(BLIND_BIDS)
    sitter_bonus = BooleanField(_l("Sitter-out bonus (four players)"))
    great_grand_tichu = BooleanField(_l("Tichu: Great Grand Tichu (±400) may be called"))
    sheet = RadioField(
        _l("Sheet"),
        default="",
        invalid_choice_message=_l("Choose how the sheet shows losses."),
        choices=choices(
            [
                ("", _l("The usual: Tysiacha paper style, Tichu signed")),
                ("deferred", _l("Paper style: losses owed")),
                ("signed", _l("Signed: plus and minus")),
            ]
        ),
    )
    first_dealer = SelectField(
        _l("First dealer"),
        coerce=_seat_number,
        default=0,
        choices=choices((i, _l("Player %(num)d", num=i + 1)) for i in range(4)),
        invalid_choice_message=_l("Pick the first dealer from the players."),
    )

    def name_dealers(self) -> None:
        """Name the first dealer's choices as the players typed above it ("Player n" for a
        seat with no name yet; the page's script keeps them in step while typing)."""
        self.first_dealer.choices = choices(
            (i, (p.data or "").strip() or _("Player %(num)d", num=i + 1)) for i, p in enumerate(self.players())
        )

    def players(self) -> list[Any]:
        """The four name fields."""
        return [self[f"players-{i}"] for i in range(MAX_SEATS)]

    def start_scores(self) -> list[Any]:
        """The four start-score fields."""
        return [self[f"start_scores-{i}"] for i in range(MAX_SEATS)]

    def to_data(self) -> dict[str, Any]:
        """The API body: players up to the last one named, options as ticked."""
        names = [p.data or "" for p in self.players()]
        while names and not names[-1]:
            names.pop()
        tichu = self.rules.data == TICHU
        flags = {name: self[name].data for name in ("gold_set", "blind_bids", "sitter_bonus", "great_grand_tichu")}
        ours = ("great_grand_tichu",) if tichu else ("gold_set", "blind_bids", "sitter_bonus")
        # The other game's options go only when ticked: the engine then says they do not apply.
        options: dict[str, Any] = {k: v for k, v in flags.items() if v or k in ours}
        if self.sheet.data:
            options["sheet"] = self.sheet.data
        if self.target.data:
            options["target"] = int(self.target.data)
        options |= self.house_rules()
        data: dict[str, Any] = {
            "players": names,
            "rules": self.rules.data,
            "options": options,
            "first_dealer": self.first_dealer.data,
        }
        # Tichu keeps one score per team: the first two boxes (RULES.md §10).
        starts = [s.data for s in self.start_scores()][: 2 if tichu else len(names)]
        if any(s is not None for s in starts):
            data["start_scores"] = [s or 0 for s in starts]
        return data


# One named field per seat, not a FieldList: a FieldList shifts values onto the wrong seats
# when some of them are not sent.
for _i in range(MAX_SEATS):
    setattr(
        MatchForm,
        f"players-{_i}",
        StringField(
            _l("Player %(num)d (if four play)", num=_i + 1)
            if _i == MAX_SEATS - 1
            else _l("Player %(num)d", num=_i + 1),
            filters=[strip],
        ),
    )
    setattr(MatchForm, f"start_scores-{_i}", number_field(_l("Player %(num)d", num=_i + 1)))


class HandForm(RefusableForm):
    """One hand, new or corrected (API.md hand body); seats are added by `_hand_form`."""

    GROUPS = ("points", "marriages")
    kind = RadioField(
        _l("What happened"),
        default="played",
        choices=choices([("played", _l("Played")), ("forfeit", _l("Rospisat'")), ("redeal", _l("Redeal"))]),
        invalid_choice_message=_l("Say what happened: played, called off or redealt."),
    )
    declarer = RadioField(
        _l("Declarer"),
        coerce=_seat_number,
        validators=[Optional()],
        invalid_choice_message=_l("Pick the declarer from the players."),
    )
    bid = number_field(_l("Bid"))
    blind = BooleanField(_l("Blind bid (doubled)"))
    sitter_points = number_field(_l("Sitter-out's talon points"))
    forced = BooleanField(FORCED)
    expected_hand = hidden_field()
    version = hidden_field(validators=[written_by_the_page])
    uid = hidden_field()
    """A correction names the hand it corrects (`Hand.uid`)."""

    seats = 0
    """How many seats the table has (set by `_hand_form`)."""

    def points(self) -> list[Any]:
        """The card-point fields, one per seat."""
        return [self[f"points_{i}"] for i in range(self.seats)]

    def marriages(self) -> list[Any]:
        """The marriage toggles, one group per seat."""
        return [self[f"marriages_{i}"] for i in range(self.seats)]

    def to_data(self) -> dict[str, Any]:
        """The API body; a redeal or a forfeit leaves out what was not played."""
        data: dict[str, Any] = {"kind": self.kind.data}
        if self.kind.data != "redeal":
            data.update(declarer=self.declarer.data, bid=self.bid.data)
            for name in ("blind", "forced"):
                if name in self:
                    data[name] = self[name].data
        if self.kind.data == "played":
            data["points"] = [p.data for p in self.points()]
            data["marriages"] = [list(m.data or []) for m in self.marriages()]
            if "sitter_points" in self:
                data["sitter_points"] = self.sitter_points.data or 0
        return _with_expected_hand(data, self.expected_hand.data)


def _with_expected_hand(data: dict[str, Any], expected: str | None) -> dict[str, Any]:
    """The body with the form's hidden `expected_hand`: a hand number in ASCII digits, else the
    text as sent, which the service refuses (never dropped, never a 4,300-digit int())."""
    if expected:
        data["expected_hand"] = ascii_number(expected, MAX_HAND_NUMBER) or expected
    return data


def _hand_form(sheet: MatchState, **kwargs: Any) -> HandForm:
    """The hand form for this table: one row per seat, only the options it plays."""
    setup = sheet.setup
    n = len(setup.players)
    rs = RULESETS[setup.rules]

    class TableHandForm(HandForm):
        seats = n

    marriages = (*SUITS, ACES) if setup.options.ace_marriage else tuple(SUITS)
    # One named field per seat (a seat that sits out sends nothing).
    for i, name in enumerate(setup.players):
        setattr(
            TableHandForm,
            f"points_{i}",
            number_field(
                _("%(name)s: card points", name=name), render_kw={"min": 0, "max": 120, "data-seat-points": i}
            ),
        )
        setattr(
            TableHandForm,
            f"marriages_{i}",
            SelectMultipleField(
                _("%(name)s: marriages", name=name),
                choices=choices((s, str(MARRIAGE_LABELS[s]) % {"name": name}) for s in marriages),
                option_widget=CheckboxInput(),
                widget=ListWidget(prefix_label=False),
                invalid_choice_message=_("Use hearts, diamonds, clubs or spades."),
            ),
        )
    # A field set to None is left out of the form (WTForms): only what this table plays.
    if not setup.options.blind_bids:
        TableHandForm.blind = None
    if not (setup.options.sitter_bonus and n == 4):
        TableHandForm.sitter_points = None  # type: ignore[assignment]
    if rs.forced_min_bid is None:
        TableHandForm.forced = None
    form = TableHandForm(**kwargs)
    form.kind.choices = choices(
        [("played", _("Played")), ("forfeit", FORFEIT_WORDS.get(setup.rules, _("Forfeit"))), ("redeal", _("Redeal"))]
    )
    # Every seat, the sitter's choice hidden by the page (a form kept on the phone seats a later
    # dealer out, static/offline.js); the engine refuses a sitter who declares (RULES.md §6).
    form.declarer.choices = choices((i, name) for i, name in enumerate(setup.players))
    return form


class RoundForm(RefusableForm):
    """One Tichu round, new or corrected (API.md "Tichu"); calls are added by `_round_form`."""

    GROUPS = ("calls",)
    first_out = RadioField(
        _l("Out first"),
        coerce=_seat_number,
        validators=[Optional()],
        invalid_choice_message=_l("Pick who went out first from the players."),
    )
    double_victory = BooleanField(_l("Double victory: 1st and 2nd out, +200"))
    card_points = number_field(
        _l("Card points"),
        default=50,
        render_kw={"min": LOWEST_CARD_POINTS, "max": HIGHEST_CARD_POINTS, "data-card-points": ""},
    )
    expected_hand = hidden_field()
    version = hidden_field(validators=[written_by_the_page])
    uid = hidden_field()
    """A correction names the round it corrects (`Hand.uid`)."""

    def calls(self) -> list[Any]:
        """The call toggles, one per player."""
        return [self[f"calls_{i}"] for i in range(4)]

    def to_data(self) -> dict[str, Any]:
        """The API body: team 1's card points are 100 minus team 0's (RULES.md §10)."""
        team0 = self.card_points.data
        data: dict[str, Any] = {
            "calls": [c.data or None for c in self.calls()],
            "first_out": self.first_out.data,
            "double_victory": self.double_victory.data,
            "card_points": None if self.double_victory.data or team0 is None else [team0, 100 - team0],
        }
        return _with_expected_hand(data, self.expected_hand.data)


def _round_form(sheet: MatchState, **kwargs: Any) -> RoundForm:
    """The round form for this Tichu table: a call toggle per player, names to tap."""
    setup = sheet.setup
    words = [c for c in CALL_WORDS if c != "great_grand" or setup.options.great_grand_tichu]

    class TableRoundForm(RoundForm):
        pass

    for i, name in enumerate(setup.players):
        setattr(
            TableRoundForm,
            f"calls_{i}",
            RadioField(
                _("%(name)s called", name=name),
                default="",
                choices=choices([("", _("No call"))] + [(c, CALL_LABELS[c]) for c in words]),
                invalid_choice_message=_("Pick a call: none, Tichu, Grand or Great Grand.")
                if "great_grand" in words
                else _("Pick a call: none, Tichu or Grand."),
            ),
        )
    form = TableRoundForm(**kwargs)
    form.first_out.choices = choices(enumerate(setup.players))
    form.card_points.label.text = _("Card points %(team)s", team=sheet.standings[0].name)
    return form


def entry_form(sheet: MatchState, data: dict[str, Any] | None = None) -> RoundForm | HandForm:
    """The form for one hand of this table: Tichu's round form or Tysiacha's hand form (every
    seat in it; who sits out a hand is the page's to show and the engine's to check)."""
    if sheet.setup.rules == TICHU:
        return _round_form(sheet, data=data)
    return _hand_form(sheet, data=data)


def round_to_form_data(record: dict[str, Any]) -> dict[str, Any]:
    """A stored Tichu round as the edit form's initial data."""
    points = record.get("card_points")
    data = {
        "first_out": record.get("first_out"),
        "double_victory": record.get("double_victory"),
        "card_points": None if points is None else points[0],
    }
    for i, call in enumerate(record.get("calls") or [None] * 4):
        data[f"calls_{i}"] = call or ""
    return data


def lowest_bid(sheet: MatchState, gold: bool) -> int:
    """The lowest bid a hand can have (for the input's `min`; the engine decides)."""
    rs = RULESETS[sheet.setup.rules]
    return GOLD_MIN_BID if gold else (rs.forced_min_bid or rs.min_bid)


def bid_step(sheet: MatchState) -> int:
    """The ruleset's bid step."""
    return RULESETS[sheet.setup.rules].bid_step


def record_to_form_data(record: dict[str, Any], seats: int) -> dict[str, Any]:
    """A stored hand record as the edit form's initial data."""
    data = {k: record.get(k) for k in ("kind", "declarer", "bid", "blind", "forced", "sitter_points")}
    points = record.get("points") or [None] * seats
    marriages = record.get("marriages") or [[]] * seats
    for i in range(seats):
        data[f"points_{i}"] = points[i]
        data[f"marriages_{i}"] = list(marriages[i])
    return data
