"""RULES.md §4 zeros and Rospisat' (SquareScores), and the §9 zero and Rospisat' examples."""

from __future__ import annotations

import pytest

from scoresheet.rules import HandRecord, replay

from .helpers import REDEAL, events, forfeit, history, played, scores, setup

# Seat 2 defends with 0 card points; seat 1 declares 100 and takes 120 - 20 = 100: made.
ZERO_FOR_SEAT_2 = played(1, 100, [20, None, 0])


def test_third_zero_costs_120_and_is_deferred() -> None:
    # §9: a seat at 200 defends with 0 card points three times -> 200, 200, 80.
    s = setup(start=[0, 0, 200])
    sheet = replay(s, [ZERO_FOR_SEAT_2] * 3)
    assert [h.results[2].score for h in sheet.hands] == [200, 200, 80]
    assert [h.results[2].events for h in sheet.hands] == [("zero",), ("zero",), ("zero", "zero_penalty")]
    last = sheet.standings[2]
    # Deferred sheet: the -120 is entered as 0 and owed: 200 on the sheet, 120 owed, 200-120 = 80.
    assert (last.total, last.owed, last.zeros) == (200, 120, 3)
    assert sheet.hands[2].results[2].entry == 0


def test_every_third_zero_costs_again_the_sixth() -> None:
    # Six zeros: penalties at the 3rd and 6th -> 200 - 240 = -40.
    assert history(setup(start=[0, 0, 200]), [ZERO_FOR_SEAT_2] * 6, 2) == [200, 200, 80, 80, 80, -40]


def test_zero_with_a_marriage_is_still_a_zero() -> None:
    # Seat 2: 0 card points but hearts 100 -> +100, and it is a zero all the same.
    sheet = replay(setup(), [played(1, 100, [20, None, 0], {2: ["hearts"]})])
    assert scores(sheet)[2] == 100
    assert sheet.standings[2].zeros == 1


def test_two_card_points_round_to_zero_but_are_not_a_zero() -> None:
    sheet = replay(setup(), [played(1, 100, [20, None, 2])])
    assert scores(sheet)[2] == 0  # 2 rounds to 0 (step 5)
    assert sheet.standings[2].zeros == 0


@pytest.mark.parametrize(
    ("hands", "seats"),
    [
        # A declarer with 0 card points (defenders took all 120) gets no zero.
        ([played(1, 100, [60, None, 60])] * 3, 3),
        # Forfeits give nobody a zero.
        ([forfeit(1, 100)] * 3, 3),
        # Redeals give nobody a zero.
        ([REDEAL] * 3, 3),
    ],
)
def test_hands_that_never_give_zeros(hands: list[HandRecord], seats: int) -> None:
    sheet = replay(setup(seats=seats, start=[0, 500, 0]), hands)
    assert [s.zeros for s in sheet.standings] == [0] * seats


def test_sitter_out_gets_no_zero() -> None:
    # Four seats, dealer 0 sits out hand 1 (points None); seat 3 takes 0 -> one zero only there.
    sheet = replay(setup(seats=4), [played(1, 100, [None, None, 20, 0])])
    assert [s.zeros for s in sheet.standings] == [0, 0, 0, 1]


def test_a_hand_on_the_barrel_gives_no_zero() -> None:
    # Seat 2 starts at 800, defends with 100 -> 900 -> 880 on the barrel. Next hand it
    # defends with 0 on the barrel: ignored, no zero counted.
    s = setup(start=[0, 0, 800])
    sheet = replay(s, [played(1, 100, [0, None, 100]), played(1, 100, [20, None, 0])])
    assert sheet.standings[2].zeros == 0
    assert "zero" not in events(sheet, 2, 2)
    assert "barrel_ignored" in events(sheet, 2, 2)


def test_third_zero_penalty_is_not_multiplied_in_a_gold_set() -> None:
    # Gold set of 3 hands (min 120). Seat 2 takes 0 three times in gold: zero penalty 120,
    # not 240. Declarer rotates so each gold hand is legal: seat 1 bids 120, takes 100 + hearts.
    s = setup(start=[0, 0, 500], gold_set=True)
    hand = played(1, 120, [20, None, 0], {1: ["hearts"]})
    sheet = replay(s, [hand] * 3)
    assert all(h.gold for h in sheet.hands)
    assert scores(sheet)[2] == 500 - 120


@pytest.mark.parametrize("rules", ["polish", "classic", "ggtables", "tyzicha"])
def test_only_squarescores_counts_zeros(rules: str) -> None:
    # Same three hands; without zeros the seat just adds 0 three times.
    bid = 110 if rules == "tyzicha" else 100
    sheet = replay(setup(rules, start=[0, 0, 200]), [played(1, bid, [20, None, 0])] * 3)
    assert scores(sheet)[2] == 200
    assert sheet.standings[2].zeros == 0


def test_rospisat_three_times_costs_the_declarer_120_on_the_third() -> None:
    # §9: declarer at 300 forfeits three times; opponents +60 each time; declarer 300, 300, 180.
    s = setup(start=[300, 0, 0])
    sheet = replay(s, [forfeit(0, 100)] * 3)
    assert [h.results[0].score for h in sheet.hands] == [300, 300, 180]
    assert [h.results[1].score for h in sheet.hands] == [60, 120, 180]
    assert [h.results[2].score for h in sheet.hands] == [60, 120, 180]
    assert sheet.hands[2].results[0].events == ("forfeit", "forfeit_penalty")
    assert sheet.standings[0].forfeits == 3
    # Deferred: 300 on the sheet, 120 owed.
    assert (sheet.standings[0].total, sheet.standings[0].owed) == (300, 120)


def test_rospisat_sixth_costs_again() -> None:
    assert history(setup(start=[300, 0, 0]), [forfeit(0, 100)] * 6, 0) == [300, 300, 180, 180, 180, 60]


def test_zero_and_forfeit_counts_are_separate() -> None:
    # Seat 2: two zeros, then one forfeit -> no penalty (2 zeros, 1 forfeit, neither a third).
    s = setup(start=[0, 0, 300])
    sheet = replay(s, [ZERO_FOR_SEAT_2, ZERO_FOR_SEAT_2, forfeit(2, 100)])
    assert scores(sheet)[2] == 300
    assert (sheet.standings[2].zeros, sheet.standings[2].forfeits) == (2, 1)


def test_rospisat_opponents_only_in_the_hand_get_60_not_the_sitter_out() -> None:
    # Four seats, dealer 0 sits out; seat 1 forfeits: seats 2 and 3 +60, seat 0 nothing.
    sheet = replay(setup(seats=4), [forfeit(1, 100)])
    assert scores(sheet) == [0, 0, 60, 60]


def test_third_rospisat_penalty_is_not_multiplied_in_a_gold_set() -> None:
    # §4 "Count penalties (120) are never multiplied"; "+60 (× gold multiplier)".
    # Gold set of 3 hands; seat 0 (300) forfeits 120 three times: nobody made a bid, so the set
    # repeats and all three are gold. Declarer: 300, 300, 300 - 120 = 180 (not 300 - 240).
    # Opponents: +60*2 = +120 each hand: 120, 240, 360.
    sheet = replay(setup(start=[300, 0, 0], gold_set=True), [forfeit(0, 120)] * 3)
    assert all(h.gold for h in sheet.hands)
    assert [h.results[0].score for h in sheet.hands] == [300, 300, 180]
    assert [h.results[1].score for h in sheet.hands] == [120, 240, 360]
    assert [h.results[2].score for h in sheet.hands] == [120, 240, 360]


def test_a_zero_in_the_hand_that_puts_a_seat_on_the_barrel_counts() -> None:
    # §4: only hands played *on* the barrel give no zero; the hand that puts it there is not
    # one. Seat 2 (800) defends with 0 card points + hearts 100: 900 -> 880, and a zero.
    sheet = replay(setup(start=[0, 0, 800]), [played(1, 100, [20, None, 0], {2: ["hearts"]})])
    assert scores(sheet)[2] == 880 and sheet.standings[2].barrel
    assert sheet.standings[2].zeros == 1
    assert events(sheet, 1, 2) == ("zero", "barrel_on")


@pytest.mark.parametrize(("zeros", "warned"), [(1, False), (2, True), (3, False), (5, True)])
def test_standings_warn_when_the_next_zero_is_a_third_one(zeros: int, warned: bool) -> None:
    # §4: the 3rd, 6th … zero costs 120, so after the 2nd and the 5th the next one costs.
    sheet = replay(setup(), [ZERO_FOR_SEAT_2] * zeros)
    assert sheet.standings[2].next_zero_costs == (120 if warned else 0)


@pytest.mark.parametrize(("rules", "warned"), [("squarescores", True), ("classic", False)])
def test_standings_warn_when_the_next_rospisat_costs_120_only_where_it_does(rules: str, warned: bool) -> None:
    # §4/§7: only SquareScores makes the 3rd Rospisat' cost 120; two forfeits by seat 0.
    sheet = replay(setup(rules=rules), [forfeit(0, 100), REDEAL, forfeit(0, 100)])
    assert sheet.standings[0].forfeits == 2
    assert sheet.standings[0].next_forfeit_costs is warned
