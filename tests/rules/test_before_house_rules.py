"""A match with no house rule scores as the engine did before the house rules (commit 11320f9,
its sheets recorded in before_house_rules.json): every entry, owed, score, event, standing,
winner, status and next deal, on legal hands for every ruleset and seat count (RULES.md §11:
every default is today's rule). The two corrections of §7 are written out as the old rule, as
migration 0006 does for stored matches: classic `barrel_miss: "costs_bid"`; tyzicha's first
bidder is left out (its bidding order was corrected; with the cap only the declarer can reach
1001, so the order never breaks a tie). tools/record_before_house_rules.py drew the matches
(from test_properties.py's strategies) and recorded them."""

from __future__ import annotations

from typing import Any

import pytest

from scoresheet.rules import hand_from_dict, replay, setup_from_dict

from .baseline import recorded, sheet_data
from .test_properties import CONFIGS


def sheet_now(match: dict[str, Any]) -> dict[str, Any]:
    """The sheet today's engine computes for a recorded match, as the recorded data has it."""
    setup = setup_from_dict(match["setup"])
    now = replay(setup, [hand_from_dict(hand) for hand in match["hands"]])
    return sheet_data(now, recorded()["fields"], first_bidder=setup.rules != "tyzicha")


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_no_house_rule_scores_as_the_engine_before_the_house_rules(name: str, n: int) -> None:
    matches = recorded()["no_house_rule"][f"{name}-{n}"]
    assert len(matches) >= 10 and any(m["hands"] for m in matches)
    for k, match in enumerate(matches):
        assert sheet_now(match) == match["sheet"], f"match {k} of {name}-{n}"


def test_the_comparison_sees_a_changed_rule() -> None:
    # classic's corrected miss on the barrel (§7) is a difference the comparison must catch:
    # A mounts the barrel at 880, bids 140 on it and takes 100
    match = recorded()["changed_rule"]
    score = recorded()["fields"]["standing"].index("score")
    now, then = sheet_now(match), match["sheet"]
    assert now["standings"][0][score] == 880
    assert then["standings"][0][score] == 740
    assert now != then
