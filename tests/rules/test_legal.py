"""Checking a hand is apart from scoring it (python-chess's `is_legal()` beside `push()`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoresheet.rules import SUITS, HandRecord, Refused, Replay, RuleError, TichuRound, replay
from scoresheet.rules.legal import check_hand
from scoresheet.rules.rulesets import RULESETS
from scoresheet.rules.tysiacha import Tysiacha

from .helpers import played, setup
from .test_properties import SETTINGS, Match, any_match

SEAT = st.none() | st.integers(-1, 4)
POINTS = st.none() | st.integers(-5, 125)


@st.composite
def any_record(draw: st.DrawFn) -> HandRecord:
    """A hand record of any content, legal or not."""
    n = draw(st.integers(2, 5))
    return HandRecord(
        kind=draw(st.sampled_from(["played", "forfeit", "redeal", "bogus"])),  # type: ignore[arg-type]
        declarer=draw(SEAT),
        bid=draw(st.none() | st.integers(90, 410)),
        points=draw(st.none() | st.tuples(*[POINTS] * n)),
        marriages=draw(
            st.none() | st.tuples(*[st.lists(st.sampled_from([*SUITS, "stars"]), max_size=2).map(tuple)] * n)
        ),
        made=draw(st.none() | st.booleans()),
        blind=draw(st.booleans()),
        sitter_points=draw(st.sampled_from([0, 0, 10, 15, -10])),
        forced=draw(st.booleans()),
    )


@SETTINGS
@given(m=any_match(), record=any_record())
def test_a_refused_hand_changes_nothing(m: Match, record: HandRecord) -> None:
    run = Replay(m.setup)
    for hand in m.hands:
        run.add(hand)
    before = run.state()
    try:
        result = run.add(record)
    except RuleError as err:
        assert err.message and err.hand == len(m.hands) + 1
        assert err.field or m.sheet.winner is not None  # a finished match names no field
        assert run.state() == before == m.sheet
    else:
        assert result == replay(m.setup, [*m.hands, record]).hands[-1]


def test_the_check_names_the_field_and_the_replay_the_hand() -> None:
    s = setup()
    game = Tysiacha(s)
    with pytest.raises(Refused) as err:
        check_hand(played(1, 95, [10, None, 10]), s, RULESETS["squarescores"], game.deal(), game.seats)
    assert (err.value.field, err.value.message, err.value.hand) == (
        "bid",
        "The lowest bid is 100; 95 is too low.",
        None,
    )
    with pytest.raises(Refused) as err:
        replay(s, [played(1, 100, [10, None, 10]), played(2, 95, [10, 10, None])])
    assert (err.value.field, err.value.hand) == ("bid", 2)


def test_play_scores_without_checking() -> None:
    # Like python-chess's push(): the caller checks first; play trusts the hand it is given.
    game = Tysiacha(setup())
    scored = game.play(played(1, 95, [10, None, 10]))
    assert scored.scores == (10, 95, 10) and scored.made


def test_a_round_of_the_other_game_is_malformed_not_scored() -> None:
    with pytest.raises(RuleError) as err:
        replay(setup(), [TichuRound()])
    assert (err.value.field, err.value.hand) == ("calls", 1)
