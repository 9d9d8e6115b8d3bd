"""What one table gives each of its players (CLUB.md §2): match points and table score, exact.

Both are `Fraction`s, so that sums over rounds never drift; `one_decimal` and `whole` write
them as the board and the API show them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..rules.tichu import TICHU, team_of
from .records import Game, Table, check_table

BYE_MATCH_POINTS = Fraction(1)
"""A bye's match points: half of what a first place gives (CLUB.md §2)."""
BYE_TABLE_SCORE = Fraction(0)
"""A bye's table score."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Points:
    """What one player takes from one round: a table's result or a bye (CLUB.md §2)."""

    match_points: Fraction
    """2 × (players ranked below + ½ × players tied) ÷ (players at the table − 1); a bye: 1."""
    table_score: Fraction
    """Final score minus the table's mean (Tichu: the team's, against the two teams'); a bye: 0."""
    first: bool
    """Ranked first at the table, alone or shared (CLUB.md §5's fourth criterion); a bye: no."""
    opponents: tuple[str, ...]
    """Everyone else at the table (Tichu: the two players of the other team); a bye: nobody."""


BYE = Points(match_points=BYE_MATCH_POINTS, table_score=BYE_TABLE_SCORE, first=False, opponents=())
"""What a bye gives (CLUB.md §2)."""


TWELFTHS = 12
"""Every match point and table score is a whole number of twelfths (a table has 2 to 4 sides:
match points are sixths, quarters or halves, table scores quarters, thirds or halves), so they
are worked out in whole twelfths, exact and cheap, and made `Fraction`s only where shown."""


def twelfths(scores: Sequence[int]) -> tuple[list[int], list[int]]:
    """Each side's match points and table score from the final scores of a table, in whole
    twelfths (CLUB.md §2): integers, exact (`match_points` and `table_scores` are these ÷ 12).

    >>> twelfths([1020, 640, 640])  # 2, ½, ½ and 760/3, −380/3, −380/3
    ([24, 6, 6], [3040, -1520, -1520])
    """
    # Match points 2 × (below + ½ × (equal − 1)) ÷ (sides − 1) = (2 × below + equal − 1) ÷
    # (sides − 1); table score (sides × score − total) ÷ sides. 12 is a multiple of both divisors.
    sides, total, ranked = len(scores), sum(scores), sorted(scores)
    per_rank, per_side = TWELFTHS // (sides - 1), TWELFTHS // sides
    # Players below: those left of the score in `ranked`; the score's ties: from there to its right.
    match = [per_rank * (bisect_left(ranked, mine) + bisect_right(ranked, mine) - 1) for mine in scores]
    return match, [per_side * (sides * score - total) for score in scores]


def match_points(scores: Sequence[int]) -> tuple[Fraction, ...]:
    """Each side's match points from the final scores of a table, ties sharing (CLUB.md §2).

    >>> [str(p) for p in match_points([620, 1005, 310, 620])]
    ['1', '2', '0', '1']
    >>> [str(p) for p in match_points([1000, 1000, 400])]
    ['3/2', '3/2', '0']
    """
    return tuple(Fraction(t, TWELFTHS) for t in twelfths(scores)[0])


def table_scores(scores: Sequence[int]) -> tuple[Fraction, ...]:
    """Each side's final score minus the mean final score of the table (CLUB.md §2)."""
    return tuple(Fraction(t, TWELFTHS) for t in twelfths(scores)[1])


def table_points(table: Table, game: Game) -> dict[str, Points]:
    """What each player at a table with a result takes from it, by name (CLUB.md §2).

    Tichu: the scores are per team; both partners take their team's points.

    >>> t = Table(players=("Anna", "Boris", "Vera"), scores=(1020, 640, 640))
    >>> {name: (str(p.match_points), str(p.table_score)) for name, p in table_points(t, "tysiacha").items()}
    {'Anna': ('2', '760/3'), 'Boris': ('1/2', '-380/3'), 'Vera': ('1/2', '-380/3')}
    """
    check_table(table, game)
    assert table.scores is not None, "a table without a result gives no points"
    sides = match_points(table.scores), table_scores(table.scores)
    best = max(table.scores)
    side_of = (lambda seat: team_of(seat)) if game == TICHU else (lambda seat: seat)
    points = {}
    for seat, name in enumerate(table.players):
        side = side_of(seat)
        points[name] = Points(
            match_points=sides[0][side],
            table_score=sides[1][side],
            first=table.scores[side] == best,
            opponents=tuple(p for s, p in enumerate(table.players) if side_of(s) != side),
        )
    return points


def one_decimal(value: Fraction) -> str:
    """Match points as shown: one decimal place, half away from zero (4/3 → "1.3")."""
    return _tenths(_half_away_from_zero(value.numerator * 10, value.denominator))


def whole(value: Fraction) -> int:
    """A table score as shown: the nearest whole number, half away from zero (CLUB.md §6)."""
    return _half_away_from_zero(value.numerator, value.denominator)


def one_decimal_of_twelfths(twelfths: int) -> str:
    """`one_decimal` of a number of twelfths, with no `Fraction` made (16 twelfths → "1.3"):
    the standings' rows are written so on every read, so it is worked out in one step."""
    return _tenths(_half_away_from_zero(twelfths * 10, TWELFTHS))


def whole_of_twelfths(twelfths: int) -> int:
    """`whole` of a number of twelfths, with no `Fraction` made (−1520 twelfths → −127)."""
    return _half_away_from_zero(twelfths, TWELFTHS)


def _tenths(tenths: int) -> str:
    """A number of tenths written with one decimal place ("-1.5")."""
    sign = "-" if tenths < 0 else ""
    return f"{sign}{abs(tenths) // 10}.{abs(tenths) % 10}"


def _half_away_from_zero(numerator: int, denominator: int) -> int:
    """The integer nearest numerator ÷ denominator (> 0); exactly half-way goes away from zero
    (Python's round() goes to even). Whole numbers only: no `Fraction` is made."""
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    return -magnitude if numerator < 0 else magnitude
