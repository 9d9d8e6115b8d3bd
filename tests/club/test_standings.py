"""CLUB.md §5: the standings' order, every tie-break in turn, shared places and the seeded lot."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from scoresheet.club import ClubError, Round, StandingsRow, Table, draw_lot, standings_after


def t(players: str, *scores: int) -> Table:
    """A table with a result: one letter per player, in seat order."""
    return Table(players=tuple(players), scores=scores)


def order(rows: tuple[StandingsRow, ...]) -> str:
    """The players' letters in standings order."""
    return "".join(r.name for r in rows)


def row(rows: tuple[StandingsRow, ...], name: str) -> StandingsRow:
    return next(r for r in rows if r.name == name)


def seed_against(ahead: str, behind: str, rounds: int) -> int:
    """A seed whose lot would put `behind` ahead of `ahead`: a test that passes with it proves
    that a criterion, not the lot, ordered them."""
    return next(s for s in range(100) if draw_lot(s, rounds, behind) < draw_lot(s, rounds, ahead))


def test_match_points_come_first_then_table_score() -> None:
    # ABC: mean 650 → A 2/+350, B 1/+300, C 0/−650. DEF: mean 1300 → D 2/+700, E 1/+600, F 0/−1300.
    # E has more table score than A, but fewer match points.
    night = [Round(tables=(t("ABC", 1000, 950, 0), t("DEF", 2000, 1900, 0)))]
    rows = standings_after(list("ABCDEF"), night, game="tysiacha", seed=seed_against("A", "E", 1))
    assert order(rows) == "DAEBCF"
    assert [r.place for r in rows] == [1, 2, 3, 4, 5, 6]
    assert (row(rows, "A").match_points, row(rows, "A").table_score) == (2, 350)
    assert (row(rows, "E").match_points, row(rows, "E").table_score) == (1, 600)


def test_table_score_comes_before_opponents_points() -> None:
    # ACD: mean 1900/3 → A 2 and 1000 − 1900/3 = 1100/3; opponents C 1 + D 0 = 1.
    # BEFG: mean 625 → B 2 and +75; opponents E 4/3 + F 2/3 + G 0 = 2.
    night = [Round(tables=(t("ACD", 1000, 500, 400), t("BEFG", 700, 650, 600, 550)))]
    rows = standings_after(list("ABCDEFG"), night, game="tysiacha", seed=seed_against("A", "B", 1))
    a, b = row(rows, "A"), row(rows, "B")
    assert (a.match_points, a.table_score, a.opponents_points) == (2, F(1100, 3), 1)
    assert (b.match_points, b.table_score, b.opponents_points) == (2, 75, 2)
    assert order(rows)[:2] == "AB"


def test_opponents_points_come_before_first_places() -> None:
    # Round 1: ABC and DEF (900, 600, 300) → A and D 2/+300, B and E 1/0, C and F 0/−300.
    # Round 2: ABE all 600, DCF all 600 → 1/0 and a shared first each.
    night = [
        Round(tables=(t("ABC", 900, 600, 300), t("DEF", 900, 600, 300))),
        Round(tables=(t("ABE", 600, 600, 600), t("DCF", 600, 600, 600))),
    ]
    # A: 2 + 1 = 3, +300, 2 firsts; opponents B (1 + 1 = 2), C (0 + 1 = 1), B, E (1 + 1 = 2): 7.
    # D: 2 + 1 = 3, +300, 2 firsts; opponents E (2), F (0 + 1 = 1), C (1), F (1): 5.
    rows = standings_after(list("ABCDEF"), night, game="tysiacha", seed=seed_against("A", "D", 2))
    a, d = row(rows, "A"), row(rows, "D")
    assert (a.match_points, a.table_score, a.firsts, a.opponents_points) == (3, 300, 2, 7)
    assert (d.match_points, d.table_score, d.firsts, d.opponents_points) == (3, 300, 2, 5)
    assert order(rows)[:2] == "AD" and (a.place, d.place) == (1, 2)


def test_first_places_come_last_and_a_shared_first_counts() -> None:
    # Round 1: X, A, B all tied at 600 (1 point, 0, a shared first each); Y has a bye (1, 0).
    # Round 2: A 900, Y 600, B 300 (A 2/+300, Y 1/0, B 0/−300); X has a bye.
    # X and Y: 2 points, table score 0, opponents A (1 + 2) + B (1 + 0) = 4; firsts X 1, Y 0.
    night = [
        Round(tables=(t("XAB", 600, 600, 600),), byes=("Y",)),
        Round(tables=(t("AYB", 900, 600, 300),), byes=("X",)),
    ]
    rows = standings_after(list("ABXY"), night, game="tysiacha", seed=seed_against("X", "Y", 2))
    x, y = row(rows, "X"), row(rows, "Y")
    assert (x.match_points, x.table_score, x.opponents_points, x.firsts) == (2, 0, 4, 1)
    assert (y.match_points, y.table_score, y.opponents_points, y.firsts) == (2, 0, 4, 0)
    assert x.place < y.place


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_players_equal_on_all_four_share_the_place_and_the_seeded_lot_orders_them(seed: int) -> None:
    # D, E, F tie at 600: 1 point, 0, opponents 1 + 1 = 2, one first each. A is first, B and C
    # tie for last: 2 × ½ ÷ 2 = ½ each, −100, opponents 2 + ½ = 5/2.
    night = [Round(tables=(t("ABC", 800, 500, 500), t("DEF", 600, 600, 600)))]
    rows = standings_after(list("ABCDEF"), night, game="tysiacha", seed=seed)
    assert [r.place for r in rows] == [1, 2, 2, 2, 5, 5]
    assert order(rows)[0] == "A"
    assert order(rows)[1:4] == "".join(sorted("DEF", key=lambda n: draw_lot(seed, 1, n)))
    assert order(rows)[4:] == "".join(sorted("BC", key=lambda n: draw_lot(seed, 1, n)))
    assert rows == standings_after(list("FEDCBA"), night, game="tysiacha", seed=seed)


def test_opponents_points_count_each_opponent_each_time_met_at_their_current_points() -> None:
    # A met B twice: B's current 1 + 2 = 3 points count twice; C (0 + 0) twice.
    night = [Round(tables=(t("ABC", 900, 600, 300),)), Round(tables=(t("ABC", 600, 900, 300),))]
    rows = standings_after(list("ABC"), night, game="tysiacha", seed=1)
    assert row(rows, "A").opponents_points == 3 + 3 + 0 + 0
    assert row(rows, "C").opponents_points == (2 + 1) + (1 + 2) + (2 + 1) + (1 + 2)


def test_rounds_played_count_byes_and_a_table_without_a_result_counts_nothing() -> None:
    night = [
        Round(tables=(t("ABC", 900, 600, 300),), byes=("D",)),
        Round(tables=(Table(players=("D", "A", "B")),), byes=("C",)),
    ]
    rows = standings_after(list("ABCD"), night, game="tysiacha", seed=1)
    assert {r.name: (r.rounds_played, r.byes, r.match_points) for r in rows} == {
        "A": (1, 0, 2),
        "B": (1, 0, 1),
        "C": (2, 1, 1),
        "D": (1, 1, 1),
    }


def test_a_dropped_player_keeps_the_results_already_played() -> None:
    night = [Round(tables=(t("ABC", 900, 600, 300),))]
    rows = standings_after(list("ABCD"), night, game="tysiacha", seed=1)  # D joined late, A dropped: both listed
    assert row(rows, "A").match_points == 2 and row(rows, "D").rounds_played == 0


def test_tichu_has_one_row_per_player_and_opponents_are_the_other_team() -> None:
    # Table 1: team AC 1040 against BD 760; table 2: EG 500 against FH 500 (a tie).
    night = [Round(tables=(t("ABCD", 1040, 760), t("EFGH", 500, 500)))]
    rows = standings_after(list("ABCDEFGH"), night, game="tichu", seed=1)
    assert len(rows) == 8
    a, b, e = row(rows, "A"), row(rows, "B"), row(rows, "E")
    assert (a.match_points, a.table_score, a.opponents_points, a.firsts) == (2, 140, 0, 1)
    assert (b.match_points, b.table_score, b.opponents_points, b.firsts) == (0, -140, 4, 0)
    assert (e.match_points, e.table_score, e.opponents_points, e.firsts) == (1, 0, 2, 1)
    assert [r.place for r in rows] == [1, 1, 3, 3, 3, 3, 7, 7]


def test_a_name_off_the_roster_or_twice_on_it_is_refused_on_the_roster() -> None:
    night = [Round(tables=(t("ABC", 900, 600, 300),))]
    with pytest.raises(ClubError) as caught:
        standings_after(list("AB"), night, game="tysiacha", seed=1)
    assert (caught.value.field, caught.value.code) == ("roster", "not_on_roster")
    with pytest.raises(ClubError) as caught:
        standings_after(list("ABCA"), night, game="tysiacha", seed=1)
    assert (caught.value.field, caught.value.code) == ("roster", "player_twice")
