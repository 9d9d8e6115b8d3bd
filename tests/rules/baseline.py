"""The engine of commit 11320f9, the last before the house rules of issue 14, loaded from a
temporary `git worktree` as bench/replay.py does; and a computed sheet as plain data, field by
field as that engine has them, so the engines of then and now can be compared."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bench.replay import load_engine
from scoresheet.rules import HandRecord, Setup, hand_to_dict, setup_to_dict
from scoresheet.rules.house import HOUSE_RULES, LEGACY
from scoresheet.rules.rulesets import COUNT_PENALTY

BEFORE_HOUSE_RULES = "11320f9"
"""The commit before the house rules (RULES.md §11) and the corrections of §7."""
ROOT = Path(__file__).resolve().parents[2]
_loaded: list[ModuleType] = []


def engine_before_house_rules() -> ModuleType:
    """The `scoresheet.rules` package of 11320f9 (loaded once); skips the test without git."""
    if _loaded:
        return _loaded[0]
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("git is not available here: the engine of 11320f9 cannot be read")
    known = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "-e", f"{BEFORE_HOUSE_RULES}^{{commit}}"], capture_output=True
    )
    if known.returncode != 0:
        pytest.fail(f"commit {BEFORE_HOUSE_RULES} is not in this clone: fetch the history")
    _loaded.append(load_engine(BEFORE_HOUSE_RULES))
    return _loaded[0]


def old_setup_data(setup_data: dict[str, Any]) -> dict[str, Any]:
    """A set-up as plain data as that engine reads it: no house rule, no old forced rule."""
    options = {k: v for k, v in setup_data["options"].items() if k not in HOUSE_RULES and k != LEGACY}
    return {**setup_data, "options": options}


def replay_before(base: ModuleType, setup: Setup, hands: Sequence[HandRecord]) -> Any:
    """The sheet that engine computes for the same set-up and hands (through the JSON shapes)."""
    old = base.setup_from_dict(old_setup_data(setup_to_dict(setup)))
    return base.replay(old, [base.hand_from_dict(hand_to_dict(h)) for h in hands])


def _then(field: str, value: Any) -> Any:
    """A standing's figure as both engines can say it: the old engine's `next_zero_costs` was
    a yes or no (the next zero costs 120); it is now the amount (RULES.md §11.1)."""
    if field == "next_zero_costs" and isinstance(value, bool):
        return COUNT_PENALTY if value else 0
    return value


def sheet_data(sheet: Any, base: ModuleType, first_bidder: bool = True) -> dict[str, Any]:
    """Every figure of a computed sheet that the old engine has: each hand's entries, owed,
    scores and events per seat, the standings, the winner, the status and the next deal
    (without its first bidder if `first_bidder` is false: tyzicha's was corrected, §7)."""
    seat_fields = base.SeatResult._fields
    hand_fields = [f for f in base.HandResult._fields if f not in ("record", "results")]
    standing_fields = [f.name for f in dataclasses.fields(base.Standing)]
    next_fields = [f.name for f in dataclasses.fields(base.NextDeal) if first_bidder or f.name != "first_bidder"]
    return {
        "hands": [
            {
                **{f: getattr(h, f) for f in hand_fields},
                "results": [{f: getattr(r, f) for f in seat_fields} for r in h.results],
            }
            for h in sheet.hands
        ],
        "standings": [{f: _then(f, getattr(s, f)) for f in standing_fields} for s in sheet.standings],
        "winner": sheet.winner,
        "status": sheet.status,
        "next": None if sheet.next is None else {f: getattr(sheet.next, f) for f in next_fields},
    }
