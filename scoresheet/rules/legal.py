"""Is this hand legal where it stands? The checks of RULES.md §2 (with §6 and §7).

Kept apart from scoring, as python-chess keeps `is_legal()` apart from `push()`: `check_hand`
raises `Refused` naming the field at fault and changes nothing; `Tysiacha.play` scores a hand
that passed and checks nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .game import Deal
from .messages import malformed, refuse
from .records import ACES, SUITS, HandRecord, Record, Setup, marriage_points
from .rulesets import MAX_BID, PACK, Ruleset, complete_points, round_points

_MAX_SITTER_POINTS = MAX_BID
"""RULES.md §6 sets no upper bound on the sitter bonus; the highest bid (400) stops a typo."""


class _Seated(Protocol):
    """What the check needs to know of a seat before the hand."""

    @property
    def barrel(self) -> bool:
        """On the barrel."""
        ...


def check_hand(record: Record, setup: Setup, rs: Ruleset, deal: Deal, seats: Sequence[_Seated]) -> None:
    """Raise `Refused` naming the field if the rules do not allow this hand as `deal`.

    `seats` say who is on the barrel before the hand (Rospisat' is not allowed there).
    """
    if not isinstance(record, HandRecord):
        raise malformed("calls", "not_a_tysiacha_hand")
    kind = record.kind
    if kind != "played" and kind != "forfeit" and kind != "redeal":
        raise refuse("kind", "kind")
    if record.blind and not setup.options.blind_bids:
        raise refuse("blind", "no_blind")
    if record.forced and rs.forced_min_bid is None:
        raise refuse("forced", "no_forced")
    if record.sitter_points:
        _check_sitter_points(record.sitter_points, rs, setup.options.sitter_bonus and len(setup.players) == 4)
    if kind == "redeal":
        _check_redeal(record)
        return
    declarer, bid = _check_contract(record, setup, rs, deal)
    if kind == "forfeit":
        _check_forfeit(record, setup, rs, declarer, seats)
        return
    _check_points(record, setup, deal, declarer)
    _check_marriages(record, setup, deal)
    if record.made is not None:
        _check_made(record, setup, rs, declarer, bid)


def _check_made(record: HandRecord, setup: Setup, rs: Ruleset, declarer: int, bid: int) -> None:
    """A `made` the table sent agrees with the points (with §11.7, the rounded points)."""
    points = complete_points(record.points, declarer)
    raw = points[declarer] or 0
    marriages = record.marriages
    worth = marriage_points(marriages[declarer]) if marriages is not None else 0
    took = raw + worth
    if not setup.options.declarer_rounding:
        if (took >= bid) != record.made:
            raise refuse(
                "made",
                "said_made_but_missed" if record.made else "said_missed_but_made",
                name=setup.players[declarer],
                took=took,
                bid=bid,
            )
        return
    rounded = round_points(raw, rs.rounding) + worth
    if (rounded >= bid) != record.made:
        raise refuse(
            "made",
            "said_made_but_missed_rounded" if record.made else "said_missed_but_made_rounded",
            name=setup.players[declarer],
            took=took,
            rounded=rounded,
            bid=bid,
        )


def _check_sitter_points(points: int, rs: Ruleset, allowed: bool) -> None:
    """Talon points for the sitter-out: only with the option and four seats (RULES.md §6)."""
    if not allowed:
        raise refuse("sitter_points", "no_sitter_points")
    step = rs.bid_step
    if points < 0 or points % step or points > _MAX_SITTER_POINTS:
        raise refuse("sitter_points", "sitter_points", step=step, most=_MAX_SITTER_POINTS)


def _check_redeal(record: HandRecord) -> None:
    """A redeal carries nothing but its kind."""
    if record.declarer is not None:
        raise refuse("declarer", "redeal_declarer")
    if record.bid is not None:
        raise refuse("bid", "redeal_bid")
    if record.points is not None and any(p is not None for p in record.points):
        raise refuse("points", "redeal_points")
    if record.marriages is not None and any(record.marriages):
        raise refuse("marriages", "redeal_marriages")
    if record.made is not None:
        raise refuse("made", "redeal_made")
    if record.blind or record.forced:
        raise refuse("blind" if record.blind else "forced", "redeal_contract")
    if record.sitter_points:
        raise refuse("sitter_points", "redeal_sitter_points")


def _check_contract(record: HandRecord, setup: Setup, rs: Ruleset, deal: Deal) -> tuple[int, int]:
    """Declarer and bid (RULES.md §2, §6, §7); returns them once they are known good."""
    d = record.declarer
    if d is None:
        raise refuse("declarer", "declarer_missing")
    if not 0 <= d < len(setup.players):
        raise refuse("declarer", "declarer_no_seat", seat=d)
    if d == deal.sitting_out:
        raise refuse("declarer", "declarer_sits_out", name=setup.players[d])
    bid = record.bid
    if bid is None:
        raise refuse("bid", "bid_missing")
    lowest = deal.min_bid
    if record.forced and rs.forced_min_bid is not None and not deal.gold:
        lowest = rs.forced_min_bid
        if not setup.options.forced_any_seat:  # RULES.md §7: the seat first, then the bid
            left = (deal.dealer + 1) % len(setup.players)
            if d != left:
                raise refuse("forced", "forced_seat", left=setup.players[left], name=setup.players[d])
            if bid != lowest:
                raise refuse("forced", "forced_bid")
    if bid < lowest:
        raise refuse("bid", "bid_too_low_gold" if deal.gold else "bid_too_low", lowest=lowest, bid=bid)
    if bid > MAX_BID:
        raise refuse("bid", "bid_too_high", highest=MAX_BID, bid=bid)
    if bid % rs.bid_step:
        raise refuse("bid", "bid_step", step=rs.bid_step, bid=bid)
    return d, bid


def _check_forfeit(record: HandRecord, setup: Setup, rs: Ruleset, declarer: int, seats: Sequence[_Seated]) -> None:
    """A forfeited hand is not played; Rospisat' is not allowed on the barrel (RULES.md §4)."""
    if record.points is not None and any(p is not None for p in record.points):
        raise refuse("points", "forfeit_points")
    if record.marriages is not None and any(record.marriages):
        raise refuse("marriages", "forfeit_marriages")
    if record.made:
        raise refuse("made", "forfeit_made")
    if rs.forfeit == "count" and seats[declarer].barrel:
        raise refuse("kind", "forfeit_on_barrel", name=setup.players[declarer])


def _check_points(record: HandRecord, setup: Setup, deal: Deal, declarer: int) -> None:
    """Card points: one per seat, whole, 0..120, summing to the pack (RULES.md §2)."""
    pts = record.points
    n = len(setup.players)
    if pts is None:
        raise refuse("points", "points_missing")
    if len(pts) != n:
        raise refuse("points", "points_per_player", n=n)
    sitting_out = deal.sitting_out
    total = 0
    for i, p in enumerate(pts):
        if p is None:
            if i != declarer and i != sitting_out:
                raise refuse("points", "points_seat_missing", name=setup.players[i])
        elif i == sitting_out:
            raise refuse("points", "points_sitter", name=setup.players[i])
        elif not 0 <= p <= PACK:
            raise refuse("points", "points_range", pack=PACK, name=setup.players[i], points=p)
        else:
            total += p
    if pts[declarer] is None:
        if total > PACK:
            raise refuse("points", "points_defenders_sum", total=total, pack=PACK)
    elif total != PACK:
        raise refuse("points", "points_sum", total=total, pack=PACK)


def _check_marriages(record: HandRecord, setup: Setup, deal: Deal) -> None:
    """Marriages: known suits, each declared at most once, none by the sitter-out."""
    marriages = record.marriages
    if marriages is None:
        return
    n = len(setup.players)
    if len(marriages) != n:
        raise refuse("marriages", "marriages_per_player", n=n)
    if not any(marriages):
        return
    seen: set[str] = set()
    aces = setup.options.ace_marriage
    for i, suits in enumerate(marriages):
        if suits and i == deal.sitting_out:
            raise refuse("marriages", "marriage_sitter", name=setup.players[i])
        for suit in suits:
            if suit == ACES:  # RULES.md §11.10
                if not aces:
                    raise refuse("marriages", "no_ace_marriage")
                if suit in seen:
                    raise refuse("marriages", "aces_twice")
            elif suit not in SUITS:
                raise refuse("marriages", "marriage_suit", suit=suit)
            elif suit in seen:
                raise refuse("marriages", "marriage_twice", suit=suit)
            seen.add(suit)
