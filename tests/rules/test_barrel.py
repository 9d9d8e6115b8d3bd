"""RULES.md §4 the barrel (SquareScores and Classic), with other targets (§6) and §9's example."""

from __future__ import annotations

import pytest

from scoresheet.rules import HandRecord, replay

from .helpers import REDEAL, events, forfeit, history, played, scores, setup

# Seat 0 defends and takes 100 card points; seat 1 declares 100 and takes 15: missed; seat 2: 5.
SEAT_0_TAKES_100 = played(1, 100, [100, None, 5])
# Seat 0 defends and takes 20; seat 2 takes 20; seat 1 takes 80 against 100: missed.
SEAT_0_DEFENDS = played(1, 100, [20, None, 20])


@pytest.mark.parametrize(
    ("start", "gain", "score", "barrel"),
    [
        (790, 85, 875, False),  # 875 < 880: not yet
        (780, 100, 880, True),  # exactly 880: on the barrel
        (790, 90, 880, True),  # 880
        (800, 100, 880, True),  # 900 -> 880
        (790, 205, 880, True),  # 105 cards + hearts 100: 995 -> 880
    ],
)
def test_a_score_reaching_880_to_999_becomes_exactly_880_on_the_barrel(
    start: int, gain: int, score: int, barrel: bool
) -> None:
    # Seat 0 defends; `gain` = card points (a multiple of 5, so unrounded) + a marriage if > 120.
    marriages = {0: ["hearts"]} if gain > 120 else {}
    cards = gain - 100 if gain > 120 else gain
    sheet = replay(setup(start=[start, 0, 0]), [played(1, 300, [cards, None, 0], marriages)])
    assert scores(sheet)[0] == score
    assert sheet.standings[0].barrel is barrel
    assert sheet.standings[0].barrel_hands == 0
    assert ("barrel_on" in events(sheet, 1, 0)) is barrel


def test_declarer_reaching_the_barrel_range_is_put_on_880() -> None:
    # Seat 1 at 800 bids 150 and makes it (took 120 - 20 - 20 = 80 + hearts 100 = 180): 950 -> 880.
    sheet = replay(setup(start=[0, 800, 0]), [played(1, 150, [20, None, 20], {1: ["hearts"]})])
    assert scores(sheet)[1] == 880 and sheet.standings[1].barrel


@pytest.mark.parametrize(
    ("seat", "hand"),
    [
        # Declarer 870 bids 130 and makes it (took 100 + hearts): 870 + 130 = 1000 -> wins.
        (1, played(1, 130, [10, None, 10], {1: ["hearts"]})),
        # Defender 800 takes 100 cards + hearts 100 = 200 -> 1000 -> wins (never on the barrel).
        (0, played(1, 100, [100, None, 0], {0: ["hearts"]})),
    ],
)
def test_jumping_from_below_880_straight_to_1000_wins(seat: int, hand: HandRecord) -> None:
    start = [800, 870, 0]
    sheet = replay(setup(start=start), [hand])
    assert scores(sheet)[seat] == 1000
    assert sheet.winner == seat and sheet.status == "finished"
    assert "barrel_on" not in events(sheet, 1, seat)


def test_barrel_example_of_section_9_three_hands_defending_then_760() -> None:
    # §9: a seat at 800 defends and takes 100 -> 880, on the barrel. It defends the next three
    # hands: its points are ignored; after the third it is at 760, owed 120 on the sheet.
    sheet = replay(setup(start=[800, 0, 0]), [SEAT_0_TAKES_100] + [SEAT_0_TAKES_100] * 3)
    assert [h.results[0].score for h in sheet.hands] == [880, 880, 880, 760]
    assert [h.results[0].events for h in sheet.hands] == [
        ("barrel_on",),
        ("barrel_ignored",),
        ("barrel_ignored",),
        ("barrel_ignored", "barrel_fall"),
    ]
    seat = sheet.standings[0]
    # Sheet: 800 + entry 80 (the 900 -> 880 gain) = 880; the fall of 120 is owed: 880 - 120 = 760.
    assert (seat.score, seat.total, seat.owed, seat.barrel) == (760, 880, 120, False)


def test_barrel_hands_are_counted_one_per_hand_in() -> None:
    sheet = replay(setup(start=[800, 0, 0]), [SEAT_0_TAKES_100, SEAT_0_TAKES_100])
    assert (sheet.standings[0].barrel, sheet.standings[0].barrel_hands) == (True, 1)
    # §4: three hands to get off it; one played, two left. Seats off the barrel: none left.
    assert sheet.standings[0].barrel_hands_left == 2
    assert sheet.standings[1].barrel_hands_left == 0


def test_sitting_out_and_redeals_do_not_count_as_barrel_hands() -> None:
    # Four seats, first dealer 3: hand 1 dealer 3, seat 0 (800) defends with 100 -> 880.
    # Hand 2: dealer 0 -> seat 0 sits out (talon bonus would be ignored): not counted.
    # A redeal (dealer 1 stays): not counted. Hands with dealer 1, 2: counted (1, 2).
    # Then dealer 3 hand: third barrel hand -> 760.
    s = setup(seats=4, start=[800, 0, 0, 0], dealer=3)
    hands = [
        played(1, 100, [100, None, 0, None]),  # dealer 3 sits out -> 880
        played(1, 100, [None, None, 10, 10]),  # dealer 0: seat 0 sits out
        REDEAL,  # dealer 1 stays
        played(2, 100, [10, None, None, 10]),  # dealer 1 sits out: barrel hand 1
        played(1, 100, [10, None, None, 10]),  # dealer 2: barrel hand 2
        REDEAL,  # dealer 3 stays
        played(1, 100, [10, None, 10, None]),  # dealer 3: barrel hand 3 -> 760
    ]
    sheet = replay(s, hands)
    dealers = [h.dealer for h in sheet.hands]
    assert dealers == [3, 0, 1, 1, 2, 3, 3]
    assert [h.results[0].score for h in sheet.hands] == [880, 880, 880, 880, 880, 880, 760]
    assert [sheet.hands[i].results[0].barrel for i in range(7)] == [True] * 6 + [False]


def test_on_the_barrel_a_forfeit_opponent_gets_no_60_and_it_counts() -> None:
    # Seat 0 on the barrel; seat 1 forfeits three times (the 3rd costs seat 1 120):
    # seat 0 gets nothing each time and falls after the third.
    sheet = replay(setup(start=[800, 0, 0]), [SEAT_0_TAKES_100] + [forfeit(1, 100)] * 3)
    assert [h.results[0].score for h in sheet.hands] == [880, 880, 880, 760]
    assert [h.results[2].score for h in sheet.hands] == [5, 65, 125, 185]  # 5 then +60 each


@pytest.mark.parametrize(
    ("rules", "hand", "score", "on_barrel"),
    [
        # Squarescores: made and took >= 120 wins outright: 80 cards + hearts = 180 >= 120.
        ("squarescores", played(0, 100, [None, 20, 20], {0: ["hearts"]}), 1000, False),
        # Squarescores: made with took 100 >= bid 100 but < 120: stays at 880.
        ("squarescores", played(0, 100, [None, 10, 10]), 880, True),
        # Classic: the same made bid 100 with took 180 does NOT win (needs a bid >= 120).
        ("classic", played(0, 100, [None, 20, 20], {0: ["hearts"]}), 880, True),
        # Classic: made bid 120 wins.
        ("classic", played(0, 120, [None, 20, 20], {0: ["hearts"]}), 1000, False),
        # Missed on the barrel: 880 - bid, off: 880 - 150 = 730 (took 80 < 150).
        ("squarescores", played(0, 150, [None, 20, 20]), 730, False),
        # §7 classic: a miss on the barrel costs nothing; it stays at 880 (a barrel hand).
        ("classic", played(0, 150, [None, 20, 20]), 880, True),
        # §4 rule 3 "made and took >= 120": the boundary itself. Seat 0 declares 100:
        # 120 - 20 - 20 = 80 cards + spades 40 = 120 >= 120: wins, exactly the target.
        ("squarescores", played(0, 100, [None, 20, 20], {0: ["spades"]}), 1000, False),
        # 120 - 21 - 20 = 79 + spades 40 = 119 >= 100: made, but 119 < 120: stays at 880.
        ("squarescores", played(0, 100, [None, 21, 20], {0: ["spades"]}), 880, True),
        # §7 classic "a made bid of 120 or more": bid 115 made (took 100 + hearts = 200) stays.
        ("classic", played(0, 115, [None, 10, 10], {0: ["hearts"]}), 880, True),
    ],
)
def test_declarer_on_the_barrel(rules: str, hand: HandRecord, score: int, on_barrel: bool) -> None:
    # Hand 1 puts seat 0 on the barrel (800 + 100 -> 880); hand 2 seat 0 declares.
    sheet = replay(setup(rules, start=[800, 0, 0]), [SEAT_0_TAKES_100, hand])
    assert scores(sheet)[0] == score
    assert sheet.standings[0].barrel is on_barrel
    assert (sheet.winner == 0) is (score == 1000)


def test_missed_on_the_barrel_in_a_gold_set_is_880_minus_twice_the_bid() -> None:
    # Gold set of 3 hands. Hand 1 (gold): seat 0 at 800 defends and takes 50 x2 = 100 -> 880.
    # Hand 2 (gold, min 120): seat 0 bids 150 and takes 80: missed, 880 - 150*2 = 580.
    s = setup(start=[800, 0, 0], gold_set=True)
    hands = [played(1, 120, [50, None, 0], {1: ["hearts"]}), played(0, 150, [None, 20, 20])]
    sheet = replay(s, hands)
    assert [h.results[0].score for h in sheet.hands] == [880, 580]
    assert "barrel_off" in events(sheet, 2, 0)


def test_made_but_not_enough_three_times_falls_to_760() -> None:
    # Squarescores: took 100 >= bid 100 but < 120 stays; the third such hand is the
    # third barrel hand.
    stay = played(0, 100, [None, 10, 10])
    assert history(setup(start=[800, 0, 0]), [SEAT_0_TAKES_100] + [stay] * 3, 0) == [880, 880, 880, 760]


def test_several_seats_may_be_on_the_barrel_at_once() -> None:
    # Seats 0 and 2 at 800 both defend and take 100 / 20 + diamonds 80 -> both 880.
    sheet = replay(setup(start=[800, 0, 800]), [played(1, 100, [100, None, 20], {2: ["diamonds"]})])
    assert scores(sheet) == [880, -100, 880]
    assert [s.barrel for s in sheet.standings] == [True, False, True]


@pytest.mark.parametrize(
    ("rules", "target", "barrel", "fall"),
    [
        ("squarescores", 2000, 1880, 1760),  # T - 120, T - 240
        ("squarescores", 3000, 2880, 2760),
        ("classic", 2000, 1880, 1760),
    ],
)
def test_other_targets_move_the_barrel(rules: str, target: int, barrel: int, fall: int) -> None:
    # Seat 0 starts at barrel - 20 and defends with 100 -> barrel + 80 -> exactly the barrel;
    # three more hands defending -> falls to T - 240.
    start = barrel - 20
    sheet = replay(setup(rules, start=[start, 0, 0], target=target), [SEAT_0_TAKES_100] + [SEAT_0_DEFENDS] * 3)
    assert [h.results[0].score for h in sheet.hands] == [barrel, barrel, barrel, fall]
    # and 880..999 is an ordinary score under these targets: 800 + 100 = 900 stays 900.
    plain = replay(setup(rules, start=[800, 0, 0], target=target), [SEAT_0_TAKES_100])
    assert scores(plain)[0] == 900


def test_squarescores_declarer_on_the_barrel_cannot_forfeit() -> None:
    from scoresheet.rules import Refused

    with pytest.raises(Refused) as err:
        replay(setup(start=[800, 0, 0]), [SEAT_0_TAKES_100, forfeit(0, 100)])
    assert err.value.field == "kind" and err.value.hand == 2
    assert "barrel" in err.value.message


def test_classic_barrel_forfeit_counts_as_missed() -> None:
    # §7: where a forfeit costs the bid, a declarer on the barrel who forfeits is treated as
    # having missed: in classic it stays at 880 and the hand counts as a barrel hand.
    sheet = replay(setup("classic", start=[800, 0, 0]), [SEAT_0_TAKES_100, forfeit(0, 120)])
    assert scores(sheet)[0] == 880
    assert sheet.standings[0].barrel and sheet.standings[0].barrel_hands == 1
    assert scores(sheet)[1:] == [-100 + 60, 5 + 60]


def test_classic_barrel_forfeit_costing_the_bid_goes_off() -> None:
    # §7 with barrel_miss "costs_bid": 880 - bid, off the barrel.
    s = setup("classic", start=[800, 0, 0], barrel_miss="costs_bid")
    sheet = replay(s, [SEAT_0_TAKES_100, forfeit(0, 120)])
    assert scores(sheet)[0] == 880 - 120
    assert not sheet.standings[0].barrel


@pytest.mark.parametrize(
    ("rules", "target", "hand", "score", "winner"),
    [
        # §4 "for another target T the barrel is at T-120": seat 0 at T-220 defends with 100
        # -> T-120, on the barrel; then declares 100 and takes 80 + hearts = 180 >= 120:
        # the barrel win makes its score the target itself (not 1000).
        ("squarescores", 2000, played(0, 100, [None, 20, 20], {0: ["hearts"]}), 2000, 0),
        ("squarescores", 3000, played(0, 100, [None, 20, 20], {0: ["hearts"]}), 3000, 0),
        ("classic", 2000, played(0, 120, [None, 20, 20], {0: ["hearts"]}), 2000, 0),
        # Missed on a moved barrel: (T-120) - bid = 1880 - 150 = 1730 (took 80 < 150), off.
        ("squarescores", 2000, played(0, 150, [None, 20, 20]), 1730, None),
    ],
)
def test_barrel_under_another_target_wins_with_the_target_and_misses_from_t_minus_120(
    rules: str, target: int, hand: HandRecord, score: int, winner: int | None
) -> None:
    s = setup(rules, start=[target - 220, 0, 0], target=target)
    sheet = replay(s, [SEAT_0_TAKES_100, hand])
    assert sheet.hands[0].results[0].score == target - 120
    assert scores(sheet)[0] == score
    assert sheet.winner == winner
    assert not sheet.standings[0].barrel


# Seat 2 defends with 0 card points; seat 1 declares 100 and takes 120 - 20 = 100: made.
ZERO_FOR_SEAT_2 = played(1, 100, [20, None, 0])


@pytest.mark.parametrize(
    ("start", "suits", "score", "on_barrel"),
    [
        # §4 "Order inside a hand": add the points, subtract the count penalty, THEN barrel
        # rule 1. Third zero with hearts 100: 850 + 100 - 120 = 830, below 880: not on the
        # barrel (rule 1 first would give 950 -> 880, then 760).
        (850, ["hearts"], 830, False),
        # Third zero with hearts + diamonds + clubs = 240: 800 + 240 - 120 = 920 -> 880, on the
        # barrel (rule 1 first would see 1040, a win).
        (800, ["hearts", "diamonds", "clubs"], 880, True),
    ],
)
def test_order_inside_a_hand_count_penalty_before_barrel_rule_1(
    start: int, suits: list[str], score: int, on_barrel: bool
) -> None:
    third = played(1, 100, [20, None, 0], {2: suits})  # seat 1 still takes 100: made
    sheet = replay(setup(start=[0, 0, start]), [ZERO_FOR_SEAT_2, ZERO_FOR_SEAT_2, third])
    assert [h.results[2].score for h in sheet.hands] == [start, start, score]
    assert "zero_penalty" in events(sheet, 3, 2)
    assert sheet.standings[2].barrel is on_barrel
    assert sheet.winner is None


def test_classic_barrel_forfeit_in_a_gold_set_costs_the_bid_times_gold() -> None:
    # §7 "treated as having missed: 880 - bid·m"; §3 the gold multiplier applies to a forfeit.
    # Hand 1 (gold, min 120): seat 1 bids 120, takes 70 + hearts = 170: made; seat 0 (800)
    # defends with 50 x 2 = 100 -> 900 -> 880, on the barrel.
    # Hand 2 (gold): seat 0 forfeits 120: 880 - 120*2 = 640, off; opponents +60*2 = 120 each:
    # seat 1 240 + 120 = 360, seat 2 0 + 120 = 120.
    s = setup("classic", start=[800, 0, 0], gold_set=True, barrel_miss="costs_bid")
    hands = [played(1, 120, [50, None, 0], {1: ["hearts"]}), forfeit(0, 120)]
    sheet = replay(s, hands)
    assert [h.gold for h in sheet.hands] == [True, True]
    assert scores(sheet) == [640, 360, 120]
    assert not sheet.standings[0].barrel
    assert "barrel_off" in events(sheet, 2, 0)


def test_several_seats_win_in_one_hand_a_barrel_win_can_be_outscored() -> None:
    # §5 "If several seats reach it in the same hand: the highest score wins" — a barrel win
    # (score = target) is one of them. Hand 1: seat 0 (800) takes 100 -> 880, barrel; seat 2
    # (870) takes 5 -> 875. Hand 2: seat 0 declares 100 and takes 10 + hearts + spades = 150
    # >= 120: wins from the barrel at 1000. Seat 2 takes 110 + diamonds 80 = 190: 875 + 190 =
    # 1065, straight over the barrel (rule 2). 1065 > 1000: seat 2 wins.
    s = setup(start=[800, 0, 870])
    hand = played(0, 100, [10, 0, 110], {0: ["hearts", "spades"], 2: ["diamonds"]})
    sheet = replay(s, [SEAT_0_TAKES_100, hand])
    assert scores(sheet) == [1000, -100, 1065]
    assert sheet.winner == 2
