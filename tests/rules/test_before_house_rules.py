"""A match with no house rule scores as the engine did before the house rules (commit 11320f9,
read from a temporary git worktree): every entry, owed, score, event, standing, winner, status
and next deal, on legal hands for every ruleset and seat count (RULES.md §11: every default
is today's rule). The two corrections of §7 are written out as the old rule, as migration 0006
does for stored matches: classic `barrel_miss: "costs_bid"`; tyzicha's first bidder is left
out (its bidding order was corrected; with the cap only the declarer can reach 1001, so the
order never breaks a tie)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoresheet.rules import RULESETS, HandRecord, Options, Replay, Setup, replay

from .baseline import engine_before_house_rules, replay_before, sheet_data
from .test_properties import CONFIGS, legal_hand, setups

NO_HOUSE_RULE = {
    "zeros": None,
    "zero_penalty": 120,
    "dump_555": "off",
    "barrel_knock_off": False,
    "barrel_miss": None,
    "barrel_hands": 3,
    "three_falls_reset": False,
    "declarer_rounding": False,
    "forfeit_pays": "60",
    "blind_doubles": "hand",
    "ace_marriage": False,
}
"""Options with no house rule set: the ruleset's own rules."""
OLD_RULE = {"classic": {"barrel_miss": "costs_bid"}}
"""The rule a ruleset had before the corrections of RULES.md §7, as an option."""


@st.composite
def plain_matches(draw: st.DrawFn, name: str, n: int) -> tuple[Setup, list[HandRecord]]:
    """A set-up with no house rule (gold set, blind bids, sitter bonus as drawn) and up to 24
    legal hands, stopping at a winner."""
    drawn = draw(setups(name, n))
    setup = replace(drawn, options=replace(drawn.options, **(NO_HOUSE_RULE | OLD_RULE.get(name, {}))))
    hands: list[HandRecord] = []
    run = Replay(setup)
    for _ in range(draw(st.integers(0, 24))):
        sheet = run.state()
        if sheet.winner is not None:
            break
        hands.append(draw(legal_hand(setup, sheet)))
        run.add(hands[-1])
    return setup, hands


@pytest.fixture(scope="module")
def before() -> Any:
    """The engine of 11320f9."""
    return engine_before_house_rules()


@pytest.mark.parametrize(("name", "n"), CONFIGS)
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_no_house_rule_scores_as_the_engine_before_the_house_rules(
    before: Any, name: str, n: int, data: st.DataObject
) -> None:
    setup, hands = data.draw(plain_matches(name, n))
    now = replay(setup, hands)
    then = replay_before(before, setup, hands)
    tyzicha = RULESETS[name].forced_min_bid is not None
    assert sheet_data(now, before, first_bidder=not tyzicha) == sheet_data(then, before, first_bidder=not tyzicha)


def test_the_comparison_sees_a_changed_rule(before: Any) -> None:
    # classic's corrected miss on the barrel (§7) is a difference the comparison must catch
    setup = Setup(
        players=("A", "B", "C"), rules="classic", options=Options(target=1000), first_dealer=0, start_scores=(800, 0, 0)
    )
    hands = [
        HandRecord("played", declarer=1, bid=100, points=(100, None, 0)),  # A mounts at 880
        HandRecord("played", declarer=0, bid=140, points=(None, 10, 10)),
    ]  # A bids 140 on it, takes 100
    now, then = replay(setup, hands), replay_before(before, setup, hands)
    assert [s.score for s in now.standings][0] == 880
    assert [s.score for s in then.standings][0] == 740
    assert sheet_data(now, before) != sheet_data(then, before)
