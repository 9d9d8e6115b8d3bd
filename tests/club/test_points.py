"""CLUB.md §2: what one table gives each player — match points, table score, byes, Tichu by team."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from scoresheet.club import (
    BYE,
    BadResult,
    Round,
    Table,
    match_points,
    one_decimal,
    one_decimal_of_twelfths,
    standings_after,
    table_points,
    table_scores,
    whole,
    whole_of_twelfths,
)

SIX = ("Anna", "Boris", "Vera")


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        # three at a table: 2, 1, 0 — 2 × (below) ÷ 2
        ((500, 900, 700), (F(0), F(2), F(1))),
        # four: 2, 1⅓, ⅔, 0 — 2 × (below) ÷ 3
        ((100, 400, 300, 200), (F(0), F(2), F(4, 3), F(2, 3))),
        # two tied first at three share: 2 × (1 + ½) ÷ 2 = 1½ each
        ((800, 800, 200), (F(3, 2), F(3, 2), F(0))),
        # two tied last at three: 2 × ½ ÷ 2 = ½ each
        ((800, 200, 200), (F(2), F(1, 2), F(1, 2))),
        # all three tied: 2 × (½ + ½) ÷ 2 = 1 each
        ((600, 600, 600), (F(1), F(1), F(1))),
        # four, two tied in the middle: 2 × (1 + ½) ÷ 3 = 1 each
        ((900, 500, 500, 100), (F(2), F(1), F(1), F(0))),
        # four, three tied first: 2 × (1 + 1) ÷ 3 = 4/3 each
        ((700, 700, 700, 0), (F(4, 3), F(4, 3), F(4, 3), F(0))),
        # true scores below zero rank as numbers do
        ((-120, 0, 60), (F(0), F(1), F(2))),
        # Tichu, two teams: win 2, lose 0, tie 1 each
        ((1020, 880), (F(2), F(0))),
        ((1000, 1000), (F(1), F(1))),
    ],
)
def test_match_points_count_players_below_and_half_the_ties(scores: tuple[int, ...], expected: tuple[F, ...]) -> None:
    assert match_points(scores) == expected


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        # mean 2300/3: 1020 − 766⅔ = 253⅓ = 760/3; 640 − 766⅔ = −126⅔ = −380/3
        ((1020, 640, 640), (F(760, 3), F(-380, 3), F(-380, 3))),
        # mean 500
        ((1000, 600, 400, 0), (F(500), F(100), F(-100), F(-500))),
        # Tichu: the team's score minus the mean of the two teams (1040 + 760) / 2 = 900
        ((1040, 760), (F(140), F(-140))),
    ],
)
def test_table_score_is_the_final_score_minus_the_tables_mean(scores: tuple[int, ...], expected: tuple[F, ...]) -> None:
    assert table_scores(scores) == expected
    assert sum(table_scores(scores)) == 0


def test_a_player_takes_match_points_table_score_first_place_and_opponents() -> None:
    points = table_points(Table(players=SIX, scores=(1020, 640, 640)), "tysiacha")
    assert points["Anna"].match_points == 2 and points["Anna"].table_score == F(760, 3)
    assert points["Anna"].first and not points["Boris"].first
    assert points["Vera"].match_points == F(1, 2) and points["Vera"].opponents == ("Anna", "Boris")


def test_a_shared_first_is_a_first_for_each() -> None:
    points = table_points(Table(players=SIX, scores=(800, 800, 200)), "tysiacha")
    assert [points[n].first for n in SIX] == [True, True, False]


def test_tichu_partners_take_their_teams_points_and_the_other_team_are_their_opponents() -> None:
    # Seats 0 and 2 are team 0 (Anna, Vera), seats 1 and 3 team 1 (Boris, Gleb); mean 900.
    table = Table(players=("Anna", "Boris", "Vera", "Gleb"), scores=(1040, 760))
    points = table_points(table, "tichu")
    assert {n: (p.match_points, p.table_score, p.first) for n, p in points.items()} == {
        "Anna": (2, 140, True),
        "Vera": (2, 140, True),
        "Boris": (0, -140, False),
        "Gleb": (0, -140, False),
    }
    assert points["Anna"].opponents == ("Boris", "Gleb")
    assert points["Gleb"].opponents == ("Anna", "Vera")


def test_a_tichu_tie_gives_each_team_one_match_point_and_a_first() -> None:
    points = table_points(Table(players=("Anna", "Boris", "Vera", "Gleb"), scores=(1000, 1000)), "tichu")
    assert {(p.match_points, p.table_score, p.first) for p in points.values()} == {(1, 0, True)}


def test_a_bye_gives_one_match_point_and_no_table_score() -> None:
    assert (BYE.match_points, BYE.table_score, BYE.first, BYE.opponents) == (1, 0, False, ())


def test_match_points_add_up_exactly_over_rounds() -> None:
    # Three times second of four: 3 × 4/3 = 4 exactly (as floats, 1.333… three times is not 4).
    table = Table(players=("Anna", "Boris", "Vera", "Gleb"), scores=(500, 400, 300, 200))
    rows = standings_after(["Anna", "Boris", "Vera", "Gleb"], [Round(tables=(table,))] * 3, game="tysiacha", seed=1)
    boris = next(r for r in rows if r.name == "Boris")
    assert boris.match_points == F(4) and one_decimal(boris.match_points) == "4.0"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (F(4, 3), "1.3"),
        (F(2, 3), "0.7"),
        (F(3, 2), "1.5"),
        (F(13, 3), "4.3"),
        (F(0), "0.0"),
        (F(1, 4), "0.3"),  # exactly half-way: away from zero
        (F(-1, 4), "-0.3"),
        (F(-1, 30), "0.0"),  # no "-0.0"
        (F(20), "20.0"),
    ],
)
def test_match_points_are_shown_with_one_decimal_place(value: F, shown: str) -> None:
    assert one_decimal(value) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [(F(760, 3), 253), (F(-380, 3), -127), (F(5, 2), 3), (F(-5, 2), -3), (F(1, 2), 1), (F(499, 2), 250), (F(0), 0)],
)
def test_a_table_score_is_shown_as_a_whole_number_half_away_from_zero(value: F, shown: int) -> None:
    assert whole(value) == shown


def test_kept_twelfths_are_shown_as_their_fractions_are() -> None:
    # the kept standings hold whole twelfths (services.club): shown without a Fraction, the same
    for twelfths in range(-2400, 2401):
        assert one_decimal_of_twelfths(twelfths) == one_decimal(F(twelfths, 12)), twelfths
        assert whole_of_twelfths(twelfths) == whole(F(twelfths, 12)), twelfths


@pytest.mark.parametrize(
    ("table", "game", "field"),
    [
        (Table(players=("Anna", "Boris"), scores=(1, 2)), "tysiacha", "players"),
        (Table(players=("Anna", "Boris", "Vera", "Gleb", "Dana"), scores=(1, 2, 3, 4, 5)), "tysiacha", "players"),
        (Table(players=("Anna", "Anna", "Vera"), scores=(1, 2, 3)), "tysiacha", "players"),
        (Table(players=SIX, scores=(1, 2)), "tysiacha", "scores"),
        (Table(players=("Anna", "Boris", "Vera"), scores=(1, 2)), "tichu", "players"),
        (Table(players=("Anna", "Boris", "Vera", "Gleb"), scores=(1, 2, 3, 4)), "tichu", "scores"),
    ],
)
def test_a_table_that_does_not_fit_its_game_is_refused_with_its_field(table: Table, game: str, field: str) -> None:
    with pytest.raises(BadResult) as caught:
        table_points(table, game)  # type: ignore[arg-type]
    assert caught.value.field == field
    assert isinstance(caught.value, ValueError) and caught.value.message
