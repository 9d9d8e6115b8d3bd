"""What the engine of commit 11320f9, the last before the house rules, computed, and the engine
of commit 0ff9236, the last before those of RULES.md §11.11–§11.18: sheets recorded as test
data (before_house_rules.json and before_round_two.json, written once from those commits by
tools/record_before_house_rules.py and tools/record_before_round_two.py), so the engines of
then and now can be compared without git history; and a computed sheet as plain data, field
by field as those engines have them."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from scoresheet.rules.rulesets import COUNT_PENALTY

BEFORE_HOUSE_RULES = "11320f9"
"""The commit before the house rules (RULES.md §11) and the corrections of §7."""
DATA = Path(__file__).with_name("before_house_rules.json")
BEFORE_ROUND_TWO = "0ff9236"
"""The last commit before §11.11–§11.18 (and before the engine's keyword-only value types)."""
ROUND_TWO_DATA = Path(__file__).with_name("before_round_two.json")
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
"""The options §11.11–§11.18 add: the engine of 0ff9236 knows none of them."""
OTHER_VALUES: dict[str, tuple[Any, ...]] = {
    "barrel_gap": (100,),
    "barrel_jump": ("mounts",),
    "barrel_clash": ("one_stays", "all_fall"),
    "barrel_defender_wins": (True,),
    "barrel_win_score": ("added",),
    "barrel_zeros": (True,),
    "forfeit_penalty": (True, False),
    "dump_at": (550, 100),
}
"""Each option of ROUND_TWO with values a table may set besides the default (forfeit_penalty's
default is the ruleset's: the other of the two)."""


@functools.cache
def recorded() -> dict[str, Any]:
    """The recorded data: "fields" (the figures that engine's sheet has), "no_house_rule" (per
    ruleset and seat count, matches without house rules), "changed_rule" and "migration_0006";
    each match a set-up, hands (the JSON shapes) and that engine's `sheet_data`."""
    return json.loads(DATA.read_text(encoding="utf-8"))


@functools.cache
def recorded_before_round_two() -> dict[str, Any]:
    """The recorded data of 0ff9236: "fields" (the figures that engine's sheet has) and
    "matches" (per ruleset and seat count, matches with the house rules of §11.1–§11.10 as
    drawn); each match a set-up with the options of §11.11–§11.18 spelled out at their
    defaults, hands (the JSON shapes) and that engine's `sheet_data`, the new options left out."""
    return json.loads(ROUND_TWO_DATA.read_text(encoding="utf-8"))


def _then(field: str, value: Any) -> Any:
    """A standing's figure as both engines can say it: the old engine's `next_zero_costs` was
    a yes or no (the next zero costs 120); it is now the amount (RULES.md §11.1)."""
    if field == "next_zero_costs" and isinstance(value, bool):
        return COUNT_PENALTY if value else 0
    return value


def said_now(data: dict[str, Any], fields: dict[str, list[str]]) -> dict[str, Any]:
    """Recorded sheet data with the standings as the engine words them now: on the barrel, no
    zero and no Rospisat' costs anything next (RULES.md §4, §11.16, §11.17; the old engine said
    what the next would cost off it). The scores and every other figure as recorded."""
    at = {f: i for i, f in enumerate(fields["standing"])}

    def now(standing: list[Any]) -> list[Any]:
        if not standing[at["barrel"]]:
            return standing
        said = list(standing)
        said[at["next_zero_costs"]], said[at["next_forfeit_costs"]] = 0, False
        return said

    return {**data, "standings": [now(s) for s in data["standings"]]}


def sheet_data(sheet: Any, fields: dict[str, list[str]], first_bidder: bool = True) -> dict[str, Any]:
    """Every figure of a computed sheet that the old engine has, as JSON data in the order of
    `fields`: per hand its figures and per seat the entry, owed, score, events…; the standings,
    the winner, the status and the next deal (without its first bidder if `first_bidder` is
    false: tyzicha's was corrected, §7)."""
    data = {
        "hands": [
            [*(getattr(h, f) for f in fields["hand"]), [[getattr(r, f) for f in fields["seat"]] for r in h.results]]
            for h in sheet.hands
        ],
        "standings": [[_then(f, getattr(s, f)) for f in fields["standing"]] for s in sheet.standings],
        "winner": sheet.winner,
        "status": sheet.status,
        "next": None
        if sheet.next is None
        else [getattr(sheet.next, f) for f in fields["next"] if first_bidder or f != "first_bidder"],
    }
    return json.loads(json.dumps(data))
