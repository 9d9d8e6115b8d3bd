"""RULES.md §3 (points of one hand) and the §9 worked hand."""

from __future__ import annotations

import pytest

from scoresheet.rules import HandRecord, replay

from .helpers import REDEAL, events, forfeit, played, scores, setup


def test_worked_hand_of_section_9_made_with_two_marriages() -> None:
    # Declarer (seat 1) 420, A (seat 0) 650, B (seat 2) 300; bid 160 after the talon.
    # Declarer took 55 + hearts 100 + clubs 60 = 215 >= 160: made, 420 + 160 = 580.
    # A took 42 -> rounds to 40 -> 690. B took 23 -> rounds to 25 -> 325.
    s = setup(start=[650, 420, 300])
    hand = played(1, 160, [42, None, 23], {1: ["hearts", "clubs"]})
    sheet = replay(s, [hand])
    assert scores(sheet) == [690, 580, 325]
    h = sheet.hands[0]
    assert h.points == (42, 55, 23)  # 120 - 42 - 23 = 55 filled in for the declarer
    assert h.took == (42, 215, 23)
    assert h.made is True
    assert [r.delta for r in h.results] == [40, 160, 25]
    assert "made" in events(sheet, 1, 1)


def test_declarer_who_misses_loses_the_bid_and_defenders_still_score() -> None:
    # Declarer 1 took 120 - 42 - 23 = 55 < 100: missed, -100. Defenders as always: 40, 25.
    sheet = replay(setup(), [played(1, 100, [42, None, 23])])
    assert scores(sheet) == [40, -100, 25]
    assert sheet.hands[0].made is False
    assert "missed" in events(sheet, 1, 1)


def test_made_is_took_at_least_bid_exactly_equal_counts_as_made() -> None:
    # Declarer took 60 + clubs 60 = 120 against 120: made (>=), +120.
    sheet = replay(setup(), [played(1, 120, [30, None, 30], {1: ["clubs"]})])
    assert sheet.hands[0].made is True
    assert scores(sheet)[1] == 120


@pytest.mark.parametrize(
    ("rules", "raw", "rounded"),
    [
        # step 5 (squarescores, classic): the examples of §3; integers never tie.
        ("squarescores", 42, 40),
        ("squarescores", 23, 25),
        ("squarescores", 2, 0),
        ("squarescores", 3, 5),
        ("squarescores", 7, 5),
        ("squarescores", 8, 10),
        ("classic", 42, 40),
        ("classic", 3, 5),
        # step 10 (polish, ggtables): a 5 rounds up.
        ("polish", 45, 50),
        ("polish", 44, 40),
        ("polish", 5, 10),
        ("polish", 4, 0),
        ("polish", 115, 120),
        ("ggtables", 45, 50),
        ("ggtables", 35, 40),
        ("ggtables", 34, 30),
    ],
)
def test_defender_card_points_round_to_the_ruleset_step(rules: str, raw: int, rounded: int) -> None:
    # Seat 0 defends with `raw`; seat 2 takes 0; the declarer gets the rest (120 - raw).
    sheet = replay(setup(rules), [played(1, 300, [raw, None, 0])])
    assert scores(sheet)[0] == rounded


def test_tyzicha_defenders_are_not_rounded() -> None:
    # Tyzicha, declarer 1 bid 110 took 120 - 43 - 37 = 40: missed, so defenders score,
    # unrounded: 43 and 37 (step 5 would give 45/35, step 10 40/40).
    sheet = replay(setup("tyzicha"), [played(1, 110, [43, None, 37])])
    assert scores(sheet) == [43, -110, 37]


def test_defender_marriages_count_in_full() -> None:
    # Seat 0: 20 card points + spades 40 = 60; seat 2: 13 -> 15 (step 5); declarer 87 < 100.
    sheet = replay(setup(), [played(1, 100, [20, None, 13], {0: ["spades"]})])
    assert scores(sheet) == [60, -100, 15]
    assert sheet.hands[0].took == (60, 87, 13)


@pytest.mark.parametrize(
    ("flags", "hand", "expected", "multiplier"),
    [
        # Gold set hand 1 (min 120): declarer 100 cards + hearts = 200 >= 120 -> +120*2 = 240;
        # seat 0: 20*2 = 40 (+ spades 40*2 = 80 -> 120); seat 2: 0.
        ({"gold_set": True}, played(1, 120, [20, None, 0], {1: ["hearts"], 0: ["spades"]}), [120, 240, 0], 2),
        # Blind, made: 90 + clubs 60 = 150 >= 100 -> +200; defenders 20*2 = 40, 10*2 = 20.
        ({"blind_bids": True}, played(1, 100, [20, None, 10], {1: ["clubs"]}, blind=True), [40, 200, 20], 2),
        # Blind, missed: took 90 < 150 -> -150*2 = -300 (the blind bid won the auction, so x2).
        ({"blind_bids": True}, played(1, 150, [20, None, 10], blind=True), [40, -300, 20], 2),
        # Gold and blind: x4. Declarer 100 + hearts = 200 >= 120 -> +480; seat 0 20*4 = 80.
        (
            {"gold_set": True, "blind_bids": True},
            played(1, 120, [20, None, 0], {1: ["hearts"]}, blind=True),
            [80, 480, 0],
            4,
        ),
        # Neither: x1.
        ({}, played(1, 120, [20, None, 0], {1: ["hearts"]}), [20, 120, 0], 1),
    ],
)
def test_gold_and_blind_multiply_the_hand(
    flags: dict[str, bool], hand: HandRecord, expected: list[int], multiplier: int
) -> None:
    sheet = replay(setup(**flags), [hand])
    assert scores(sheet) == expected
    assert sheet.hands[0].multiplier == multiplier


@pytest.mark.parametrize(
    ("rules", "flags", "blind", "expected"),
    [
        # Squarescores forfeit: +60 each opponent, x2 in gold; blind does not apply.
        ("squarescores", {"gold_set": True}, False, [120, 0, 120]),
        ("squarescores", {"blind_bids": True}, True, [60, 0, 60]),
        # Polish forfeit: declarer -bid (x gold only): bid 120 -> -240 in gold, -120 blind.
        ("polish", {"gold_set": True}, False, [120, -240, 120]),
        ("polish", {"blind_bids": True}, True, [60, -120, 60]),
        ("classic", {"gold_set": True, "blind_bids": True}, True, [120, -240, 120]),
    ],
)
def test_forfeit_takes_the_gold_multiplier_but_not_the_blind_one(
    rules: str, flags: dict[str, bool], blind: bool, expected: list[int]
) -> None:
    sheet = replay(setup(rules, **flags), [forfeit(1, 120, blind=blind)])
    assert scores(sheet) == expected


def test_redeal_scores_nothing_for_anyone() -> None:
    sheet = replay(setup(start=[100, 200, 300]), [REDEAL])
    assert scores(sheet) == [100, 200, 300]
    assert [r.delta for r in sheet.hands[0].results] == [0, 0, 0]
    assert sheet.hands[0].made is None and sheet.hands[0].points is None
