"""Plain data (decoded JSON, a form) to value objects and back: the one validation path.

Wrong shapes and types raise `Malformed`; what the rules refuse is left to `check_setup` and
the replay, which raise `Refused`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .house import AMOUNTS, HOUSE_RULES, LEGACY, SWITCHES, WORDS, house_dict, shown
from .messages import OneOf, malformed, refuse
from .records import HandRecord, Options, Record, Setup, SheetStyle, TichuRound
from .rulesets import RULESETS
from .tichu import TARGETS, TICHU

_SETUP_KEYS = {"players", "rules", "options", "first_dealer", "start_scores"}
_TABLE_SWITCHES = ("gold_set", "blind_bids", "sitter_bonus")
"""The table's options of RULES.md §6 that are switched on or off."""
_OPTION_KEYS = {"target", *_TABLE_SWITCHES, "sheet", "great_grand_tichu", *HOUSE_RULES, LEGACY}
_HAND_KEYS = {"kind", "declarer", "bid", "blind", "points", "marriages", "made", "sitter_points", "forced"}
_ROUND_KEYS = {"calls", "first_out", "double_victory", "card_points"}


def setup_from_dict(data: Mapping[str, Any]) -> Setup:
    """Build a match set-up; only `players` is required."""
    _unknown(data, _SETUP_KEYS, None)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise malformed("players", "players_not_list")
    rules = data.get("rules", "squarescores")
    if not isinstance(rules, str):
        raise malformed("rules", "rules_not_name")
    opts = data.get("options", {})  # null, [] or 0 are not options: refused, not read as none
    if not isinstance(opts, Mapping):
        raise malformed("options", "options_not_object")
    _unknown(opts, _OPTION_KEYS, "options")
    rs = RULESETS.get(rules)
    target = opts.get("target", rs.targets[0] if rs else TARGETS[0])
    # Only the options given are passed on: every other one keeps its default in `Options`.
    given: dict[str, Any] = {"target": _integer(target, "options", "target_not_number")}
    for key in _TABLE_SWITCHES:
        if key in opts:
            given[key] = _flag(opts[key], "options", key)
    if "sheet" in opts:
        given["sheet_style"] = _sheet_style(opts["sheet"])
    elif rules == TICHU:
        given["sheet_style"] = "signed"  # Tichu's sheets show minus figures (RULES.md §10)
    if "great_grand_tichu" in opts:
        given["great_grand_tichu"] = _flag(opts["great_grand_tichu"], "options", "great_grand_tichu")
    options = Options(**given, **_house_rules(opts))
    first_dealer = _integer(data.get("first_dealer", 0), "first_dealer", "first_dealer_not_number")
    start = data.get("start_scores")
    if start is None:
        start = [0] * (2 if rules == TICHU else len(players))  # Tichu: one per team (§10)
    if not isinstance(start, list):
        raise malformed("start_scores", "start_scores_not_list")
    return Setup(
        players=tuple(players),
        rules=rules,
        options=options,
        first_dealer=first_dealer,
        start_scores=tuple(_integer(s, "start_scores", "start_score_not_number") for s in start),
    )


def setup_to_dict(setup: Setup) -> dict[str, Any]:
    """The set-up as plain data, every option with its value."""
    o = setup.options
    options: dict[str, Any]
    if setup.rules == TICHU:
        options = {"target": o.target, "great_grand_tichu": o.great_grand_tichu, "sheet": o.sheet_style}
    else:
        options = {
            "target": o.target,
            "gold_set": o.gold_set,
            "blind_bids": o.blind_bids,
            "sitter_bonus": o.sitter_bonus,
            "sheet": o.sheet_style,
            **house_dict(o, setup.rules),
        }
        rs = RULESETS.get(setup.rules)
        if rs is not None and rs.forced_min_bid is not None:  # tyzicha (RULES.md §7)
            options[LEGACY] = o.forced_any_seat
    return {
        "players": list(setup.players),
        "rules": setup.rules,
        "options": options,
        "first_dealer": setup.first_dealer,
        "start_scores": list(setup.start_scores),
    }


def _house_rules(opts: Mapping[str, Any]) -> dict[str, Any]:
    """The house rules given in `options`, each of its type (RULES.md §11); unset ones are left
    to the ruleset's defaults."""
    given: dict[str, Any] = {}
    for key, words in WORDS.items():
        if key in opts:
            if not isinstance(opts[key], str):
                raise malformed("options", "option_not_word", key=key, allowed=OneOf(tuple(shown(w) for w in words)))
            if not opts[key]:  # not "unset": refused as any other word that is not one of them
                raise refuse(
                    "options", "option_word", option=key, value="", allowed=OneOf(tuple(shown(w) for w in words))
                )
            given[key] = opts[key]
    for key in (*SWITCHES, LEGACY):
        if key in opts:
            given[key] = _flag(opts[key], "options", key)
    for key in AMOUNTS:
        if key in opts:
            given[key] = _integer(opts[key], "options", "option_not_number", key=key)
    return given


def record_from_dict(data: Mapping[str, Any], rules: str, extra: frozenset[str] = frozenset()) -> Record:
    """Build one record of the match's game: a Tichu round, or a Tysiacha hand."""
    if rules == TICHU:
        return _round_from_dict(data, extra)
    return hand_from_dict(data, extra)


def record_to_dict(record: Record) -> dict[str, Any]:
    """The record exactly as entered, as plain data (how it is stored)."""
    if isinstance(record, TichuRound):
        return _round_to_dict(record)
    return hand_to_dict(record)


def _round_from_dict(data: Mapping[str, Any], extra: frozenset[str] = frozenset()) -> TichuRound:
    """Build one Tichu round (RULES.md §10); a `kind` is refused: a round has none."""
    if "kind" in data:
        raise malformed("kind", "tichu_round_has_no_kind")
    _unknown(data, _ROUND_KEYS | extra, None)
    calls = data.get("calls")
    if calls is None:
        calls = [None] * 4
    if not isinstance(calls, list) or not all(c is None or isinstance(c, str) for c in calls):
        raise malformed("calls", "calls_not_list")
    card_points = data.get("card_points")
    if card_points is not None:
        if not isinstance(card_points, list):
            raise malformed("card_points", "card_points_not_list")
        card_points = tuple(_integer(p, "card_points", "points_not_number") for p in card_points)
    return TichuRound(
        calls=tuple(calls),
        first_out=_optional_int(data.get("first_out"), "first_out", "first_out_not_number"),
        double_victory=_flag(data.get("double_victory", False), "double_victory"),
        card_points=card_points,
    )


def _round_to_dict(record: TichuRound) -> dict[str, Any]:
    """The Tichu round exactly as entered, as plain data (how it is stored)."""
    return {
        "calls": list(record.calls),
        "first_out": record.first_out,
        "double_victory": record.double_victory,
        "card_points": None if record.card_points is None else list(record.card_points),
    }


def hand_from_dict(data: Mapping[str, Any], extra: frozenset[str] = frozenset()) -> HandRecord:
    """Build one hand record (RULES.md §2); keys in `extra` are the caller's to read."""
    _unknown(data, _HAND_KEYS | extra, None)
    kind = data.get("kind", "played")
    if not isinstance(kind, str):
        raise malformed("kind", "kind_not_word")
    points = data.get("points")
    if points is not None:
        if not isinstance(points, list):
            raise malformed("points", "points_not_list")
        points = tuple(None if p is None else _integer(p, "points", "points_not_number") for p in points)
    marriages = data.get("marriages")
    if marriages is not None:
        if not isinstance(marriages, list) or not all(
            isinstance(m, list) and all(isinstance(s, str) for s in m) for m in marriages
        ):
            raise malformed("marriages", "marriages_not_list")
        marriages = tuple(tuple(m) for m in marriages)
    made = data.get("made")
    return HandRecord(
        kind=kind,  # type: ignore[arg-type]
        declarer=_optional_int(data.get("declarer"), "declarer", "declarer_not_number"),
        bid=_optional_int(data.get("bid"), "bid", "bid_not_number"),
        points=points,
        marriages=marriages,
        made=None if made is None else _flag(made, "made"),
        blind=_flag(data.get("blind", False), "blind"),
        sitter_points=_optional_int(data.get("sitter_points"), "sitter_points", "sitter_points_not_number") or 0,
        forced=_flag(data.get("forced", False), "forced"),
    )


def hand_to_dict(record: HandRecord) -> dict[str, Any]:
    """The hand record exactly as entered, as plain data (how it is stored)."""
    return {
        "kind": record.kind,
        "declarer": record.declarer,
        "bid": record.bid,
        "points": None if record.points is None else list(record.points),
        "marriages": None if record.marriages is None else [list(m) for m in record.marriages],
        "made": record.made,
        "blind": record.blind,
        "sitter_points": record.sitter_points,
        "forced": record.forced,
    }


def _unknown(data: Mapping[str, Any], allowed: set[str] | frozenset[str], field: str | None) -> None:
    """Refuse keys we do not know, so a typo is not silently ignored."""
    for key in data:
        if key not in allowed:
            raise malformed(field or key, "unknown_option" if field == "options" else "unknown_key", key=key)


def _integer(value: Any, field: str, code: str, **params: object) -> int:
    """A whole number (not a bool, not a float); `code` says what it should have been."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise malformed(field, code, **params)
    if abs(value) > 10**9:
        raise malformed(field, "number_too_large", **params)  # (an option's `key`: a page says it beside that option)
    return value


def _optional_int(value: Any, field: str, code: str) -> int | None:
    """A whole number or nothing."""
    return None if value is None else _integer(value, field, code)


def _flag(value: Any, field: str, key: str | None = None) -> bool:
    """A yes/no value; `key` names it where the field holds several (options)."""
    if not isinstance(value, bool):
        raise malformed(field, "not_yes_no", key=key or field)
    return value


def _sheet_style(value: Any) -> SheetStyle:
    """The sheet style's word; `check_setup` refuses any but `deferred` and `signed` (§8)."""
    if not isinstance(value, str):
        raise malformed("options", "sheet_style")
    return value  # type: ignore[return-value]
