"""RULES.md §11.11–§11.18: every worked example, every interaction the sections name, and the
refusals, as the table would enter the hands."""

from __future__ import annotations

import pytest

from scoresheet.rules import Malformed, Refused, check_setup, replay, setup_from_dict, setup_to_dict

from .helpers import events, forfeit, history, played, scores, setup

# -- 11.11 barrel_gap ------------------------------------------------------------------------

A_MOUNTS = played(0, 100, [None, 10, 0])  # A takes 110 and makes 100
SIX_ON_THE_BARREL = played(1, 100, [10, None, 10])  # A defends: a barrel hand, nothing counts


@pytest.mark.parametrize(("gap", "after"), [(120, [880]), (100, [900])])
def test_barrel_gap_example_a_declarer_mounts_at_the_barrel(gap: int, after: list[int]) -> None:
    # §11.11: A at 850 declares 100 and takes 110 -> 900, on the barrel (with 120: 880).
    s = setup(start=[850, 0, 0], barrel_gap=gap)
    sheet = replay(s, [A_MOUNTS])
    assert history(s, [A_MOUNTS], 0) == after and sheet.standings[0].barrel
    assert events(sheet, 1, 0) == ("made", "barrel_on")


@pytest.mark.parametrize(("gap", "score", "on_barrel"), [(100, 885, False), (120, 880, True)])
def test_barrel_gap_example_885_is_an_ordinary_score_below_900(gap: int, score: int, on_barrel: bool) -> None:
    # §11.11: B at 860 defends with 25 -> 885, an ordinary score (with 120: the barrel, 880).
    sheet = replay(setup(start=[0, 860, 0], barrel_gap=gap), [played(2, 100, [10, 25, None])])
    assert scores(sheet)[1] == score and sheet.standings[1].barrel is on_barrel


@pytest.mark.parametrize(("gap", "score", "winner"), [(100, 1000, 0), (120, 880, None)])
def test_barrel_gap_example_105_wins_from_900(gap: int, score: int, winner: int | None) -> None:
    # §11.11: on the barrel A declares 100 and takes 105 -> 1000, a win (with 120 it stays).
    sheet = replay(setup(start=[850, 0, 0], barrel_gap=gap), [A_MOUNTS, played(0, 100, [None, 15, 0])])
    assert scores(sheet)[0] == score and sheet.winner == winner


def test_barrel_gap_example_the_fall_from_900_lands_on_780() -> None:
    # §11.11: after its third barrel hand without a win -> 780 (B − 120), owed 120.
    s = setup(start=[850, 0, 0], barrel_gap=100)
    hands = [A_MOUNTS, SIX_ON_THE_BARREL, SIX_ON_THE_BARREL, SIX_ON_THE_BARREL]
    sheet = replay(s, hands)
    assert history(s, hands, 0) == [900, 900, 900, 780]
    assert events(sheet, 4, 0) == ("barrel_ignored", "barrel_fall")
    assert sheet.standings[0].owed == 120


@pytest.mark.parametrize(("gap", "bid", "score", "winner"), [(100, 100, 1000, 0), (120, 100, 880, None)])
def test_classic_with_a_gap_of_100_wins_with_any_made_contract(
    gap: int, bid: int, score: int, winner: int | None
) -> None:
    # §11.11: classic's win needs a made bid ≥ barrel_gap, so with 100 any made contract wins.
    s = setup("classic", start=[850, 0, 0], barrel_gap=gap)
    sheet = replay(s, [A_MOUNTS, played(0, bid, [None, 10, 0])])
    assert scores(sheet)[0] == score and sheet.winner == winner


def test_a_miss_that_costs_the_bid_leaves_the_barrel_minus_the_bid() -> None:
    # §11.11: B − bid·m: 900 − 140 = 760, off the barrel.
    sheet = replay(setup(start=[850, 0, 0], barrel_gap=100), [A_MOUNTS, played(0, 140, [None, 20, 20])])
    assert scores(sheet)[0] == 760 and events(sheet, 2, 0) == ("missed", "barrel_off")


def test_a_knock_off_and_a_clash_drop_to_780_with_a_gap_of_100() -> None:
    # §11.11: a fall, a knock-off and a clash (11.13) go to B − 120.
    knock = setup(start=[850, 850, 0], barrel_gap=100, barrel_knock_off=True)
    sheet = replay(knock, [A_MOUNTS, played(2, 100, [0, 50, None])])
    assert scores(sheet)[:2] == [780, 900] and events(sheet, 2, 0)[-1] == "knocked_off"
    clash = setup(start=[850, 850, 0], barrel_gap=100, barrel_clash="all_fall")
    sheet = replay(clash, [played(0, 100, [None, 50, 0], {0: ["spades"]})])
    assert scores(sheet)[:2] == [780, 780]


@pytest.mark.parametrize(("start", "ok"), [(879, True), (899, True), (900, False), (999, False)])
def test_start_scores_lie_outside_the_moved_barrel(start: int, ok: bool) -> None:
    s = setup(start=[start, 0, 0], barrel_gap=100)
    if ok:
        check_setup(s)
        return
    with pytest.raises(Refused) as err:
        check_setup(s)
    assert err.value.field == "start_scores"
    assert err.value.message.startswith(f"A's start score {start} is on the barrel (900..999)")


def test_count_penalties_stay_120_with_a_gap_of_100() -> None:
    s = setup(start=[0, 300, 0], barrel_gap=100)
    zero = played(0, 100, [None, 0, 20])
    assert history(s, [zero, zero, zero], 1) == [300, 300, 180]


B_ON_900 = played(0, 100, [None, 50, 0])  # A takes 70 and misses; B 850 + 50 = 900, the barrel


@pytest.mark.parametrize(
    ("rules", "options", "hand", "b_score", "winner", "on_barrel"),
    [
        # §11.4 "stays" (classic's own): a miss on the barrel keeps B at 900, a barrel hand.
        ("classic", {}, played(1, 120, [30, None, 30]), 900, None, True),
        # §11.14: a defender on the barrel wins with barrel_gap (100) or more, not with 95.
        ("squarescores", {"barrel_defender_wins": True}, played(0, 100, [None, 100, 0]), 1000, 1, False),
        ("squarescores", {"barrel_defender_wins": True}, played(0, 100, [None, 95, 0]), 900, None, True),
        # §11.15 "added": B + the hand's points, 900 + 120.
        ("squarescores", {"barrel_win_score": "added"}, played(1, 120, [0, None, 0]), 1020, 1, False),
        # §11.16: a zero on the barrel at 900 keeps it there.
        ("squarescores", {"barrel_zeros": True}, played(0, 100, [None, 0, 20]), 900, None, True),
    ],
)
def test_the_other_barrel_rules_move_with_the_barrel(
    rules: str, options: dict[str, object], hand: object, b_score: int, winner: int | None, on_barrel: bool
) -> None:
    # §11.11: every barrel figure of 11.3–11.16 moves with B (here 900).
    sheet = replay(setup(rules, start=[0, 850, 0], barrel_gap=100, **options), [B_ON_900, hand])  # type: ignore[list-item]
    assert sheet.hands[0].results[1].score == 900 and sheet.hands[0].results[1].barrel
    assert scores(sheet)[1] == b_score and sheet.winner == winner and sheet.standings[1].barrel is on_barrel


# -- 11.12 barrel_jump -----------------------------------------------------------------------

JUMP = played(0, 240, [None, 0, 0], {0: ["hearts", "diamonds"]})  # A takes 120 + 180 = 300


@pytest.mark.parametrize(
    ("jump", "score", "on_barrel", "winner"), [("wins", 1040, False, 0), ("mounts", 880, True, None)]
)
def test_barrel_jump_example(jump: str, score: int, on_barrel: bool, winner: int | None) -> None:
    # §11.12: A at 800 declares 240 and takes 300: made, 1040. "wins": A wins; "mounts": A is at
    # 880 on the barrel and play goes on.
    sheet = replay(setup(start=[800, 0, 0], barrel_jump=jump), [JUMP])
    assert scores(sheet)[0] == score and sheet.standings[0].barrel is on_barrel
    assert sheet.winner == winner and (sheet.next is None) == (winner is not None)
    if jump == "mounts":
        assert events(sheet, 1, 0) == ("made", "barrel_on") and sheet.standings[0].barrel_hands == 0


@pytest.mark.parametrize(
    ("seats", "start", "dealer", "hand", "seat", "options"),
    [
        # A defender: B at 870 takes 60 card points and hearts, 1030.
        (3, [0, 870, 0], 0, played(0, 100, [None, 60, 0], {1: ["hearts"]}), 1, {}),
        # An opponent of a forfeit: half of 250 is 125, 875 + 125 = 1000.
        (3, [0, 875, 0], 0, forfeit(0, 250), 1, {"forfeit_pays": "half_bid"}),
        # The sitter-out with its §6 bonus: 870 + 130.
        (4, [870, 0, 0, 0], 0, played(1, 100, [None, None, 10, 10], sitter_points=130), 0, {"sitter_bonus": True}),
    ],
)
def test_any_seat_that_jumps_mounts(
    seats: int, start: list[int], dealer: int, hand: object, seat: int, options: dict[str, object]
) -> None:
    s = setup(seats=seats, start=start, dealer=dealer, barrel_jump="mounts", **options)
    sheet = replay(s, [hand])  # type: ignore[list-item]
    assert scores(sheet)[seat] == 880 and sheet.standings[seat].barrel and sheet.winner is None
    assert "barrel_on" in events(sheet, 1, seat)


def test_with_mounts_the_match_is_won_only_from_the_barrel() -> None:
    s = setup(start=[800, 0, 0], barrel_jump="mounts")
    sheet = replay(s, [JUMP, played(0, 120, [None, 0, 0])])
    assert sheet.winner == 0 and scores(sheet)[0] == 1000


def test_a_jump_that_mounts_knocks_off_the_seat_on_the_barrel() -> None:
    # §11.12: it counts as mounting for 11.3.
    s = setup(start=[800, 800, 0], barrel_jump="mounts", barrel_knock_off=True)
    b_mounts = played(2, 100, [0, 80, None])
    sheet = replay(s, [b_mounts, JUMP])
    assert scores(sheet)[:2] == [880, 760] and events(sheet, 2, 1) == ("barrel_ignored", "knocked_off")


def test_a_jump_counts_as_mounting_for_the_clash_with_its_result_before_rule_1() -> None:
    # §11.12, §11.13 "one_stays": the declarer did not mount; of B (870 + 135 = 1005) and
    # C (800 + 85 = 885) the higher step-3 result stays.
    s = setup(start=[0, 870, 800], barrel_jump="mounts", barrel_clash="one_stays")
    sheet = replay(s, [played(0, 100, [None, 35, 85], {1: ["hearts"]})])
    assert scores(sheet) == [-100, 880, 760]
    assert events(sheet, 1, 2) == ("barrel_on", "barrel_clash")


# -- 11.13 barrel_clash ------------------------------------------------------------------------

# A at 800 declares 100 and makes it (900 -> 880); B at 860 defends with 30 (890 -> 880).
CLASH = played(0, 100, [None, 30, 0], {0: ["spades"]})


@pytest.mark.parametrize(
    ("clash", "after", "on_barrel"),
    [
        ("all_stay", [880, 880, 0], [True, True, False]),
        ("one_stays", [880, 760, 0], [True, False, False]),
        ("all_fall", [760, 760, 0], [False, False, False]),
    ],
)
def test_barrel_clash_example(clash: str, after: list[int], on_barrel: list[bool]) -> None:
    sheet = replay(setup(start=[800, 860, 0], barrel_clash=clash), [CLASH])
    assert scores(sheet) == after and [s.barrel for s in sheet.standings] == on_barrel
    if clash == "one_stays":
        b = sheet.hands[0].results[1]
        assert (b.delta, b.entry, b.owed, b.events) == (-100, 0, 100, ("barrel_on", "barrel_clash"))


# C mounts first (hand 1); then A (810 + 100 = 910) and B (870 + 20 = 890) mount together.
C_MOUNTS = played(2, 100, [10, 10, None])
A_AND_B_MOUNT = played(0, 100, [None, 20, 0], {0: ["spades"]})


@pytest.mark.parametrize(
    ("clash", "after", "c_events"),
    [
        # "all_fall": nobody mounted for 11.3, so C stays on even with the knock-off.
        ("all_fall", [760, 760, 880], ("barrel_ignored",)),
        # "one_stays": A, kept, knocks C off as usual.
        ("one_stays", [880, 760, 760], ("barrel_ignored", "knocked_off")),
    ],
)
def test_the_clash_comes_before_the_knock_off(clash: str, after: list[int], c_events: tuple[str, ...]) -> None:
    s = setup(start=[800, 860, 800], barrel_clash=clash, barrel_knock_off=True)
    sheet = replay(s, [C_MOUNTS, A_AND_B_MOUNT])
    assert scores(sheet) == after and events(sheet, 2, 2) == c_events


def test_seats_on_the_barrel_before_the_hand_take_no_part_in_the_clash() -> None:
    sheet = replay(setup(start=[800, 860, 800], barrel_clash="all_fall"), [C_MOUNTS, A_AND_B_MOUNT])
    assert sheet.standings[2].barrel and sheet.standings[2].barrel_hands == 1


@pytest.mark.parametrize(
    ("dealer", "b_takes", "c_takes", "kept"),
    [
        (0, 50, 40, 1),  # 900 against 890: B
        (0, 40, 50, 2),  # C
        (0, 45, 45, 1),  # equal: B bids first (dealer A, its left B)
        (1, 45, 45, 2),  # equal: C bids first (dealer B, its left C)
    ],
)
def test_one_stays_keeps_the_highest_result_then_the_earlier_bidder(
    dealer: int, b_takes: int, c_takes: int, kept: int
) -> None:
    # §11.13: the declarer (A, missed) did not mount; B and C at 850 do.
    s = setup(start=[0, 850, 850], dealer=dealer, barrel_clash="one_stays")
    sheet = replay(s, [played(0, 100, [None, b_takes, c_takes])])
    assert [s.barrel for s in sheet.standings] == [False, kept == 1, kept == 2]
    assert scores(sheet)[3 - kept] == 760


def test_one_stays_puts_the_sitter_out_last_in_the_order() -> None:
    # Four seats, dealer D sits out with a bonus of 50: 850 + 50 = 900, as B's 850 + 50.
    s = setup(seats=4, start=[0, 850, 0, 850], dealer=3, barrel_clash="one_stays", sitter_bonus=True)
    sheet = replay(s, [played(0, 100, [None, 50, 10, None], sitter_points=50)])
    assert [s.barrel for s in sheet.standings] == [False, True, False, False]
    assert events(sheet, 1, 3) == ("sitting_out", "barrel_on", "barrel_clash")


def test_a_clash_is_not_a_fall_for_three_falls_reset() -> None:
    # A and B mount together three times and all fall: 760 each time, never 0.
    s = setup(start=[760, 760, 0], barrel_clash="all_fall", three_falls_reset=True)
    both = played(0, 120, [None, 120, 0], {0: ["hearts", "diamonds"]})
    assert history(s, [both] * 3, 0) == [760, 760, 760]
    assert history(s, [both] * 3, 1) == [760, 760, 760]


def test_a_clash_stands_when_the_hand_ends_the_match() -> None:
    # A (800 + 100) and B (800 + 80) mount; C at 870 takes hearts and clubs: 1030, the winner.
    s = setup(start=[800, 800, 870], barrel_clash="all_fall")
    sheet = replay(s, [played(0, 100, [None, 80, 0], {0: ["diamonds"], 2: ["hearts", "clubs"]})])
    assert sheet.winner == 2 and scores(sheet) == [760, 760, 1030]
    assert events(sheet, 1, 0) == ("made", "barrel_on", "barrel_clash")


# -- 11.14 barrel_defender_wins -------------------------------------------------------------------

B_MOUNTS = played(0, 100, [None, 80, 0])  # A takes 40 and misses; B 800 -> 880


@pytest.mark.parametrize(
    ("options", "takes", "marriages", "score", "winner"),
    [
        ({"barrel_defender_wins": True}, 60, {1: ["hearts"]}, 1000, 1),  # 60 + hearts = 160
        ({"barrel_defender_wins": True}, 118, {}, 1000, 1),  # rounds to 120
        ({"barrel_defender_wins": True}, 117, {}, 880, None),  # rounds to 115: a barrel hand
        ({}, 60, {1: ["hearts"]}, 880, None),  # without the option nothing counts
    ],
)
def test_barrel_defender_wins_example(
    options: dict[str, object], takes: int, marriages: dict[int, list[str]], score: int, winner: int | None
) -> None:
    s = setup(start=[0, 800, 0], **options)
    sheet = replay(s, [B_MOUNTS, played(0, 100, [None, takes, 120 - takes - 2], marriages)])
    assert scores(sheet)[1] == score and sheet.winner == winner
    assert sheet.standings[1].barrel is (winner is None)


def test_in_a_gold_set_the_points_before_the_multiplier_count() -> None:
    # §11.14: 60 card points (120 after ×2) are not enough; 40 × 2 = 80 mounted B first.
    s = setup(start=[0, 800, 0], gold_set=True, barrel_defender_wins=True)
    sheet = replay(s, [played(0, 120, [None, 40, 0]), played(0, 120, [None, 60, 0])])
    assert sheet.hands[1].gold and scores(sheet)[1] == 880 and sheet.standings[1].barrel_hands == 1


def test_the_defenders_win_comes_before_the_fall_of_its_last_barrel_hand() -> None:
    s = setup(start=[0, 800, 0], barrel_defender_wins=True, barrel_hands=1)
    sheet = replay(s, [B_MOUNTS, played(0, 100, [None, 60, 0], {1: ["hearts"]})])
    assert sheet.winner == 1 and events(sheet, 2, 1) == ("win",)


@pytest.mark.parametrize(("win_score", "winner", "b_score"), [("target", 0, 1000), ("added", 1, 1040)])
def test_a_defender_and_the_declarer_at_the_target_go_by_section_5(win_score: str, winner: int, b_score: int) -> None:
    # A at 870 declares 130 and takes 60 + diamonds + clubs -> 1000; B on the barrel takes 60 +
    # hearts = 160 -> 1000: on equal scores the declarer. "added": B 880 + 160 = 1040 wins.
    s = setup(start=[870, 800, 0], barrel_defender_wins=True, barrel_win_score=win_score)
    b_mounts = played(2, 100, [0, 80, None])
    hand = played(0, 130, [None, 60, 0], {0: ["diamonds", "clubs"], 1: ["hearts"]})
    sheet = replay(s, [b_mounts, hand])
    assert scores(sheet)[:2] == [1000, b_score] and sheet.winner == winner


def test_the_sitter_out_never_wins_from_the_barrel() -> None:
    # Four seats, D deals first: C mounts (hand 1), plays two barrel hands, then sits out with a
    # bonus of 150 (hand 4): ignored, as every sitter-out's on the barrel.
    s = setup(seats=4, start=[0, 0, 800, 0], dealer=3, barrel_defender_wins=True, sitter_bonus=True)
    hands = [
        played(0, 100, [None, 0, 80, None]),
        played(1, 100, [None, None, 10, 10]),
        played(0, 100, [None, None, 10, 10]),
        played(0, 100, [None, 10, None, 10], sitter_points=150),
    ]
    sheet = replay(s, hands)
    assert sheet.winner is None and scores(sheet)[2] == 880 and sheet.standings[2].barrel_hands == 2


def test_an_opponent_of_a_forfeit_never_wins_from_the_barrel() -> None:
    # Half of 400 is 200, more than enough, but a forfeit is not played.
    s = setup(start=[0, 0, 800], barrel_defender_wins=True, forfeit_pays="half_bid")
    sheet = replay(s, [played(0, 100, [None, 0, 80]), forfeit(0, 400)])
    assert sheet.winner is None and scores(sheet) == [-100, 200, 880]


# -- 11.15 barrel_win_score ----------------------------------------------------------------------

A_ON = played(2, 100, [100, 0, None])  # C takes 20 and misses; A 800 -> 880


@pytest.mark.parametrize(
    ("win_score", "hand", "options", "score"),
    [
        ("added", played(0, 140, [None, 0, 0], {0: ["hearts"]}), {}, 1020),
        ("target", played(0, 140, [None, 0, 0], {0: ["hearts"]}), {}, 1000),
        ("added", played(0, 100, [None, 30, 0], {0: ["spades"]}), {}, 1000),  # took 130: 980 is less
        ("added", played(0, 120, [None, 0, 0], {0: ["hearts"]}, blind=True), {"blind_bids": True}, 1120),
    ],
)
def test_barrel_win_score_example(win_score: str, hand: object, options: dict[str, object], score: int) -> None:
    s = setup(start=[800, 0, 0], barrel_win_score=win_score, **options)
    sheet = replay(s, [A_ON, hand])  # type: ignore[list-item]
    assert sheet.winner == 0 and scores(sheet)[0] == score
    a = sheet.hands[1].results[0]
    assert a.delta == score - 880 and a.total - a.owed == score  # §8 books the change from B


@pytest.mark.parametrize(("win_score", "winner", "a_score"), [("added", 0, 1020), ("target", 1, 1000)])
def test_an_added_win_is_compared_by_section_5(win_score: str, winner: int, a_score: int) -> None:
    # A on the barrel makes 140 while B goes from 820 to 1010 (90 card points + hearts).
    s = setup(start=[800, 820, 0], barrel_win_score=win_score)
    hand = played(0, 140, [None, 90, 0], {0: ["diamonds", "clubs"], 1: ["hearts"]})
    sheet = replay(s, [A_ON, hand])
    assert scores(sheet)[:2] == [a_score, 1010] and sheet.winner == winner


def test_a_defender_winning_with_added_scores_its_points_multiplied() -> None:
    # §11.15 with §11.14: in a gold set B takes 60 + hearts = 160 (enough: before ×2) -> 880 + 320.
    s = setup(start=[0, 800, 0], gold_set=True, barrel_defender_wins=True, barrel_win_score="added")
    sheet = replay(s, [played(0, 120, [None, 40, 0]), played(0, 120, [None, 60, 0], {1: ["hearts"]})])
    assert sheet.winner == 1 and scores(sheet)[1] == 1200


# -- 11.16 barrel_zeros ---------------------------------------------------------------------------

ZERO = played(0, 100, [None, 0, 20])  # B takes no card points
PLAIN = played(0, 100, [None, 10, 10])


@pytest.mark.parametrize(("barrel_zeros", "last", "zeros"), [(True, 760, 4), (False, 640, 3)])
def test_barrel_zeros_example(barrel_zeros: bool, last: int, zeros: int) -> None:
    # §11.16, total: B has 2 zeros, mounts, defends with 0 card points on the barrel (its 3rd
    # zero, nothing paid), falls to 760; its next zero is its 4th: 760 (without: its 3rd, 640).
    s = setup(start=[0, 800, 0], barrel_zeros=barrel_zeros)
    hands = [ZERO, ZERO, B_MOUNTS, ZERO, PLAIN, PLAIN, ZERO]
    sheet = replay(s, hands)
    assert history(s, hands, 1) == [800, 800, 880, 880, 880, 760, last]
    assert sheet.standings[1].zeros == zeros
    assert events(sheet, 4, 1) == (("barrel_ignored", "zero") if barrel_zeros else ("barrel_ignored",))


def test_a_run_of_zeros_on_the_barrel_restarts_as_if_paid() -> None:
    # §11.16, consecutive, five barrel hands: three zeros on the barrel (the run restarts, nothing
    # paid), two more (the 5th barrel hand falls to 760): the next zero makes a run of 3 -> 640.
    s = setup(start=[0, 800, 0], zeros="consecutive", barrel_zeros=True, barrel_hands=5)
    hands = [B_MOUNTS, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO]
    sheet = replay(s, hands)
    assert history(s, hands, 1) == [880, 880, 880, 880, 880, 760, 640]
    assert not any("zero_penalty" in events(sheet, n, 1) for n in range(1, 7))
    assert events(sheet, 7, 1) == ("zero", "zero_penalty")


def test_any_other_played_hand_on_the_barrel_ends_the_run() -> None:
    # Two zeros on the barrel, then card points in its third barrel hand, which drops it: the run
    # is 0 again, so its next zero costs nothing (with a run of 2 it would cost 120).
    s = setup(start=[0, 800, 0], zeros="consecutive", barrel_zeros=True)
    sheet = replay(s, [B_MOUNTS, ZERO, ZERO, PLAIN])
    assert scores(sheet)[1] == 760 and sheet.standings[1].zeros == 2
    assert sheet.standings[1].next_zero_costs == 0


def test_on_the_barrel_the_next_zero_costs_nothing() -> None:
    sheet = replay(setup(start=[0, 800, 0], barrel_zeros=True), [ZERO, ZERO, B_MOUNTS])
    assert sheet.standings[1].zeros == 2 and sheet.standings[1].next_zero_costs == 0


# -- 11.17 forfeit_penalty ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "options", "a", "penalties"),
    [
        ("classic", {"forfeit_penalty": True}, [-120, -240, -480], 1),  # −120, −120, −240
        ("classic", {}, [-120, -240, -360], 0),
        ("squarescores", {}, [0, 0, -120], 1),
        ("squarescores", {"forfeit_penalty": False}, [0, 0, 0], 0),
        ("polish", {"forfeit_penalty": True}, [-120, -240, -480], 1),
    ],
)
def test_forfeit_penalty_example(rules: str, options: dict[str, object], a: list[int], penalties: int) -> None:
    # §11.17, classic: A forfeits a bid of 120 three times; opponents +60 each time.
    s = setup(rules, **options)
    hands = [forfeit(0, 120)] * 3
    sheet = replay(s, hands)
    assert history(s, hands, 0) == a and history(s, hands, 1) == [60, 120, 180]
    assert sheet.standings[0].forfeits == 3
    assert sum("forfeit_penalty" in events(sheet, n, 0) for n in (1, 2, 3)) == penalties


def test_the_forfeit_penalty_is_120_whatever_the_zero_penalty() -> None:
    s = setup("classic", zeros="total", zero_penalty=50, forfeit_penalty=True)
    assert history(s, [forfeit(0, 100)] * 3, 0) == [-100, -200, -420]


def test_the_standings_say_when_the_next_forfeit_costs() -> None:
    s = setup("classic", forfeit_penalty=True)
    assert replay(s, [forfeit(0, 100)] * 2).standings[0].next_forfeit_costs
    assert not replay(setup(forfeit_penalty=False), [forfeit(0, 100)] * 2).standings[0].next_forfeit_costs


def test_a_locked_declarer_pays_the_forfeit_penalty() -> None:
    # Polish: A forfeits twice at 700 (600, 500), declares 400 with every marriage (900,
    # locked), then forfeits a third time: 900 − 100 − 120 = 680.
    s = setup("polish", start=[700, 0, 0], forfeit_penalty=True)
    everything = played(0, 400, [None, 0, 0], {0: ["hearts", "diamonds", "clubs", "spades"]})
    hands = [forfeit(0, 100), forfeit(0, 100), everything, forfeit(0, 100)]
    sheet = replay(s, hands)
    assert history(s, hands, 0) == [600, 500, 900, 680]
    assert events(sheet, 4, 0) == ("forfeit", "forfeit_penalty", "unlocked")


def test_a_declarer_on_the_barrel_pays_no_forfeit_penalty_but_the_forfeit_counts() -> None:
    # Classic ("stays"): two forfeits at 800 (680, 560), then A climbs on the barrel (560 + 325
    # = 885 -> 880) and forfeits there: it stays at 880, the hand a barrel hand.
    s = setup("classic", start=[800, 0, 0], forfeit_penalty=True)
    climbs = played(0, 325, [None, 0, 0], {0: ["hearts", "diamonds", "clubs"]})
    hands = [forfeit(0, 120), forfeit(0, 120), climbs, forfeit(0, 120)]
    sheet = replay(s, hands)
    assert history(s, hands, 0) == [680, 560, 880, 880]
    assert events(sheet, 4, 0) == ("forfeit",)
    assert sheet.standings[0].forfeits == 3 and sheet.standings[0].barrel_hands == 1


def test_the_standings_on_the_barrel_never_say_the_next_forfeit_costs() -> None:
    # Two forfeits, then A climbs on the barrel. Classic: a forfeit there costs nothing more
    # (§11.17, step 2), so the card says nothing of it; squarescores: none is allowed there (§4).
    s = setup("classic", start=[800, 0, 0], forfeit_penalty=True)
    climbs = played(0, 325, [None, 0, 0], {0: ["hearts", "diamonds", "clubs"]})
    assert replay(s, [forfeit(0, 120), forfeit(0, 120)]).standings[0].next_forfeit_costs  # off it: 120
    sheet = replay(s, [forfeit(0, 120), forfeit(0, 120), climbs])
    assert sheet.standings[0].barrel and sheet.standings[0].forfeits == 2
    assert not sheet.standings[0].next_forfeit_costs
    third = replay(s, [forfeit(0, 120), forfeit(0, 120), climbs, forfeit(0, 120)])
    assert "forfeit_penalty" not in events(third, 4, 0)  # as the card said
    square = setup("squarescores", start=[700, 0, 0], forfeit_penalty=True)
    on_it = replay(square, [forfeit(0, 120), forfeit(0, 120), played(0, 180, [None, 0, 0], {0: ["hearts"]})])
    assert on_it.standings[0].barrel and on_it.standings[0].forfeits == 2
    assert not on_it.standings[0].next_forfeit_costs


# -- 11.18 dump_at ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dump", "start", "hand", "seat", "score"),
    [
        ("plus", [450, 0, 0], played(0, 100, [None, 10, 10]), 0, 0),  # 550 -> 0
        ("plus", [455, 0, 0], played(0, 100, [None, 10, 10]), 0, 555),  # 555 is kept
        ("both", [0, -450, 0], played(1, 100, [60, None, 0]), 1, 0),  # −550 -> 0
        ("plus", [0, -450, 0], played(1, 100, [60, None, 0]), 1, -550),
    ],
)
def test_dump_at_example(dump: str, start: list[int], hand: object, seat: int, score: int) -> None:
    sheet = replay(setup(start=start, dump_555=dump, dump_at=550), [hand])  # type: ignore[list-item]
    assert scores(sheet)[seat] == score
    assert ("dump" in events(sheet, 1, seat)) is (score == 0)


# -- refusals and the options as reported ------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "options", "start", "field", "message"),
    [
        (
            "squarescores",
            {"barrel_gap": 110},
            None,
            "options",
            "The barrel sits 120 or 100 below the target (880 or 900).",
        ),
        ("polish", {"barrel_gap": 100}, None, "options", "polish has no barrel: barrel_gap must be 120."),
        ("polish", {"barrel_jump": "mounts"}, None, "options", "polish has no barrel: barrel_jump must be “wins”."),
        (
            "squarescores",
            {"barrel_clash": "some"},
            None,
            "options",
            "barrel_clash is one of “all_stay”, “one_stays” or “all_fall”; “some” is not.",
        ),
        (
            "polish",
            {"barrel_defender_wins": True},
            None,
            "options",
            "polish has no barrel: barrel_defender_wins must be false.",
        ),
        (
            "squarescores",
            {"barrel_win_score": "more"},
            None,
            "options",
            "barrel_win_score is one of “target” or “added”; “more” is not.",
        ),
        (
            "classic",
            {"barrel_zeros": True},
            None,
            "options",
            "There are no zeros to count: set zeros to “total” or “consecutive”.",
        ),
        (
            "squarescores",
            {"zeros": "off", "barrel_zeros": True},
            None,
            "options",
            "There are no zeros to count: set zeros to “total” or “consecutive”.",
        ),
        (
            "tyzicha",
            {"forfeit_penalty": True},
            None,
            "options",
            "tyzicha has no house rules: forfeit_penalty must be false.",
        ),
        ("ggtables", {"dump_at": 550}, None, "options", "ggtables has no house rules: dump_at must be 555."),
        ("tichu", {"barrel_jump": "mounts"}, None, "options", "Tichu has no house rules: barrel_jump must be “wins”."),
        (
            "squarescores",
            {"dump_555": "plus", "dump_at": 552},
            None,
            "options",
            "The dump score is a multiple of 5 from 100 to 875.",
        ),
        (
            "squarescores",
            {"dump_555": "plus", "dump_at": 95},
            None,
            "options",
            "The dump score is a multiple of 5 from 100 to 875.",
        ),
        (
            "squarescores",
            {"dump_555": "plus", "dump_at": 880},
            None,
            "options",
            "The dump score is a multiple of 5 from 100 to 875.",
        ),
        (
            "squarescores",
            {"dump_at": 550},
            None,
            "options",
            "There is no dump to move: set dump_555 to “plus” or “both”.",
        ),
        (
            "squarescores",
            {"dump_555": "plus", "dump_at": 550},
            [550, 0, 0],
            "start_scores",
            "A's start score 550 would be dumped: enter 0.",
        ),
        (
            "squarescores",
            {"dump_555": "both", "dump_at": 550},
            [0, -550, 0],
            "start_scores",
            "B's start score -550 would be dumped: enter 0.",
        ),
    ],
)
def test_options_refused_with_the_sentence_of_section_11(
    rules: str, options: dict[str, object], start: list[int] | None, field: str, message: str
) -> None:
    players = ["A", "B", "C", "D"] if rules == "tichu" else ["A", "B", "C"]
    data: dict[str, object] = {"players": players, "rules": rules, "options": options}
    if start is not None:
        data["start_scores"] = start
    with pytest.raises(Refused) as err:
        check_setup(setup_from_dict(data))
    assert (err.value.field, err.value.message) == (field, message)


def test_the_barrel_gap_refusal_names_the_barrel_of_the_target() -> None:
    with pytest.raises(Refused) as err:
        check_setup(setup_from_dict({"players": ["A", "B", "C"], "options": {"target": 2000, "barrel_gap": 90}}))
    assert err.value.message == "The barrel sits 120 or 100 below the target (1880 or 1900)."


@pytest.mark.parametrize(("gap", "start"), [(110, [895, 0, 0]), (150, [860, 0, 0]), (2000, [0, 0, 0])])
def test_a_barrel_gap_it_does_not_allow_is_refused_before_a_start_score_is_judged_by_it(
    gap: int, start: list[int]
) -> None:
    # Not "start score 895 is on the barrel (890..999)", nor "0 is on the barrel (-1000..999)":
    # a barrel that cannot exist. The gap is refused, in §11.11's sentence.
    data = {"players": ["A", "B", "C"], "options": {"barrel_gap": gap}, "start_scores": start}
    with pytest.raises(Refused) as err:
        check_setup(setup_from_dict(data))
    assert (err.value.field, err.value.message) == (
        "options",
        "The barrel sits 120 or 100 below the target (880 or 900).",
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"barrel_gap": "100"}, "“barrel_gap” is a whole number."),
        ({"dump_at": 550.0}, "“dump_at” is a whole number."),
        ({"barrel_jump": True}, "“barrel_jump” is a word: “wins” or “mounts”."),
        ({"barrel_clash": 1}, "“barrel_clash” is a word: “all_stay”, “one_stays” or “all_fall”."),
        ({"barrel_win_score": None}, "“barrel_win_score” is a word: “target” or “added”."),
        ({"barrel_defender_wins": "yes"}, "“barrel_defender_wins” is yes or no: true or false."),
        ({"barrel_zeros": 1}, "“barrel_zeros” is yes or no: true or false."),
        ({"forfeit_penalty": "false"}, "“forfeit_penalty” is yes or no: true or false."),
    ],
)
def test_a_new_option_of_the_wrong_type_is_malformed(options: dict[str, object], message: str) -> None:
    with pytest.raises(Malformed) as err:
        setup_from_dict({"players": ["A", "B", "C"], "options": options})
    assert (err.value.field, err.value.message) == ("options", message)


@pytest.mark.parametrize(
    ("rules", "forfeit_penalty"), [("squarescores", True), ("classic", False), ("polish", False), ("tyzicha", False)]
)
def test_every_new_option_is_reported_with_its_value(rules: str, forfeit_penalty: bool) -> None:
    options = setup_to_dict(setup_from_dict({"players": ["A", "B", "C"], "rules": rules}))["options"]
    assert {k: options[k] for k in NEW_OPTIONS} == NEW_DEFAULTS | {"forfeit_penalty": forfeit_penalty}


def test_new_options_set_are_reported_as_set() -> None:
    given = {
        "barrel_gap": 100,
        "barrel_jump": "mounts",
        "barrel_clash": "one_stays",
        "barrel_defender_wins": True,
        "barrel_win_score": "added",
        "barrel_zeros": True,
        "forfeit_penalty": False,
        "dump_555": "plus",
        "dump_at": 550,
    }
    s = setup_from_dict({"players": ["A", "B", "C"], "options": given})
    check_setup(s)
    options = setup_to_dict(s)["options"]
    assert {k: options[k] for k in given} == given


NEW_DEFAULTS: dict[str, object] = {
    "barrel_gap": 120,
    "barrel_jump": "wins",
    "barrel_clash": "all_stay",
    "barrel_defender_wins": False,
    "barrel_win_score": "target",
    "barrel_zeros": False,
    "forfeit_penalty": True,
    "dump_at": 555,
}
"""§11.11–§11.18 at their defaults (squarescores' forfeit penalty)."""
NEW_OPTIONS = tuple(NEW_DEFAULTS)
