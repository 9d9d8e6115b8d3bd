"""The house rules of RULES.md §11: their values, each ruleset's defaults, and the set-up checks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .messages import OneOf, refuse
from .records import (
    BarrelClash,
    BarrelJump,
    BarrelMiss,
    BarrelWinScore,
    BlindDoubles,
    Dump,
    ForfeitPays,
    Options,
    Setup,
    Zeros,
)
from .rulesets import BARREL_GAPS, COUNT_PENALTY, DUMP_AT, RULESETS

WORDS: dict[str, tuple[str, ...]] = {
    "zeros": ("total", "consecutive", "off"),
    "dump_555": ("off", "plus", "both"),
    "barrel_miss": ("costs_bid", "stays"),
    "forfeit_pays": ("60", "half_bid"),
    "blind_doubles": ("hand", "declarer"),
    "barrel_jump": ("wins", "mounts"),
    "barrel_clash": ("all_stay", "one_stays", "all_fall"),
    "barrel_win_score": ("target", "added"),
}
"""The house rules whose value is a word, with the words allowed."""
SWITCHES = (
    "barrel_knock_off",
    "three_falls_reset",
    "declarer_rounding",
    "ace_marriage",
    "barrel_defender_wins",
    "barrel_zeros",
    "forfeit_penalty",
)
"""The house rules that are switched on or off."""
AMOUNTS = ("zero_penalty", "barrel_hands", "barrel_gap", "dump_at")
"""The house rules that are whole numbers."""
LEGACY = "forced_any_seat"
"""Tyzicha's forced rule from before the correction of RULES.md §7, kept for stored matches."""
_ZERO_PENALTIES = range(50, 201, 10)
_BARREL_HANDS = range(1, 6)
DUMP_SCORES = range(100, 876, 5)
"""The scores the dump may be moved to (RULES.md §11.18)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseRules:
    """Every house rule of a match with its value, the ruleset's defaults filled in (the fields
    in the order of RULES.md §11)."""

    zeros: Zeros
    zero_penalty: int
    dump_555: Dump
    barrel_knock_off: bool
    barrel_miss: BarrelMiss
    barrel_hands: int
    three_falls_reset: bool
    declarer_rounding: bool
    forfeit_pays: ForfeitPays
    blind_doubles: BlindDoubles
    ace_marriage: bool
    barrel_gap: int
    barrel_jump: BarrelJump
    barrel_clash: BarrelClash
    barrel_defender_wins: bool
    barrel_win_score: BarrelWinScore
    barrel_zeros: bool
    forfeit_penalty: bool
    dump_at: int


HOUSE_RULES = tuple(f.name for f in fields(HouseRules))
"""Every house rule, in the order of RULES.md §11."""
_BARREL_RULES = frozenset(
    {
        "barrel_knock_off",
        "barrel_miss",
        "barrel_hands",
        "three_falls_reset",
        "barrel_gap",
        "barrel_jump",
        "barrel_clash",
        "barrel_defender_wins",
        "barrel_win_score",
        "barrel_zeros",
    }
)
"""The house rules that need a barrel (§11.3–11.6, §11.11–11.16)."""
_NO_OPTIONS = Options(target=0)
"""Options with no house rule given: each at its default, None where the ruleset decides."""


def _ruleset_defaults(rules: str) -> dict[str, Any]:
    """The defaults that differ by ruleset (RULES.md §11.1, §11.4, §11.17): each ruleset's own rule."""
    rs = RULESETS.get(rules)
    return {
        "zeros": "total" if rs is not None and rs.zeros else "off",
        "barrel_miss": "stays" if rs is not None and rs.endgame == "barrel_bid" else "costs_bid",
        "forfeit_penalty": rs is not None and rs.forfeit == "count",
    }


def defaults(rules: str) -> HouseRules:
    """Today's rules for this ruleset (RULES.md §11: every default is the ruleset's rule)."""
    return resolved(_NO_OPTIONS, rules)


def resolved(options: Options, rules: str) -> HouseRules:
    """The match's house rules: the options given, the ruleset's default for any left unset."""
    usual = _ruleset_defaults(rules)
    given = {key: getattr(options, key) for key in HOUSE_RULES}
    return HouseRules(**{key: usual[key] if value is None else value for key, value in given.items()})


def house_dict(options: Options, rules: str) -> dict[str, object]:
    """The house rules as plain data, each with its value (the `options` of API.md)."""
    h = resolved(options, rules)
    return {key: getattr(h, key) for key in HOUSE_RULES}


def shown(value: object) -> str:
    """A value as a refusal writes it: a word in quotes, `true`/`false`, a number."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"“{value}”" if isinstance(value, str) else str(value)


def check_house_rules(setup: Setup, game: str) -> None:
    """Raise `Refused` (field `options` or `start_scores`) if the ruleset does not take the
    house rules as set (RULES.md §11); `game` names it in the sentence (Tichu has none)."""
    opts, rules = setup.options, setup.rules
    h = resolved(opts, rules)
    for key, words in WORDS.items():
        if getattr(h, key) not in words:
            raise refuse(
                "options",
                "option_word",
                option=key,
                value=getattr(h, key),
                allowed=OneOf(tuple(shown(w) for w in words)),
            )
    rs = RULESETS.get(rules)
    d = defaults(rules)
    table = rs is not None and rs.table_options
    for key in HOUSE_RULES:
        value, usual = getattr(h, key), getattr(d, key)
        if value == usual:
            continue
        if not table:
            raise refuse("options", "no_house_rules", game=game, option=key, value=shown(usual))
        if key in _BARREL_RULES and rs is not None and not rs.has_barrel:
            raise refuse("options", "no_barrel", game=game, option=key, value=shown(usual))
    if opts.forced_any_seat and (rs is None or rs.forced_min_bid is None):
        raise refuse("options", "no_forced")
    if h.zero_penalty not in _ZERO_PENALTIES:
        raise refuse("options", "zero_penalty")
    if h.zero_penalty != COUNT_PENALTY and h.zeros == "off":
        raise refuse("options", "zero_penalty_without_zeros")
    if h.barrel_hands not in _BARREL_HANDS:
        raise refuse("options", "barrel_hands", option="barrel_hands")
    if h.blind_doubles == "declarer" and not opts.blind_bids:
        raise refuse("options", "blind_doubles_needs_blind")
    if h.barrel_gap not in BARREL_GAPS:
        usual, other = (opts.target - gap for gap in BARREL_GAPS)
        raise refuse("options", "barrel_gap", usual=usual, other=other)
    if h.barrel_zeros and h.zeros == "off":
        raise refuse("options", "barrel_zeros_without_zeros")
    if h.dump_at not in DUMP_SCORES:
        raise refuse("options", "dump_at")
    if h.dump_at != DUMP_AT and h.dump_555 == "off":
        raise refuse("options", "dump_at_without_dump", dump_at=h.dump_at)
    if h.dump_555 != "off":
        dumped = dump_scores(h)
        for name, score in zip(setup.players, setup.start_scores, strict=False):
            if score in dumped:
                raise refuse("start_scores", "start_score_dumped", name=name, score=score)


def dump_scores(h: HouseRules) -> tuple[int, ...]:
    """The scores the dump sends to 0 (RULES.md §11.2, §11.18); none with `dump_555` off."""
    if h.dump_555 == "off":
        return ()
    return (h.dump_at, -h.dump_at) if h.dump_555 == "both" else (h.dump_at,)


def usual_rules_of(setup: Mapping[str, Any]) -> dict[str, Any]:
    """A set-up's players, ruleset and options as a player's usual rules keep them, for a new
    match: tyzicha's old forced rule left out (`check_new_match`)."""
    options = {k: v for k, v in (setup.get("options") or {}).items() if k != LEGACY}
    return {k: setup[k] for k in ("players", "rules") if k in setup} | {"options": options}


def check_new_match(setup: Setup) -> None:
    """Raise `Refused` (field `options`) for a rule only a stored match may keep: tyzicha's old
    forced rule is not offered for a new match (RULES.md §7); `check_setup` comes first."""
    if setup.options.forced_any_seat:
        raise refuse("options", "old_forced_rule")


_OLD_RULES = {"classic": ("barrel_miss", "costs_bid"), "tyzicha": (LEGACY, True)}
"""Per ruleset corrected in RULES.md §7: the option, and the value that keeps the old rule."""


def as_created(setup: dict[str, Any]) -> dict[str, Any]:
    """A set-up stored (or backed up) before the corrections of RULES.md §7, with its ruleset's
    old rule written into its options; any other set-up as it is. Every set-up stored since
    names the option, so only an older one lacks it (migration 0006 does the same)."""
    old = _OLD_RULES.get(setup.get("rules", ""))
    options = setup.get("options")
    if old is None or not isinstance(options, dict) or old[0] in options:
        return setup
    return {**setup, "options": {**options, old[0]: old[1]}}
