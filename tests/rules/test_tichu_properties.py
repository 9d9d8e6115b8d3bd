"""Tichu property tests (Hypothesis) over random legal rounds (RULES.md §8, §10)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoresheet.rules import HandResult, Options, Setup, TichuRound, replay
from scoresheet.rules.tichu import CALLS, team_of

SETTINGS = settings(max_examples=200, deadline=None)


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """A legal Tichu set-up, start scores often near the target."""
    target = draw(st.sampled_from([500, 1000, 1500, 2000]))
    start = draw(st.lists(st.sampled_from([0, -200, target - 300, target - 100, target - 5]), min_size=2, max_size=2))
    return Setup(
        players=("Anna", "Boris", "Vera", "Gleb"),
        rules="tichu",
        options=Options(
            target=target,
            great_grand_tichu=draw(st.booleans()),
            sheet_style=draw(st.sampled_from(["deferred", "signed"])),
        ),
        first_dealer=draw(st.integers(0, 3)),
        start_scores=tuple(start),
    )


@st.composite
def legal_round(draw: st.DrawFn, great_grand: bool) -> TichuRound:
    """One round §10 accepts."""
    words = [None, None, None, "tichu", "grand"] + (["great_grand"] if great_grand else [])
    calls = tuple(draw(st.sampled_from(words)) for _ in range(4))
    double = draw(st.integers(0, 5)) == 0
    first_out = draw(st.integers(0, 3)) if double or any(calls) or draw(st.booleans()) else None
    if double:
        return TichuRound(calls=calls, first_out=first_out, double_victory=True)
    team0 = draw(st.integers(-5, 25)) * 5
    return TichuRound(calls=calls, first_out=first_out, card_points=(team0, 100 - team0))


@st.composite
def matches(draw: st.DrawFn) -> tuple[Setup, list[TichuRound]]:
    """A set-up and rounds up to the win (or 30 rounds)."""
    setup = draw(setups())
    rounds: list[TichuRound] = []
    for _ in range(draw(st.integers(1, 30))):
        if replay(setup, rounds).winner is not None:
            break
        rounds.append(draw(legal_round(setup.options.great_grand_tichu)))
    return setup, rounds


def _scored_rounds(match: tuple[Setup, list[TichuRound]]) -> list[tuple[TichuRound, HandResult]]:
    """Each round of the match with what the replay made of it."""
    setup, rounds = match
    return list(zip(rounds, replay(setup, rounds).hands, strict=True))


def _call_results(r: TichuRound) -> int:
    """What the calls of a round say, added over both teams."""
    return sum((CALLS[c] if s == r.first_out else -CALLS[c]) for s, c in enumerate(r.calls) if c is not None)


@SETTINGS
@given(matches())
def test_card_points_add_up_to_100_unless_a_double_victory(match: tuple[Setup, list[TichuRound]]) -> None:
    for r, h in _scored_rounds(match):
        total = sum(res.delta for res in h.results) - _call_results(r)
        assert total == (200 if r.double_victory else 100)


@SETTINGS
@given(matches())
def test_each_team_gets_its_card_points_plus_what_its_calls_say(match: tuple[Setup, list[TichuRound]]) -> None:
    for r, h in _scored_rounds(match):
        for team, res in enumerate(h.results):
            calls = sum(
                (CALLS[c] if s == r.first_out else -CALLS[c])
                for s, c in enumerate(r.calls)
                if c is not None and team_of(s) == team
            )
            if r.double_victory:
                assert r.first_out is not None
                base = 200 if team_of(r.first_out) == team else 0
            else:
                assert r.card_points is not None
                base = r.card_points[team]
            assert res.delta == base + calls


@SETTINGS
@given(matches())
def test_replay_is_deterministic(match: tuple[Setup, list[TichuRound]]) -> None:
    setup, rounds = match
    assert replay(setup, rounds) == replay(setup, list(rounds))


@SETTINGS
@given(matches())
def test_sheet_minus_owed_is_the_score_per_team(match: tuple[Setup, list[TichuRound]]) -> None:
    setup, rounds = match
    sheet = replay(setup, rounds)
    for h in sheet.hands:
        for res in h.results:
            assert res.total - res.owed == res.score
            if setup.options.sheet_style == "deferred":
                assert res.entry >= 0 and res.owed >= 0
    for st_ in sheet.standings:
        assert st_.total - st_.owed == st_.score
    assert [s.score for s in sheet.standings] == [
        setup.start_scores[t] + sum(h.results[t].delta for h in sheet.hands) for t in (0, 1)
    ]


@SETTINGS
@given(matches())
def test_a_winner_is_at_the_target_and_strictly_ahead(match: tuple[Setup, list[TichuRound]]) -> None:
    setup, rounds = match
    sheet = replay(setup, rounds)
    scores = [s.score for s in sheet.standings]
    if sheet.winner is not None:
        assert scores[sheet.winner] >= setup.options.target
        assert scores[sheet.winner] > scores[1 - sheet.winner]
    else:
        assert max(scores) < setup.options.target or scores[0] == scores[1]
