"""Property tests (Hypothesis) for the house rules of RULES.md §11.11–§11.18: the barrel holds
with every combination of them, and with each at its default a match scores as it did before
they existed (the engine of commit 0ff9236, read from a temporary git worktree)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from bench.replay import load_engine
from scoresheet.rules import (
    RULESETS,
    HandRecord,
    Replay,
    Setup,
    check_setup,
    hand_to_dict,
    replay,
    setup_from_dict,
    setup_to_dict,
)

from .baseline import ROOT, sheet_data
from .test_properties import CONFIGS, SETTINGS, Match, legal_hand, matches, setups

BEFORE_ROUND_TWO = "0ff9236"
"""The last commit before §11.11–§11.18 (and before the engine's keyword-only value types)."""
ROUND_TWO = (
    "barrel_gap",
    "barrel_jump",
    "barrel_clash",
    "barrel_defender_wins",
    "barrel_win_score",
    "barrel_zeros",
    "forfeit_penalty",
    "dump_at",
)
"""The options §11.11–§11.18 add."""
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


@pytest.fixture(scope="module")
def before() -> Any:
    """The engine of 0ff9236."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip(f"git is not available here: the engine of {BEFORE_ROUND_TWO} cannot be read")
    known = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "-e", f"{BEFORE_ROUND_TWO}^{{commit}}"], capture_output=True
    )
    if known.returncode != 0:
        pytest.fail(f"commit {BEFORE_ROUND_TWO} is not in this clone: fetch the history")
    return load_engine(BEFORE_ROUND_TWO)


@settings(SETTINGS, max_examples=120, suppress_health_check=list(HealthCheck))
@given(m=st.sampled_from(CONFIGS).flatmap(lambda c: matches(c[0], c[1])), spelled=st.booleans())
def test_with_the_new_options_at_their_defaults_a_match_scores_as_before_them(
    before: Any, m: Match, spelled: bool
) -> None:
    # §11: every default is today's rule. The options of §11.1–§11.10 are as drawn; those of
    # §11.11–§11.18 are left out or spelled out at their defaults.
    data = setup_to_dict(m.setup)
    if not spelled:
        data["options"] = {k: v for k, v in data["options"].items() if k not in ROUND_TWO}
    now = replay(setup_from_dict(data), m.hands) if spelled else m.sheet
    old_data = {**data, "options": {k: v for k, v in data["options"].items() if k not in ROUND_TWO}}
    then = before.replay(before.setup_from_dict(old_data), [before.hand_from_dict(hand_to_dict(h)) for h in m.hands])
    assert sheet_data(now, before) == sheet_data(then, before)


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
