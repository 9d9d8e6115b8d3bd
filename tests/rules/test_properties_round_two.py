"""Property tests (Hypothesis) for the house rules of RULES.md §11.11–§11.18: the barrel holds
with every combination of them; and with each at its default a match scores as it did before
they existed, left out or spelled out: the engine of commit 0ff9236, its sheets recorded in
before_round_two.json by tools/record_before_round_two.py (from test_properties.py's
strategies, with the house rules of §11.1–§11.10 as drawn)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from scoresheet.rules import (
    RULESETS,
    HandRecord,
    Refused,
    Replay,
    RuleError,
    Setup,
    check_setup,
    hand_from_dict,
    replay,
    setup_from_dict,
    setup_to_dict,
)

from .baseline import OTHER_VALUES, ROUND_TWO, recorded_before_round_two, sheet_data
from .test_properties import CONFIGS, SETTINGS, Match, legal_hand, setups

BARREL_CONFIGS = [(name, n) for name, n in CONFIGS if RULESETS[name].has_barrel]


@st.composite
def round_two(draw: st.DrawFn, setup: Setup) -> dict[str, Any]:
    """Any combination of §11.11–§11.18 that the set-up's ruleset and other options allow."""
    rs = RULESETS[setup.rules]
    opts = setup.options
    chosen: dict[str, Any] = {}
    if not rs.table_options:
        return chosen
    chosen["forfeit_penalty"] = draw(st.booleans())
    if opts.dump_555 != "off":
        dumped = {abs(s) for s in setup.start_scores}
        chosen["dump_at"] = draw(st.sampled_from([d for d in (555, 550, 100, 875) if d not in dumped] or [555]))
    if rs.has_barrel:
        chosen |= {
            "barrel_gap": draw(st.sampled_from([120, 100])),
            "barrel_jump": draw(st.sampled_from(["wins", "mounts"])),
            "barrel_clash": draw(st.sampled_from(["all_stay", "one_stays", "all_fall"])),
            "barrel_defender_wins": draw(st.booleans()),
            "barrel_win_score": draw(st.sampled_from(["target", "added"])),
            "barrel_zeros": opts.zeros not in (None, "off") and draw(st.booleans()),
        }
    return chosen


@st.composite
def round_two_matches(draw: st.DrawFn, name: str, n: int, max_hands: int = 30) -> Match:
    """A set-up with the house rules of §11.1–§11.10 as `setups` draws them and those of
    §11.11–§11.18 as `round_two` does, and legal hands, stopping early at a winner."""
    drawn = draw(setups(name, n))
    setup = replace(drawn, options=replace(drawn.options, **draw(round_two(drawn))))
    check_setup(setup)
    run = Replay(setup)
    hands: list[HandRecord] = []
    for _ in range(draw(st.integers(0, max_hands))):
        if run.winner is not None:
            break
        hands.append(draw(legal_hand(setup, run.state())))
        run.add(hands[-1])
    return Match(setup, tuple(hands), run.state())


@pytest.mark.parametrize(("name", "n"), BARREL_CONFIGS)
@settings(SETTINGS, max_examples=100)
@given(data=st.data())
def test_no_score_ever_rests_between_the_barrel_and_the_target(name: str, n: int, data: st.DataObject) -> None:
    m = data.draw(round_two_matches(name, n))
    opts = m.setup.options
    target, barrel_at = opts.target, opts.target - opts.barrel_gap
    on_before = [False] * n
    for hand in m.sheet.hands:
        for i, r in enumerate(hand.results):
            # §4 rule 1 with §11.11: never in B+1..T−1; exactly B only while on the barrel.
            assert not barrel_at < r.score < target
            assert (r.score == barrel_at) == r.barrel
            assert r.total - r.owed == r.score
            if opts.barrel_jump == "mounts" and r.score >= target:
                # §11.12: the target is reached only from the barrel (and then the match is won).
                assert on_before[i] and m.sheet.winner is not None and hand is m.sheet.hands[-1]
        on_before = [r.barrel for r in hand.results]
    won = [h for h in m.sheet.hands if any("win" in r.events for r in h.results)]
    assert won == ([] if m.sheet.winner is None else [m.sheet.hands[-1]])


def left_out(setup: dict[str, Any]) -> dict[str, Any]:
    """A recorded set-up with the options of §11.11–§11.18 left out."""
    return {**setup, "options": {k: v for k, v in setup["options"].items() if k not in ROUND_TWO}}


def sheet_now(setup: dict[str, Any], hands: list[dict[str, Any]]) -> dict[str, Any]:
    """The sheet today's engine computes for a set-up and hands (the JSON shapes), as the
    recorded data has it."""
    now = replay(setup_from_dict(setup), [hand_from_dict(hand) for hand in hands])
    return sheet_data(now, recorded_before_round_two()["fields"])


@pytest.mark.parametrize("spelled", [False, True], ids=["left_out", "spelled_out"])
@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_with_the_new_options_at_their_defaults_a_match_scores_as_before_them(name: str, n: int, spelled: bool) -> None:
    # §11: every default is today's rule. The options of §11.1–§11.10 are as drawn; those of
    # §11.11–§11.18 are left out, or spelled out at the defaults they had when recorded.
    matches = recorded_before_round_two()["matches"][f"{name}-{n}"]
    assert len(matches) >= 10 and any(m["hands"] for m in matches)
    for k, match in enumerate(matches):
        setup = match["setup"] if spelled else left_out(match["setup"])
        if spelled:
            today = setup_to_dict(setup_from_dict(left_out(setup)))["options"]
            assert {o: today[o] for o in ROUND_TWO} == {o: setup["options"][o] for o in ROUND_TWO}, (
                f"a default moved: match {k} of {name}-{n}"
            )
        assert sheet_now(setup, match["hands"]) == match["sheet"], f"match {k} of {name}-{n}"


@pytest.mark.parametrize(("option", "value"), [(o, v) for o, values in OTHER_VALUES.items() for v in values])
def test_the_comparison_sees_every_other_value(option: str, value: Any) -> None:
    """Guard against recorded matches that score alike whatever the option: with `value`
    instead of the default, some match scores otherwise than recorded (or a hand is refused)."""
    for matches in recorded_before_round_two()["matches"].values():
        for match in matches:
            if match["setup"]["options"][option] == value:
                continue
            setup = {**match["setup"], "options": {**match["setup"]["options"], option: value}}
            try:
                check_setup(setup_from_dict(setup))
            except RuleError:
                continue  # the ruleset or the other options do not take the value
            try:
                if sheet_now(setup, match["hands"]) != match["sheet"]:
                    return
            except Refused:
                return
    pytest.fail(f"no recorded match scores otherwise with {option} = {value!r}")


def test_the_strategy_reaches_the_new_rules() -> None:
    """Guard against a strategy that never clashes, never knocks off, never dumps at a moved
    score, never wins from the barrel as a defender."""
    seen: set[str] = set()

    @settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @seed(2)
    @given(m=st.sampled_from(BARREL_CONFIGS).flatmap(lambda c: round_two_matches(c[0], c[1])))
    def collect(m: Match) -> None:
        opts = m.setup.options
        on_before = [False] * len(m.setup.players)
        for h in m.sheet.hands:
            for i, r in enumerate(h.results):
                seen.update(r.events)
                if on_before[i] and not r.barrel and r.score >= opts.target and i != h.record.declarer:
                    seen.add("defender won")
                if opts.dump_at != 555 and "dump" in r.events:
                    seen.add("moved dump")
            on_before = [r.barrel for r in h.results]

    collect()
    assert {"barrel_clash", "knocked_off", "defender won", "moved dump", "zero"} <= seen, seen
