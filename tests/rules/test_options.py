"""RULES.md §6: four at the table, gold set, blind bids, sitter bonus, start scores, dealer."""

from __future__ import annotations

import pytest

from scoresheet.rules import Refused, check_setup, replay
from scoresheet.rules.records import SheetStyle

from .helpers import REDEAL, events, forfeit, played, scores, setup

GOLD_MADE = played(1, 120, [10, None, 10], {1: ["hearts"]})  # 100 + hearts = 200 >= 120
GOLD_MISSED = played(1, 120, [10, None, 10])  # took 100 < 120


def test_gold_set_is_the_first_n_hands_with_min_bid_120_and_double_points() -> None:
    sheet = replay(setup(gold_set=True), [GOLD_MADE] * 3 + [played(1, 100, [10, None, 10])])
    assert [h.gold for h in sheet.hands] == [True, True, True, False]
    # Gold: +120*2 = 240 three times = 720; then +100 (took 100 >= 100): 820.
    assert scores(sheet)[1] == 820
    assert sheet.next is not None and not sheet.next.gold and sheet.next.min_bid == 100


def test_gold_set_refuses_a_bid_below_120() -> None:
    with pytest.raises(Refused) as err:
        replay(setup(gold_set=True), [played(1, 115, [10, None, 10])])
    assert err.value.field == "bid"
    assert "gold set" in err.value.message and "120" in err.value.message


def test_next_deal_shows_the_gold_minimum() -> None:
    sheet = replay(setup(gold_set=True), [])
    assert sheet.next is not None and sheet.next.gold and sheet.next.min_bid == 120


def test_redeals_do_not_count_towards_the_gold_set() -> None:
    hands = [REDEAL, GOLD_MADE, REDEAL, GOLD_MADE, GOLD_MADE, GOLD_MADE]
    sheet = replay(setup(gold_set=True), hands)
    # Three non-redeal hands (2, 4, 5) make the set; hand 6 is the first ordinary one.
    assert [h.gold for h in sheet.hands] == [True, True, True, True, True, False]


def test_gold_set_repeats_when_nobody_made_a_bid() -> None:
    # Set 1: three misses (-240 each). Set 2 (hands 4-6): one made. Hand 7: ordinary.
    hands = [GOLD_MISSED] * 3 + [GOLD_MISSED, GOLD_MADE, GOLD_MISSED, GOLD_MISSED]
    sheet = replay(setup(gold_set=True, start=[0, 500, 0]), hands)
    assert [h.gold for h in sheet.hands] == [True] * 6 + [False]
    # Seat 1: 500 - 240*3 = -220; -240 -> -460; +240 -> -220; -240 -> -460; hand 7 bid 120 x1: -580.
    assert [h.results[1].score for h in sheet.hands] == [260, 20, -220, -460, -220, -460, -580]


def test_a_forfeit_counts_as_a_gold_hand_and_as_not_made() -> None:
    hands = [forfeit(1, 120), forfeit(2, 120), forfeit(0, 120), GOLD_MADE]
    sheet = replay(setup(gold_set=True), hands)
    # Forfeits fill set 1 without a made bid -> set 2 starts at hand 4.
    assert [h.gold for h in sheet.hands] == [True, True, True, True]
    assert sheet.next is not None and sheet.next.gold  # set 2 has two hands left


def test_gold_set_with_four_seats_has_four_hands() -> None:
    hands = [
        played(1, 120, [None, None, 10, 10], {1: ["hearts"]}),  # dealer 0 out
        played(2, 120, [10, None, None, 10], {2: ["hearts"]}),  # dealer 1 out
        played(1, 120, [10, None, None, 10], {1: ["hearts"]}),  # dealer 2 out
        played(1, 120, [10, None, 10, None], {1: ["hearts"]}),  # dealer 3 out
        played(1, 100, [None, None, 10, 10]),
    ]  # dealer 0 out
    sheet = replay(setup(seats=4, gold_set=True), hands)
    assert [h.gold for h in sheet.hands] == [True, True, True, True, False]


def test_blind_flag_is_refused_without_the_option() -> None:
    with pytest.raises(Refused) as err:
        replay(setup(), [played(1, 100, [10, None, 10], blind=True)])
    assert err.value.field == "blind"
    assert err.value.message == "This table does not play blind bids."


# -- four at the table and the sitter bonus ---------------------------------------------------


def test_with_four_seats_the_dealer_sits_out_and_deal_passes_on() -> None:
    hands = [played(1, 100, [None, None, 10, 10]), played(2, 100, [10, None, None, 10])]
    sheet = replay(setup(seats=4), hands)
    assert [(h.dealer, h.sitting_out) for h in sheet.hands] == [(0, 0), (1, 1)]
    assert events(sheet, 1, 0) == ("sitting_out",)
    assert sheet.next is not None
    assert (sheet.next.dealer, sheet.next.first_bidder, sheet.next.sitting_out) == (2, 3, 2)


def test_sitter_bonus_gives_the_sitter_out_the_talon_points() -> None:
    s = setup(seats=4, sitter_bonus=True)
    sheet = replay(s, [played(1, 100, [None, None, 10, 10], sitter_points=25)])
    # Seat 0 sits out: +25; seat 1 took 100: +100; seats 2, 3: 10 each.
    assert scores(sheet) == [25, 100, 10, 10]


def test_sitter_on_the_barrel_gets_no_bonus_and_no_barrel_hand() -> None:
    # Dealer 3 first: seat 0 at 800 defends with 100 -> 880. Hand 2: seat 0 deals and sits out
    # with a bonus of 50: ignored, not a barrel hand.
    s = setup(seats=4, sitter_bonus=True, start=[800, 0, 0, 0], dealer=3)
    hands = [played(1, 100, [100, None, 0, None]), played(1, 100, [None, None, 10, 10], sitter_points=50)]
    sheet = replay(s, hands)
    assert scores(sheet)[0] == 880
    assert sheet.standings[0].barrel_hands == 0
    assert "barrel_ignored" in events(sheet, 2, 0)


def test_locked_sitter_gets_no_bonus() -> None:
    s = setup("polish", seats=4, sitter_bonus=True, start=[950, 0, 0, 0])
    sheet = replay(s, [played(1, 100, [None, None, 10, 10], sitter_points=50)])
    assert scores(sheet)[0] == 950


def test_sitter_bonus_is_the_number_the_table_entered_not_multiplied_in_gold() -> None:
    # §6 "the table enters that number"; §3's multiplier is for the declarer's, defenders' and
    # forfeit points. Gold hand 1, dealer 0 sits out with a bonus of 30: +30 (not 60).
    # Seat 1 bids 120, takes 100 + hearts = 200: +240; seats 2, 3: 10*2 = 20 each.
    s = setup(seats=4, gold_set=True, sitter_bonus=True)
    sheet = replay(s, [played(1, 120, [None, None, 10, 10], {1: ["hearts"]}, sitter_points=30)])
    assert sheet.hands[0].gold and sheet.hands[0].multiplier == 2
    assert scores(sheet) == [30, 240, 20, 20]


@pytest.mark.parametrize(
    ("start", "bonus", "score", "on_barrel", "winner"),
    [
        # §4 rule 1 holds for any hand that takes a seat into 880..999, the sitter's bonus too:
        # 800 + 100 = 900 -> 880, on the barrel.
        (800, 100, 880, True, None),
        # Rule 2 / §5: 870 + 130 = 1000 straight over the barrel reaches the target.
        (870, 130, 1000, False, 0),
    ],
)
def test_sitter_bonus_goes_through_the_barrel_rules(
    start: int, bonus: int, score: int, on_barrel: bool, winner: int | None
) -> None:
    s = setup(seats=4, sitter_bonus=True, start=[start, 0, 0, 0])
    sheet = replay(s, [played(1, 100, [None, None, 10, 10], sitter_points=bonus)])
    assert scores(sheet)[0] == score
    assert sheet.standings[0].barrel is on_barrel
    assert sheet.winner == winner


@pytest.mark.parametrize(
    ("rules", "seats", "flags", "sitter_points", "field"),
    [
        ("squarescores", 4, {}, 20, "sitter_points"),  # option off
        ("polish", 4, {"sitter_bonus": True}, 25, "sitter_points"),  # not a multiple of 10
        ("squarescores", 4, {"sitter_bonus": True}, -5, "sitter_points"),  # below 0
        # Engine's bound (RULES.md gives none): at most 400, the highest bid.
        ("squarescores", 4, {"sitter_bonus": True}, 405, "sitter_points"),
    ],
)
def test_sitter_bonus_refusals(rules: str, seats: int, flags: dict[str, bool], sitter_points: int, field: str) -> None:
    with pytest.raises(Refused) as err:
        replay(setup(rules, seats=seats, **flags), [played(1, 100, [None, None, 10, 10], sitter_points=sitter_points)])
    assert err.value.field == field


def test_sitter_bonus_needs_four_seats() -> None:
    with pytest.raises(Refused) as err:
        check_setup(setup(seats=3, sitter_bonus=True))
    assert err.value.field == "options" and "four" in err.value.message


# -- dealer -----------------------------------------------------------------------------------


def test_deal_passes_clockwise_except_after_a_redeal() -> None:
    hands = [
        played(1, 100, [10, None, 10]),
        REDEAL,
        REDEAL,
        played(1, 100, [10, None, 10]),
        played(1, 100, [10, None, 10]),
    ]
    sheet = replay(setup(dealer=2), hands)
    assert [h.dealer for h in sheet.hands] == [2, 0, 0, 0, 1]
    assert sheet.next is not None
    assert (sheet.next.hand, sheet.next.dealer, sheet.next.first_bidder) == (6, 2, 0)
    assert sheet.next.sitting_out is None and sheet.next.min_bid == 100


@pytest.mark.parametrize(
    ("rules", "min_bid", "first_bidder"),
    [("squarescores", 100, 2), ("polish", 100, 2), ("classic", 100, 2), ("ggtables", 100, 2), ("tyzicha", 110, 0)],
)  # §7: in tyzicha the dealer's right bids first
def test_next_deal_min_bid_per_ruleset(rules: str, min_bid: int, first_bidder: int) -> None:
    sheet = replay(setup(rules, dealer=1), [])
    assert sheet.next is not None
    assert (sheet.next.hand, sheet.next.dealer, sheet.next.first_bidder) == (1, 1, first_bidder)
    assert sheet.next.min_bid == min_bid


# -- start scores ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "target", "start", "ok"),
    [
        ("squarescores", 1000, 879, True),
        ("squarescores", 1000, 880, False),
        ("squarescores", 1000, 999, False),
        ("squarescores", 1000, 1000, False),
        ("classic", 1000, 900, False),
        ("squarescores", 2000, 950, True),
        ("squarescores", 2000, 1880, False),
        ("squarescores", 2000, 1879, True),
        ("polish", 1000, 950, True),
        ("polish", 1000, 1000, False),
        ("ggtables", 1000, 990, True),
        ("ggtables", 500, 500, False),
        ("tyzicha", 1001, 1000, True),
        ("tyzicha", 1001, 1001, False),
        ("squarescores", 1000, -300, True),
    ],
)
def test_start_scores_below_target_and_outside_the_barrel(rules: str, target: int, start: int, ok: bool) -> None:
    s = setup(rules, start=[start, 0, 0], target=target)
    if ok:
        check_setup(s)
    else:
        with pytest.raises(Refused) as err:
            check_setup(s)
        assert err.value.field == "start_scores"
        assert str(start) in err.value.message


def test_polish_start_score_in_900_to_999_starts_locked() -> None:
    assert replay(setup("polish", start=[950, 0, 0]), []).standings[0].locked


@pytest.mark.parametrize(("style", "sheet_total", "owed"), [("deferred", 0, 150), ("signed", -150, 0)])
def test_negative_start_scores(style: SheetStyle, sheet_total: int, owed: int) -> None:
    # Deferred: a negative start is owed on the sheet (0 shown, 150 owed); the first +100
    # pays 100 of it: entry 0, owed 50.
    sheet = replay(setup(start=[0, -150, 0], sheet_style=style), [])
    st = sheet.standings[1]
    assert (st.score, st.total, st.owed) == (-150, sheet_total, owed)
    sheet = replay(setup(start=[0, -150, 0], sheet_style=style), [played(1, 100, [10, None, 10])])
    r = sheet.hands[0].results[1]
    if style == "deferred":
        assert (r.entry, r.owed, r.total, r.score) == (0, 50, 0, -50)
    else:
        assert (r.entry, r.owed, r.total, r.score) == (100, 0, -50, -50)


def test_options_are_off_by_default() -> None:
    # §6: sitter bonus, gold set and blind bids "Off by default"; target 1000 by default;
    # §8 the sheet is deferred unless `sheet: "signed"` is asked for.
    from scoresheet.rules import Options, setup_from_dict

    s = setup_from_dict({"players": ["A", "B", "C", "D"]})
    assert s.options == Options(
        target=1000, gold_set=False, blind_bids=False, sitter_bonus=False, sheet_style="deferred"
    )
    assert s.rules == "squarescores" and s.start_scores == (0, 0, 0, 0)
