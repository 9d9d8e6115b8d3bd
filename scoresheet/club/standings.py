"""The standings of a club night (CLUB.md §5), derived from its rounds every time they are read.

Ordered by match points, then table score, then opponents' match points, then first places;
players equal on all four share the place number, and a lot drawn from the event's seed orders
them in the list (and for seating, CLUB.md §3).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .errors import ClubError
from .points import BYE, Points, table_points
from .records import Game, Round

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


TWELFTHS = 12
"""Every match point and table score is a whole number of twelfths (a table has 2 to 4 sides:
match points are sixths, quarters or halves, table scores quarters, thirds or halves), so the
sums are kept as whole twelfths, exact and cheap, and made `Fraction`s once at the end."""


def _twelfths(value: Fraction) -> int:
    """`value` in whole twelfths (CLUB.md §2's points always are)."""
    twelfths, rest = divmod(value.numerator * TWELFTHS, value.denominator)
    if rest:
        raise ValueError(f"{value} is not a whole number of twelfths")
    return twelfths


@dataclass(slots=True)
class _Tally:
    """A player's sums while the rounds are read (match points and table score in twelfths)."""

    match_points: int = 0
    table_score: int = 0
    firsts: int = 0
    rounds_played: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)

    def add(self, points: Points) -> None:
        """Count one round: a table's result or a bye."""
        self.match_points += _twelfths(points.match_points)
        self.table_score += _twelfths(points.table_score)
        self.firsts += points.first
        self.rounds_played += 1
        self.opponents.extend(points.opponents)


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
    for round_ in rounds:
        for table in round_.tables:
            if table.scores is not None:
                for name, points in table_points(table, game).items():
                    _tally(tallies, name).add(points)
        for name in round_.byes:
            tally = _tally(tallies, name)
            tally.add(BYE)
            tally.byes += 1
    rows = [
        StandingsRow(
            place=0,
            name=name,
            match_points=Fraction(t.match_points, TWELFTHS),
            table_score=Fraction(t.table_score, TWELFTHS),
            opponents_points=Fraction(sum(tallies[o].match_points for o in t.opponents), TWELFTHS),
            firsts=t.firsts,
            rounds_played=t.rounds_played,
            byes=t.byes,
        )
        for name, t in tallies.items()
    ]
    return _placed(rows, lot=lambda name: draw_lot(seed, len(rounds), name))


def draw_lot(seed: int, rounds: int, name: str) -> bytes:
    """A player's lot after `rounds` rounds: orders players equal on every criterion (CLUB.md §5).

    Drawn from the event's seed, so anyone with the seed can check it; drawn again each round,
    so the same player does not win every tie of the night.
    """
    return hashlib.sha256(f"{seed}:{rounds}:{name}".encode()).digest()


def _tally(tallies: dict[str, _Tally], name: str) -> _Tally:
    """The tally of a player the rounds name, who must be on the roster."""
    if name not in tallies:
        raise ClubError("roster", "not_on_roster", name=name)
    return tallies[name]


def _placed(rows: Iterable[StandingsRow], lot: Callable[[str], bytes]) -> tuple[StandingsRow, ...]:
    """The rows in standings order, each with its place number (ties share the better place)."""
    ordered = sorted(rows, key=lambda r: (*(-c for c in r.criteria), lot(r.name)))
    placed: list[StandingsRow] = []
    for i, row in enumerate(ordered):
        place = placed[-1].place if placed and placed[-1].criteria == row.criteria else i + 1
        placed.append(replace(row, place=place))
    return tuple(placed)
