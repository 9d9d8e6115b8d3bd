"""Each seat's figures read from a replay (scoresheet.rules.figures): crafted hands,
one figure at a time."""

from __future__ import annotations

import pytest

from scoresheet.rules import HandRecord, Options, Setup, TichuRound, replay
from scoresheet.rules.figures import COUNTS, game_of, places, seat_figures, seat_scores


def played(declarer: int, bid: int, points: tuple[int | None, ...]) -> HandRecord:
    """A played hand without marriages."""
    return HandRecord("played", declarer=declarer, bid=bid, points=points)


def figures(
    start: tuple[int, ...], *hands: HandRecord, rules: str = "squarescores", **options: object
) -> list[dict[str, int]]:
    """Each seat's figures (as a dict) after replaying these hands from these scores, with
    these options (house rules, RULES.md §11)."""
    setup = Setup(
        players=("Anna", "Boris", "Vera"),
        rules=rules,
        options=Options(target=1000, **options),  # type: ignore[arg-type]
        first_dealer=0,
        start_scores=start,
    )
    return [
        {name: getattr(f, name) for name in ("place", "won", *COUNTS)} for f in seat_figures(replay(setup, list(hands)))
    ]


ON_BARREL = played(0, 100, (None, 10, 10))
"""From 850 Anna makes 100: 950, on the barrel at 880."""
BORIS_MAKES = played(1, 100, (10, None, 10))


def test_three_hands_on_the_barrel_without_a_win_is_a_fall() -> None:
    anna = figures((850, 0, 0), ON_BARREL, BORIS_MAKES, BORIS_MAKES, BORIS_MAKES)[0]
    assert (anna["barrel_on"], anna["barrel_fell"], anna["barrel_won"]) == (1, 1, 0)


def test_a_contract_missed_on_the_barrel_is_a_fall_too() -> None:
    anna = figures((850, 0, 0), ON_BARREL, played(0, 120, (None, 60, 60)))[0]
    assert (anna["barrel_on"], anna["barrel_fell"], anna["declared"], anna["made"]) == (1, 1, 2, 1)


def test_taking_120_from_the_barrel_is_a_win_from_it() -> None:
    anna = figures((850, 0, 0), ON_BARREL, played(0, 120, (None, 0, 0)))[0]
    assert (anna["barrel_on"], anna["barrel_won"], anna["barrel_fell"], anna["won"]) == (1, 1, 0, True)
    assert anna["bid_made_sum"] == 220 and anna["bid_made_max"] == 120 and anna["place"] == 1


def test_zeros_and_rospisats_are_counted_per_seat() -> None:
    anna, boris, vera = figures(
        (0, 0, 0),
        played(0, 100, (None, 0, 20)),
        HandRecord("forfeit", declarer=1, bid=100),
        played(2, 100, (0, 0, None)),
    )
    assert (anna["zeros"], boris["zeros"], vera["zeros"]) == (1, 2, 0)
    assert (boris["forfeits"], boris["declared"], boris["made"]) == (1, 1, 0)


def test_classics_barrel_is_won_by_a_made_bid_and_a_miss_on_it_is_no_fall() -> None:
    # RULES.md §7: classic's barrel win needs a made bid of 120+; a miss stays at 880 and
    # counts as a barrel hand, the third of them drops the seat: that is the fall.
    won = figures((850, 0, 0), ON_BARREL, played(0, 120, (None, 0, 0)), rules="classic")[0]
    assert (won["barrel_on"], won["barrel_won"], won["barrel_fell"], won["won"], won["made"], won["bid_made_max"]) == (
        1,
        1,
        0,
        True,
        2,
        120,
    )
    missed = figures((850, 0, 0), ON_BARREL, played(0, 140, (None, 60, 60)), BORIS_MAKES, BORIS_MAKES, rules="classic")[
        0
    ]
    assert (missed["barrel_on"], missed["barrel_fell"], missed["barrel_won"], missed["declared"], missed["made"]) == (
        1,
        1,
        0,
        2,
        1,
    )
    two_hands = figures((850, 0, 0), ON_BARREL, played(0, 140, (None, 60, 60)), BORIS_MAKES, rules="classic")[0]
    assert two_hands["barrel_fell"] == 0  # still on it after the miss and one more hand


def test_ggtables_bombs_are_counted_as_rospisats() -> None:
    # RULES.md §7: at GGTables a forfeit is a bomb (docs/glossary.md), the first per seat free.
    anna, boris, vera = figures(
        (0, 0, 0),
        HandRecord("forfeit", declarer=1, bid=100),
        HandRecord("forfeit", declarer=1, bid=110),
        HandRecord("forfeit", declarer=2, bid=100),
        rules="ggtables",
    )
    assert (boris["forfeits"], boris["declared"], boris["made"]) == (2, 2, 0)
    assert (vera["forfeits"], anna["forfeits"], anna["declared"]) == (1, 0, 0)


def test_polish_lock_wins_with_a_made_bid_and_takes_no_zero() -> None:
    # RULES.md §7: at 900..999 a polish seat is locked; a made bid makes it exactly the
    # target; a locked defender takes no zero (here with zeros counted, §11.1).
    boris_makes = played(1, 100, (0, None, 0))
    anna, boris, vera = figures(
        (890, 0, 0),
        played(1, 100, (10, None, 10)),
        boris_makes,
        played(0, 120, (None, 0, 0)),
        rules="polish",
        zeros="total",
    )
    assert (anna["zeros"], vera["zeros"], boris["zeros"]) == (0, 2, 1)  # Anna locked at 900
    assert (anna["won"], anna["place"], anna["declared"], anna["made"], anna["bid_made_max"]) == (True, 1, 1, 1, 120)
    assert (anna["barrel_on"], anna["barrel_fell"]) == (0, 0)  # polish has no barrel


def test_a_knock_off_is_a_fall_off_the_barrel() -> None:
    # RULES.md §11.3, §11.6: Boris gets on at 880 and knocks Anna off to 760: a fall.
    knocked = figures((850, 800, 0), ON_BARREL, played(2, 100, (0, 70, None)), barrel_knock_off=True)
    assert (knocked[0]["barrel_on"], knocked[0]["barrel_fell"], knocked[1]["barrel_on"]) == (1, 1, 1)
    stays = figures((850, 800, 0), ON_BARREL, played(2, 100, (0, 70, None)))
    assert (stays[0]["barrel_fell"], stays[1]["barrel_on"]) == (0, 1)  # no knock-off: both on


def test_a_seat_sent_off_in_a_clash_got_on_and_came_off() -> None:
    # RULES.md §11.13 "one_stays": Anna (declarer, 800 + 100) stays; Boris (860 + 30) goes to 760.
    hand = HandRecord("played", declarer=0, bid=100, points=(None, 30, 0), marriages=(("spades",), (), ()))
    anna, boris, _ = figures((800, 860, 0), hand, barrel_clash="one_stays")
    assert (anna["barrel_on"], anna["barrel_fell"]) == (1, 0)
    assert (boris["barrel_on"], boris["barrel_fell"], boris["barrel_won"]) == (1, 1, 0)


def test_a_third_fall_that_resets_to_0_is_one_fall_and_a_dump_is_none() -> None:
    anna_120, boris_makes = played(0, 120, (None, 0, 0)), played(1, 100, (10, None, 10))
    anna = figures(
        (850, 0, 0),
        ON_BARREL,
        boris_makes,
        anna_120,
        boris_makes,
        anna_120,
        boris_makes,
        barrel_hands=1,
        three_falls_reset=True,
    )[0]
    assert (anna["barrel_on"], anna["barrel_fell"], anna["barrel_won"]) == (3, 3, 0)
    dumped = figures((455, 0, 0), played(0, 100, (None, 10, 10)), dump_555="plus")[0]
    assert (dumped["barrel_fell"], dumped["made"]) == (0, 1)  # 555 → 0: no barrel in it


def test_a_redeal_is_declared_by_nobody() -> None:
    assert [f["declared"] for f in figures((0, 0, 0), HandRecord("redeal"))] == [0, 0, 0]


@pytest.mark.parametrize(
    ("scores", "winner", "expected"),
    [
        ([1000, 300, 300], 0, [1, 2, 2]),  # equal scores share a place
        ([1000, 1010, 200], 0, [1, 2, 3]),  # the winner first, whatever the scores
        ([500, 600, 700], None, [3, 2, 1]),
    ],
)
def test_places_put_the_winner_first_then_go_by_score(
    scores: list[int], winner: int | None, expected: list[int]
) -> None:
    assert places(scores, winner) == expected


def test_tichu_calls_count_per_player_and_double_victories_per_team() -> None:
    setup = Setup(
        players=("Anna", "Boris", "Vera", "Gleb"),
        rules="tichu",
        options=Options(target=1000),
        first_dealer=0,
        start_scores=(0, 0),
    )
    rounds = [
        TichuRound(calls=("tichu", "grand", None, None), first_out=0, card_points=(35, 65)),
        TichuRound(calls=(None, None, None, "tichu"), first_out=3, double_victory=True),
    ]
    anna, boris, vera, gleb = seat_figures(replay(setup, rounds))
    assert (anna.tichu_called, anna.tichu_made, boris.grand_called, boris.grand_made) == (1, 1, 1, 0)
    assert (gleb.tichu_made, gleb.double_victories, boris.double_victories, anna.double_victories) == (1, 1, 1, 0)
    # Anna & Vera 135, Boris & Gleb 165: partners share their team's place.
    assert (anna.place, vera.place, boris.place, gleb.place) == (2, 2, 1, 1)
    assert game_of("tichu") == "tichu" and game_of("polish") == "tysiacha"


def test_a_seats_lowest_score_is_its_start_or_lower_and_its_final_score_is_kept() -> None:
    setup = Setup(
        players=("Anna", "Boris", "Vera"),
        rules="squarescores",
        options=Options(target=1000),
        first_dealer=0,
        start_scores=(100, 0, 0),
    )
    # Anna takes 120 − 30 = 90 < 120: misses (100 → −20); then 120 − 10 = 110 ≥ 100: makes it
    # (−20 → 80). Boris 10 + 0, Vera 20 + 10; nobody else went below their start of 0.
    sheet = replay(setup, [played(0, 120, (None, 10, 20)), played(0, 100, (None, 0, 10))])
    assert [(s.score, s.lowest) for s in seat_scores(sheet)] == [(80, -20), (10, 0), (30, 0)]


def test_a_tichu_seat_has_its_teams_final_and_lowest_score() -> None:
    setup = Setup(
        players=("Anna", "Boris", "Vera", "Gleb"),
        rules="tichu",
        options=Options(target=1000),
        first_dealer=0,
        start_scores=(0, 0),
    )
    # Anna calls Tichu and Boris goes out first: Anna's team −100 + 30 = −70, the other 70 + 0.
    sheet = replay(setup, [TichuRound(calls=("tichu", None, None, None), first_out=1, card_points=(30, 70))])
    assert [(s.score, s.lowest) for s in seat_scores(sheet)] == [(-70, -70), (70, 0), (-70, -70), (70, 0)]
