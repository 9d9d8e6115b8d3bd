"""Tysiacha: checking and scoring one hand at a time (RULES.md §2–§7)."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import Malformed, Refused
from .game import Deal, Scored
from .records import SUITS, HandRecord, NextDeal, Record, Setup, Standing
from .rulesets import (
    BARREL_BELOW,
    BARREL_HANDS,
    COUNT_PENALTY,
    GOLD_MIN_BID,
    LOCK_BELOW,
    MAX_BID,
    RULESETS,
    round_points,
)

PACK = 120
MAX_SITTER_POINTS = 400
"""RULES.md §6 sets no upper bound on the sitter bonus; the highest bid (400) stops a typo."""


@dataclass(slots=True)
class Seat:
    """The running state of one seat (RULES.md §4)."""

    score: int
    barrel: bool = False
    barrel_hands: int = 0
    zeros: int = 0
    forfeits: int = 0


class Tysiacha:
    """Replays the hands of one Tysiacha match under its ruleset and options."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rs = RULESETS[setup.rules]
        self.options = setup.options
        self.target = setup.options.target
        self.names = setup.players
        self.n = len(setup.players)
        self.barrel_at = self.target - BARREL_BELOW
        self.fall_to = self.target - 2 * BARREL_BELOW
        self.lock_at = self.target - LOCK_BELOW
        self.has_barrel = self.rs.has_barrel
        self.has_lock = self.rs.endgame == "lock"
        self.seats = [Seat(s) for s in setup.start_scores]
        self.dealer = setup.first_dealer
        self.number = 1
        self.gold_left = self.n if setup.options.gold_set else 0
        self.gold_made = False
        self.orders = tuple(tuple((d + 1 + k) % self.n for k in range(self.n))
                            for d in range(self.n))
        """Bidding order for each dealer, dealer's left first."""
        self.next: Deal | None = None
        """The deal about to be played; None once a hand has moved the match on."""

    # -- the deal -------------------------------------------------------------------------

    def deal(self) -> Deal:
        """The hand that comes next (made once per hand: the sheet and `play` both ask)."""
        if self.next is None:
            dealer = self.dealer
            gold = self.gold_left > 0
            self.next = Deal(
                number=self.number,
                dealer=dealer,
                sitting_out=dealer if self.n == 4 else None,
                gold=gold,
                min_bid=GOLD_MIN_BID if gold else self.rs.min_bid,
                order=self.orders[dealer],
            )
        return self.next

    def next_deal(self) -> NextDeal:
        """The banner for the next hand."""
        d = self.deal()
        return NextDeal(d.number, d.dealer, d.order[0], d.sitting_out, d.gold, d.min_bid)

    def copy(self) -> Tysiacha:
        """An independent copy of the running state (the set-up and tables are shared)."""
        other = copy.copy(self)
        other.seats = [dataclasses.replace(s) for s in self.seats]
        return other

    def locked(self, seat: Seat) -> bool:
        """Polish lock: a seat at 900..999 scores only as declarer (RULES.md §7)."""
        return self.has_lock and self.lock_at <= seat.score < self.target

    def standings(
        self, names: tuple[str, ...], totals: list[int], owed: list[int]
    ) -> tuple[Standing, ...]:
        """Where every seat stands now."""
        counts_zeros, counts_forfeits = self.rs.zeros, self.rs.forfeit == "count"
        return tuple(
            Standing(i, names[i], s.score, totals[i], owed[i], s.barrel, s.barrel_hands,
                     self.locked(s), s.zeros, s.forfeits,
                     BARREL_HANDS - s.barrel_hands if s.barrel else 0,
                     counts_zeros and s.zeros % 3 == 2,
                     counts_forfeits and s.forfeits % 3 == 2)
            for i, s in enumerate(self.seats)
        )

    # -- one hand -------------------------------------------------------------------------

    def winner(self, scores: Sequence[int], deal: Deal, scored: Scored) -> int | None:
        """The seat that won with this hand, if any (RULES.md §5).

        Highest score first; on equal scores the declarer; else the earlier seat in the bidding
        order. Where RULES.md is silent: a seat that wins from the barrel (score = target) is one
        of the seats that reached the target, so a seat that jumped higher in the same hand beats
        it; with four seats the sitter-out is the dealer, so it comes last in the bidding order.
        """
        if max(scores) < self.target:
            return None
        reached = [i for i in deal.order if scores[i] >= self.target]
        if not reached:
            return None
        declarer = scored.declarer
        return min(reached, key=lambda i: (-scores[i], i != declarer, deal.order.index(i)))

    def play(self, record: Record) -> Scored:
        """Check one hand (raising `Refused`), score it for every seat, and move the deal on."""
        if not isinstance(record, HandRecord):
            raise Malformed("calls", "A Tysiacha hand has a kind, a declarer and a bid, "
                                     "not calls.")
        deal = self.deal()
        self.check(record, deal)
        if record.kind == "redeal":
            scored = Scored(
                tuple(s.score for s in self.seats),
                tuple(("sitting_out",) if i == deal.sitting_out else () for i in range(self.n)),
                tuple(s.barrel for s in self.seats),
                None, None, None, None, 1,
            )
            self.number += 1  # the same dealer deals again
            self.next = None
            return scored
        scored = self.score(record, deal)
        self.advance(record, deal, scored.made)
        return scored

    def advance(self, record: HandRecord, deal: Deal, made: bool | None) -> None:
        """Pass the deal on and count the hand towards a gold set (RULES.md §6)."""
        self.number += 1
        self.dealer = (self.dealer + 1) % self.n
        self.next = None
        if deal.gold:
            self.gold_left -= 1
            self.gold_made = self.gold_made or bool(made)
            if self.gold_left == 0 and not self.gold_made:
                self.gold_left = self.n

    def score(self, record: HandRecord, deal: Deal) -> Scored:
        """Score a played or forfeited hand for every seat (RULES.md §3, §4, §7)."""
        rs = self.rs
        declarer = record.declarer
        bid = record.bid
        assert declarer is not None and bid is not None
        gold = 2 if deal.gold else 1
        played = record.kind == "played"
        points: tuple[int | None, ...] | None = None
        took: tuple[int | None, ...] | None = None
        made: bool | None = None
        declarer_took: int | None = None
        if played:
            points = complete_points(record.points, declarer)
            marriages = record.marriages or ((),) * self.n
            took = tuple(
                None if p is None else p + marriage_points(marriages[i])
                for i, p in enumerate(points)
            )
            declarer_took = took[declarer]
            assert declarer_took is not None
            made = declarer_took >= bid
            mult = gold * (2 if record.blind else 1)
        else:
            mult = gold
        declarer_seat = self.seats[declarer]
        bomb_pays = rs.forfeit == "bomb" and not played and declarer_seat.forfeits > 0

        new_scores: list[int] = []
        all_events: list[tuple[str, ...]] = []
        for i, seat in enumerate(self.seats):
            events: list[str] = []
            old = seat.score
            if i == deal.sitting_out:
                events.append("sitting_out")
                # The number the table entered (§6), not multiplied: §3's multiplier is for the
                # declarer's, defenders' and forfeit points. It goes through the barrel rules
                # like any gain: it can put the sitter on the barrel or take it to the target.
                gain = record.sitter_points
                if bomb_pays:
                    gain += 40 if self.n == 4 else 60
                new = self.collect(seat, gain, events, in_hand=False)
            elif i == declarer:
                new = self.declare(seat, record, mult, made, declarer_took, events)
            else:
                if played:
                    assert points is not None
                    raw = points[i]
                    assert raw is not None
                    if rs.defenders_score_on_made or not made:
                        gain = (round_points(raw, rs.rounding)
                                + marriage_points(marriages[i])) * mult
                    else:
                        gain = 0
                    zero = rs.zeros and raw == 0
                elif rs.forfeit == "bomb":
                    gain = (40 if self.n == 4 else 60) if bomb_pays else 0
                    zero = False
                else:
                    gain = rs.forfeit_bonus * mult
                    zero = False
                new = self.collect(seat, gain, events, in_hand=True, zero=zero)
            if self.has_lock:
                was, now = self.lock_at <= old < self.target, self.lock_at <= new < self.target
                if now and not was:
                    events.append("locked")
                elif was and not now and new < self.target:
                    events.append("unlocked")
            seat.score = new
            new_scores.append(new)
            all_events.append(tuple(events))
        return Scored(tuple(new_scores), tuple(all_events), tuple([s.barrel for s in self.seats]),
                      declarer, points, took, made, mult)

    def collect(
        self, seat: Seat, gain: int, events: list[str], *, in_hand: bool, zero: bool = False
    ) -> int:
        """A defender, forfeit opponent or sitter-out takes what the hand gave it (RULES.md §4)."""
        if seat.barrel:
            if gain or in_hand:
                events.append("barrel_ignored")
            return self.barrel_hand(seat, seat.score, events) if in_hand else seat.score
        if self.locked(seat):
            if gain or in_hand:
                events.append("locked")
            return seat.score
        penalty = 0
        if zero:
            seat.zeros += 1
            events.append("zero")
            if seat.zeros % 3 == 0:
                penalty = COUNT_PENALTY
                events.append("zero_penalty")
        new = seat.score + gain - penalty
        if self.rs.endgame == "cap" and new > self.target - 1:
            new = max(self.target - 1, seat.score)  # a seat is never above 1000 already (§6)
            events.append("capped")
        return self.maybe_barrel_on(seat, new, events)

    def declare(
        self, seat: Seat, record: HandRecord, mult: int, made: bool | None, took: int | None,
        events: list[str],
    ) -> int:
        """The declarer's new score (RULES.md §3, §4, §7)."""
        rs = self.rs
        bid = record.bid
        assert bid is not None
        if record.kind == "forfeit":
            seat.forfeits += 1
            events.append("forfeit")
            if rs.forfeit == "minus_bid":
                return self.lose(seat, bid * mult, events)
            if rs.forfeit == "count" and seat.forfeits % 3 == 0:
                events.append("forfeit_penalty")
                return self.maybe_barrel_on(seat, seat.score - COUNT_PENALTY, events)
            return seat.score
        if not made:
            events.append("missed")
            return self.lose(seat, bid * mult, events)
        events.append("made")
        if seat.barrel:
            assert took is not None
            wins = took >= 120 if rs.endgame == "barrel_took" else bid >= 120
            if wins:
                seat.barrel = False
                seat.barrel_hands = 0
                return self.target
            return self.barrel_hand(seat, seat.score, events)
        if self.locked(seat):
            return self.target
        return self.maybe_barrel_on(seat, seat.score + bid * mult, events)

    def lose(self, seat: Seat, amount: int, events: list[str]) -> int:
        """A missed (or, where it costs the bid, forfeited) contract."""
        if seat.barrel:
            seat.barrel = False
            seat.barrel_hands = 0
            events.append("barrel_off")
            return self.barrel_at - amount
        return seat.score - amount

    def barrel_hand(self, seat: Seat, score: int, events: list[str]) -> int:
        """Count one hand on the barrel; the third one without a win or a miss drops it."""
        seat.barrel_hands += 1
        if seat.barrel_hands >= BARREL_HANDS:
            seat.barrel = False
            seat.barrel_hands = 0
            events.append("barrel_fall")
            return self.fall_to
        return score

    def maybe_barrel_on(self, seat: Seat, new: int, events: list[str]) -> int:
        """Barrel rule 1: a score may never sit between the barrel and the target."""
        if self.has_barrel and self.barrel_at <= new < self.target:
            seat.barrel = True
            seat.barrel_hands = 0
            events.append("barrel_on")
            return self.barrel_at
        return new

    # -- what is refused (RULES.md §2) --------------------------------------------------

    def check(self, record: HandRecord, deal: Deal) -> None:
        """Raise `Refused` naming the field if the rules do not allow this hand here."""
        rs, opts = self.rs, self.options
        if record.kind not in ("played", "forfeit", "redeal"):
            raise Refused("kind", "Say what happened: the hand was played, forfeited or redealt.")
        if record.blind and not opts.blind_bids:
            raise Refused("blind", "This table does not play blind bids.")
        if record.forced and rs.forced_min_bid is None:
            raise Refused("forced", "Forced contracts are a Tyzicha rule; this table does not use them.")
        if record.sitter_points:
            if not (opts.sitter_bonus and self.n == 4):
                raise Refused("sitter_points", "This table gives the sitter-out no points.")
            step = rs.bid_step
            if record.sitter_points < 0 or record.sitter_points % step or record.sitter_points > MAX_SITTER_POINTS:
                raise Refused("sitter_points",
                              f"The sitter-out's points are a multiple of {step} from 0 to {MAX_SITTER_POINTS}.")
        if record.kind == "redeal":
            self.check_redeal(record)
            return
        declarer, bid = self.check_contract(record, deal)
        if record.kind == "forfeit":
            if record.points is not None and any(p is not None for p in record.points):
                raise Refused("points", "A forfeited hand is not played: leave the card points out.")
            if record.marriages is not None and any(record.marriages):
                raise Refused("marriages", "A forfeited hand is not played: leave the marriages out.")
            if record.made:
                raise Refused("made", "A forfeited hand is not made: the declarer gave it up.")
            if rs.forfeit == "count" and self.seats[declarer].barrel:
                raise Refused("kind", f"{self.name(declarer)} is on the barrel: "
                                      "Rospisat' is not allowed there.")
            return
        self.check_points(record, deal, declarer)
        self.check_marriages(record, deal)
        if record.made is not None:
            points = complete_points(record.points, declarer)
            took = took_by(points, record.marriages or ((),) * self.n, declarer)
            if (took >= bid) != record.made:
                said, real = ("made", "missed") if record.made else ("missed", "made")
                raise Refused("made", f"{self.name(declarer)} took {took} against a bid of "
                                      f"{bid}: the contract was {real}, not {said}.")

    def name(self, seat: int | None) -> str:
        """A player's name for a message."""
        return self.setup.players[seat] if seat is not None else "Nobody"

    def check_redeal(self, record: HandRecord) -> None:
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

    def check_contract(self, record: HandRecord, deal: Deal) -> tuple[int, int]:
        """Declarer and bid (RULES.md §2, §6, §7); returns them once they are known good."""
        rs = self.rs
        d = record.declarer
        if d is None:
            raise Refused("declarer", "Say who declared (won the auction).")
        if not 0 <= d < self.n:
            raise Refused("declarer", f"There is no seat {d} at this table.")
        if d == deal.sitting_out:
            raise Refused("declarer", f"{self.name(d)} deals and sits out this hand, so cannot declare.")
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

    def check_points(self, record: HandRecord, deal: Deal, declarer: int) -> None:
        """Card points: one per seat, whole, 0..120, summing to the pack (RULES.md §2)."""
        pts = record.points
        if pts is None:
            raise Refused("points", "Enter the card points the defenders took.")
        if len(pts) != self.n:
            raise Refused("points", f"Give card points for each of the {self.n} players.")
        for i, p in enumerate(pts):
            if i == deal.sitting_out:
                if p is not None:
                    raise Refused("points", f"{self.name(i)} sits out this hand and takes no card points.")
            elif p is None:
                if i != declarer:
                    raise Refused("points", f"Enter the card points {self.name(i)} took.")
            elif not 0 <= p <= PACK:
                raise Refused("points", f"Card points are whole numbers from 0 to {PACK}; "
                                        f"{self.name(i)} has {p}.")
        total = sum(p for p in pts if p is not None)
        if pts[declarer] is None:
            if total > PACK:
                raise Refused("points", f"The defenders' card points add up to {total}; "
                                        f"the pack holds {PACK}.")
        elif total != PACK:
            raise Refused("points", f"Card points add up to {total}; the pack holds {PACK}.")

    def check_marriages(self, record: HandRecord, deal: Deal) -> None:
        """Marriages: known suits, each declared at most once, none by the sitter-out."""
        marriages = record.marriages
        if marriages is None:
            return
        if len(marriages) != self.n:
            raise Refused("marriages", f"Give the marriages of each of the {self.n} players.")
        seen: set[str] = set()
        for i, suits in enumerate(marriages):
            if suits and i == deal.sitting_out:
                raise Refused("marriages", f"{self.name(i)} sits out this hand and cannot declare a marriage.")
            for suit in suits:
                if suit not in SUITS:
                    raise Refused("marriages", f"“{suit}” is not a suit: use hearts, diamonds, "
                                               "clubs or spades.")
                if suit in seen:
                    raise Refused("marriages", f"The {suit} marriage is declared twice; "
                                               "each suit can be declared once a hand.")
                seen.add(suit)


def complete_points(
    points: tuple[int | None, ...] | None, declarer: int
) -> tuple[int | None, ...]:
    """Fill in the declarer's card points from 120 − the defenders' (RULES.md §2)."""
    assert points is not None
    if points[declarer] is not None:
        return points
    rest = PACK - sum(p for p in points if p is not None)
    return points[:declarer] + (rest,) + points[declarer + 1:]


def marriage_points(suits: tuple[str, ...]) -> int:
    """What the marriages one seat declared are worth (RULES.md §1)."""
    return sum(SUITS[s] for s in suits) if suits else 0


def took_by(
    points: tuple[int | None, ...], marriages: tuple[tuple[str, ...], ...], seat: int
) -> int:
    """Card points plus marriages of a seat in the hand (RULES.md §1 "took")."""
    card_points = points[seat]
    assert card_points is not None
    return card_points + marriage_points(marriages[seat])
