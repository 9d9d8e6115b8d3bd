"""The house rules of RULES.md §11 in a player's words: the new-match form's choices and the
match page's rule card say the same thing."""

from __future__ import annotations

from typing import Any, NamedTuple

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..rules import RULESETS, Setup, house
from ..rules.house import DUMP_SCORES, HOUSE_RULES, defaults, resolved
from ..rules.messages import N_
from ..rules.rulesets import BARREL_BELOW, DUMP_AT

USUAL = ""
"""The form's choice that leaves an option out: the ruleset's own rule."""


def figures(target: int, gap: int = BARREL_BELOW) -> tuple[int, int]:
    """Where the barrel sits and where a fall from it lands for this target, as the engine
    scores it (RULES.md §4: 880 and 760 for 1000; §11.11: `gap` below the target)."""
    rs = RULESETS["squarescores"]  # the barrel is the same wherever there is one
    return target - gap, rs.fall_to(target, gap) or 0


USUAL_TARGET = RULESETS["squarescores"].targets[0]
"""The target the form's words assume before one is chosen (every barrel ruleset's usual)."""
TARGET_WORDS = ("barrel_knock_off", "three_falls_reset", "barrel_miss")
"""The house rules whose words name a barrel figure, which moves with the target."""


def dump_words(dump_at: int = DUMP_AT) -> list[tuple[str, Any]]:
    """The dump's choices with the score it sends back to 0 (RULES.md §11.2, §11.18)."""
    return [
        ("off", _l("off: %(dump)d is a score like any other", dump=dump_at)),
        ("plus", _l("exactly %(dump)d goes back to 0", dump=dump_at)),
        ("both", _l("%(dump)d and −%(dump)d go back to 0", dump=dump_at)),
    ]


def target_words(key: str, target: int, gap: int = BARREL_BELOW, dump_at: int = DUMP_AT) -> Any:
    """A house rule's label (a switch) or its choices (a word) with the barrel's figures of
    this target and barrel gap (§11.11), and the dump's score (§11.18): the others' words
    depend on neither."""
    if key == "dump_555":
        return dump_words(dump_at)
    barrel, fall = figures(target, gap)
    if key == "barrel_knock_off":
        return _l("Knock-off: climbing on the barrel drops whoever is on it to %(fall)d", fall=fall)
    if key == "three_falls_reset":
        return _l("The third fall from the barrel goes back to 0, not %(fall)d", fall=fall)
    if key == "barrel_miss":
        return [
            ("costs_bid", _l("costs the bid and takes the player off the barrel")),
            ("stays", _l("costs nothing: the player stays at %(barrel)d, and the hand counts", barrel=barrel)),
        ]
    return LABELS[key] if key in SWITCHES else CHOICES[key]


LABELS: dict[str, Any] = {
    "zeros": _l("Zeros (no card points in a hand)"),
    "zero_penalty": _l("What a costly zero takes off"),
    "dump_555": _l("The dump"),
    "barrel_knock_off": target_words("barrel_knock_off", USUAL_TARGET),
    "barrel_miss": _l("A missed bid on the barrel"),
    "barrel_hands": _l("Hands on the barrel before the fall"),
    "three_falls_reset": target_words("three_falls_reset", USUAL_TARGET),
    "declarer_rounding": _l("The declarer's card points are rounded before the made check (98 makes a bid of 100)"),
    "forfeit_pays": _l("A forfeit (Rospisat') pays each opponent"),
    "blind_doubles": _l("A blind bid doubles"),
    "ace_marriage": _l("Ace marriage: all four aces declared count 200"),
    "barrel_gap": _l("Where the barrel sits"),
    "barrel_jump": _l("A jump from below the barrel to the target"),
    "barrel_clash": _l("Two players climbing on the barrel in the same hand"),
    "barrel_defender_wins": _l("A defender on the barrel who takes as much as the barrel is below the target wins"),
    "barrel_win_score": _l("A win from the barrel scores"),
    "barrel_zeros": _l("Zeros count on the barrel too (nothing is paid there)"),
    "forfeit_penalty": _l("Every third forfeit (Rospisat')"),
    "dump_at": _l("The score the dump sends back to 0"),
}
"""Each house rule as a player names it; a switch's label says what it does."""

CHOICES: dict[str, list[tuple[str, Any]]] = {
    "zeros": [
        ("total", _l("every third zero of the match costs")),
        ("consecutive", _l("three zeros in a row cost")),
        ("off", _l("zeros cost nothing")),
    ],
    "zero_penalty": [(str(n), str(n)) for n in range(50, 201, 10)],
    "dump_555": dump_words(),
    "barrel_miss": target_words("barrel_miss", USUAL_TARGET),
    "barrel_hands": [(str(n), str(n)) for n in range(1, 6)],
    "forfeit_pays": [("60", "60"), ("half_bid", _l("half the bid (125 pays 65)"))],
    "blind_doubles": [("hand", _l("the whole hand")), ("declarer", _l("only the declarer's points"))],
    "barrel_gap": [("120", _l("120 below the target")), ("100", _l("100 below the target"))],
    "barrel_jump": [("wins", _l("wins the match")), ("mounts", _l("only puts the player on the barrel"))],
    "barrel_clash": [
        ("all_stay", _l("all stay on")),
        ("one_stays", _l("one stays: the declarer, else the higher score")),
        ("all_fall", _l("all fall off")),
    ],
    "barrel_win_score": [("target", _l("exactly the target")), ("added", _l("the barrel plus the hand's points"))],
    "forfeit_penalty": [("true", _l("costs the declarer 120")), ("false", _l("costs no penalty"))],
}
"""The choices of each house rule offered as a list, with what each does (`dump_at`, a number
from 100 to 875, is typed)."""


class Typed(NamedTuple):
    """A house rule typed as a number: the numbers it takes, and what its box says of them."""

    step: int
    low: int
    high: int
    hint: Any


TYPED = {
    "dump_at": Typed(
        DUMP_SCORES.step,
        DUMP_SCORES[0],
        DUMP_SCORES[-1],
        _l(
            "A multiple of %(step)d from %(low)d to %(high)d; the usual is %(usual)d.",
            step=DUMP_SCORES.step,
            low=DUMP_SCORES[0],
            high=DUMP_SCORES[-1],
            usual=DUMP_AT,
        ),
    )
}
"""The house rules the form takes as a typed number (its box shows the rule's default)."""
GROUPS: tuple[tuple[str, Any, tuple[str, ...]], ...] = (
    (
        "penalties",
        _l("Zeros and penalties"),
        ("zeros", "zero_penalty", "forfeit_pays", "forfeit_penalty"),
    ),
    (
        "barrel",
        _l("The barrel"),
        (
            "barrel_gap",
            "barrel_hands",
            "barrel_miss",
            "barrel_knock_off",
            "three_falls_reset",
            "barrel_jump",
            "barrel_clash",
            "barrel_defender_wins",
            "barrel_win_score",
            "barrel_zeros",
        ),
    ),
    ("dump", _l("The dump"), ("dump_555", "dump_at")),
    ("bids", _l("Marriages and blind bids"), ("ace_marriage", "blind_doubles", "declarer_rounding")),
)
"""The start form's house rules in four groups, each closed until opened (every rule once)."""
YES_NO = ("forfeit_penalty",)
"""The house rules that are a yes or no (API.md: true or false) whose usual value differs by
ruleset (RULES.md §11.17): offered as a choice, not ticked."""
SWITCHES = tuple(name for name in house.SWITCHES if name not in YES_NO)
"""The house rules the form ticks on."""
THE_USUAL = _l("The usual for these rules")
"""The label of the choice `USUAL`."""
BLIND_BIDS = _l("Blind bids (doubled)")
"""The new-match form's switch for blind bids (the option `blind_bids`)."""
FORCED = _l("Forced to take it at 100")
"""The hand form's switch for tyzicha's forced contract (the hand's `forced`)."""

PAGE_SENTENCES: dict[str, str] = {
    "no_house_rules_switch": N_("{game} has no house rules: untick “{option}”."),
    "no_house_rules_choice": N_("{game} has no house rules: for “{option}”, choose “{usual}”."),
    "no_house_rules_typed": N_("{game} has no house rules: for “{option}”, enter {usual}."),
    "no_barrel_switch": N_("{game} has no barrel: untick “{option}”."),
    "no_barrel_choice": N_("{game} has no barrel: for “{option}”, choose “{usual}”."),
    "option_word": N_("For “{option}”, choose one of the choices offered."),
    "barrel_hands": N_("For “{option}”, choose a number from 1 to 5."),
    "zero_penalty_without_zeros": N_(
        "There are no zeros to pay for: for “{zeros}”, choose “{total}” or “{consecutive}”."
    ),
    "barrel_zeros_without_zeros": N_(
        "There are no zeros to count: for “{zeros}”, choose “{total}” or “{consecutive}”."
    ),
    "dump_at_without_dump": N_("There is no dump to move: for “{dump}”, choose “{plus}” or “{both}”."),
    "blind_doubles_needs_blind": N_("“{rule}: {choice}” needs blind bids: tick “{blind_bids}”."),
    "forced_bid": N_("A forced contract is exactly 100: for 110 or more, untick “{forced}”."),
}
"""The engine's house-rule refusals as a page says them: with the form's own words for each
option and choice, never the API's names (`zeros`, “total”), which the API's sentences keep."""


def rule_card(setup: Setup) -> list[str]:
    """The table's options that are not its ruleset's own rules, one line each (the match
    page's rule card)."""
    o = setup.options
    lines = [
        str(text)
        for on, text in (
            (o.gold_set, _l("Gold set")),
            (o.blind_bids, _l("Blind bids")),
            (o.sitter_bonus, _l("Sitter-out bonus")),
        )
        if on
    ]
    if setup.rules not in RULESETS:  # Tichu has no house rules
        return lines
    usual, house = defaults(setup.rules), resolved(o, setup.rules)
    for key in HOUSE_RULES:
        value = getattr(house, key)
        if value == getattr(usual, key) or key in TYPED:  # the dump's line names its score
            continue
        words = target_words(key, o.target, o.barrel_gap, house.dump_at)
        if key in SWITCHES:
            lines.append(str(words))
        else:
            # TRANSLATORS: a house rule on the match page, e.g. "The dump: 555 and −555 …"
            said = ("true" if value else "false") if isinstance(value, bool) else str(value)
            lines.append(_("%(rule)s: %(choice)s", rule=LABELS[key], choice=dict(words)[said]))
    return lines


def page_refusal(code: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """An engine refusal that names house rules (or a hand's `forced`) by their API names, as
    a page says it: its sentence (`PAGE_SENTENCES`, English; the caller translates it) and its values
    in the form's words. None for any other refusal: its sentence is the same on a page."""
    option = params.get("option")
    if code in ("no_house_rules", "no_barrel") and option in LABELS:
        kind = "switch" if option in SWITCHES else "typed" if option in TYPED else "choice"
        return PAGE_SENTENCES[f"{code}_{kind}"], {
            "game": params.get("game"),
            "option": str(LABELS[option]),
            "usual": params.get("value") if option in TYPED else str(THE_USUAL),
        }
    if code in ("option_word", "barrel_hands") and option in LABELS:
        return PAGE_SENTENCES[code], {"option": str(LABELS[option])}
    if code in ("zero_penalty_without_zeros", "barrel_zeros_without_zeros"):
        zeros = dict(CHOICES["zeros"])
        return PAGE_SENTENCES[code], {
            "zeros": str(LABELS["zeros"]),
            "total": str(zeros["total"]),
            "consecutive": str(zeros["consecutive"]),
        }
    if code == "dump_at_without_dump":
        at = params.get("dump_at")
        dump = dict(dump_words(at if isinstance(at, int) else DUMP_AT))
        return PAGE_SENTENCES[code], {
            "dump": str(LABELS["dump_555"]),
            "plus": str(dump["plus"]),
            "both": str(dump["both"]),
        }
    if code == "blind_doubles_needs_blind":
        return PAGE_SENTENCES[code], {
            "rule": str(LABELS["blind_doubles"]),
            "choice": str(dict(CHOICES["blind_doubles"])["declarer"]),
            "blind_bids": str(BLIND_BIDS),
        }
    if code == "forced_bid":
        return PAGE_SENTENCES[code], {"forced": str(FORCED)}
    return None
