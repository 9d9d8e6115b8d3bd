"""Record what the engine before the house rules of RULES.md §11.11–§11.18 (commit 0ff9236)
computed, as test data: tests/rules/before_round_two.json. The tests compare today's engine
with it, so they need neither git history nor bench/.

Run once, from a full clone:  .venv/bin/python tools/record_before_round_two.py

It reads that engine from a temporary `git worktree` (bench/replay.py's `load_engine`) and
records, each match as a set-up and hands in the JSON shapes with that engine's computed sheet,
per ruleset and seat count, matches with the house rules of §11.1–§11.10 as drawn and those of
§11.11–§11.18 at their defaults (Hypothesis draws them from the property tests' strategies,
derandomized: the same matches every run). The set-up spells the new options out at today's
defaults; that engine, which knows none of them, read it with them left out.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

from bench.replay import load_engine  # noqa: E402
from scoresheet.rules import (  # noqa: E402
    Refused,
    RuleError,
    check_setup,
    hand_to_dict,
    replay,
    setup_from_dict,
    setup_to_dict,
)
from tests.rules.baseline import (  # noqa: E402
    BEFORE_ROUND_TWO,
    OTHER_VALUES,
    ROUND_TWO,
    ROUND_TWO_DATA,
    sheet_data,
)
from tests.rules.test_properties import CONFIGS, Match, matches  # noqa: E402

MATCHES = 10
"""Matches recorded per ruleset and seat count (more if the other values need them)."""
DRAWN = 10
"""Matches drawn per match recorded: enough that dumps at a moved score and third forfeits
occur in some (`chosen`)."""
HANDS = 16
"""At most this many hands a match (the file stays a few hundred KB)."""


def fields(base: ModuleType) -> dict[str, list[str]]:
    """The figures that engine's sheet has: per seat, per hand, per standing, of the next deal."""
    return {
        "seat": list(base.SeatResult._fields),
        "hand": [f for f in base.HandResult._fields if f not in ("record", "results")],
        "standing": [f.name for f in dataclasses.fields(base.Standing)],
        "next": [f.name for f in dataclasses.fields(base.NextDeal)],
    }


def recorded(base: ModuleType, setup: dict[str, Any], hands: list[dict[str, Any]], names: Any) -> dict[str, Any]:
    """A match as the test data holds it: set-up, hands and that engine's sheet."""
    old = {**setup, "options": {k: v for k, v in setup["options"].items() if k not in ROUND_TWO}}
    then = base.replay(base.setup_from_dict(old), [base.hand_from_dict(h) for h in hands])
    return {"setup": setup, "hands": hands, "sheet": sheet_data(then, names)}


def drawn_matches(name: str, n: int) -> list[Match]:
    """DRAWN × MATCHES matches of the ruleset `name` with `n` seats, the same every run."""
    drawn: list[Match] = []

    @settings(
        max_examples=DRAWN * MATCHES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(match=matches(name, n, HANDS))
    def draw(match: Match) -> None:
        drawn.append(match)

    draw()
    return drawn


def scored_otherwise(m: Match, names: Any) -> set[tuple[str, Any]]:
    """The other values of the new options with which today's engine scores the match
    otherwise (or refuses one of its hands): what the recorded match lets the tests see."""
    data = setup_to_dict(m.setup)
    plain = sheet_data(m.sheet, names)
    seen: set[tuple[str, Any]] = set()
    for option, values in OTHER_VALUES.items():
        for value in values:
            if data["options"][option] == value:
                continue
            try:
                setup = setup_from_dict({**data, "options": {**data["options"], option: value}})
                check_setup(setup)
            except RuleError:
                continue  # the ruleset or the other options do not take the value
            try:
                if sheet_data(replay(setup, m.hands), names) != plain:
                    seen.add((option, value))
            except Refused:
                seen.add((option, value))
    return seen


def chosen(drawn: list[Match], names: Any) -> list[Match]:
    """MATCHES of the drawn matches (more if the other values need them), longest first: for
    each other value of a new option not yet seen, the shortest match that sees it; then half
    of them won (wins from the barrel, §11.12–§11.15), the others as long as they come (falls,
    clashes, zeros, dumps), each half filled from the other where it falls short."""
    sees = [scored_otherwise(m, names) for m in drawn]
    by_length = sorted(range(len(drawn)), key=lambda i: len(drawn[i].hands))
    picked: list[int] = []
    for key in [(option, value) for option, values in OTHER_VALUES.items() for value in values]:
        if not any(key in sees[i] for i in picked):
            picked += [i for i in by_length if key in sees[i]][:1]
    longest = [i for i in reversed(by_length) if i not in picked]
    room = max(0, MATCHES - len(picked))
    won = [i for i in longest if drawn[i].sheet.winner is not None][: room // 2]
    rest = [i for i in longest if drawn[i].sheet.winner is None][: room - len(won)]
    more = [i for i in longest if i not in won and i not in rest][: room - len(won) - len(rest)]
    return [drawn[i] for i in sorted([*picked, *won, *rest, *more], key=lambda i: -len(drawn[i].hands))]


def by_config(base: ModuleType, names: Any) -> dict[str, list[dict[str, Any]]]:
    """Matches per ruleset and seat count, with that engine's sheets."""
    return {
        f"{name}-{n}": [
            recorded(base, setup_to_dict(m.setup), [hand_to_dict(h) for h in m.hands], names)
            for m in chosen(drawn_matches(name, n), names)
        ]
        for name, n in CONFIGS
    }


def one_match_a_line(data: dict[str, Any]) -> str:
    """The data as JSON, each match on a line of its own (a change shows as the matches it touches)."""

    def dumps(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"), sort_keys=True)

    groups = ",\n".join(
        f"{dumps(k)}: [\n" + ",\n".join(dumps(m) for m in v) + "\n]" for k, v in data["matches"].items()
    )
    head = [f"{dumps(k)}: {dumps(v)}" for k, v in data.items() if k != "matches"]
    return "{\n" + ",\n".join([*head, '"matches": {\n' + groups + "\n}"]) + "\n}\n"


def main() -> None:
    """Write ROUND_TWO_DATA."""
    base = load_engine(BEFORE_ROUND_TWO)
    names = fields(base)
    data = {"commit": BEFORE_ROUND_TWO, "fields": names, "matches": by_config(base, names)}
    ROUND_TWO_DATA.write_text(one_match_a_line(data), encoding="utf-8")
    print(f"{ROUND_TWO_DATA.relative_to(ROOT)}: {ROUND_TWO_DATA.stat().st_size} bytes")


if __name__ == "__main__":
    main()
