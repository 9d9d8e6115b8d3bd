"""The scoring engine: pure, typed, no web or database imports.

A match is a `Setup` and an ordered list of `HandRecord`s; `replay` turns them into the
computed `Sheet` (RULES.md). Nothing here is stored: the sheet is always recomputed.
"""

from .errors import Malformed, Refused, RuleError
from .model import (
    SUITS,
    HandRecord,
    HandResult,
    NextDeal,
    Options,
    Record,
    SeatResult,
    Setup,
    Sheet,
    Standing,
    TichuRound,
)
from .parse import (
    hand_from_dict,
    hand_to_dict,
    record_from_dict,
    record_to_dict,
    setup_from_dict,
    setup_to_dict,
)
from .rulesets import RULESETS, Ruleset
from .setup import check_setup
from .sheet import Replay, replay

__all__ = [
    "RULESETS", "SUITS", "HandRecord", "HandResult", "Malformed", "NextDeal", "Options",
    "Record", "Refused", "Replay", "RuleError", "Ruleset", "SeatResult", "Setup", "Sheet",
    "Standing", "TichuRound", "check_setup", "hand_from_dict", "hand_to_dict",
    "record_from_dict", "record_to_dict", "replay", "setup_from_dict", "setup_to_dict",
]
