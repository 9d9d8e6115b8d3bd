"""The words a hand's results use for what happened to a seat or team (API.md, `events`).

A `StrEnum`: every member is the string it stands for, so it compares, hashes and encodes to
JSON exactly as that word does, and code that still reads the words as strings keeps working.
"""

from __future__ import annotations

from enum import StrEnum


class Event(StrEnum):
    """What a hand did to one seat (Tysiacha, RULES.md §4–§7, §11) or one team (Tichu, §10)."""

    MADE = "made"
    MISSED = "missed"
    ZERO = "zero"
    ZERO_PENALTY = "zero_penalty"
    FORFEIT = "forfeit"
    FORFEIT_PENALTY = "forfeit_penalty"
    BARREL_ON = "barrel_on"
    BARREL_IGNORED = "barrel_ignored"
    BARREL_FALL = "barrel_fall"
    BARREL_OFF = "barrel_off"
    LOCKED = "locked"
    UNLOCKED = "unlocked"
    CAPPED = "capped"
    SITTING_OUT = "sitting_out"
    WIN = "win"
    DUMP = "dump"
    """§11.2, §11.18."""
    KNOCKED_OFF = "knocked_off"
    """§11.3."""
    BARREL_RESET = "barrel_reset"
    """§11.6."""
    BARREL_CLASH = "barrel_clash"
    """§11.13."""
    TICHU_MADE = "tichu_made"
    TICHU_FAILED = "tichu_failed"
    GRAND_MADE = "grand_made"
    GRAND_FAILED = "grand_failed"
    GREAT_GRAND_MADE = "great_grand_made"
    GREAT_GRAND_FAILED = "great_grand_failed"
    DOUBLE_VICTORY = "double_victory"
