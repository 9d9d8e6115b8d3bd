"""House rules where they meet each other and the core rules (RULES.md §7, §11): the cases a
deliberate change of the engine once showed no test pinned. Each figure is worked out from the
text; each test fails if its rule's check is dropped or moved."""

from __future__ import annotations

from scoresheet.rules import replay

from .helpers import events, forfeit, history, played, scores, setup

ZERO = played(0, 100, [None, 0, 20])
"""A declares 100; B defends with 0 points: a zero for B."""


def test_every_third_zero_in_a_row_pays_and_the_run_starts_again() -> None:
    # §11.1 consecutive: "When the run reaches 3 the seat pays and the run restarts at 0".
    s = setup(start=[0, 300, 0], zeros="consecutive")
    assert history(s, [ZERO] * 6, 1) == [300, 300, 180, 180, 180, 60]


def test_every_third_fall_resets_to_zero_the_sixth_too() -> None:
    # §11.6: "every 3rd fall (3rd, 6th …)" goes to 0. A mounts, falls, mounts…; between the
    # third and the sixth fall A climbs back from 0 with three big hands.
    s = setup("classic", start=[800, 0, 0], barrel_hands=1, three_falls_reset=True)
    mount, fall, back = played(2, 100, [100, 0, None]), played(2, 100, [0, 0, None]), played(2, 100, [120, 0, None])
    big = played(0, 300, [None, 0, 0], {0: ["hearts", "diamonds", "clubs"]})
    hands = [mount, fall, back, fall, back, fall, big, big, big, fall, back, fall, back, fall]
    assert history(s, hands, 0) == [880, 760, 880, 760, 880, 0, 300, 600, 880, 760, 880, 760, 880, 0]


def test_one_stays_keeps_the_declarer_that_mounted_over_a_higher_defender() -> None:
    # §11.13 one_stays: "the declarer if it mounted", whatever the other mounter's result.
    s = setup(start=[800, 850, 0], barrel_clash="one_stays")
    sheet = replay(s, [played(0, 100, [None, 60, 0], {0: ["hearts"]})])  # A 900, B 910: both mount
    assert scores(sheet)[:2] == [880, 760]
    assert [x.barrel for x in sheet.standings[:2]] == [True, False]


def test_a_third_rospisat_on_the_barrel_pays_no_penalty_under_costs_bid() -> None:
    # §11.17 (classic, barrel_miss "costs_bid"): on the barrel a Rospisat' costs its bid and
    # never the 120 of the third; off it the third would cost 120 more.
    s = setup("classic", start=[800, 0, 0], barrel_miss="costs_bid", forfeit_penalty=True)
    climbs = played(0, 280, [None, 0, 0], {0: ["hearts", "diamonds"]})
    assert history(s, [forfeit(0, 100), forfeit(0, 100), climbs, forfeit(0, 100)], 0) == [700, 600, 880, 780]


def test_a_seat_knocked_off_onto_the_dump_score_is_dumped() -> None:
    # §11 order: step 5 (the dump, §11.18 with dump_at 760) comes after step 4 (the knock-off,
    # §11.3): A, knocked off the barrel to 760, lands on the dump score and goes to 0.
    s = setup(start=[800, 790, 0], barrel_knock_off=True, dump_555="plus", dump_at=760)
    hands = [played(2, 100, [80, 0, None], {2: ["hearts"]}), played(2, 100, [0, 90, None], {2: ["diamonds"]})]
    sheet = replay(s, hands)
    assert scores(sheet)[0] == 0
    assert events(sheet, 2, 0)[-2:] == ("knocked_off", "dump")


def test_a_barrel_defender_winning_with_no_card_points_still_takes_its_zero() -> None:
    # §11.14 with §11.16: B on the barrel wins by its marriages alone (0 card points); the
    # zero is counted as every zero on the barrel is with barrel_zeros.
    s = setup(start=[0, 800, 0], barrel_defender_wins=True, barrel_zeros=True)
    mounts = played(0, 100, [None, 80, 0], {0: ["hearts"]})
    wins = played(0, 100, [None, 0, 20], {0: ["spades"], 1: ["hearts", "diamonds"]})
    sheet = replay(s, [mounts, wins])
    assert (scores(sheet)[1], sheet.standings[1].zeros, sheet.winner) == (1000, 1, 1)


def test_a_barrel_defenders_added_win_is_not_doubled_by_the_declarers_blind_bid() -> None:
    # §11.14 + §11.15 "added" + §11.9 "declarer": B wins from the barrel with 60 + hearts
    # (160) in a hand A bid blind; only the declarer's points are doubled: 880 + 160.
    s = setup(
        start=[0, 800, 0],
        barrel_defender_wins=True,
        barrel_win_score="added",
        blind_bids=True,
        blind_doubles="declarer",
    )
    mounts = played(0, 100, [None, 80, 0], {0: ["hearts"]})
    wins = played(0, 120, [None, 60, 0], {0: ["diamonds"], 1: ["hearts"]}, blind=True)
    assert scores(replay(s, [mounts, wins]))[1] == 1040


def test_a_locked_seat_takes_no_zero_and_its_next_zero_costs_nothing() -> None:
    # §7: "a locked seat takes no zero, as on the barrel"; the standings' next_zero_costs
    # (§11.1) says so too. B, two zeros behind it, makes 200 and is locked at 900.
    s = setup("polish", start=[0, 700, 0], zeros="total")
    climbs = played(1, 200, [0, None, 0], {1: ["hearts", "diamonds"]})
    locked = replay(s, [ZERO, ZERO, climbs])
    assert locked.standings[1].locked and locked.standings[1].zeros == 2
    assert locked.standings[1].next_zero_costs == 0
    defends = replay(s, [ZERO, ZERO, climbs, ZERO])
    assert scores(defends)[1] == 900 and defends.standings[1].zeros == 2
    assert "zero" not in events(defends, 4, 1)
