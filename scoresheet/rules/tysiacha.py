"""Tysiacha: scoring one hand at a time (RULES.md §3–§7).

What a hand may hold is checked apart, in `legal.py` (RULES.md §2): `check` asks it, `play`
scores a hand that passed and checks nothing.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from .game import Deal, Scored
from .legal import check_hand
from .records import HandRecord, NextDeal, Record, Setup, Standing
from .rulesets import (
    BARREL_BELOW,
    BARREL_HANDS,
    COUNT_PENALTY,
    GOLD_MIN_BID,
    LOCK_BELOW,
    RULESETS,
    complete_points,
    marriage_points,
    round_points,
)



@dataclass(slots=True)
class _Seat:
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
        self.seats = [_Seat(s) for s in setup.start_scores]
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

    def _locked(self, seat: _Seat) -> bool:
        """Polish lock: a seat at 900..999 scores only as declarer (RULES.md §7)."""
        return self.has_lock and self.lock_at <= seat.score < self.target

    def standings(
        self, names: tuple[str, ...], totals: list[int], owed: list[int]
    ) -> tuple[Standing, ...]:
        """Where every seat stands now."""
        counts_zeros, counts_forfeits = self.rs.zeros, self.rs.forfeit == "count"
        return tuple(
            Standing(i, names[i], s.score, totals[i], owed[i], s.barrel, s.barrel_hands,
                     self._locked(s), s.zeros, s.forfeits,
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

    def check(self, record: Record) -> None:
        """Raise `Refused` naming the field if the rules do not allow this as the next hand."""
        check_hand(record, self.setup, self.rs, self.deal(), [s.barrel for s in self.seats])

    def play(self, record: Record) -> Scored:
        """Score a hand that `check` allowed, for every seat, and move the deal on.

        Does not check: a hand `check` refuses gives a meaningless result or an error.
        """
        assert isinstance(record, HandRecord)
        deal = self.deal()
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
        scored = self._score(record, deal)
        self._advance(deal, scored.made)
        return scored

    def _advance(self, deal: Deal, made: bool | None) -> None:
        """Pass the deal on and count the hand towards a gold set (RULES.md §6)."""
        self.number += 1
        self.dealer = (self.dealer + 1) % self.n
        self.next = None
        if deal.gold:
            self.gold_left -= 1
            self.gold_made = self.gold_made or bool(made)
            if self.gold_left == 0 and not self.gold_made:
                self.gold_left = self.n

    def _score(self, record: HandRecord, deal: Deal) -> Scored:
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
                new = self._collect(seat, gain, events, in_hand=False)
            elif i == declarer:
                new = self._declare(seat, record, mult, made, declarer_took, events)
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
                new = self._collect(seat, gain, events, in_hand=True, zero=zero)
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

    def _collect(
        self, seat: _Seat, gain: int, events: list[str], *, in_hand: bool, zero: bool = False
    ) -> int:
        """A defender, forfeit opponent or sitter-out takes what the hand gave it (RULES.md §4)."""
        if seat.barrel:
            if gain or in_hand:
                events.append("barrel_ignored")
            return self._barrel_hand(seat, seat.score, events) if in_hand else seat.score
        if self._locked(seat):
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
        return self._maybe_barrel_on(seat, new, events)

    def _declare(
        self, seat: _Seat, record: HandRecord, mult: int, made: bool | None, took: int | None,
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
                return self._lose(seat, bid * mult, events)
            if rs.forfeit == "count" and seat.forfeits % 3 == 0:
                events.append("forfeit_penalty")
                return self._maybe_barrel_on(seat, seat.score - COUNT_PENALTY, events)
            return seat.score
        if not made:
            events.append("missed")
            return self._lose(seat, bid * mult, events)
        events.append("made")
        if seat.barrel:
            assert took is not None
            wins = took >= 120 if rs.endgame == "barrel_took" else bid >= 120
            if wins:
                seat.barrel = False
                seat.barrel_hands = 0
                return self.target
            return self._barrel_hand(seat, seat.score, events)
        if self._locked(seat):
            return self.target
        return self._maybe_barrel_on(seat, seat.score + bid * mult, events)

    def _lose(self, seat: _Seat, amount: int, events: list[str]) -> int:
        """A missed (or, where it costs the bid, forfeited) contract."""
        if seat.barrel:
            seat.barrel = False
            seat.barrel_hands = 0
            events.append("barrel_off")
            return self.barrel_at - amount
        return seat.score - amount

    def _barrel_hand(self, seat: _Seat, score: int, events: list[str]) -> int:
        """Count one hand on the barrel; the third one without a win or a miss drops it."""
        seat.barrel_hands += 1
        if seat.barrel_hands >= BARREL_HANDS:
            seat.barrel = False
            seat.barrel_hands = 0
            events.append("barrel_fall")
            return self.fall_to
        return score

    def _maybe_barrel_on(self, seat: _Seat, new: int, events: list[str]) -> int:
        """Barrel rule 1: a score may never sit between the barrel and the target."""
        if self.has_barrel and self.barrel_at <= new < self.target:
            seat.barrel = True
            seat.barrel_hands = 0
            events.append("barrel_on")
            return self.barrel_at
        return new
