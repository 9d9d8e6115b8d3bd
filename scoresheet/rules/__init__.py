"""The scoring engine: pure, typed, no web or database imports.

A match is a `Setup` and an ordered list of records (`HandRecord`s, or Tichu's `TichuRound`s);
`replay` turns them into the computed `MatchState` (RULES.md), whose hands and standings are
the running sheet (§8). Nothing here is stored: the state is always recomputed.
"""

from .errors import Malformed, Refused, RuleError
from .match import Replay, replay
from .parse import (
    hand_from_dict,
    hand_to_dict,
    record_from_dict,
    record_to_dict,
    setup_from_dict,
    setup_to_dict,
)
from .records import (
    SUITS,
    HandRecord,
    HandResult,
    MatchState,
    NextDeal,
    Options,
    Record,
    SeatResult,
    Setup,
    Standing,
    TichuRound,
)
from .rulesets import RULESETS, Ruleset
from .setup import check_setup

__all__ = [
    "RULESETS",
    "SUITS",
    "HandRecord",
    "HandResult",
    "Malformed",
    "MatchState",
    "NextDeal",
    "Options",
    "Record",
    "Refused",
    "Replay",
    "RuleError",
    "Ruleset",
    "SeatResult",
    "Setup",
    "Standing",
    "TichuRound",
    "check_setup",
    "hand_from_dict",
    "hand_to_dict",
    "record_from_dict",
    "record_to_dict",
    "replay",
    "setup_from_dict",
    "setup_to_dict",
]
