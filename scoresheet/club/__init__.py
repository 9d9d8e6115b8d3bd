"""The engine of a club night: pure, typed, no web or database imports (CLUB.md §2, §3, §5).

An event is a list of seated `Round`s; `standings` derives its standings from them and
`seat_round` seats the next round. Points are exact `Fraction`s; `one_decimal` and `whole`
write them as players read them.
"""

from .errors import MESSAGES, BadResult, ClubError, TooFewPlayers
from .points import (
    BYE,
    TWELFTHS,
    Points,
    match_points,
    one_decimal,
    one_decimal_of_twelfths,
    table_points,
    table_scores,
    whole,
    whole_of_twelfths,
)
from .records import GAMES, SEATING_RULES, Game, Round, SeatingRule, Table
from .seating import EXACT_UP_TO, Layout, Seating, layout, meetings, seat_round
from .standings import StandingsRow, draw_lot, standings_after

__all__ = [
    "BYE",
    "EXACT_UP_TO",
    "GAMES",
    "MESSAGES",
    "SEATING_RULES",
    "TWELFTHS",
    "BadResult",
    "ClubError",
    "Game",
    "Layout",
    "Points",
    "Round",
    "Seating",
    "SeatingRule",
    "StandingsRow",
    "Table",
    "TooFewPlayers",
    "draw_lot",
    "layout",
    "match_points",
    "meetings",
    "one_decimal",
    "one_decimal_of_twelfths",
    "seat_round",
    "standings_after",
    "table_points",
    "table_scores",
    "whole",
    "whole_of_twelfths",
]
