"""Is this hand legal where it stands? The checks of RULES.md §2 (with §6 and §7).

Kept apart from scoring, as python-chess keeps `is_legal()` apart from `push()`: `check_hand`
raises `Refused` naming the field at fault and changes nothing; `Tysiacha.play` scores a hand
that passed and checks nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import Malformed, Refused
from .game import Deal
from .records import SUITS, HandRecord, Record, Setup
from .rulesets import MAX_BID, PACK, Ruleset, complete_points, marriage_points

MAX_SITTER_POINTS = 400
"""RULES.md §6 sets no upper bound on the sitter bonus; the highest bid (400) stops a typo."""


def check_hand(
    record: Record, setup: Setup, rs: Ruleset, deal: Deal, on_barrel: Sequence[bool]
) -> None:
    """Raise `Refused` naming the field if the rules do not allow this hand as `deal`.

    `on_barrel` says, per seat, who is on the barrel before the hand (Rospisat' is not
    allowed there).
    """
    if not isinstance(record, HandRecord):
        raise Malformed("calls", "A Tysiacha hand has a kind, a declarer and a bid, not calls.")
    opts = setup.options
    n = len(setup.players)
    if record.kind not in ("played", "forfeit", "redeal"):
        raise Refused("kind", "Say what happened: the hand was played, forfeited or redealt.")
    if record.blind and not opts.blind_bids:
        raise Refused("blind", "This table does not play blind bids.")
    if record.forced and rs.forced_min_bid is None:
        raise Refused("forced", "Forced contracts are a Tyzicha rule; this table does not use them.")
    if record.sitter_points:
        _check_sitter_points(record.sitter_points, rs, opts.sitter_bonus and n == 4)
    if record.kind == "redeal":
        _check_redeal(record)
        return
    declarer, bid = _check_contract(record, setup, rs, deal)
    if record.kind == "forfeit":
        _check_forfeit(record, setup, rs, declarer, on_barrel)
        return
    _check_points(record, setup, deal, declarer)
    _check_marriages(record, setup, deal)
    if record.made is not None:
        points = complete_points(record.points, declarer)
        marriages = record.marriages
        took = points[declarer] or 0
        if marriages is not None:
            took += marriage_points(marriages[declarer])
        if (took >= bid) != record.made:
            said, real = ("made", "missed") if record.made else ("missed", "made")
            raise Refused("made", f"{_name(setup, declarer)} took {took} against a bid of "
                                  f"{bid}: the contract was {real}, not {said}.")


def _name(setup: Setup, seat: int) -> str:
    """A player's name for a message."""
    return setup.players[seat]


def _check_sitter_points(points: int, rs: Ruleset, allowed: bool) -> None:
    """Talon points for the sitter-out: only with the option and four seats (RULES.md §6)."""
    if not allowed:
        raise Refused("sitter_points", "This table gives the sitter-out no points.")
    step = rs.bid_step
    if points < 0 or points % step or points > MAX_SITTER_POINTS:
        raise Refused("sitter_points", f"The sitter-out's points are a multiple of {step} "
                                       f"from 0 to {MAX_SITTER_POINTS}.")


def _check_redeal(record: HandRecord) -> None:
    """A redeal carries nothing but its kind."""
    if record.declarer is not None:
        raise Refused("declarer", "A redeal has no declarer.")
    if record.bid is not None:
        raise Refused("bid", "A redeal has no bid.")
    if record.points is not None and any(p is not None for p in record.points):
        raise Refused("points", "A redeal has no card points.")
    if record.marriages is not None and any(record.marriages):
        raise Refused("marriages", "A redeal has no marriages.")
    if record.made is not None:
        raise Refused("made", "A redeal is neither made nor missed.")
    if record.blind or record.forced:
        raise Refused("blind" if record.blind else "forced", "A redeal has no contract.")
    if record.sitter_points:
        raise Refused("sitter_points", "A redeal gives nobody points.")


def _check_contract(record: HandRecord, setup: Setup, rs: Ruleset, deal: Deal) -> tuple[int, int]:
    """Declarer and bid (RULES.md §2, §6, §7); returns them once they are known good."""
    d = record.declarer
    if d is None:
        raise Refused("declarer", "Say who declared (won the auction).")
    if not 0 <= d < len(setup.players):
        raise Refused("declarer", f"There is no seat {d} at this table.")
    if d == deal.sitting_out:
        raise Refused("declarer", f"{_name(setup, d)} deals and sits out this hand, "
                                  "so cannot declare.")
    bid = record.bid
    if bid is None:
        raise Refused("bid", "Enter the bid.")
    lowest = deal.min_bid
    if record.forced and rs.forced_min_bid is not None and not deal.gold:
        lowest = rs.forced_min_bid
    if bid < lowest:
        why = " in a gold set" if deal.gold else ""
        raise Refused("bid", f"The lowest bid{why} is {lowest}; {bid} is too low.")
    if bid > MAX_BID:
        raise Refused("bid", f"The highest bid is {MAX_BID}; {bid} is too high.")
    if bid % rs.bid_step:
        raise Refused("bid", f"Bids go in steps of {rs.bid_step}; {bid} is not one.")
    return d, bid


def _check_forfeit(
    record: HandRecord, setup: Setup, rs: Ruleset, declarer: int, on_barrel: Sequence[bool]
) -> None:
    """A forfeited hand is not played; Rospisat' is not allowed on the barrel (RULES.md §4)."""
    if record.points is not None and any(p is not None for p in record.points):
        raise Refused("points", "A forfeited hand is not played: leave the card points out.")
    if record.marriages is not None and any(record.marriages):
        raise Refused("marriages", "A forfeited hand is not played: leave the marriages out.")
    if record.made:
        raise Refused("made", "A forfeited hand is not made: the declarer gave it up.")
    if rs.forfeit == "count" and on_barrel[declarer]:
        raise Refused("kind", f"{_name(setup, declarer)} is on the barrel: "
                              "Rospisat' is not allowed there.")


def _check_points(record: HandRecord, setup: Setup, deal: Deal, declarer: int) -> None:
    """Card points: one per seat, whole, 0..120, summing to the pack (RULES.md §2)."""
    pts = record.points
    n = len(setup.players)
    if pts is None:
        raise Refused("points", "Enter the card points the defenders took.")
    if len(pts) != n:
        raise Refused("points", f"Give card points for each of the {n} players.")
    for i, p in enumerate(pts):
        if i == deal.sitting_out:
            if p is not None:
                raise Refused("points", f"{_name(setup, i)} sits out this hand and takes no "
                                        "card points.")
        elif p is None:
            if i != declarer:
                raise Refused("points", f"Enter the card points {_name(setup, i)} took.")
        elif not 0 <= p <= PACK:
            raise Refused("points", f"Card points are whole numbers from 0 to {PACK}; "
                                    f"{_name(setup, i)} has {p}.")
    total = sum(p for p in pts if p is not None)
    if pts[declarer] is None:
        if total > PACK:
            raise Refused("points", f"The defenders' card points add up to {total}; "
                                    f"the pack holds {PACK}.")
    elif total != PACK:
        raise Refused("points", f"Card points add up to {total}; the pack holds {PACK}.")


def _check_marriages(record: HandRecord, setup: Setup, deal: Deal) -> None:
    """Marriages: known suits, each declared at most once, none by the sitter-out."""
    marriages = record.marriages
    if marriages is None:
        return
    n = len(setup.players)
    if len(marriages) != n:
        raise Refused("marriages", f"Give the marriages of each of the {n} players.")
    seen: set[str] = set()
    for i, suits in enumerate(marriages):
        if suits and i == deal.sitting_out:
            raise Refused("marriages", f"{_name(setup, i)} sits out this hand and cannot "
                                       "declare a marriage.")
        for suit in suits:
            if suit not in SUITS:
                raise Refused("marriages", f"“{suit}” is not a suit: use hearts, diamonds, "
                                           "clubs or spades.")
            if suit in seen:
                raise Refused("marriages", f"The {suit} marriage is declared twice; "
                                           "each suit can be declared once a hand.")
            seen.add(suit)
