"""RULES.md §11: every house rule's worked example, and every interaction §11 names."""

from __future__ import annotations

import pytest

from scoresheet.rules import (
    HandRecord,
    Malformed,
    Refused,
    check_setup,
    replay,
    setup_from_dict,
    setup_to_dict,
)

from .helpers import REDEAL, events, forfeit, history, played, scores, setup

# -- 11.1 zeros ----------------------------------------------------------------------------

# Seat 0 declares 100 each hand; seat 1 (B) takes the points given, seat 2 none.
SIX = [played(0, 100, [None, p, 0]) for p in (0, 0, 15, 0, 0, 0)]


@pytest.mark.parametrize(
    ("rules", "options", "b"),
    [
        ("squarescores", {}, [300, 300, 315, 195, 195, 195]),
        ("squarescores", {"zeros": "total"}, [300, 300, 315, 195, 195, 195]),
        ("classic", {"zeros": "total"}, [300, 300, 315, 195, 195, 195]),
        ("squarescores", {"zeros": "consecutive"}, [300, 300, 315, 315, 315, 195]),
        ("polish", {"zeros": "consecutive"}, [300, 300, 320, 320, 320, 200]),
        ("squarescores", {"zeros": "consecutive", "zero_penalty": 100}, [300, 300, 315, 315, 315, 215]),
        ("squarescores", {"zeros": "off"}, [300, 300, 315, 315, 315, 315]),
        ("classic", {}, [300, 300, 315, 315, 315, 315]),
    ],
)
def test_zeros_example(rules: str, options: dict[str, object], b: list[int]) -> None:
    # §11.1: B at 300 defends 6 hands and takes 0, 0, 15, 0, 0, 0 (polish rounds 15 to 20).
    assert history(setup(rules, start=[0, 300, 0], **options), SIX, 1) == b


def test_a_run_of_zeros_survives_redeals_sitting_out_and_forfeits() -> None:
    # §11.1: sitting out, redeals and forfeits (either side) leave the run as it is.
    s = setup(start=[0, 300, 0], zeros="consecutive")
    zero = played(0, 100, [None, 0, 20])
    hands = [zero, REDEAL, forfeit(0, 100), zero, forfeit(1, 100), zero]
    sheet = replay(s, hands)
    assert events(sheet, 6, 1) == ("zero", "zero_penalty")
    assert scores(sheet)[1] == 300 + 60 - 120


def test_a_run_of_zeros_ends_with_card_points_declaring_or_the_barrel() -> None:
    s = setup(start=[0, 300, 0], zeros="consecutive")
    zero = played(0, 100, [None, 0, 20])
    declares = played(1, 100, [10, None, 10])
    sheet = replay(s, [zero, zero, declares, zero, zero])
    assert sheet.standings[1].zeros == 4 and "zero_penalty" not in events(sheet, 5, 1)
    assert sheet.standings[1].next_zero_costs == 120
    # On the barrel: a hand there ends the run too, even a 0-point defence (not counted, §4).
    # Two zeros, B mounts, defends on the barrel with 0 (its one hand up: falls to 760), then a
    # zero off it is the run's first, not its third: nothing paid, and the next costs nothing.
    s = setup(start=[0, 800, 0], zeros="consecutive", barrel_hands=1)
    mounts = played(0, 100, [None, 80, 0])
    sheet = replay(s, [zero, zero, mounts, zero, zero])
    assert [h.results[1].score for h in sheet.hands] == [800, 800, 880, 760, 760]
    assert not sheet.standings[1].barrel and sheet.standings[1].next_zero_costs == 0


def test_standings_say_what_the_next_zero_costs() -> None:
    s = setup(start=[0, 300, 0], zero_penalty=100)
    sheet = replay(s, SIX[:2])
    assert sheet.standings[1].next_zero_costs == 100
    assert replay(setup("classic"), SIX[:2]).standings[1].next_zero_costs == 0


def test_standings_on_the_barrel_say_no_zero_costs_there_and_again_once_off_it() -> None:
    # "total" (§4): two zeros, then B climbs on the barrel, where a zero is not counted; once
    # the barrel's hands are up and B falls to 760, the third zero costs again.
    s = setup(start=[0, 700, 0], zero_penalty=100)
    zero = played(0, 100, [None, 0, 20])
    climbs = played(1, 180, [0, None, 0], {1: ["hearts"]})
    on_it = replay(s, [zero, zero, climbs])
    assert on_it.standings[1].barrel and on_it.standings[1].zeros == 2
    assert on_it.standings[1].next_zero_costs == 0
    waits = played(0, 100, [None, 10, 10])
    off_it = replay(s, [zero, zero, climbs, waits, waits, waits])
    assert not off_it.standings[1].barrel and off_it.standings[1].next_zero_costs == 100


# -- 11.2 dump_555 -------------------------------------------------------------------------


def test_a_score_of_555_is_dumped_to_0_and_the_drop_is_owed() -> None:
    # §11.2: A at 455 declares 100 and makes it -> 0; the change is -455: entry 0, owed 455.
    sheet = replay(setup(start=[455, 0, 0], dump_555="plus"), [played(0, 100, [None, 10, 10])])
    first = sheet.hands[0].results[0]
    assert (first.score, first.delta, first.entry, first.owed) == (0, -455, 0, 455)
    assert first.events == ("made", "dump")


@pytest.mark.parametrize(("dump", "score"), [("both", 0), ("plus", -555), ("off", -555)])
def test_minus_555_is_dumped_only_with_both(dump: str, score: int) -> None:
    # §11.2: B at -455 misses 100 -> -555 -> 0 with "both" (a change of +455).
    sheet = replay(setup(start=[0, -455, 0], dump_555=dump), [played(1, 100, [60, None, 0])])
    assert scores(sheet)[1] == score


def test_multipliers_act_before_the_dump() -> None:
    # Gold set: 315 + 120 x 2 = 555 -> 0.
    s = setup(start=[315, 0, 0], dump_555="plus", gold_set=True)
    assert scores(replay(s, [played(0, 120, [None, 10, 10], {0: ["hearts"]})]))[0] == 0


def test_a_miss_off_the_barrel_can_land_on_555() -> None:
    # 880 - 325 = 555 -> 0 (squarescores costs the bid on the barrel).
    s = setup(start=[800, 0, 0], dump_555="plus")
    hands = [played(1, 100, [100, None, 0]), played(0, 325, [None, 20, 20])]
    assert history(s, hands, 0) == [880, 0]


def test_the_sitter_out_is_dumped_too() -> None:
    s = setup(seats=4, start=[0, 0, 0, 495], dealer=3, dump_555="plus", sitter_bonus=True)
    sheet = replay(s, [played(0, 100, [None, 10, 10, None], sitter_points=60)])
    assert scores(sheet)[3] == 0 and "dump" in events(sheet, 1, 3)


# A locked seat (polish, §7: 900..999) scores only as declarer, so only its miss can land on
# 555 (§11.2); the dump then takes it to 0 in step 5, and the whole drop is owed (§8).
@pytest.mark.parametrize(
    ("dump", "start", "bid", "score", "words"),
    [
        ("plus", 955, 400, 0, ("missed", "unlocked", "dump")),
        ("both", 905, 350, 0, ("missed", "unlocked", "dump")),
        ("off", 955, 400, 555, ("missed", "unlocked")),
        ("plus", 960, 400, 560, ("missed", "unlocked")),  # not exactly 555
    ],
)
def test_a_locked_seat_missing_onto_555_is_dumped(
    dump: str, start: int, bid: int, score: int, words: tuple[str, ...]
) -> None:
    s = setup("polish", start=[start, 0, 0], dump_555=dump)
    sheet = replay(s, [played(0, bid, [None, 60, 60])])
    first = sheet.hands[0].results[0]
    assert (first.score, first.delta, first.events) == (score, score - start, words)
    assert (first.entry, first.owed) == (0, start - score)  # a drop is owed, never shown
    assert first.total - first.owed == score
    assert not sheet.standings[0].locked and scores(sheet)[1:] == [60, 60]


def test_a_locked_defender_is_not_dumped_what_it_takes_does_not_count() -> None:
    # §7: a locked defender's points do not count, so 905 + 60 never makes 555 or anything else
    s = setup("polish", start=[0, 905, 0], dump_555="both")
    sheet = replay(s, [played(0, 100, [None, 60, 10])])
    assert scores(sheet)[1] == 905 and sheet.standings[1].locked
    assert "dump" not in events(sheet, 1, 1)


# -- 11.3 barrel_knock_off -----------------------------------------------------------------

# Start A 800, B 800: A mounts (hand 1), plays one barrel hand (hand 2), B mounts (hand 3).
A_MOUNTS = played(2, 100, [100, 10, None])
A_ON_BARREL = played(2, 100, [5, 0, None])
B_MOUNTS = played(2, 100, [0, 70, None])


def test_a_seat_mounting_the_barrel_knocks_off_the_one_on_it() -> None:
    # §11.3: A on the barrel (880, 1 barrel hand); B at 810 takes 70 -> 880: A -> 760, owed 120.
    s = setup(start=[800, 800, 0], barrel_knock_off=True)
    sheet = replay(s, [A_MOUNTS, A_ON_BARREL, B_MOUNTS])
    a, b = sheet.standings[0], sheet.standings[1]
    assert (a.score, a.barrel, a.owed) == (760, False, 120)
    assert b.barrel and b.score == 880
    assert events(sheet, 3, 0) == ("barrel_ignored", "knocked_off")
    # Without the option A stays on.
    assert replay(setup(start=[800, 800, 0]), [A_MOUNTS, A_ON_BARREL, B_MOUNTS]).standings[0].barrel


def test_seats_mounting_in_the_same_hand_all_stay_on() -> None:
    s = setup(start=[820, 820, 0], barrel_knock_off=True)
    sheet = replay(s, [played(2, 100, [60, 60, None])])
    assert [st.barrel for st in sheet.standings] == [True, True, False]


def test_a_seat_that_fell_in_the_same_hand_is_not_knocked_off_again() -> None:
    # A's third barrel hand drops it (step 2) as B mounts: one fall, not a knock-off.
    s = setup(start=[800, 800, 0], barrel_knock_off=True)
    sheet = replay(s, [A_MOUNTS, A_ON_BARREL, A_ON_BARREL, B_MOUNTS])
    assert scores(sheet)[0] == 760 and events(sheet, 4, 0) == ("barrel_ignored", "barrel_fall")


def test_the_sitter_out_on_the_barrel_is_knocked_off() -> None:
    # Four seats, dealer 3 sits out hand 2: it mounted in hand 1 (dealer 2 sat out then).
    s = setup(seats=4, start=[800, 0, 0, 800], dealer=2, barrel_knock_off=True)
    hands = [played(1, 100, [10, None, None, 100]), played(1, 100, [70, None, 0, None])]
    sheet = replay(s, hands)
    assert sheet.standings[0].barrel and not sheet.standings[3].barrel
    assert scores(sheet)[3] == 760 and events(sheet, 2, 3) == ("sitting_out", "knocked_off")


def test_a_knock_off_stands_when_the_hand_ends_the_match() -> None:
    # A mounts; then C at 870 declares 140 and makes it (1010, wins) as B (800) mounts: A is
    # knocked off still.
    s = setup(start=[800, 700, 870], barrel_knock_off=True)
    hands = [played(1, 100, [100, None, 0], {1: ["diamonds"]}), played(2, 140, [0, 80, None], {2: ["hearts"]})]
    sheet = replay(s, hands)
    assert sheet.winner == 2 and scores(sheet)[0] == 760
    assert "knocked_off" in events(sheet, 2, 0)


# -- 11.4 barrel_miss ------------------------------------------------------------------------

# A (seat 0) mounts at 880, defends twice on the barrel, then bids 140 and takes 100.
TWO_BARREL_HANDS = [played(1, 100, [100, None, 0]), played(1, 100, [10, None, 10]), played(1, 100, [10, None, 10])]
MISS_140 = played(0, 140, [None, 10, 10])


@pytest.mark.parametrize(
    ("rules", "options", "score", "on_barrel"),
    [
        ("classic", {}, 760, False),  # stays: its 3rd barrel hand drops it
        ("classic", {"barrel_miss": "costs_bid"}, 740, False),
        ("squarescores", {}, 740, False),
        ("squarescores", {"barrel_miss": "stays"}, 760, False),
    ],
)
def test_barrel_miss_example(rules: str, options: dict[str, object], score: int, on_barrel: bool) -> None:
    sheet = replay(setup(rules, start=[800, 0, 0], **options), [*TWO_BARREL_HANDS, MISS_140])
    assert scores(sheet)[0] == score and sheet.standings[0].barrel is on_barrel


def test_a_miss_that_stays_is_a_barrel_hand_and_opponents_score() -> None:
    sheet = replay(setup("classic", start=[800, 0, 0]), [TWO_BARREL_HANDS[0], MISS_140])
    assert scores(sheet)[0] == 880 and sheet.standings[0].barrel_hands == 1
    assert events(sheet, 2, 0) == ("missed",)
    assert sheet.hands[1].results[1].delta == 10


# -- 11.5 barrel_hands ------------------------------------------------------------------------


def test_one_barrel_hand_drops_after_the_next_hand() -> None:
    # §11.5: with N = 1, A mounts at 880 and defends the next hand -> 760.
    s = setup(start=[800, 0, 0], barrel_hands=1)
    assert history(s, TWO_BARREL_HANDS[:2], 0) == [880, 760]


def test_barrel_hands_left_follow_n_and_sitting_out_does_not_count() -> None:
    s = setup(seats=4, start=[800, 0, 0, 0], dealer=3, barrel_hands=5)
    hands = [
        played(1, 100, [100, None, 0, None]),  # dealer 3 sits out; A mounts
        played(1, 100, [None, None, 10, 10]),
    ]  # dealer 0: A sits out
    sheet = replay(s, hands)
    assert sheet.standings[0].barrel and sheet.standings[0].barrel_hands_left == 5


# -- 11.6 three_falls_reset ---------------------------------------------------------------------


def test_every_third_fall_resets_to_0() -> None:
    # §11.6, classic with one barrel hand: A mounts and falls three times; the third -> 0,
    # a change of -880: entry 0, owed 880.
    s = setup("classic", start=[800, 0, 0], barrel_hands=1, three_falls_reset=True)
    mount, fall, remount = (
        played(2, 100, [100, 0, None]),
        played(2, 100, [0, 0, None]),
        played(2, 100, [120, 0, None]),
    )
    hands = [mount, fall, remount, fall, remount, fall]
    sheet = replay(s, hands)
    assert [h.results[0].score for h in sheet.hands] == [880, 760, 880, 760, 880, 0]
    assert events(sheet, 6, 0) == ("barrel_ignored", "barrel_fall", "barrel_reset")
    last = sheet.hands[5].results[0]
    assert (last.delta, last.entry, last.owed) == (-880, 0, 880)


def test_a_knock_off_counts_as_a_fall() -> None:
    # Classic (no zeros): A and B knock each other off in turn; A's third fall -> 0.
    s = setup("classic", start=[800, 800, 0], barrel_knock_off=True, three_falls_reset=True)
    takes = [(100, 0), (0, 100), (120, 0), (0, 120), (120, 0), (0, 120)]
    sheet = replay(s, [played(2, 100, [a, b, None]) for a, b in takes])
    assert [h.results[0].score for h in sheet.hands] == [880, 760, 880, 760, 880, 0]
    assert events(sheet, 6, 0) == ("barrel_ignored", "knocked_off", "barrel_reset")
    assert sheet.standings[1].barrel


# -- 11.7 declarer_rounding -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "bid", "took", "made", "delta"),
    [
        ("squarescores", 100, 98, True, 100),
        ("squarescores", 100, 97, False, -100),
        ("polish", 120, 115, True, 120),
        ("polish", 120, 114, False, -120),
    ],
)
def test_declarer_rounding_example(rules: str, bid: int, took: int, made: bool, delta: int) -> None:
    rest = 120 - took
    hand = played(0, bid, [None, rest, 0])
    sheet = replay(setup(rules, declarer_rounding=True), [hand])
    assert sheet.hands[0].made is made and sheet.hands[0].results[0].delta == delta
    assert sheet.hands[0].took == (took, rest, 0)  # took is stored raw


def test_without_declarer_rounding_98_misses_100() -> None:
    assert replay(setup(), [played(0, 100, [None, 22, 0])]).hands[0].made is False


def test_a_made_flag_is_checked_against_the_rounded_points() -> None:
    with pytest.raises(Refused) as err:
        replay(setup(declarer_rounding=True), [played(0, 100, [None, 22, 0], made=False)])
    assert err.value.field == "made"
    assert err.value.message == (
        "A took 98, 100 when rounded, against a bid of 100: the contract was made, not missed."
    )


def test_the_barrel_win_uses_the_rounded_figure() -> None:
    # Squarescores' "took ≥ 120" uses the same figure: 118 rounds to 120, a win from the barrel.
    s = setup(start=[800, 0, 0], declarer_rounding=True)
    sheet = replay(s, [played(1, 100, [100, None, 0]), played(0, 100, [None, 2, 0])])
    assert sheet.winner == 0 and scores(sheet)[0] == 1000


# -- 11.8 forfeit_pays --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "bid", "gold", "after"),
    [
        ("classic", 125, False, [-125, 65, 65]),
        ("classic", 125, True, [-250, 130, 130]),
        ("polish", 110, False, [-110, 60, 60]),
        ("squarescores", 150, False, [0, 75, 75]),
    ],
)
def test_half_bid_forfeit_example(rules: str, bid: int, gold: bool, after: list[int]) -> None:
    s = setup(rules, forfeit_pays="half_bid", gold_set=gold)
    assert scores(replay(s, [forfeit(0, max(bid, 120) if gold else bid)])) == after


def test_an_opponent_on_the_barrel_gets_no_half_bid() -> None:
    s = setup("classic", start=[0, 800, 0], forfeit_pays="half_bid")
    sheet = replay(s, [played(0, 100, [None, 100, 0]), forfeit(0, 150)])
    assert history(s, [played(0, 100, [None, 100, 0]), forfeit(0, 150)], 1) == [880, 880]
    assert scores(sheet)[2] == 75


# §11.8: half the bid can take an opponent to the target; §5 then decides: the highest score,
# on equal scores the declarer, else the earlier seat in the bidding order (dealer's left
# first). An opponent on the barrel or locked gets nothing.
@pytest.mark.parametrize(
    ("rules", "start", "dealer", "bid", "gold", "after", "winner"),
    [
        ("squarescores", [0, 850, 100], 0, 400, False, [0, 1050, 300], 1),
        ("squarescores", [0, 850, 860], 0, 400, False, [0, 1050, 1060], 2),
        ("squarescores", [0, 850, 850], 0, 400, False, [0, 1050, 1050], 1),  # B bids first
        ("squarescores", [0, 850, 850], 1, 400, False, [0, 1050, 1050], 2),  # C bids first
        ("squarescores", [0, 850, 850], 0, 250, False, [0, 880, 880], None),  # both mount
        ("polish", [0, 890, 0], 0, 220, False, [-220, 1000, 110], 1),
        ("polish", [0, 950, 890], 0, 220, False, [-220, 950, 1000], 2),  # B locked: nothing
        ("classic", [0, 760, 0], 0, 250, True, [-500, 1010, 250], 1),  # gold: 125 x 2
    ],
)
def test_half_the_bid_can_take_an_opponent_to_the_target(
    rules: str, start: list[int], dealer: int, bid: int, gold: bool, after: list[int], winner: int | None
) -> None:
    s = setup(rules, start=start, dealer=dealer, forfeit_pays="half_bid", gold_set=gold)
    sheet = replay(s, [forfeit(0, bid)])
    assert scores(sheet) == after
    assert sheet.winner == winner
    assert (sheet.status == "finished") == (winner is not None)
    if winner is not None:
        assert "win" in events(sheet, 1, winner) and sheet.next is None
        with pytest.raises(Refused):  # no hand after the match has a winner (§2)
            replay(s, [forfeit(0, bid), REDEAL])


def test_half_the_bid_gives_an_opponent_on_the_barrel_nothing_while_another_wins() -> None:
    s = setup(start=[0, 800, 850], forfeit_pays="half_bid")
    mounts = played(0, 100, [None, 80, 0])  # A takes 40, misses; B 880, on the barrel
    sheet = replay(s, [mounts, forfeit(0, 400)])
    assert scores(sheet) == [-100, 880, 1050] and sheet.winner == 2
    assert sheet.standings[1].barrel


# -- 11.9 blind_doubles -----------------------------------------------------------------------

BLIND = played(0, 120, [None, 50, 45], {0: ["hearts"]}, blind=True)


@pytest.mark.parametrize(
    ("doubles", "gold", "deltas"),
    [
        ("hand", False, [240, 100, 90]),
        ("declarer", False, [240, 50, 45]),
        ("declarer", True, [480, 100, 90]),
    ],
)
def test_blind_doubles_example(doubles: str, gold: bool, deltas: list[int]) -> None:
    s = setup(blind_bids=True, blind_doubles=doubles, gold_set=gold)
    assert [r.delta for r in replay(s, [BLIND]).hands[0].results] == deltas


# -- 11.10 ace_marriage -----------------------------------------------------------------------


def test_the_ace_marriage_example() -> None:
    # Bid 300: 60 card points + aces + hearts = 360, made. A defender with the aces and 33 card
    # points scores 35 + 200 = 235.
    s = setup(ace_marriage=True)
    sheet = replay(s, [played(0, 300, [None, 30, 30], {0: ["aces", "hearts"]})])
    assert sheet.hands[0].took == (360, 30, 30) and sheet.hands[0].results[0].delta == 300
    sheet = replay(s, [played(0, 100, [None, 33, 27], {1: ["aces"]})])
    assert sheet.hands[0].results[1].delta == 235


def test_a_defender_with_the_aces_and_no_card_points_takes_a_zero() -> None:
    sheet = replay(setup(ace_marriage=True), [played(0, 100, [None, 0, 20], {1: ["aces"]})])
    assert events(sheet, 1, 1) == ("zero",) and scores(sheet)[1] == 200


@pytest.mark.parametrize(
    ("options", "marriages", "message"),
    [
        ({}, {1: ["aces"]}, "This table does not play the ace marriage: use hearts, diamonds, clubs or spades."),
        (
            {"ace_marriage": True},
            {0: ["aces"], 1: ["aces"]},
            "The aces marriage is declared twice; there are only four aces.",
        ),
    ],
)
def test_ace_marriage_refusals(options: dict[str, object], marriages: dict[int, list[str]], message: str) -> None:
    with pytest.raises(Refused) as err:
        replay(setup(**options), [played(0, 100, [None, 30, 30], marriages)])
    assert (err.value.field, err.value.message) == ("marriages", message)


# -- every rule at once: the per-seat order of §11 ------------------------------------------------


def test_defaults_are_todays_rules() -> None:
    spelled = {
        "zeros": "total",
        "zero_penalty": 120,
        "dump_555": "off",
        "barrel_knock_off": False,
        "barrel_miss": "costs_bid",
        "barrel_hands": 3,
        "three_falls_reset": False,
        "declarer_rounding": False,
        "forfeit_pays": "60",
        "blind_doubles": "hand",
        "ace_marriage": False,
    }
    for start, hands in (([800, 0, 0], [*TWO_BARREL_HANDS, MISS_140]), ([0, 300, 0], SIX)):
        plain = replay(setup(start=start), hands)
        said = replay(setup(start=start, **spelled), hands)
        assert (plain.hands, plain.standings) == (said.hands, said.standings)


# -- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "options", "start", "field", "message"),
    [
        ("tyzicha", {"dump_555": "plus"}, None, "options", "tyzicha has no house rules: dump_555 must be “off”."),
        ("ggtables", {"zeros": "total"}, None, "options", "ggtables has no house rules: zeros must be “off”."),
        ("tichu", {"ace_marriage": True}, None, "options", "Tichu has no house rules: ace_marriage must be false."),
        ("polish", {"barrel_hands": 4}, None, "options", "polish has no barrel: barrel_hands must be 3."),
        (
            "polish",
            {"barrel_knock_off": True},
            None,
            "options",
            "polish has no barrel: barrel_knock_off must be false.",
        ),
        (
            "squarescores",
            {"zeros": "sometimes"},
            None,
            "options",
            "zeros is one of “total”, “consecutive” or “off”; “sometimes” is not.",
        ),
        (
            "squarescores",
            {"zeros": "off", "zero_penalty": 100},
            None,
            "options",
            "There are no zeros to pay for: set zeros to “total” or “consecutive”.",
        ),
        (
            "classic",
            {"zero_penalty": 100},
            None,
            "options",
            "There are no zeros to pay for: set zeros to “total” or “consecutive”.",
        ),
        ("squarescores", {"zero_penalty": 45}, None, "options", "The zero penalty is a multiple of 10 from 50 to 200."),
        (
            "squarescores",
            {"zero_penalty": 210},
            None,
            "options",
            "The zero penalty is a multiple of 10 from 50 to 200.",
        ),
        ("squarescores", {"barrel_hands": 0}, None, "options", "barrel_hands is a whole number from 1 to 5."),
        ("classic", {"barrel_hands": 6}, None, "options", "barrel_hands is a whole number from 1 to 5."),
        (
            "squarescores",
            {"blind_doubles": "declarer"},
            None,
            "options",
            "“declarer” needs blind bids: switch blind_bids on.",
        ),
        (
            "squarescores",
            {"dump_555": "plus"},
            [555, 0, 0],
            "start_scores",
            "A's start score 555 would be dumped: enter 0.",
        ),
        (
            "squarescores",
            {"dump_555": "both"},
            [0, -555, 0],
            "start_scores",
            "B's start score -555 would be dumped: enter 0.",
        ),
        (
            "classic",
            {"forced_any_seat": True},
            None,
            "options",
            "Forced contracts are a Tyzicha rule; this table does not use them.",
        ),
    ],
)
def test_options_a_ruleset_does_not_take_are_refused(
    rules: str, options: dict[str, object], start: list[int] | None, field: str, message: str
) -> None:
    players = ["A", "B", "C", "D"] if rules == "tichu" else ["A", "B", "C"]
    data: dict[str, object] = {"players": players, "rules": rules, "options": options}
    if start is not None:
        data["start_scores"] = start
    with pytest.raises(Refused) as err:
        check_setup(setup_from_dict(data))
    assert (err.value.field, err.value.message) == (field, message)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"zeros": 3}, "“zeros” is a word: “total”, “consecutive” or “off”."),
        ({"forfeit_pays": 60}, "“forfeit_pays” is a word: “60” or “half_bid”."),
        ({"barrel_knock_off": "yes"}, "“barrel_knock_off” is yes or no: true or false."),
        ({"barrel_hands": "3"}, "“barrel_hands” is a whole number."),
        ({"zero_penalty": 100.0}, "“zero_penalty” is a whole number."),
    ],
)
def test_an_option_of_the_wrong_type_is_malformed(options: dict[str, object], message: str) -> None:
    with pytest.raises(Malformed) as err:
        setup_from_dict({"players": ["A", "B", "C"], "options": options})
    assert (err.value.field, err.value.message) == ("options", message)


def test_every_option_is_reported_with_its_value() -> None:
    for rules, zeros, miss in (
        ("squarescores", "total", "costs_bid"),
        ("classic", "off", "stays"),
        ("polish", "off", "costs_bid"),
    ):
        options = setup_to_dict(setup_from_dict({"players": ["A", "B", "C"], "rules": rules}))["options"]
        assert (options["zeros"], options["barrel_miss"], options["barrel_hands"]) == (zeros, miss, 3)
        assert "forced_any_seat" not in options
    tyzicha = setup_to_dict(setup_from_dict({"players": ["A", "B", "C"], "rules": "tyzicha"}))
    assert tyzicha["options"]["forced_any_seat"] is False
    tichu = setup_to_dict(setup_from_dict({"players": ["A", "B", "C", "D"], "rules": "tichu"}))
    assert "zeros" not in tichu["options"]


# -- tyzicha's corrected bidding (RULES.md §7) -------------------------------------------------


def test_tyzicha_bidding_starts_at_the_dealers_right() -> None:
    sheet = replay(setup("tyzicha", dealer=0), [])
    assert sheet.next is not None and sheet.next.first_bidder == 2


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (
            played(0, 100, [None, 60, 60], forced=True),
            "Only the dealer's left (B), the third to bid, can be forced; A declared.",
        ),
        (
            played(0, 120, [None, 60, 60], forced=True),
            "Only the dealer's left (B), the third to bid, can be forced; A declared.",
        ),
        (
            played(1, 110, [60, None, 60], forced=True),
            "A forced contract is exactly 100; enter 110 or more without “forced”.",
        ),
    ],
)
def test_only_the_dealers_left_is_forced_and_only_at_100(hand: HandRecord, message: str) -> None:
    with pytest.raises(Refused) as err:
        replay(setup("tyzicha", dealer=0), [hand])
    assert (err.value.field, err.value.message) == ("forced", message)


def test_a_stored_tyzicha_match_keeps_the_old_forced_rule() -> None:
    s = setup("tyzicha", dealer=0, forced_any_seat=True)
    sheet = replay(s, [played(0, 120, [None, 30, 30], forced=True)])
    assert scores(sheet) == [-120, 30, 30]
