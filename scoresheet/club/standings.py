"""The standings of a club night (CLUB.md §5), derived from its rounds (the server ranks them
with every change that alters them and keeps them, `services.club.results.keep_standings`).

Ordered by match points, then table score, then opponents' match points, then first places;
players equal on all four share the place number, and a lot drawn from the event's seed orders
them in the list (and for seating, CLUB.md §3).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from operator import itemgetter

from ..rules.tichu import TICHU, team_of
from .errors import ClubError
from .points import BYE, TWELFTHS, twelfths
from .records import TICHU_TABLE, Game, Round, Table, check_table

Criteria = tuple[Fraction, Fraction, Fraction, int]
"""What the order compares, in turn (CLUB.md §5); more is better on every one."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StandingsRow:
    """One player's line of the standings (CLUB.md §5, §6)."""

    place: int
    """1 + the number of players ahead on the four criteria; players equal on all four share it."""
    name: str
    """The player's name on the roster (an account's username, or a guest's name)."""
    match_points: Fraction
    """Summed over the rounds played, byes included."""
    table_score: Fraction
    """Summed over the rounds played (a bye adds 0)."""
    opponents_points: Fraction
    """The current match points of every opponent met, added once each time met."""
    firsts: int
    """Tables the player ranked first at, a shared first counting."""
    rounds_played: int
    """Tables with a result, and byes."""
    byes: int
    """Rounds the player had a bye."""

    @property
    def criteria(self) -> Criteria:
        """What the order compares, in turn: match points, table score, opponents' points, firsts."""
        return (self.match_points, self.table_score, self.opponents_points, self.firsts)


@dataclass(slots=True)
class _Tally:
    """A player's sums while the rounds are read (match points, table score and opponents'
    points in twelfths)."""

    match_points: int = 0
    table_score: int = 0
    opponents_points: int = 0
    firsts: int = 0
    rounds_played: int = 0
    byes: int = 0


BYE_TWELFTHS = BYE.match_points.numerator * TWELFTHS // BYE.match_points.denominator
"""A bye's match points in twelfths (its table score is 0)."""


def standings_after(
    roster: Sequence[str], rounds: Sequence[Round], *, game: Game, seed: int
) -> tuple[StandingsRow, ...]:
    """Every player of the roster in standings order, after the results counted so far (CLUB.md §5).

    A table without a result yet adds nothing; a bye counts as soon as its round is seated.

    >>> from scoresheet.club import Round, Table
    >>> night = [Round(tables=(Table(players=("Anna", "Boris", "Vera"), scores=(1000, 400, 700)),))]
    >>> rows = standings_after(["Anna", "Boris", "Vera"], night, game="tysiacha", seed=7)
    >>> [(r.place, r.name, str(r.match_points)) for r in rows]
    [(1, 'Anna', '2'), (2, 'Vera', '1'), (3, 'Boris', '0')]
    """
    tallies = {name: _Tally() for name in roster}
    if len(tallies) != len(roster):
        raise ClubError("roster", "player_twice", name=next(n for n in roster if roster.count(n) > 1))
    counted: list[tuple[_Tally, ...]] = []
    for round_ in rounds:
        for table in round_.tables:
            if table.scores is not None:
                counted.append(_count_table(tallies, table, game))
        for name in round_.byes:
            tally = _tally(tallies, name)
            tally.match_points += BYE_TWELFTHS
            tally.rounds_played += 1
            tally.byes += 1
    for seated in counted:  # every opponent's match points as they stand now, once a table met
        if game == TICHU:  # the other team's two players (seats 0 and 2 against 1 and 3)
            for seat, tally in enumerate(seated):
                left, right = seated[(seat + 1) % TICHU_TABLE], seated[(seat - 1) % TICHU_TABLE]
                tally.opponents_points += left.match_points + right.match_points
        else:
            everyone = sum(t.match_points for t in seated)
            for tally in seated:
                tally.opponents_points += everyone - tally.match_points
    return _placed(tallies, lot=lambda name: draw_lot(seed, len(rounds), name))


def _count_table(tallies: dict[str, _Tally], table: Table, game: Game) -> tuple[_Tally, ...]:
    """Add a table's result to its players' tallies (CLUB.md §2: `points.table_points`'s
    points, in twelfths; Tichu: both partners take their team's); their tallies, seat order."""
    check_table(table, game)
    assert table.scores is not None, "a table without a result gives no points"
    match, score = twelfths(table.scores)
    best = max(table.scores)
    seated = tuple(_tally(tallies, name) for name in table.players)
    for seat, tally in enumerate(seated):
        side = team_of(seat) if game == TICHU else seat
        tally.match_points += match[side]
        tally.table_score += score[side]
        tally.firsts += table.scores[side] == best
        tally.rounds_played += 1
    return seated


def draw_lot(seed: int, rounds: int, name: str) -> bytes:
    """A player's lot after `rounds` rounds: orders players equal on every criterion (CLUB.md §5).

    Drawn from the event's seed, so anyone with the seed can check it; drawn again each round,
    so the same player does not win every tie of the night.
    """
    return hashlib.sha256(f"{seed}:{rounds}:{name}".encode()).digest()


def _tally(tallies: dict[str, _Tally], name: str) -> _Tally:
    """The tally of a player the rounds name, who must be on the roster."""
    found = tallies.get(name)
    if found is None:
        raise ClubError("roster", "not_on_roster", name=name)
    return found


def _placed(tallies: dict[str, _Tally], lot: Callable[[str], bytes]) -> tuple[StandingsRow, ...]:
    """The rows in standings order, each with its place number (ties share the better place);
    the lot is drawn only for players equal on all four criteria."""
    keyed = sorted(
        ((-t.match_points, -t.table_score, -t.opponents_points, -t.firsts), name) for name, t in tallies.items()
    )
    placed: list[StandingsRow] = []
    for criteria, group in groupby(keyed, key=itemgetter(0)):
        names = [name for _, name in group]
        if len(names) > 1:
            names.sort(key=lot)
        place = len(placed) + 1
        match_points, table_score, opponents_points, firsts = (-c for c in criteria)
        shown = [Fraction(c, TWELFTHS) for c in (match_points, table_score, opponents_points)]
        for name in names:
            t = tallies[name]
            placed.append(
                StandingsRow(
                    place=place,
                    name=name,
                    match_points=shown[0],
                    table_score=shown[1],
                    opponents_points=shown[2],
                    firsts=firsts,
                    rounds_played=t.rounds_played,
                    byes=t.byes,
                )
            )
    return tuple(placed)
