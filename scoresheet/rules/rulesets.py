"""The five Tysiacha rulesets of RULES.md §7 as data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Endgame = Literal["barrel_took", "barrel_bid", "lock", "cap", "none"]
ForfeitStyle = Literal["count", "minus_bid", "bomb"]

BARREL_BELOW = 120
"""The barrel sits this far below the target (RULES.md §4: 880 for 1000); the house rule
`barrel_gap` may set 100 (§11.11)."""
BARREL_GAPS = (BARREL_BELOW, 100)
"""How far below the target a table may put the barrel (§11.11)."""
BARREL_DROP = 120
"""A fall, a knock-off or a clash drops a seat this far below the barrel (RULES.md §4, §11.11)."""
FALL_BELOW = BARREL_BELOW + BARREL_DROP
"""A fall from the barrel lands this far below the target (RULES.md §4: 760 for 1000)."""
LOCK_BELOW = 100
"""Polish: a seat this close to the target is locked (RULES.md §7)."""
PACK = 120
"""Card points in the pack (RULES.md §1)."""
MAX_BID = 400
"""The highest bid (RULES.md §2)."""
GOLD_MIN_BID = 120
"""The lowest bid in a gold set (RULES.md §6)."""
GOLD_MULTIPLIER = 2
"""What a gold-set hand's points are multiplied by (RULES.md §3, §6)."""
BLIND_MULTIPLIER = 2
"""What a blind bid that won multiplies the hand's points by (RULES.md §3, §6)."""
DUMP_AT = 555
"""The score the house rule `dump_555` dumps unless `dump_at` moves it (RULES.md §11.2, §11.18)."""
COUNT_PENALTY = 120
"""What every third zero or forfeit costs (RULES.md §4); never multiplied."""
FORFEIT_BONUS = 60
"""What each opponent gets for a forfeit (RULES.md §4, §7)."""
BOMB_BONUS_FOUR_SEATS = 40
"""ggtables with four seats: what every other seat gets for a seat's second and later bombs
(with fewer seats, the ruleset's `forfeit_bonus`; RULES.md §7)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """One column of the table in RULES.md §7; a field left out is what most rulesets play."""

    name: str
    seats: tuple[int, ...] = (3, 4)
    """Seat counts allowed."""
    targets: tuple[int, ...] = (1000,)
    """Targets allowed; the first is the default."""
    bid_step: int
    min_bid: int = 100
    forced_min_bid: int | None = None
    """Tyzicha: the lowest bid when the declarer was forced; None where there is no such rule."""
    rounding: int
    """Defenders' card points are rounded to this step (0: not rounded)."""
    defenders_score_on_made: bool = True
    """False where defenders score only when the declarer missed (Tyzicha)."""
    endgame: Endgame
    """`barrel_took`/`barrel_bid`: the barrel, won by took ≥ 120 / a made bid ≥ 120;
    `lock`: polish 900..999; `cap`: non-declarers capped below the target; `none`."""
    zeros: bool = False
    """Every third zero costs 120."""
    forfeit: ForfeitStyle
    """`count`: declarer untouched, every third costs 120; `minus_bid`: declarer −bid;
    `bomb`: first one per seat free, later ones pay every other seat."""
    forfeit_bonus: int = FORFEIT_BONUS
    """What each opponent gets for a forfeit (`count`, `minus_bid`)."""
    table_options: bool = True
    """Gold set, blind bids, the sitter bonus and the house rules (§11) may be switched on."""
    bids_first: int = 1
    """Where the first bidder sits from the dealer: 1, the dealer's left; −1 (tyzicha), the
    dealer's right."""

    @property
    def has_barrel(self) -> bool:
        """The ruleset has the barrel of RULES.md §4."""
        return self.endgame in ("barrel_took", "barrel_bid")

    def barrel_at(self, target: int, gap: int = BARREL_BELOW) -> int | None:
        """Where the barrel sits for this target (RULES.md §4: 880 for 1000; `gap`, §11.11), if
        there is one."""
        return target - gap if self.has_barrel else None

    def fall_to(self, target: int, gap: int = BARREL_BELOW) -> int | None:
        """Where a fall from the barrel lands for this target (RULES.md §4: 760 for 1000; 780
        with a `gap` of 100, §11.11), if there is a barrel."""
        return target - gap - BARREL_DROP if self.has_barrel else None

    def lock_at(self, target: int) -> int | None:
        """Where the polish lock starts for this target (900 for 1000), if there is one."""
        return target - LOCK_BELOW if self.endgame == "lock" else None


RULESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        Ruleset(
            name="squarescores",
            targets=(1000, 2000, 3000),
            bid_step=5,
            rounding=5,
            endgame="barrel_took",
            zeros=True,
            forfeit="count",
        ),
        Ruleset(name="polish", bid_step=10, rounding=10, endgame="lock", forfeit="minus_bid"),
        Ruleset(
            name="classic",
            targets=(1000, 2000, 3000),
            bid_step=5,
            rounding=5,
            endgame="barrel_bid",
            forfeit="minus_bid",
        ),
        Ruleset(
            name="ggtables",
            seats=(2, 3, 4),
            targets=(1000, 500),
            bid_step=10,
            rounding=10,
            endgame="none",
            forfeit="bomb",
            table_options=False,
        ),
        Ruleset(
            name="tyzicha",
            seats=(3,),
            targets=(1001,),
            bid_step=10,
            min_bid=110,
            forced_min_bid=100,
            rounding=0,
            defenders_score_on_made=False,
            endgame="cap",
            forfeit="minus_bid",
            forfeit_bonus=40,
            table_options=False,
            bids_first=-1,
        ),
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
