"""The house rules' fields (RULES.md §11) as every form that starts a game offers them: a new
match's (`pages`) and a club night's (`nights`), whose tables all play them. One class, so both
show the same fields and words, and put the engine's refusals next to the same rule.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, SelectChoice, SelectField

from ..rules import RULESETS, RuleError
from ..rules.house import AMOUNTS, HOUSE_RULES
from ..rules.rulesets import BARREL_BELOW, BARREL_GAPS, DUMP_AT
from ..words import house_rules
from ..words.house_rules import CHOICES, GROUPS, LABELS, SWITCHES, THE_USUAL, TYPED, USUAL, YES_NO
from .forms import RefusableForm, as_json, choices, number_field

SAMPLE = 9999
"""The number a phrase is given for the page's script to put the one typed in its place."""
HOUSE_REFUSALS = {
    "zero_penalty": "zero_penalty",
    "zero_penalty_without_zeros": "zero_penalty",
    "barrel_gap": "barrel_gap",
    "barrel_zeros_without_zeros": "barrel_zeros",
    "blind_doubles_needs_blind": "blind_doubles",
    "dump_at": "dump_at",
    "dump_at_without_dump": "dump_at",
}
"""The engine's refusals of a house rule (field `options`) that name none, and the house
rule each is about: the page shows each next to its field (the others name theirs)."""


class HouseGroup(NamedTuple):
    """One of the start form's groups of house rules (`words.house_rules.GROUPS`)."""

    key: str
    title: str
    fields: list[Any]
    open: bool
    """Open when the page comes: a rule in it is set, or refused."""


class HouseRulesForm(RefusableForm):
    """A form with the house rules' fields (added below, one per rule of RULES.md §11); its
    subclass has the `rules` and `target` fields whose figures the rules' words name."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._house_words_for_target()

    def _house_words_for_target(self) -> None:
        """The house rules' words with the figures of the options chosen: the barrel's of the
        target and barrel gap (RULES.md §4, §11.11: 880 and 760 at 1000 and 120), the dump's
        score (§11.18). For the page's script to swap in when they change: each target's and
        gap's words (`data-by-barrel`, keyed "target/gap"), the dump's with 9999 for its
        score (`data-by-dump`)."""
        words = house_rules.target_words
        barrels = {t for r in RULESETS.values() if r.has_barrel for t in r.targets}
        rs = RULESETS.get(self.rules.data or "")
        usual = rs.targets[0] if rs and rs.has_barrel else house_rules.USUAL_TARGET
        at = {"": usual} | {str(t): t for t in sorted(barrels)}  # no barrel plays to others
        gaps = {"": BARREL_BELOW} | {str(g): g for g in BARREL_GAPS}
        each = {f"{t}/{g}": (n, gap) for t, n in at.items() for g, gap in gaps.items()}
        chosen = (at.get(self.target.data or "", usual), gaps.get(self.barrel_gap.data or "", BARREL_BELOW))
        for key in house_rules.TARGET_WORDS:
            f = self[key]
            if key in SWITCHES:
                f.label.text = str(words(key, *chosen))
                f.render_kw = {"data-by-barrel": as_json({k: str(words(key, *n)) for k, n in each.items()})}
                continue
            said = {k: dict(words(key, *n)) for k, n in each.items()}
            f.choices = [f.choices[0]]
            for value, label in words(key, *chosen):
                by_barrel = {k: str(c[value]) for k, c in said.items()}
                moves = len(set(by_barrel.values())) > 1
                f.choices.append(
                    SelectChoice(value, str(label), render_kw={"data-by-barrel": as_json(by_barrel)} if moves else {})
                )
        dump_at = self.dump_at.data if isinstance(self.dump_at.data, int) else DUMP_AT
        sample = dict(house_rules.dump_words(SAMPLE))
        self.dump_555.choices = [self.dump_555.choices[0]] + [
            SelectChoice(value, str(label), render_kw={"data-by-dump": str(sample[value])})
            for value, label in house_rules.dump_words(dump_at)
        ]

    def house_rules(self) -> dict[str, Any]:
        """The house rules set away from the usual: a switch ticked, a choice made, a number
        other than the rule's default typed (an empty box is the default). A value that is none
        of its field's choices (sent by hand) is left out: refused next to its field, it is
        never read as a number while the page is shown again."""
        chosen: dict[str, Any] = {}
        for key in HOUSE_RULES:
            value = self[key].data
            if key in SWITCHES:
                if value:
                    chosen[key] = True
            elif key in TYPED:
                if value is not None and value != self[key].default:
                    chosen[key] = value
            elif value != USUAL and value is not None and value in {c[0] for c in self[key].iter_choices()}:
                chosen[key] = int(value) if key in AMOUNTS else (value == "true" if key in YES_NO else value)
        return chosen

    def house_groups(self) -> list[HouseGroup]:
        """The house rules' fields in their groups (RULES.md §11), each open if a rule in it
        is set or refused: what was chosen or is wrong is never hidden."""
        chosen = self.house_rules()
        return [
            HouseGroup(key, str(title), [self[k] for k in keys], any(k in chosen or self[k].errors for k in keys))
            for key, title, keys in GROUPS
        ]

    def refused_house_rule(self, err: RuleError) -> str | None:
        """The house rule (its field's name) an engine refusal is about, or None."""
        if err.field != "options":
            return None
        option = err.params.get("option", err.params.get("key"))  # a refusal's, or a malformed number's
        key = option if option in HOUSE_RULES else HOUSE_REFUSALS.get(err.code)
        return key if isinstance(key, str) else None

    def refuse_rule(self, err: RuleError, hand: int | None = None) -> None:
        """An engine refusal of a house rule goes next to that rule's field; any other to its
        field or group."""
        key = self.refused_house_rule(err)
        if key is not None:
            self.refuse(key, err.message)
        else:
            super().refuse_rule(err, hand)


# The house rules (RULES.md §11): "the usual" leaves an option to the ruleset; the dump's
# score is typed, its box showing the default (an empty box is the default too).
for _key in HOUSE_RULES:
    setattr(
        HouseRulesForm,
        _key,
        BooleanField(LABELS[_key])
        if _key in SWITCHES
        else number_field(LABELS[_key], default=DUMP_AT)
        if _key in TYPED
        else SelectField(
            LABELS[_key],
            default=USUAL,
            choices=choices([(USUAL, THE_USUAL), *CHOICES[_key]]),
            invalid_choice_message=_l("Choose one of the choices offered."),
        ),
    )
