"""RULES.md §2: what a hand record holds, and every refusal (field named, clear sentence)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoresheet.rules import HandRecord, Malformed, Refused, hand_from_dict, replay

from .helpers import forfeit, played, setup

FOUR = {"seats": 4}  # dealer 0 sits out hand 1


def clear_sentence(message: str) -> bool:
    """Starts like a sentence, ends with a full stop, and leaks no Python words."""
    return (
        bool(re.match(r"^[A-Z“]", message))
        and message.endswith(".")
        and not re.search(r"\bNone\b|Traceback|<class|\bint\b|\bstr\b", message)
    )


@pytest.mark.parametrize(
    ("kwargs", "hand", "field", "message"),
    [
        # declarer not a seat in the hand
        ({}, played(3, 100, [10, 10, 10]), "declarer", "There is no seat 3 at this table."),
        ({}, HandRecord("played", bid=100, points=(10, 10, 100)), "declarer", "Say who declared"),
        (FOUR, played(0, 100, [None, 10, 10, 10]), "declarer", "A deals and sits out this hand, so cannot declare."),
        # a sitting-out seat given points or marriages
        (FOUR, played(1, 100, [10, None, 10, 10]), "points", "A sits out this hand"),
        (
            FOUR,
            played(1, 100, [None, None, 10, 10], {0: ["hearts"]}),
            "marriages",
            "A sits out this hand and cannot declare a marriage.",
        ),
        # bids
        ({"rules": "polish"}, played(1, 105, [10, None, 10]), "bid", "Bids go in steps of 10; 105 is not one."),
        ({}, played(1, 102, [10, None, 10]), "bid", "Bids go in steps of 5; 102 is not one."),
        ({}, played(1, 95, [10, None, 10]), "bid", "The lowest bid is 100; 95 is too low."),
        (
            {"gold_set": True},
            played(1, 110, [10, None, 10]),
            "bid",
            "The lowest bid in a gold set is 120; 110 is too low.",
        ),
        ({}, played(1, 410, [10, None, 10]), "bid", "The highest bid is 400; 410 is too high."),
        ({}, HandRecord("played", declarer=1, points=(10, None, 10)), "bid", "Enter the bid."),
        # card points
        ({}, played(1, 100, [-5, None, 10]), "points", "from 0 to 120; A has -5."),
        ({}, played(1, 100, [125, None, 0]), "points", "from 0 to 120; A has 125."),
        ({}, played(1, 100, [50, 50, 30]), "points", "Card points add up to 130; the pack holds 120."),
        ({}, played(1, 100, [50, 20, 30]), "points", "Card points add up to 100; the pack holds 120."),
        ({}, played(1, 100, [70, None, 60]), "points", "The defenders' card points add up to 130; the pack holds 120."),
        ({}, played(1, 100, [None, None, 10]), "points", "Enter the card points A took."),
        ({}, played(1, 100, [10, None]), "points", "Give card points for each of the 3 players."),
        ({}, HandRecord("played", declarer=1, bid=100), "points", "Enter the card points"),
        # marriages
        ({}, played(1, 100, [10, None, 10], {0: ["trumps"]}), "marriages", "“trumps” is not a suit"),
        (
            {},
            played(1, 100, [10, None, 10], {0: ["hearts"], 2: ["hearts"]}),
            "marriages",
            "The hearts marriage is declared twice",
        ),
        (
            {},
            played(1, 100, [10, None, 10], {1: ["clubs", "clubs"]}),
            "marriages",
            "The clubs marriage is declared twice",
        ),
        # made contradicting the points
        (
            {},
            played(1, 100, [40, None, 40], made=True),
            "made",
            "B took 40 against a bid of 100: the contract was missed, not made.",
        ),
        (
            {},
            played(1, 100, [10, None, 10], made=False),
            "made",
            "B took 100 against a bid of 100: the contract was made, not missed.",
        ),
        # forfeits and redeals carry no play
        ({}, forfeit(1, 100, made=True), "made", "A forfeited hand is not made"),
        ({}, HandRecord("forfeit", declarer=1, bid=100, points=(10, None, 10)), "points", "leave the card points out"),
        ({}, HandRecord("redeal", declarer=1), "declarer", "A redeal has no declarer."),
        ({}, HandRecord("redeal", bid=100), "bid", "A redeal has no bid."),
        ({}, HandRecord("redeal", made=False), "made", "A redeal is neither made nor missed."),
        ({}, HandRecord("shuffled"), "kind", "Say what happened"),  # type: ignore[arg-type]
        (
            {"rules": "ggtables"},
            played(1, 100, [10, None, 10], blind=True),
            "blind",
            "This table does not play blind bids.",
        ),
    ],
)
def test_a_refused_hand_names_its_field_and_says_why_in_a_sentence(
    kwargs: dict[str, Any], hand: HandRecord, field: str, message: str
) -> None:
    good = played(1, 100, [None, None, 10, 10]) if kwargs.get("seats") == 4 else None
    with pytest.raises(Refused) as err:
        replay(setup(**kwargs), [hand])
    assert err.value.field == field
    assert message in err.value.message
    assert err.value.hand == 1
    assert clear_sentence(err.value.message), err.value.message
    assert good is None or replay(setup(**kwargs), [good])


def test_a_refusal_points_at_the_hand_where_it_stands() -> None:
    with pytest.raises(Refused) as err:
        replay(setup(), [played(1, 100, [10, None, 10])] * 2 + [played(1, 100, [50, 50, 30])])
    assert err.value.hand == 3


def test_made_that_agrees_with_the_points_is_accepted() -> None:
    sheet = replay(setup(), [played(1, 100, [10, None, 10], made=True), played(1, 100, [40, None, 40], made=False)])
    assert [h.made for h in sheet.hands] == [True, False]


def test_declarer_points_may_be_given_when_they_sum_to_120() -> None:
    sheet = replay(setup(), [played(1, 100, [10, 100, 10])])
    assert sheet.hands[0].points == (10, 100, 10) and sheet.hands[0].made


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "played", "declarer": 1, "bid": "100", "points": [10, None, 10]}, "bid"),
        ({"kind": "played", "declarer": "1", "bid": 100}, "declarer"),
        ({"kind": "played", "declarer": 1, "bid": 100, "points": [10.5, None, 9.5]}, "points"),
        ({"kind": "played", "declarer": 1, "bid": 100, "points": "10,10"}, "points"),
        ({"kind": "played", "declarer": 1, "bid": 100, "points": [True, None, 10]}, "points"),
        ({"kind": "played", "declarer": 1, "bid": 100, "marriages": ["hearts"]}, "marriages"),
        ({"kind": "played", "declarer": 1, "bid": 100, "made": "yes"}, "made"),
        ({"kind": "played", "declarer": 1, "bid": 100, "blind": 1}, "blind"),
        ({"kind": 3}, "kind"),
        ({"kind": "redeal", "colour": "red"}, "colour"),
    ],
)
def test_wrong_types_are_malformed_not_refused(data: dict[str, Any], field: str) -> None:
    with pytest.raises(Malformed) as err:
        hand_from_dict(data)
    assert err.value.field == field
    assert clear_sentence(err.value.message), err.value.message


def test_hand_from_dict_reads_the_api_example() -> None:
    data = {
        "kind": "played",
        "declarer": 1,
        "bid": 160,
        "blind": False,
        "points": [42, None, 23],
        "marriages": [[], ["hearts", "clubs"], []],
        "made": True,
        "sitter_points": 0,
        "forced": False,
    }
    sheet = replay(setup(start=[650, 420, 300]), [hand_from_dict(data)])
    assert [s.score for s in sheet.standings] == [690, 580, 325]


@pytest.mark.parametrize(
    ("hand", "points", "expected"),
    [
        # §2 "card points ... whole numbers in 0..120": both ends are accepted.
        # Seat 0 takes all 120: the declarer is left 0, took 0 < 100: missed -100; seat 0 +120;
        # seat 2 took 0 (a zero).
        (played(1, 100, [120, None, 0]), (120, 0, 0), [120, -100, 0]),
        # All given: the declarer's 120 itself, made: +100; defenders 0 and 0.
        (played(1, 100, [0, 120, 0]), (0, 120, 0), [0, 100, 0]),
    ],
)
def test_card_points_0_and_120_are_accepted(hand: HandRecord, points: tuple[int, ...], expected: list[int]) -> None:
    sheet = replay(setup(), [hand])
    assert sheet.hands[0].points == points
    assert [s.score for s in sheet.standings] == expected
