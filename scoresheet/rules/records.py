"""Value objects: what the table records, and the match state the engine computes from it."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import Literal, NamedTuple

from .rulesets import BARREL_BELOW, COUNT_PENALTY, DUMP_AT

Kind = Literal["played", "forfeit", "redeal"]
Status = Literal["in_progress", "finished"]
SheetStyle = Literal["deferred", "signed"]
Zeros = Literal["total", "consecutive", "off"]
Dump = Literal["off", "plus", "both"]
BarrelMiss = Literal["costs_bid", "stays"]
ForfeitPays = Literal["60", "half_bid"]
BlindDoubles = Literal["hand", "declarer"]
BarrelJump = Literal["wins", "mounts"]
BarrelClash = Literal["all_stay", "one_stays", "all_fall"]
BarrelWinScore = Literal["target", "added"]

SUITS: dict[str, int] = {"hearts": 100, "diamonds": 80, "clubs": 60, "spades": 40}
"""Marriage values by suit (RULES.md §1), in the order the sheet lists them."""
ACES = "aces"
"""The ace marriage (house rule `ace_marriage`, RULES.md §11.10), entered with the suits."""
MARRIAGES: dict[str, int] = SUITS | {ACES: 200}
"""What each marriage a table may declare is worth."""


def marriage_points(suits: tuple[str, ...]) -> int:
    """What the marriages one seat declared are worth (RULES.md §1, with §11.10's aces)."""
    return sum(map(MARRIAGES.__getitem__, suits))


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """The table's options (RULES.md §6, §8)."""

    target: int
    """Score that wins the match."""
    gold_set: bool = False
    """The first N hands are a gold set: minimum bid 120, points doubled."""
    blind_bids: bool = False
    """A hand may be flagged blind: points doubled."""
    sitter_bonus: bool = False
    """With four seats the sitter-out may be given points from the talon."""
    sheet_style: SheetStyle = "deferred"
    """How the running sheet books a loss (API key `sheet`): `deferred`, as owed points;
    `signed`, as a plain signed entry."""
    great_grand_tichu: bool = False
    """Tichu: a player may call Great Grand Tichu (±400, RULES.md §10)."""
    # The house rules of RULES.md §11; None: the ruleset's default (`house.resolved`).
    zeros: Zeros | None = None
    """Which zeros cost: every third of the match, three in a row, or none (§11.1)."""
    zero_penalty: int = COUNT_PENALTY
    """What a costly zero takes off (§11.1)."""
    dump_555: Dump = "off"
    """A score of exactly 555 (and with `both` −555) goes to 0 (§11.2)."""
    barrel_knock_off: bool = False
    """A seat mounting the barrel knocks those already on it down (§11.3)."""
    barrel_miss: BarrelMiss | None = None
    """A miss on the barrel costs the bid, or the seat stays at the barrel (§11.4)."""
    barrel_hands: int = 3
    """Hands on the barrel before the fall (§11.5)."""
    three_falls_reset: bool = False
    """Every third fall from the barrel drops to 0 (§11.6)."""
    declarer_rounding: bool = False
    """The declarer's card points are rounded before the made check (§11.7)."""
    forfeit_pays: ForfeitPays = "60"
    """What each opponent of a forfeit gets: 60, or half the bid (§11.8)."""
    blind_doubles: BlindDoubles = "hand"
    """A blind bid doubles the whole hand, or the declarer's points only (§11.9)."""
    ace_marriage: bool = False
    """Four aces declared count as a 200 marriage (§11.10)."""
    barrel_gap: int = BARREL_BELOW
    """How far below the target the barrel sits: 120 or 100 (§11.11)."""
    barrel_jump: BarrelJump = "wins"
    """A seat jumping from below the barrel to the target wins, or only mounts it (§11.12)."""
    barrel_clash: BarrelClash = "all_stay"
    """Of seats mounting in the same hand all stay on, one stays, or none (§11.13)."""
    barrel_defender_wins: bool = False
    """A defender on the barrel taking 120 (the barrel gap) or more wins from it (§11.14)."""
    barrel_win_score: BarrelWinScore = "target"
    """A win from the barrel scores the target, or the barrel plus the hand's points (§11.15)."""
    barrel_zeros: bool = False
    """A defender on the barrel takes zeros, though it pays no penalty there (§11.16)."""
    forfeit_penalty: bool | None = None
    """Every third forfeit costs the declarer 120 (§11.17); None: as the ruleset plays."""
    dump_at: int = DUMP_AT
    """The score `dump_555` dumps (§11.18)."""
    forced_any_seat: bool = False
    """Tyzicha matches stored before the correction of RULES.md §7: any declarer may be forced,
    at 100 or more. Not offered for new matches."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Setup:
    """How a match starts."""

    players: tuple[str, ...]
    """Player names in seat order (clockwise)."""
    rules: str
    """Ruleset name (RULES.md §7)."""
    options: Options
    """The table's options, every one with its value."""
    first_dealer: int
    """Seat that deals hand 1."""
    start_scores: tuple[int, ...]
    """Scores carried over from paper, one per seat."""


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand exactly as the table entered it (RULES.md §2)."""

    kind: Kind
    """`played`, `forfeit` (Rospisat') or `redeal`; the only field given without its name."""
    _: KW_ONLY
    declarer: int | None = None
    """Seat that won the auction; None for a redeal."""
    bid: int | None = None
    """The final contract; None for a redeal."""
    points: tuple[int | None, ...] | None = None
    """Card points per seat of a played hand; the declarer's and a sitter-out's may be None."""
    marriages: tuple[tuple[str, ...], ...] | None = None
    """Marriage suits declared per seat in a played hand."""
    made: bool | None = None
    """What the table said of the contract, if it said anything; checked against the points."""
    blind: bool = False
    """The winning bid was made without looking."""
    sitter_points: int = 0
    """Talon points given to the sitter-out (option sitter_bonus)."""
    forced: bool = False
    """Tyzicha: the declarer was forced to take the hand at 100."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TichuRound:
    """One Tichu round exactly as the table entered it (RULES.md §10)."""

    calls: tuple[str | None, ...] = (None, None, None, None)
    """Each seat's call: None, `tichu`, `grand` or `great_grand`."""
    first_out: int | None = None
    """The seat that went out first (needed when anyone called, or on a double victory)."""
    double_victory: bool = False
    """`first_out` and its partner went out first and second: no card points are counted."""
    card_points: tuple[int, ...] | None = None
    """Team 0's and team 1's card points, adding up to 100; None on a double victory."""


Record = HandRecord | TichuRound
"""What the table enters after a hand: a Tysiacha hand or a Tichu round."""


class SeatResult(NamedTuple):
    """What one hand did to one seat.

    A named tuple, read-only, because a replay builds one per seat per hand: built by
    `tuple.__new__` it costs about half a slots dataclass and a fifth of a frozen one
    (docs/performance.md).
    """

    delta: int
    """Change of the true score."""
    entry: int
    """What the sheet shows for this hand."""
    owed: int
    """Losses not yet taken off the sheet, after this hand."""
    score: int
    """True score after this hand."""
    total: int
    """Running sheet total after this hand (`total - owed == score`)."""
    barrel: bool
    """On the barrel after this hand."""
    events: tuple[str, ...]
    """Words for what happened (API.md): `made`, `zero`, `barrel_on`, …"""


class HandResult(NamedTuple):
    """One hand as recorded, completed, and scored (a named tuple, like `SeatResult`)."""

    number: int
    """1-based position in the match."""
    record: Record
    """The record as entered."""
    dealer: int
    """Seat that dealt."""
    sitting_out: int | None
    """Seat dealt no cards (four at the table), else None."""
    gold: bool
    """Dealt in a gold set."""
    points: tuple[int | None, ...] | None
    """Card points per seat, the declarer's filled in; None unless played."""
    took: tuple[int | None, ...] | None
    """Card points plus marriages per seat; None unless played."""
    made: bool | None
    """Whether the contract was made; None unless played."""
    multiplier: int
    """Gold and blind factor applied to this hand's points."""
    results: tuple[SeatResult, ...]
    """One per seat (Tichu: one per team)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing:
    """Where one seat stands after the last hand."""

    seat: int
    name: str
    score: int
    """True score."""
    total: int
    """Running sheet total (`total - owed == score`)."""
    owed: int
    """Losses still to be taken off the sheet."""
    barrel: bool = False
    """On the barrel."""
    barrel_hands: int = 0
    """Hands played on the barrel so far (three and it falls)."""
    locked: bool = False
    """Polish lock: at 900..999, scores only as declarer."""
    zeros: int = 0
    """Zeros taken (every third costs 120)."""
    forfeits: int = 0
    """Forfeits (Rospisat') declared."""
    barrel_hands_left: int = 0
    """Hands left on the barrel before the fall (0 when not on it)."""
    next_zero_costs: int = 0
    """What the seat's next zero would cost: the zero penalty when it would be a third one
    (RULES.md §4, §11.1), else 0 (also on the barrel, where none is paid)."""
    next_forfeit_costs: bool = False
    """The seat's next Rospisat' would be a third one, costing 120 (RULES.md §4); never on the
    barrel, where none is paid (§11.17) or none is allowed (§4)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NextDeal:
    """Who does what in the next hand."""

    hand: int
    """Number the next hand will get."""
    dealer: int
    first_bidder: int
    sitting_out: int | None = None
    gold: bool = False
    """The next hand is in a gold set."""
    min_bid: int = 0
    """Lowest bid allowed in the next hand (0 where nobody bids: Tichu)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchState:
    """Everything computed about a match: a replay of its hand records (the running sheet
    of RULES.md §8 is `hands` and `standings`)."""

    setup: Setup
    hands: tuple[HandResult, ...]
    standings: tuple[Standing, ...]
    status: Status
    """`finished` once a seat has won."""
    winner: int | None
    next: NextDeal | None
    """None once there is a winner."""
