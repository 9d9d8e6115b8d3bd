"""RULES.md §5 (winning and tie order) and §8 (the sheet, deferred and signed)."""

from __future__ import annotations

import pytest

from scoresheet.rules import Refused, replay

from .helpers import events, played, scores, setup


def test_highest_score_wins_when_several_reach_the_target() -> None:
    # GGTables (no endgame). Dealer 0. Declarer 1 at 900 bids 100, takes 70 + hearts = 170:
    # 1000. Seat 0 at 960 defends with 50: 1010. Seat 2: 950 + 0. Seat 0 (1010) wins.
    s = setup("ggtables", start=[960, 900, 950])
    sheet = replay(s, [played(1, 100, [50, None, 0], {1: ["hearts"]})])
    assert scores(sheet) == [1010, 1000, 950]
    assert sheet.winner == 0
    assert "win" in events(sheet, 1, 0) and "win" not in events(sheet, 1, 1)


def test_on_equal_scores_the_declarer_wins() -> None:
    # Dealer 2: bidding order 0, 1, 2, so seat 0 would come first; but seat 1 declared.
    # Declarer 1: 900 + 100 = 1000; seat 0: 950 + 50 = 1000.
    s = setup("ggtables", start=[950, 900, 0], dealer=2)
    sheet = replay(s, [played(1, 100, [50, None, 0], {1: ["hearts"]})])
    assert scores(sheet)[:2] == [1000, 1000]
    assert sheet.winner == 1


@pytest.mark.parametrize(("dealer", "winner"), [(0, 2), (1, 2), (2, 0)])
def test_on_equal_scores_without_the_declarer_the_earlier_in_bidding_order_wins(dealer: int, winner: int) -> None:
    # Seats 0 and 2 at 950 defend with 50 each: both 1000. Declarer 1 takes 20: missed.
    # Bidding order from the dealer's left: dealer 0 -> 1,2,0; dealer 1 -> 2,0,1; dealer 2 -> 0,1,2.
    s = setup("ggtables", start=[950, 0, 950], dealer=dealer)
    sheet = replay(s, [played(1, 100, [50, None, 50])])
    assert scores(sheet) == [1000, -100, 1000]
    assert sheet.winner == winner


def test_a_finished_match_has_no_next_deal_and_refuses_more_hands() -> None:
    s = setup(start=[0, 870, 0])
    win = played(1, 130, [10, None, 10], {1: ["hearts"]})  # 870 + 130 = 1000
    sheet = replay(s, [win])
    assert (sheet.status, sheet.winner, sheet.next) == ("finished", 1, None)
    with pytest.raises(Refused) as err:
        replay(s, [win, played(1, 100, [10, None, 10])])
    assert err.value.hand == 2
    assert "over" in err.value.message and "B" in err.value.message


def test_an_unfinished_match_is_in_progress() -> None:
    sheet = replay(setup(), [played(1, 100, [10, None, 10])])
    assert (sheet.status, sheet.winner) == ("in_progress", None)
    assert sheet.next is not None and sheet.next.hand == 2


def test_barrel_win_scores_exactly_the_target_and_ends_the_match() -> None:
    # Seat 0 at 800 -> 880 (barrel); then declares 100, takes 80 + hearts 100 = 180 >= 120.
    hands = [played(1, 100, [100, None, 5]), played(0, 100, [None, 20, 20], {0: ["hearts"]})]
    sheet = replay(setup(start=[800, 0, 0]), hands)
    assert scores(sheet)[0] == 1000 and sheet.winner == 0 and sheet.next is None


def test_editing_an_earlier_hand_can_un_finish_the_match() -> None:
    # §5 "every later hand is recomputed from the records, which may un-finish it".
    # Seat 1 (770) defends with 100: 870; then declares 130 and takes 100 + hearts: 1000, wins.
    # With hand 1 edited so seat 1 takes 10 (-> 780), the same hand 2 gives 910 -> 880: barrel.
    s = setup(start=[0, 770, 0])
    win = played(1, 130, [10, None, 10], {1: ["hearts"]})
    before = replay(s, [played(0, 100, [None, 100, 0]), win])
    assert (before.status, before.winner, scores(before)[1]) == ("finished", 1, 1000)
    after = replay(s, [played(0, 100, [None, 10, 0]), win])
    assert (after.status, after.winner, scores(after)[1]) == ("in_progress", None, 880)
    assert after.next is not None


# -- §8 the sheet ------------------------------------------------------------------------------

# Seat 1's true changes: -100 (missed), +150 (made 150), -120 (missed), +40 (defends 40).
HANDS = [
    played(1, 100, [40, None, 40]),  # took 40 < 100: -100
    played(1, 150, [10, None, 10], {1: ["hearts"]}),  # took 200 >= 150: +150
    played(1, 120, [40, None, 40]),  # took 40 < 120: -120
    played(0, 100, [None, 40, 0], {0: ["hearts"]}),  # seat 1 defends with 40: +40
]


def test_deferred_sheet_enters_losses_as_zero_and_owes_them() -> None:
    sheet = replay(setup(start=[0, 300, 0]), HANDS)
    rows = [(r.delta, r.entry, r.owed, r.total, r.score) for r in (h.results[1] for h in sheet.hands)]
    assert rows == [
        (-100, 0, 100, 300, 200),  # d < 0: entry 0, owed 100
        (150, 50, 0, 350, 350),  # pay min(150, 100) = 100: entry 50, owed 0
        (-120, 0, 120, 350, 230),  # owed 120
        (40, 0, 80, 350, 270),  # pay 40: entry 0, owed 80
    ]
    for h in sheet.hands:
        for r in h.results:
            assert r.entry >= 0 and r.total - r.owed == r.score


def test_signed_sheet_shows_plain_signed_changes() -> None:
    sheet = replay(setup(start=[0, 300, 0], sheet_style="signed"), HANDS)
    rows = [(r.entry, r.owed, r.total) for r in (h.results[1] for h in sheet.hands)]
    assert rows == [(-100, 0, 200), (150, 0, 350), (-120, 0, 230), (40, 0, 270)]


def test_rules_run_on_the_true_score_not_the_sheet_total() -> None:
    # Seat 0: sheet 850 with 100 owed, true score 750. Defending with 100 gives 850 (not the
    # barrel, which the sheet total 850 + 100 - pay would suggest): pays the 100 owed.
    s = setup(start=[850, 0, 0])
    hands = [
        played(0, 100, [None, 60, 0]),  # seat 0 took 60 < 100: 750, owed 100
        played(1, 100, [100, None, 0]),
    ]  # seat 0 defends 100: 850
    sheet = replay(s, hands)
    r = sheet.hands[1].results[0]
    assert (r.score, r.barrel, r.entry, r.owed, r.total) == (850, False, 0, 0, 850)


def test_computed_results_cannot_be_changed() -> None:
    # One replay's results may be shared by the web's cache: they are named tuples, read-only.
    hand = replay(setup(), [played(1, 100, [10, None, 10])]).hands[0]
    with pytest.raises(AttributeError):
        hand.results[0].score = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        hand.made = False  # type: ignore[misc]
    assert hand.results[1].score == 100 and hand.made
