"""Plain data (decoded JSON, a form) to value objects and back: the one validation path.

Wrong shapes and types raise `Malformed`; what the rules refuse is left to `check_setup` and
the replay, which raise `Refused`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import Malformed
from .records import HandRecord, Options, Record, Setup, TichuRound
from .rulesets import RULESETS
from .tichu import TARGETS, TICHU

SETUP_KEYS = {"players", "rules", "options", "first_dealer", "start_scores"}
OPTION_KEYS = {"target", "gold_set", "blind_bids", "sitter_bonus", "sheet", "great_grand_tichu"}
HAND_KEYS = {"kind", "declarer", "bid", "blind", "points", "marriages", "made",
             "sitter_points", "forced"}
ROUND_KEYS = {"calls", "first_out", "double_victory", "card_points"}


def setup_from_dict(data: Mapping[str, Any]) -> Setup:
    """Build a match set-up; only `players` is required."""
    _unknown(data, SETUP_KEYS, None)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise Malformed("players", "Players are a list of names.")
    rules = data.get("rules", "squarescores")
    if not isinstance(rules, str):
        raise Malformed("rules", "The ruleset is a name, such as “squarescores”.")
    opts = data.get("options") or {}
    if not isinstance(opts, Mapping):
        raise Malformed("options", "Options are an object of names and values.")
    _unknown(opts, OPTION_KEYS, "options")
    rs = RULESETS.get(rules)
    target = opts.get("target", rs.targets[0] if rs else TARGETS[0])
    options = Options(
        target=_integer(target, "options", "The target is a whole number."),
        gold_set=_flag(opts.get("gold_set", False), "options"),
        blind_bids=_flag(opts.get("blind_bids", False), "options"),
        sitter_bonus=_flag(opts.get("sitter_bonus", False), "options"),
        sheet_style=_text(opts.get("sheet", "signed" if rules == TICHU else "deferred"),  # type: ignore[arg-type]
                   "options"),
        great_grand_tichu=_flag(opts.get("great_grand_tichu", False), "options"),
    )
    first_dealer = _integer(data.get("first_dealer", 0), "first_dealer",
                           "The first dealer is a seat number.")
    start = data.get("start_scores")
    if start is None:
        start = [0] * (2 if rules == TICHU else len(players))  # Tichu: one per team (§10)
    if not isinstance(start, list):
        raise Malformed("start_scores", "Start scores are a list of whole numbers.")
    return Setup(
        players=tuple(players),
        rules=rules,
        options=options,
        first_dealer=first_dealer,
        start_scores=tuple(_integer(s, "start_scores", "Start scores are whole numbers.")
                           for s in start),
    )


def setup_to_dict(setup: Setup) -> dict[str, Any]:
    """The set-up as plain data, every option with its value."""
    o = setup.options
    return {
        "players": list(setup.players),
        "rules": setup.rules,
        "options": ({"target": o.target, "great_grand_tichu": o.great_grand_tichu,
                     "sheet": o.sheet_style} if setup.rules == TICHU else
                    {"target": o.target, "gold_set": o.gold_set, "blind_bids": o.blind_bids,
                     "sitter_bonus": o.sitter_bonus, "sheet": o.sheet_style}),
        "first_dealer": setup.first_dealer,
        "start_scores": list(setup.start_scores),
    }


def record_from_dict(data: Mapping[str, Any], rules: str,
                     extra: frozenset[str] = frozenset()) -> Record:
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
        raise Malformed("kind", "A Tichu round has no kind: send the calls, who went out "
                                "first, and the card points.")
    _unknown(data, ROUND_KEYS | extra, None)
    calls = data.get("calls")
    if calls is None:
        calls = [None] * 4
    if not isinstance(calls, list) or not all(c is None or isinstance(c, str) for c in calls):
        raise Malformed("calls", "Calls are a list with one word (or null) per player.")
    card_points = data.get("card_points")
    if card_points is not None:
        if not isinstance(card_points, list):
            raise Malformed("card_points", "Card points are a list of two numbers, one per team.")
        card_points = tuple(_integer(p, "card_points", "Card points are whole numbers.")
                            for p in card_points)
    return TichuRound(
        calls=tuple(calls),
        first_out=_optional_int(data.get("first_out"), "first_out",
                               "Who went out first is a seat number."),
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
    _unknown(data, HAND_KEYS | extra, None)
    kind = data.get("kind", "played")
    if not isinstance(kind, str):
        raise Malformed("kind", "The kind is “played”, “forfeit” or “redeal”.")
    points = data.get("points")
    if points is not None:
        if not isinstance(points, list):
            raise Malformed("points", "Card points are a list with one number (or null) per player.")
        points = tuple(None if p is None else _integer(p, "points", "Card points are whole numbers.")
                       for p in points)
    marriages = data.get("marriages")
    if marriages is not None:
        if not isinstance(marriages, list) or not all(
            isinstance(m, list) and all(isinstance(s, str) for s in m) for m in marriages
        ):
            raise Malformed("marriages", "Marriages are a list with one list of suits per player.")
        marriages = tuple(tuple(m) for m in marriages)
    made = data.get("made")
    return HandRecord(
        kind=kind,  # type: ignore[arg-type]
        declarer=_optional_int(data.get("declarer"), "declarer", "The declarer is a seat number."),
        bid=_optional_int(data.get("bid"), "bid", "The bid is a whole number."),
        points=points,
        marriages=marriages,
        made=None if made is None else _flag(made, "made"),
        blind=_flag(data.get("blind", False), "blind"),
        sitter_points=_integer(data.get("sitter_points") or 0, "sitter_points",
                              "The sitter-out's points are a whole number."),
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
            raise Malformed(field or key, f"“{key}” is not something a {field or 'request'} can hold.")


def _integer(value: Any, field: str, message: str) -> int:
    """A whole number (not a bool, not a float)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Malformed(field, message)
    if abs(value) > 10**9:
        raise Malformed(field, "That number is far too large.")
    return value


def _optional_int(value: Any, field: str, message: str) -> int | None:
    """A whole number or nothing."""
    return None if value is None else _integer(value, field, message)


def _flag(value: Any, field: str) -> bool:
    """A yes/no value."""
    if not isinstance(value, bool):
        raise Malformed(field, "This is a yes/no value: true or false.")
    return value


def _text(value: Any, field: str) -> str:
    """A short text."""
    if not isinstance(value, str):
        raise Malformed(field, "This is a text value.")
    return value
