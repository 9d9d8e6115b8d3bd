"""The engine of a club night: pure, typed, no web or database imports (CLUB.md §2, §3, §5).

An event is a list of seated `Round`s; `standings` derives its standings from them and
`seat_round` seats the next round. Points are exact `Fraction`s; `one_decimal` and `whole`
write them as players read them.
"""

from .errors import MESSAGES, BadResult, ClubError, TooFewPlayers
from .points import BYE, Points, match_points, one_decimal, table_points, table_scores, whole
from .records import GAMES, SEATING_RULES, Game, Round, SeatingRule, Table
from .seating import EXACT_UP_TO, Layout, Seating, layout, meetings, seat_round
from .standings import StandingsRow, draw_lot, standings_after

__all__ = [
    "BYE",
    "EXACT_UP_TO",
    "GAMES",
    "MESSAGES",
    "SEATING_RULES",
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
    "seat_round",
    "standings_after",
    "table_points",
    "table_scores",
    "whole",
]
