"""Tysiacha: scoring one hand at a time (RULES.md §3–§7).

What a hand may hold is checked apart, in `legal.py` (RULES.md §2): `check` asks it, `play`
scores a hand that passed and checks nothing.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from .events import Event
from .game import Deal, Scored
from .house import dump_scores, resolved
from .legal import check_hand
from .records import HandRecord, NextDeal, Record, Setup, Standing, marriage_points
from .rulesets import (
    BARREL_DROP,
    BLIND_MULTIPLIER,
    BOMB_BONUS_FOUR_SEATS,
    COUNT_PENALTY,
    GOLD_MIN_BID,
    GOLD_MULTIPLIER,
    LOCK_BELOW,
    RULESETS,
    complete_points,
    round_points,
)

# On Python 3.11 an enum member read from its class goes through EnumType.__getattr__, about
# five times a global's look-up; scoring reads several per hand, so it reads these globals.
_BARREL_CLASH = Event.BARREL_CLASH
_BARREL_FALL = Event.BARREL_FALL
_BARREL_IGNORED = Event.BARREL_IGNORED
_BARREL_OFF = Event.BARREL_OFF
_BARREL_ON = Event.BARREL_ON
_BARREL_RESET = Event.BARREL_RESET
_CAPPED = Event.CAPPED
_DUMP = Event.DUMP
_FORFEIT = Event.FORFEIT
_FORFEIT_PENALTY = Event.FORFEIT_PENALTY
_KNOCKED_OFF = Event.KNOCKED_OFF
_LOCKED = Event.LOCKED
_MADE = Event.MADE
_MISSED = Event.MISSED
_SITTING_OUT = Event.SITTING_OUT
_UNLOCKED = Event.UNLOCKED
_ZERO = Event.ZERO
_ZERO_PENALTY = Event.ZERO_PENALTY


@dataclass(slots=True)
class _Seat:
    """The running state of one seat (RULES.md §4)."""

    score: int
    barrel: bool = False
    barrel_hands: int = 0
    zeros: int = 0
    forfeits: int = 0
    run: int = 0
    """Zeros in a row (house rule `zeros: "consecutive"`, RULES.md §11.1)."""
    falls: int = 0
    """Falls from the barrel (counted with `three_falls_reset`, §11.6)."""


class Tysiacha:
    """Replays the hands of one Tysiacha match under its ruleset and options."""

    over = "match_over"

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rs = rs = RULESETS[setup.rules]
        self.options = setup.options
        self.target = setup.options.target
        self.names = setup.players
        self.n = n = len(setup.players)
        self.lock_at = self.target - LOCK_BELOW
        self.has_barrel = rs.has_barrel
        self.has_lock = rs.endgame == "lock"
        self.seats = [_Seat(s) for s in setup.start_scores]
        self.dealer = setup.first_dealer
        self.number = 1
        self.gold_left = n if setup.options.gold_set else 0
        self.gold_made = False
        # The house rules (RULES.md §11), read once into plain attributes: with the defaults
        # each costs a hand one test of a flag at most.
        h = resolved(setup.options, setup.rules)
        self.gap = h.barrel_gap
        """How far below the target the barrel sits; also what a win from it needs (§11.11)."""
        self.barrel_at = self.target - h.barrel_gap
        self.fall_to = self.barrel_at - BARREL_DROP
        self.zeros = h.zeros != "off"
        self.consecutive = h.zeros == "consecutive"
        self.zero_penalty = h.zero_penalty
        self.barrel_hands = h.barrel_hands
        self.miss_stays = h.barrel_miss == "stays"
        self.falls_reset = h.three_falls_reset
        self.rounded_made = h.declarer_rounding
        self.half_bid = h.forfeit_pays == "half_bid"
        self.blind_declarer_only = h.blind_doubles == "declarer"
        self.knock_off = h.barrel_knock_off
        self.jump_mounts = h.barrel_jump == "mounts"
        self.clash = h.barrel_clash
        self.defender_wins = h.barrel_defender_wins
        self.win_added = h.barrel_win_score == "added"
        self.barrel_zeros = h.barrel_zeros
        self.forfeit_penalty = h.forfeit_penalty
        self.mounts: list[tuple[_Seat, int]] | None = [] if self.knock_off or self.clash != "all_stay" else None
        """The seats mounting the barrel in the hand being scored, each with its step-3 result
        (§11): read by the clash and the knock-off, None when neither is played."""
        self.dump = frozenset(dump_scores(h))
        self._deals = tuple(
            tuple(
                Deal(
                    dealer=dealer,
                    sitting_out=dealer if n == 4 else None,
                    gold=gold,
                    min_bid=GOLD_MIN_BID if gold else rs.min_bid,
                    order=tuple((dealer + rs.bids_first + k) % n for k in range(n)),
                )
                for dealer in range(n)
            )
            for gold in (False, True)
        )
        """Every deal there can be, by gold set and dealer (built once, shared)."""

    # -- the deal -------------------------------------------------------------------------

    def deal(self) -> Deal:
        """The hand that comes next."""
        return self._deals[self.gold_left > 0][self.dealer]

    def next_deal(self) -> NextDeal:
        """The banner for the next hand."""
        d = self.deal()
        return NextDeal(
            hand=self.number,
            dealer=d.dealer,
            first_bidder=d.order[0],
            sitting_out=d.sitting_out,
            gold=d.gold,
            min_bid=d.min_bid,
        )

    def copy(self) -> Tysiacha:
        """An independent copy of the running state (the set-up and tables are shared)."""
        other = copy.copy(self)
        other.seats = [dataclasses.replace(s) for s in self.seats]
        if self.mounts is not None:
            other.mounts = []
        return other

    def _locked(self, seat: _Seat) -> bool:
        """Polish lock: a seat at 900..999 scores only as declarer (RULES.md §7)."""
        return self.has_lock and self.lock_at <= seat.score < self.target

    def standings(self, names: tuple[str, ...], totals: list[int], owed: list[int]) -> tuple[Standing, ...]:
        """Where every seat stands now."""
        return tuple(
            Standing(
                seat=i,
                name=names[i],
                score=s.score,
                total=totals[i],
                owed=owed[i],
                barrel=s.barrel,
                barrel_hands=s.barrel_hands,
                locked=self._locked(s),
                zeros=s.zeros,
                forfeits=s.forfeits,
                barrel_hands_left=self.barrel_hands - s.barrel_hands if s.barrel else 0,
                next_zero_costs=self._next_zero_costs(s),
                # as a zero's: never on the barrel (§11.17: classic charges none there, §4:
                # squarescores allows none)
                next_forfeit_costs=self.forfeit_penalty and not s.barrel and s.forfeits % 3 == 2,
            )
            for i, s in enumerate(self.seats)
        )

    def _next_zero_costs(self, seat: _Seat) -> int:
        """What the seat's next zero would cost (RULES.md §11.1): the penalty, or 0. On the
        barrel, 0: a zero there is not counted (§4) or, with §11.16, counted and not paid; and
        locked (§7), 0: a locked seat takes no zero."""
        if not self.zeros or seat.barrel or self._locked(seat):
            return 0
        due = seat.run == 2 if self.consecutive else seat.zeros % 3 == 2
        return self.zero_penalty if due else 0

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
        check_hand(record, self.setup, self.rs, self.deal(), self.seats)

    def play(self, record: Record) -> Scored:
        """Score a hand that `check` allowed, for every seat, and move the deal on.

        Does not check: a hand `check` refuses gives a meaningless result or an error.
        """
        assert isinstance(record, HandRecord)
        deal = self.deal()
        if record.kind == "redeal":
            scored = Scored(
                scores=tuple(s.score for s in self.seats),
                events=tuple((_SITTING_OUT,) if i == deal.sitting_out else () for i in range(self.n)),
                barrel=tuple(s.barrel for s in self.seats),
            )
            self.number += 1  # the same dealer deals again
            return scored
        scored = self._score(record, deal)
        self._advance(deal, scored.made)
        return scored

    def _advance(self, deal: Deal, made: bool | None) -> None:
        """Pass the deal on and count the hand towards a gold set (RULES.md §6)."""
        self.number += 1
        self.dealer = (self.dealer + 1) % self.n
        if deal.gold:
            self.gold_left -= 1
            self.gold_made = self.gold_made or bool(made)
            if self.gold_left == 0 and not self.gold_made:
                self.gold_left = self.n

    def _score(self, record: HandRecord, deal: Deal) -> Scored:
        """Score a played or forfeited hand for every seat (RULES.md §3, §4, §7, §11)."""
        rs = self.rs
        declarer, bid = record.declarer, record.bid
        assert declarer is not None and bid is not None
        mult = GOLD_MULTIPLIER if deal.gold else 1
        seats = self.seats
        points: tuple[int | None, ...] | None = None
        took: tuple[int | None, ...] | None = None
        made: bool | None = None
        declarer_took: int | None = None
        bomb = 0
        consecutive = False
        if record.kind == "played":
            points = complete_points(record.points, declarer)
            marriages = record.marriages
            took = (
                points
                if marriages is None or not any(marriages)
                else tuple(
                    [
                        p if p is None or not m else p + marriage_points(m)
                        for p, m in zip(points, marriages, strict=True)
                    ]
                )
            )
            declarer_took = took[declarer]
            assert declarer_took is not None
            if self.rounded_made:  # §11.7: the made check, and the barrel's took ≥ 120
                raw = points[declarer]
                assert raw is not None
                declarer_took += round_points(raw, rs.rounding) - raw
            made = declarer_took >= bid
            defenders_mult = mult
            if record.blind:
                mult *= BLIND_MULTIPLIER
                if not self.blind_declarer_only:  # §11.9
                    defenders_mult = mult
            pays = rs.defenders_score_on_made or not made
            rounding, zeros, consecutive = rs.rounding, self.zeros, self.consecutive
        elif rs.forfeit == "bomb":
            # The first forfeit of a seat is free, later ones pay every other seat (§7).
            if seats[declarer].forfeits > 0:
                bomb = BOMB_BONUS_FOUR_SEATS if self.n == 4 else rs.forfeit_bonus
            opponents_get = bomb
        elif self.half_bid:  # §11.8: half the bid, rounded up to the step
            step = 2 * rs.bid_step
            opponents_get = -(-bid // step) * rs.bid_step * mult
        else:
            opponents_get = rs.forfeit_bonus * mult
        sitting_out = deal.sitting_out
        has_lock, lock_at, target = self.has_lock, self.lock_at, self.target
        defender_wins, gap = self.defender_wins, self.gap
        new_scores: list[int] = []
        all_events: list[tuple[Event, ...]] = []
        for i, seat in enumerate(seats):
            old = seat.score
            if i == declarer:
                events: list[Event] = []
                new = self._declare(seat, record, mult, made, declarer_took, events)
                if consecutive:
                    seat.run = 0
            elif i == sitting_out:
                events = [_SITTING_OUT]
                # The number the table entered (§6), not multiplied: §3's multiplier is for the
                # declarer's, defenders' and forfeit points. It goes through the barrel rules
                # like any gain: it can put the sitter on the barrel or take it to the target.
                gain = record.sitter_points + bomb
                new = self._collect(seat, gain, events, False, False) if gain else old
            else:
                events = []
                if points is not None and took is not None:  # a played hand
                    raw, seat_took = points[i], took[i]
                    assert raw is not None and seat_took is not None
                    # Took minus the card points is what the seat's marriages are worth.
                    worth = round_points(raw, rounding) + seat_took - raw
                    gain = worth * defenders_mult if pays else 0
                    zero = zeros and raw == 0
                    if defender_wins and seat.barrel and worth >= gap:  # §11.14, before any multiplier
                        new = self._defender_wins(seat, gain, zero, events)
                    elif consecutive:
                        zeros_before = seat.zeros
                        new = self._collect(seat, gain, events, True, zero)
                        if seat.zeros == zeros_before:  # §11.1: anything but a zero ends a run
                            seat.run = 0
                    else:
                        new = self._collect(seat, gain, events, True, zero)
                else:
                    new = self._collect(seat, opponents_get, events, True, False)
            if has_lock:
                was, now = lock_at <= old < target, lock_at <= new < target
                if now and not was:
                    events.append(_LOCKED)
                elif was and not now and new < target:
                    events.append(_UNLOCKED)
            seat.score = new
            new_scores.append(new)
            all_events.append(tuple(events) if events else ())
        mounts = self.mounts
        if mounts:  # step 4 (§11): the clash, then the knock-off
            if len(mounts) > 1 and self.clash != "all_stay":
                self._clash(mounts, declarer, deal, new_scores, all_events)
            if self.knock_off and any(s.barrel for s, _ in mounts):
                self._knock_off(mounts, new_scores, all_events)
            mounts.clear()
        if self.dump and not self.dump.isdisjoint(new_scores):
            self._dump(new_scores, all_events)
        # Positional, in the order of Scored's fields: keywords would cost a replay 4% (one a hand).
        return Scored(
            tuple(new_scores), tuple(all_events), tuple([s.barrel for s in seats]), declarer, points, took, made, mult
        )

    def _clash(
        self,
        mounts: list[tuple[_Seat, int]],
        declarer: int,
        deal: Deal,
        scores: list[int],
        events: list[tuple[Event, ...]],
    ) -> None:
        """§11.13: of the seats mounting in the same hand, one stays (the declarer, else the
        highest step-3 result, else the earlier in the bidding order) or none; the others drop
        to B − 120, which is not a fall (§11.6)."""
        seat_of = {id(seat): i for i, seat in enumerate(self.seats)}
        mounted = [(seat_of[id(seat)], result) for seat, result in mounts]
        kept = None
        if self.clash == "one_stays":
            if any(i == declarer for i, _ in mounted):
                kept = declarer
            else:
                kept = min(mounted, key=lambda m: (-m[1], deal.order.index(m[0])))[0]
        for i, _ in mounted:
            if i != kept:
                seat = self.seats[i]
                seat.barrel = False
                seat.barrel_hands = 0
                scores[i] = seat.score = self.fall_to
                events[i] += (_BARREL_CLASH,)

    def _knock_off(self, mounts: list[tuple[_Seat, int]], scores: list[int], events: list[tuple[Event, ...]]) -> None:
        """§11.3: a seat mounting the barrel knocks off every seat that was on it already: the
        seats on it now that did not mount in this hand."""
        mounted = {id(seat) for seat, _ in mounts}
        for i, seat in enumerate(self.seats):
            if seat.barrel and id(seat) not in mounted:
                seat.barrel = False
                seat.barrel_hands = 0
                said = [_KNOCKED_OFF]
                scores[i] = seat.score = self._fallen(seat, said)
                events[i] += tuple(said)

    def _dump(self, scores: list[int], events: list[tuple[Event, ...]]) -> None:
        """§11.2: a score of exactly 555 (or −555) goes to 0, whoever holds it."""
        dump = self.dump
        for i, score in enumerate(scores):
            if score in dump:
                scores[i] = self.seats[i].score = 0
                events[i] += (_DUMP,)

    def _collect(self, seat: _Seat, gain: int, events: list[Event], in_hand: bool, zero: bool) -> int:
        """A defender, forfeit opponent or sitter-out takes what the hand gave it (RULES.md §4)."""
        score = seat.score
        if seat.barrel:
            if gain or in_hand:
                events.append(_BARREL_IGNORED)
            if zero and self.barrel_zeros:
                self._barrel_zero(seat, events)
            return self._barrel_hand(seat, score, events) if in_hand else score
        if self.has_lock and self.lock_at <= score < self.target:
            if gain or in_hand:
                events.append(_LOCKED)
            return score
        new = score + gain
        if zero:
            seat.zeros += 1
            events.append(_ZERO)
            if self.consecutive:  # §11.1: three in a row pay, and the run starts again
                seat.run += 1
                due = seat.run == 3
                if due:
                    seat.run = 0
            else:
                due = seat.zeros % 3 == 0
            if due:
                new -= self.zero_penalty
                events.append(_ZERO_PENALTY)
        if self.rs.endgame == "cap" and new > self.target - 1:
            new = max(self.target - 1, score)  # a seat is never above 1000 already (§6)
            events.append(_CAPPED)
        return self._maybe_barrel_on(seat, new, events)

    def _declare(
        self,
        seat: _Seat,
        record: HandRecord,
        mult: int,
        made: bool | None,
        took: int | None,
        events: list[Event],
    ) -> int:
        """The declarer's new score (RULES.md §3, §4, §7); `took` is what the made check used."""
        rs = self.rs
        bid = record.bid
        assert bid is not None
        if record.kind == "forfeit":
            seat.forfeits += 1
            events.append(_FORFEIT)
            due = self.forfeit_penalty and seat.forfeits % 3 == 0  # §4, §11.17
            if rs.forfeit == "minus_bid":
                on_barrel = seat.barrel
                new = self._lose(seat, bid * mult, events)
                if due and not on_barrel:  # §11.17: on the barrel (step 2) no count penalty
                    events.append(_FORFEIT_PENALTY)
                    new -= COUNT_PENALTY
                return new
            if due:
                events.append(_FORFEIT_PENALTY)
                return self._maybe_barrel_on(seat, seat.score - COUNT_PENALTY, events)
            return seat.score
        if not made:
            events.append(_MISSED)
            return self._lose(seat, bid * mult, events)
        events.append(_MADE)
        if seat.barrel:
            assert took is not None
            # §4 rule 3, took ≥ 120 (classic, §7: a made bid of 120 or more); §11.11: the gap.
            if (took if rs.endgame == "barrel_took" else bid) >= self.gap:
                return self._barrel_win(seat, bid * mult)
            return self._barrel_hand(seat, seat.score, events)
        if self._locked(seat):
            return self.target
        return self._maybe_barrel_on(seat, seat.score + bid * mult, events)

    def _barrel_win(self, seat: _Seat, points: int) -> int:
        """A seat wins from the barrel (§4 rule 3, §11.14): the target, or with §11.15's
        "added" the barrel plus the hand's points, multiplied, and never less than the target."""
        seat.barrel = False
        seat.barrel_hands = 0
        if self.win_added:
            return max(self.target, seat.score + points)
        return self.target

    def _defender_wins(self, seat: _Seat, gain: int, zero: bool, events: list[Event]) -> int:
        """§11.14: a defender on the barrel whose points reach the gap wins from it (step 2,
        before any fall); a zero it takes still counts (§11.16)."""
        if zero and self.barrel_zeros:
            self._barrel_zero(seat, events)
        elif self.consecutive:
            seat.run = 0
        return self._barrel_win(seat, gain)

    def _barrel_zero(self, seat: _Seat, events: list[Event]) -> None:
        """§11.16: a zero taken on the barrel counts, and its penalty is not taken, but the
        count moves on as if it were paid (a run restarts)."""
        seat.zeros += 1
        events.append(_ZERO)
        if self.consecutive:
            seat.run += 1
            if seat.run == 3:
                seat.run = 0

    def _lose(self, seat: _Seat, amount: int, events: list[Event]) -> int:
        """A missed (or, where it costs the bid, forfeited) contract."""
        if seat.barrel:
            if self.miss_stays:  # §11.4: at the barrel still, and the hand counts
                return self._barrel_hand(seat, seat.score, events)
            seat.barrel = False
            seat.barrel_hands = 0
            events.append(_BARREL_OFF)
            return self.barrel_at - amount
        return seat.score - amount

    def _barrel_hand(self, seat: _Seat, score: int, events: list[Event]) -> int:
        """Count one hand on the barrel; the last one without a win or a miss drops it."""
        seat.barrel_hands += 1
        if seat.barrel_hands >= self.barrel_hands:
            seat.barrel = False
            seat.barrel_hands = 0
            events.append(_BARREL_FALL)
            return self._fallen(seat, events)
        return score

    def _fallen(self, seat: _Seat, events: list[Event]) -> int:
        """Where a fall from the barrel lands: T − 240, or 0 on every third (§11.6)."""
        if self.falls_reset:
            seat.falls += 1
            if seat.falls % 3 == 0:
                events.append(_BARREL_RESET)
                return 0
        return self.fall_to

    def _maybe_barrel_on(self, seat: _Seat, new: int, events: list[Event]) -> int:
        """Barrel rule 1: a score may never sit between the barrel and the target (§11.12's
        "mounts": nor at the target or above)."""
        if self.has_barrel and self.barrel_at <= new and (new < self.target or self.jump_mounts):
            seat.barrel = True
            seat.barrel_hands = 0
            events.append(_BARREL_ON)
            if self.mounts is not None:  # for §11.13's clash and §11.3's knock-off
                self.mounts.append((seat, new))
            return self.barrel_at
        return new
