"""What a club night is made of, as the engine reads it: its rounds, their tables and results.

Nothing here is computed: the standings (`standings.py`) and the next round's seating
(`seating.py`) are always derived from these records (CLUB.md §3, §5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from ..rules.tichu import TICHU
from .errors import BadResult, ClubError

Game = Literal["tysiacha", "tichu"]
"""The game every table of an event plays (CLUB.md §1): every Tysiacha ruleset is one game."""
GAMES: tuple[Game, ...] = get_args(Game)

SeatingRule = Literal["fours", "byes"]
"""What happens to Tysiacha players left over from tables of three (CLUB.md §3)."""
SEATING_RULES: tuple[SeatingRule, ...] = get_args(SeatingRule)

TYSIACHA_TABLE = (3, 4)
"""The players a Tysiacha table seats (CLUB.md §3: three, or four with the dealer sitting out)."""
TICHU_TABLE = 4
"""The players a Tichu table seats: two teams of two, partners opposite (RULES.md §10)."""
TICHU_TEAMS = 2
"""The teams at a Tichu table; a table's scores are per team (team 0 = seats 0 and 2)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """One table of a round: who sat where, and its final scores once its result counts."""

    players: tuple[str, ...]
    """Names in seat order (Tichu: seats 0 and 2 are one team, 1 and 3 the other)."""
    scores: tuple[int, ...] | None = None
    """Final true scores in seat order (Tichu: per team); None until the result counts (§4)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Round:
    """One seated round of an event: its tables and the players who had a bye."""

    tables: tuple[Table, ...]
    """In table order (table 1 first)."""
    byes: tuple[str, ...] = ()
    """Players who had a bye (Tichu: both partners of the team)."""


def check_game(game: str) -> Game:
    """The game, if a club night plays it; else `ClubError` on `game`."""
    for known in GAMES:
        if game == known:
            return known
    raise ClubError("game", "unknown_game", game=game)


def check_seating(seating: str) -> SeatingRule:
    """The seating rule, if there is one of that name; else `ClubError` on `seating`."""
    for known in SEATING_RULES:
        if seating == known:
            return known
    raise ClubError("seating", "unknown_seating", seating=seating)


def check_table(table: Table, game: Game) -> None:
    """Raise `BadResult` if the table's players or scores do not fit the game (CLUB.md §2)."""
    n = len(table.players)
    sizes = (TICHU_TABLE,) if game == TICHU else TYSIACHA_TABLE
    if n not in sizes:
        allowed = " or ".join(str(s) for s in sizes)
        raise BadResult("players", "table_size", game=game.capitalize(), allowed=allowed, n=n)
    if len(set(table.players)) != n:
        twice = next(p for p in table.players if table.players.count(p) > 1)
        raise BadResult("players", "player_twice", name=twice)
    expected = TICHU_TEAMS if game == TICHU else n
    if table.scores is not None and len(table.scores) != expected:
        raise BadResult(
            "scores", "score_count", game=game.capitalize(), players=n, expected=expected, n=len(table.scores)
        )
