"""Record what the engine before the house rules (commit 11320f9) computed, as test data:
tests/rules/before_house_rules.json. The tests compare today's engine with it, so they need
neither git history nor bench/.

Run once, from a full clone:  .venv/bin/python tools/record_before_house_rules.py

It reads that engine from a temporary `git worktree` (bench/replay.py's `load_engine`) and
records, each match as a set-up and hands in the JSON shapes with that engine's computed sheet:
- "no_house_rule": per ruleset and seat count, matches with no house rule (Hypothesis draws
  them from the property tests' strategies, derandomized: the same matches every run);
- "changed_rule": classic's miss on the barrel, a rule corrected since (RULES.md §7);
- "migration_0006": matches as stored before migration 0006, each ruleset's hands seeded and
  taken one by one by that engine (tests/web/test_migration_0006.py stores and migrates them).
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from bench.replay import load_engine  # noqa: E402
from scoresheet.rules import RULESETS, HandRecord, Options, Replay, Setup, hand_to_dict, setup_to_dict  # noqa: E402
from scoresheet.rules.house import HOUSE_RULES, LEGACY  # noqa: E402
from tests.rules.baseline import BEFORE_HOUSE_RULES, DATA, sheet_data  # noqa: E402
from tests.rules.test_properties import CONFIGS, legal_hand, setups  # noqa: E402

MATCHES = 12
"""Matches recorded per ruleset and seat count: the longest of three times as many drawn."""
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
SUITS = ("hearts", "diamonds", "clubs", "spades")
OLD_OPTIONS = {"gold_set": False, "blind_bids": False, "sitter_bonus": False, "sheet": "deferred"}
"""A Tysiacha match's stored options before the house rules."""
STORED = {
    # id: ruleset, seats, start scores, hands wanted, banked (then played on to a winner)
    "classic-3": ("classic", 3, [800, 760, 0], 40, False),
    "classic-4": ("classic", 4, [820, 700, 500, 0], 40, False),
    "tyzicha": ("tyzicha", 3, [0, 300, 600], 40, False),
    "squarescores": ("squarescores", 3, [800, 500, 0], 40, False),
    "banked": ("squarescores", 3, [700, 600, 500], 20, True),
    "polish": ("polish", 4, [850, 700, 0, 0], 40, False),
    "ggtables": ("ggtables", 2, [0, 0], 30, False),
    "tichu": ("tichu", 4, [0, 0], 20, False),
}


def fields(base: ModuleType) -> dict[str, list[str]]:
    """The figures that engine's sheet has: per seat, per hand, per standing, of the next deal."""
    return {
        "seat": list(base.SeatResult._fields),
        "hand": [f for f in base.HandResult._fields if f not in ("record", "results")],
        "standing": [f.name for f in dataclasses.fields(base.Standing)],
        "next": [f.name for f in dataclasses.fields(base.NextDeal)],
    }


def recorded(base: ModuleType, setup: dict[str, Any], hands: list[dict[str, Any]], names: Any) -> dict[str, Any]:
    """A match as the test data holds it: set-up, hands and that engine's sheet (tyzicha's
    first bidder left out: its bidding order was corrected, RULES.md §7)."""
    old = {**setup}
    if setup["rules"] != "tichu":  # that engine knows no house rule and no old forced rule
        old["options"] = {k: v for k, v in setup["options"].items() if k not in HOUSE_RULES and k != LEGACY}
    then = base.replay(base.setup_from_dict(old), [base.record_from_dict(h, setup["rules"]) for h in hands])
    return {"setup": setup, "hands": hands, "sheet": sheet_data(then, names, first_bidder=setup["rules"] != "tyzicha")}


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


def drawn_matches(name: str, n: int) -> list[tuple[Setup, list[HandRecord]]]:
    """3 × MATCHES plain matches of the ruleset `name` with `n` seats, the same every run."""
    drawn: list[tuple[Setup, list[HandRecord]]] = []

    @settings(
        max_examples=3 * MATCHES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(match=plain_matches(name, n))
    def draw(match: tuple[Setup, list[HandRecord]]) -> None:
        drawn.append(match)

    draw()
    return drawn


def no_house_rule(base: ModuleType, names: Any) -> dict[str, list[dict[str, Any]]]:
    """Plain matches per ruleset and seat count, with that engine's sheets."""
    return {
        f"{name}-{n}": [
            recorded(base, setup_to_dict(setup), [hand_to_dict(h) for h in hands], names)
            for setup, hands in sorted(drawn_matches(name, n), key=lambda m: -len(m[1]))[:MATCHES]
        ]
        for name, n in CONFIGS
    }


def changed_rule(base: ModuleType, names: Any) -> dict[str, Any]:
    """A classic match whose second hand misses a bid on the barrel: the rule corrected in §7."""
    setup = Setup(("A", "B", "C"), "classic", Options(1000), 0, (800, 0, 0))
    hands = [
        HandRecord("played", 1, 100, (100, None, 0)),  # A mounts at 880
        HandRecord("played", 0, 140, (None, 10, 10)),  # A bids 140 on it, takes 100
    ]
    return recorded(base, setup_to_dict(setup), [hand_to_dict(h) for h in hands], names)


def stored_setup(rules: str, seats: int, start: list[int]) -> dict[str, Any]:
    """A set-up as a match created before the house rules stored it."""
    players = ["Anna", "Boris", "Vera", "Gleb"][:seats]
    if rules == "tichu":
        options = {"target": 1000, "great_grand_tichu": False, "sheet": "signed"}
    else:
        options = {"target": RULESETS[rules].targets[0], **OLD_OPTIONS}
    return {"players": players, "rules": rules, "first_dealer": 1, "options": options, "start_scores": start}


def a_body(rng: random.Random, rules: str, sheet: Any) -> dict[str, Any]:
    """A random hand (or Tichu round) body; the engine of then judges whether it is legal."""
    if rules == "tichu":
        calls = [rng.choice([None, None, None, "tichu", "grand"]) for _ in range(4)]
        team = 5 * rng.randrange(-5, 26)
        return {"calls": calls, "first_out": rng.randrange(4), "card_points": [team, 100 - team]}
    n = len(sheet.standings)
    roll = rng.random()
    if roll < 0.04:
        return {"kind": "redeal"}
    in_hand = [i for i in range(n) if i != sheet.next.sitting_out]
    declarer = rng.choice(in_hand)
    bid = 100 + RULESETS[rules].bid_step * rng.choice([0, 0, 1, 2, 3, 4, 6, 10, 20])
    forced = rules == "tyzicha" and rng.random() < 0.3  # the old rule: any seat, 100 or more
    if roll < 0.12:
        return {"kind": "forfeit", "declarer": declarer, "bid": bid, "forced": forced}
    points: list[int | None] = [None] * n
    left = 120
    for i in in_hand:
        if i != declarer:
            points[i] = rng.choice([0, rng.randrange(0, left + 1)])
            left -= points[i] or 0
    marriages: list[list[str]] = [[] for _ in range(n)]
    for suit in SUITS:
        owner = rng.choice([None, None, *in_hand])
        if owner is not None:
            marriages[owner].append(suit)
    return {
        "kind": "played",
        "declarer": declarer,
        "bid": bid,
        "points": points,
        "marriages": marriages,
        "forced": forced,
    }


def hands_of_then(base: ModuleType, setup: dict[str, Any], wanted: int, banked: bool, seed: int) -> list[Any]:
    """Seeded hands the engine of then took one by one: `wanted` of them without a winner,
    or (banked) `wanted` without one, then the first hand that wins."""
    rng = random.Random(seed)
    rules = setup["rules"]
    run = base.Replay(base.setup_from_dict(setup))
    bodies: list[dict[str, Any]] = []
    for _ in range(20 * wanted):
        body = a_body(rng, rules, run.state())
        trial = run.copy()
        try:
            trial.add(base.record_from_dict(body, rules))
        except (base.Refused, base.Malformed):
            continue
        if trial.winner is not None and (not banked or len(bodies) < wanted):
            continue
        run = trial
        bodies.append(body)
        if trial.winner is not None or (not banked and len(bodies) == wanted):
            return bodies
    raise AssertionError(f"no {wanted} hands for {rules}")


def migration_0006(base: ModuleType, names: Any) -> dict[str, dict[str, Any]]:
    """Every match of STORED as stored at revision 0005, with the sheet of then."""
    out = {}
    for seed, (match_id, (rules, seats, start, wanted, banked)) in enumerate(STORED.items()):
        setup = stored_setup(rules, seats, start)
        match = recorded(base, setup, hands_of_then(base, setup, wanted, banked, seed), names)
        assert (match["sheet"]["winner"] is not None) == banked
        out[match_id] = {"banked": banked, **match}
    return out


def one_match_a_line(data: dict[str, Any]) -> str:
    """The data as JSON, each match on a line of its own (a change shows as the matches it touches)."""

    def dumps(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"), sort_keys=True)

    def group(matches: dict[str, Any] | list[Any]) -> str:
        if isinstance(matches, list):
            return "[\n" + ",\n".join(dumps(m) for m in matches) + "\n]"
        return (
            "{\n"
            + ",\n".join(f"{dumps(k)}: {group(v) if isinstance(v, list) else dumps(v)}" for k, v in matches.items())
            + "\n}"
        )

    head = {k: v for k, v in data.items() if k not in ("no_house_rule", "migration_0006")}
    return (
        "{\n"
        + ",\n".join(
            [
                *(f"{dumps(k)}: {dumps(v)}" for k, v in head.items()),
                f'"no_house_rule": {group(data["no_house_rule"])}',
                f'"migration_0006": {group(data["migration_0006"])}',
            ]
        )
        + "\n}\n"
    )


def main() -> None:
    """Write DATA."""
    base = load_engine(BEFORE_HOUSE_RULES)
    names = fields(base)
    data = {
        "commit": BEFORE_HOUSE_RULES,
        "fields": names,
        "no_house_rule": no_house_rule(base, names),
        "changed_rule": changed_rule(base, names),
        "migration_0006": migration_0006(base, names),
    }
    DATA.write_text(one_match_a_line(data), encoding="utf-8")
    print(f"{DATA.relative_to(ROOT)}: {DATA.stat().st_size} bytes")


if __name__ == "__main__":
    main()
