"""The five Tysiacha rulesets of RULES.md §7 as data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .records import MARRIAGES

Endgame = Literal["barrel_took", "barrel_bid", "lock", "cap", "none"]
ForfeitStyle = Literal["count", "minus_bid", "bomb"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One column of the table in RULES.md §7."""

    name: str
    seats: tuple[int, ...]
    """Seat counts allowed."""
    targets: tuple[int, ...]
    """Targets allowed; the first is the default."""
    bid_step: int
    min_bid: int
    forced_min_bid: int | None
    """Tyzicha: the lowest bid when the declarer was forced; None where there is no such rule."""
    rounding: int
    """Defenders' card points are rounded to this step (0: not rounded)."""
    defenders_score_on_made: bool
    """False where defenders score only when the declarer missed (Tyzicha)."""
    endgame: Endgame
    """`barrel_took`/`barrel_bid`: the barrel, won by took ≥ 120 / a made bid ≥ 120;
    `lock`: polish 900..999; `cap`: non-declarers capped below the target; `none`."""
    zeros: bool
    """Every third zero costs 120."""
    forfeit: ForfeitStyle
    """`count`: declarer untouched, every third costs 120; `minus_bid`: declarer −bid;
    `bomb`: first one per seat free, later ones pay every other seat."""
    forfeit_bonus: int
    """What each opponent gets for a forfeit (`count`, `minus_bid`)."""
    table_options: bool
    """Gold set, blind bids, the sitter bonus and the house rules (§11) may be switched on."""
    bids_first: int = 1
    """Where the first bidder sits from the dealer: 1, the dealer's left; −1 (tyzicha), the
    dealer's right."""

    @property
    def has_barrel(self) -> bool:
        """The ruleset has the barrel of RULES.md §4."""
        return self.endgame in ("barrel_took", "barrel_bid")

    def barrel_at(self, target: int) -> int | None:
        """Where the barrel sits for this target (RULES.md §4: 880 for 1000), if there is one."""
        return target - BARREL_BELOW if self.has_barrel else None

    def fall_to(self, target: int) -> int | None:
        """Where a fall from the barrel lands for this target (RULES.md §4: 760 for 1000), if
        there is a barrel."""
        return target - FALL_BELOW if self.has_barrel else None

    def lock_at(self, target: int) -> int | None:
        """Where the polish lock starts for this target (900 for 1000), if there is one."""
        return target - LOCK_BELOW if self.endgame == "lock" else None


BARREL_BELOW = 120
"""The barrel sits this far below the target; a fall from it drops twice as far (RULES.md §4)."""
FALL_BELOW = 2 * BARREL_BELOW
"""A fall from the barrel lands this far below the target (RULES.md §4)."""
LOCK_BELOW = 100
"""Polish: a seat this close to the target is locked (RULES.md §7)."""
PACK = 120
"""Card points in the pack (RULES.md §1)."""
MAX_BID = 400
GOLD_MIN_BID = 120
BARREL_HANDS = 3
COUNT_PENALTY = 120
"""What every third zero or forfeit costs (RULES.md §4); never multiplied."""

RULESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        Ruleset(
            "squarescores", (3, 4), (1000, 2000, 3000), 5, 100, None, 5, True, "barrel_took", True, "count", 60, True
        ),
        Ruleset("polish", (3, 4), (1000,), 10, 100, None, 10, True, "lock", False, "minus_bid", 60, True),
        Ruleset(
            "classic", (3, 4), (1000, 2000, 3000), 5, 100, None, 5, True, "barrel_bid", False, "minus_bid", 60, True
        ),
        Ruleset("ggtables", (2, 3, 4), (1000, 500), 10, 100, None, 10, True, "none", False, "bomb", 60, False),
        Ruleset("tyzicha", (3,), (1001,), 10, 110, 100, 0, False, "cap", False, "minus_bid", 40, False, bids_first=-1),
    )
}


def round_points(points: int, step: int) -> int:
    """Round card points to the step, a 5 rounding up for step 10 (RULES.md §3)."""
    if step == 0:
        return points
    return (points + step // 2) // step * step


def complete_points(points: tuple[int | None, ...] | None, declarer: int) -> tuple[int | None, ...]:
    """Fill in the declarer's card points from 120 − the defenders' (RULES.md §2)."""
    assert points is not None
    if points[declarer] is not None:
        return points
    completed = list(points)
    completed[declarer] = PACK - sum(filter(None, points))  # filter drops None (and 0)
    return tuple(completed)


def marriage_points(suits: tuple[str, ...]) -> int:
    """What the marriages one seat declared are worth (RULES.md §1, with §11.10's aces)."""
    return sum(map(MARRIAGES.__getitem__, suits))
