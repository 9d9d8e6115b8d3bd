"""CLUB.md §3: table sizes, byes, the round-1 draw, the Swiss seating, and Tichu teams."""

from __future__ import annotations

from collections import Counter

import pytest

from scoresheet.club import ClubError, Layout, Round, Seating, Table, TooFewPlayers, layout, meetings, seat_round

NINE = [f"P{i}" for i in range(1, 10)]


def t(players: str, *scores: int) -> Table:
    """A table with a result: one letter per player, in seat order."""
    return Table(players=tuple(players), scores=scores)


def tables(seating: Seating) -> set[str]:
    """Each table's players as sorted letters, ignoring seat order."""
    return {"".join(sorted(table)) for table in seating.tables}


@pytest.mark.parametrize(
    ("present", "seating", "tables", "byes"),
    [
        (3, "fours", (3,), 0),
        (4, "fours", (4,), 0),  # 3–4 players: one table
        (5, "fours", (3,), 2),  # 5 players: a table of three and two byes
        (6, "fours", (3, 3), 0),
        (7, "fours", (4, 3), 0),  # one over: one table of four
        (8, "fours", (4, 4), 0),  # two over: two tables of four
        (9, "fours", (3, 3, 3), 0),
        (11, "fours", (4, 4, 3), 0),
        (14, "fours", (4, 4, 3, 3), 0),
        (3, "byes", (3,), 0),
        (4, "byes", (3,), 1),  # the one left over gets a bye
        (5, "byes", (3,), 2),
        (8, "byes", (3, 3), 2),  # the two left over get byes
        (12, "byes", (3, 3, 3, 3), 0),
    ],
)
def test_tysiacha_tables_are_of_three_and_the_players_left_over_make_fours_or_get_byes(
    present: int, seating: str, tables: tuple[int, ...], byes: int
) -> None:
    assert layout(present, game="tysiacha", seating=seating) == Layout(tables=tables, byes=byes)  # type: ignore[arg-type]


@pytest.mark.parametrize(("present", "tables", "byes"), [(4, (4,), 0), (6, (4,), 2), (8, (4, 4), 0), (10, (4, 4), 2)])
def test_tichu_seats_two_teams_a_table_and_an_odd_team_gets_a_bye(
    present: int, tables: tuple[int, ...], byes: int
) -> None:
    assert layout(present, game="tichu") == Layout(tables=tables, byes=byes)


@pytest.mark.parametrize(
    ("present", "game", "seating", "field", "code"),
    [
        (2, "tysiacha", "fours", "roster", "too_few_players"),  # fewer than 3 present players
        (0, "tysiacha", "byes", "roster", "too_few_players"),
        (2, "tichu", "fours", "roster", "too_few_teams"),  # one team
        (5, "tichu", "fours", "roster", "tichu_odd"),  # no whole teams
        (6, "tysiacha", "threes", "seating", "unknown_seating"),
        (6, "bridge", "fours", "game", "unknown_game"),
    ],
)
def test_a_round_that_cannot_be_seated_is_refused_with_its_field(
    present: int, game: str, seating: str, field: str, code: str
) -> None:
    with pytest.raises(ClubError) as caught:
        layout(present, game=game, seating=seating)  # type: ignore[arg-type]
    assert (caught.value.field, caught.value.code) == (field, code)
    assert isinstance(caught.value, TooFewPlayers) == code.startswith("too_few")


def test_round_one_is_drawn_from_the_seed_the_same_for_the_same_seed_roster_and_round() -> None:
    first = seat_round(NINE, [], game="tysiacha", seed=2026)
    assert sorted(p for table in first.tables for p in table) == sorted(NINE)
    assert first == seat_round(list(reversed(NINE)), [], game="tysiacha", seed=2026)
    assert first != seat_round(NINE, [], game="tysiacha", seed=2027)


def test_a_reseat_draws_again_from_seed_round_and_reseat_count() -> None:
    draws = [seat_round(NINE, [], game="tysiacha", seed=2026, reseat=k) for k in range(3)]
    assert draws[1] != draws[0] and draws[2] != draws[1]
    assert draws[1] == seat_round(NINE, [], game="tysiacha", seed=2026, reseat=1)


# After two rounds, ABC/DEF then ADE/BCF, pairs met: AB AC AD AE BF CF DF EF once, BC and DE
# twice. Scores: round 1 ABC (1000, 900, 800) → A 2/+100, B 1/0, C 0/−100; DEF (900, 600, 300)
# → D 2/+300, E 1/0, F 0/−300. Round 2 ADE (1000, 500, 600), mean 700 → A 2/+300, E 1/−100,
# D 0/−200; BCF (800, 850, 50), mean 1700/3 → C 2/+850/3, B 1/+700/3, F 0/−1550/3.
# Standings: A 4; then 2 points each by table score B 700/3, C 550/3, D 100, E −100; F 0.
SWISS = [
    Round(tables=(t("ABC", 1000, 900, 800), t("DEF", 900, 600, 300))),
    Round(tables=(t("ADE", 1000, 500, 600), t("BCF", 800, 850, 50))),
]


def test_later_rounds_seat_fewest_repeats_first_then_smallest_spread() -> None:
    # Places A1 B2 C3 D4 E5 F6. ABC|DEF has the least spread, 2 + 2, but 4 + 4 repeats (so has
    # ADE|BCF). Every other split has 4 repeats, and spreads ABD|CEF 3 + 3 = 6, ABE|CDF 4 + 3,
    # ABF|CDE 5 + 2, ACD|BEF 3 + 4, AEF|BCD 5 + 2 (7 each), ACE|BDF 4 + 4, ACF|BDE 5 + 3,
    # ADF|BCE 5 + 3 (8 each). The best: ABD|CEF, 4 repeats (AB, AD, CF, EF), spread 6.
    seating = seat_round(list("ABCDEF"), SWISS, game="tysiacha", seed=1)
    assert tables(seating) == {"ABD", "CEF"}
    assert (seating.repeats, seating.spread) == (4, 6)
    assert sorted(seating.tables[0]) == list("ABD")  # table 1 is the top table


def test_spread_counts_places_among_the_present_players() -> None:
    # G had two byes: 2 points, table score 0, between D (+100) and E (−100). Absent from
    # round 3, G leaves A1 B2 C3 D4 E5 F6 (counted among all, E and F would be 6 and 7: 7).
    night = [Round(tables=r.tables, byes=("G",)) for r in SWISS]
    seating = seat_round(list("ABCDEF"), night, game="tysiacha", seed=1)
    assert tables(seating) == {"ABD", "CEF"} and seating.spread == 6


def test_a_pair_met_twice_counts_twice() -> None:
    night = [Round(tables=(t("ABC", 900, 600, 300),)), Round(tables=(t("ABC", 300, 600, 900),))]
    assert seat_round(list("ABC"), night, game="tysiacha", seed=1).repeats == 3 * 2
    assert meetings(night, "tysiacha") == Counter({frozenset("AB"): 2, frozenset("AC"): 2, frozenset("BC"): 2})


def test_a_round_with_byes_gives_them_to_the_lowest_players_without_one() -> None:
    # Round 1: ABC (900, 600, 300), D and E had byes. Standings: A 2, B 1 (opponents 2) above
    # D and E (1, no opponents), C 0. The byes of round 2 go to B and C, the two lowest of those
    # without a bye, though D and E stand below B.
    night = [Round(tables=(t("ABC", 900, 600, 300),), byes=("D", "E"))]
    seating = seat_round(list("ABCDE"), night, game="tysiacha", seed=1)
    assert seating.byes == ("B", "C") and tables(seating) == {"ADE"}


def test_with_one_bye_to_give_it_goes_to_the_lowest_in_the_standings() -> None:
    # Round 1: ABC (900, 600, 300), D a bye. Round 2, byes seating: C (0 points) gets it.
    night = [Round(tables=(t("ABC", 900, 600, 300),), byes=("D",))]
    assert seat_round(list("ABCD"), night, game="tysiacha", seating="byes", seed=1).byes == ("C",)


def test_once_everyone_had_a_bye_the_lowest_gets_a_second() -> None:
    night = [
        Round(tables=(t("ABC", 900, 600, 300),), byes=("D",)),
        Round(tables=(t("ABD", 900, 600, 300),), byes=("C",)),
        Round(tables=(t("ACD", 900, 600, 300),), byes=("B",)),
        Round(tables=(t("BCD", 900, 600, 300),), byes=("A",)),
    ]
    # A 2 + 2 + 2 + 1 = 7, B 1 + 1 + 1 + 2 = 5, C 0 + 1 + 1 + 1 = 3, D 1 + 0 + 0 + 0 = 1.
    assert seat_round(list("ABCD"), night, game="tysiacha", seating="byes", seed=1).byes == ("D",)


def test_seats_are_drawn_inside_the_table_from_the_seed() -> None:
    orders = {seat_round(list("ABCDEF"), SWISS, game="tysiacha", seed=1, reseat=k).tables[0] for k in range(8)}
    assert len(orders) > 1 and {"".join(sorted(o)) for o in orders} == {"ABD"}


TEAMS = {"A": "ac", "C": "ac", "B": "bd", "D": "bd", "E": "eg", "G": "eg", "F": "fh", "H": "fh"}


def test_tichu_partners_sit_opposite() -> None:
    seating = seat_round(list("ABCDEFGH"), [], game="tichu", seed=5, teams=TEAMS)
    for table in seating.tables:
        assert TEAMS[table[0]] == TEAMS[table[2]] and TEAMS[table[1]] == TEAMS[table[3]]
        assert TEAMS[table[0]] != TEAMS[table[1]]


def test_tichu_partners_never_count_as_a_repeat() -> None:
    # Teams AC and BD met: each of A and C met each of B and D — 4 pairs, not 6.
    night = [Round(tables=(t("ABCD", 1040, 760),))]
    assert seat_round(list("ABCD"), night, game="tichu", seed=1, teams=TEAMS).repeats == 4


def test_tichu_swiss_avoids_teams_that_met() -> None:
    # Round 1: AC beat BD, EG beat FH. Round 2 seats the winners apart from their past opponents.
    night = [Round(tables=(t("ABCD", 1040, 760), t("EFGH", 900, 100)))]
    seating = seat_round(list("ABCDEFGH"), night, game="tichu", seed=1, teams=TEAMS)
    assert seating.repeats == 0 and tables(seating) == {"ACEG", "BDFH"}


def test_an_odd_tichu_team_gets_the_bye_by_the_same_rule() -> None:
    teams = {k: v for k, v in TEAMS.items() if v != "fh"}
    night = [Round(tables=(t("ABCD", 1040, 760),), byes=("E", "G"))]
    # BD lost (0 points) and is the lowest team without a bye.
    assert set(seat_round(list("ABCDEG"), night, game="tichu", seed=1, teams=teams).byes) == {"B", "D"}


@pytest.mark.parametrize(
    ("present", "teams", "code"),
    [
        (list("ABCD"), {"A": "ac", "C": "ac", "B": "bd"}, "no_team"),  # D has no team
        (list("ABCDE"), {**TEAMS, "E": "ac"}, "team_not_two"),  # a team of three
        (list("ABCDE"), TEAMS, "team_not_two"),  # E present without G
    ],
)
def test_tichu_seats_whole_teams_of_two(present: list[str], teams: dict[str, str], code: str) -> None:
    with pytest.raises(ClubError) as caught:
        seat_round(present, [], game="tichu", seed=1, teams=teams)
    assert (caught.value.field, caught.value.code) == ("roster", code)


def test_a_player_present_twice_is_refused() -> None:
    with pytest.raises(ClubError) as caught:
        seat_round(["A", "B", "C", "A"], [], game="tysiacha", seed=1)
    assert (caught.value.field, caught.value.code) == ("roster", "player_twice")


def test_more_than_twelve_players_are_seated_by_the_search_without_a_repeat_when_one_is_easy() -> None:
    players = [f"P{i:02d}" for i in range(30)]
    first = seat_round(players, [], game="tysiacha", seed=3)
    night = [Round(tables=tuple(Table(players=tb, scores=tuple(range(len(tb)))) for tb in first.tables))]
    second = seat_round(players, night, game="tysiacha", seed=3)
    assert second.repeats == 0
    assert second == seat_round(players, night, game="tysiacha", seed=3)
