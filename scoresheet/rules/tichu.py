"""Tichu: checking and scoring one round at a time, per team (RULES.md §10).

Four players, partners opposite: team 0 is seats 0 and 2, team 1 seats 1 and 3. The shared
sheet (§8) books the two teams' scores exactly as it books Tysiacha's seats.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from .events import Event
from .game import Deal, Scored
from .messages import Coded, OneOf, malformed, refuse
from .records import NextDeal, Record, Setup, Standing, TichuRound

TICHU = "tichu"
"""The `rules` name of the game."""
SEATS = 4
TEAMS = 2
TARGETS = (1000, 500, 1500, 2000)
"""Targets allowed; the first is the default."""
CALLS: dict[str, int] = {"tichu": 100, "grand": 200, "great_grand": 400}
"""What each call wins, or loses when it fails (RULES.md §10)."""
_CALL_EVENTS = {
    "tichu": (Event.TICHU_FAILED, Event.TICHU_MADE),
    "grand": (Event.GRAND_FAILED, Event.GRAND_MADE),
    "great_grand": (Event.GREAT_GRAND_FAILED, Event.GREAT_GRAND_MADE),
}
"""Each call's events, failed and made (indexed by whether it was made)."""
CALL_WORDS = {"tichu": "Tichu", "grand": "Grand Tichu", "great_grand": "Great Grand Tichu"}
DOUBLE_VICTORY = 200
_CARD_POINTS = 100
"""The two teams' card points always add up to this."""
LOWEST_CARD_POINTS, HIGHEST_CARD_POINTS, _CARD_STEP = -25, 125, 5


def team_of(seat: int) -> int:
    """The team a seat plays for: partners sit opposite."""
    return seat % TEAMS


def team_names(players: Sequence[str]) -> tuple[str, ...]:
    """Each team's name, its two players: `Anna & Vera`."""
    return tuple(f"{players[t]} & {players[t + TEAMS]}" for t in range(TEAMS))


class Tichu:
    """Replays the rounds of one Tichu match under its options."""

    over = "match_over_team"  # a team has won: "have won", no more rounds

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.target = setup.options.target
        self.names = team_names(setup.players)
        self._calls = (
            CALLS if setup.options.great_grand_tichu else {c: p for c, p in CALLS.items() if c != "great_grand"}
        )
        self.scores = list(setup.start_scores)
        self.dealer = setup.first_dealer
        self.number = 1

    def deal(self) -> Deal:
        """The round that comes next; everyone is dealt cards and nobody bids."""
        order = tuple((self.dealer + 1 + k) % SEATS for k in range(SEATS))
        return Deal(dealer=self.dealer, order=order)

    def next_deal(self) -> NextDeal:
        """The banner for the next round: its number and the dealer."""
        return NextDeal(hand=self.number, dealer=self.dealer, first_bidder=(self.dealer + 1) % SEATS)

    def copy(self) -> Tichu:
        """An independent copy of the running state (the set-up is shared)."""
        other = copy.copy(self)
        other.scores = list(self.scores)
        return other

    def standings(self, names: tuple[str, ...], totals: list[int], owed: list[int]) -> tuple[Standing, ...]:
        """Where each team stands now (`seat` is the team number, `name` the team's)."""
        return tuple(
            Standing(seat=t, name=self.names[t], score=self.scores[t], total=totals[t], owed=owed[t])
            for t in range(TEAMS)
        )

    def winner(self, scores: Sequence[int], deal: Deal, scored: Scored) -> int | None:
        """The team that won with this round: at the target or more and ahead; equal: play on."""
        high = max(scores)
        if high < self.target or scores.count(high) > 1:
            return None
        return scores.index(high)

    def check(self, record: Record) -> None:
        """Raise `Refused` naming the field if §10 does not allow this as the next round."""
        if not isinstance(record, TichuRound):
            raise malformed("kind", "not_a_tichu_round")
        calls, first_out = record.calls, record.first_out
        if len(calls) != SEATS:
            raise refuse("calls", "calls_per_player", seats=SEATS, allowed=self._allowed())
        for seat, call in enumerate(calls):
            if call is not None and call not in self._calls:
                if call in CALLS:
                    raise refuse(
                        "calls",
                        "call_not_played",
                        call=CALL_WORDS[call],
                        name=self.setup.players[seat],
                        allowed=self._allowed(),
                    )
                raise refuse("calls", "call_unknown", call=call, name=self.setup.players[seat], allowed=self._allowed())
        if first_out is not None and not 0 <= first_out < SEATS:
            raise refuse("first_out", "first_out_no_seat")
        if first_out is None:
            caller = next((s for s, c in enumerate(calls) if c is not None), None)
            if caller is not None:
                raise refuse(
                    "first_out",
                    "first_out_after_call",
                    name=self.setup.players[caller],
                    call=CALL_WORDS[calls[caller] or ""],
                )
            if record.double_victory:
                raise refuse("first_out", "first_out_double_victory")
        self._check_card_points(record)

    def _allowed(self) -> OneOf:
        return OneOf(tuple(Coded(c, CALL_WORDS[c]) for c in self._calls))

    def _check_card_points(self, record: TichuRound) -> None:
        points = record.card_points
        if record.double_victory:
            if points is not None:
                raise refuse("card_points", "card_points_double_victory")
            return
        if points is None:
            raise refuse("card_points", "card_points_missing")
        if len(points) != TEAMS:
            raise refuse("card_points", "card_points_per_team")
        for name, p in zip(self.names, points, strict=True):
            if not LOWEST_CARD_POINTS <= p <= HIGHEST_CARD_POINTS:
                raise refuse(
                    "card_points",
                    "card_points_range",
                    lowest=LOWEST_CARD_POINTS,
                    highest=HIGHEST_CARD_POINTS,
                    name=name,
                    points=p,
                )
            if p % _CARD_STEP:
                raise refuse("card_points", "card_points_step", name=name, points=p)
        if sum(points) != _CARD_POINTS:
            raise refuse("card_points", "card_points_sum", total=_CARD_POINTS, sum=sum(points))

    def play(self, record: Record) -> Scored:
        """Score a round that `check` allowed, per team, and pass the deal on (checks nothing)."""
        assert isinstance(record, TichuRound)
        gains, events = _round_points(record)
        for t in range(TEAMS):
            self.scores[t] += gains[t]
        self.number += 1
        self.dealer = (self.dealer + 1) % SEATS
        return Scored(scores=tuple(self.scores), events=events, barrel=(False,) * TEAMS)


def _round_points(record: TichuRound) -> tuple[tuple[int, ...], tuple[tuple[Event, ...], ...]]:
    """Each team's points for a checked round, and its event words (RULES.md §10)."""
    gains = [0] * TEAMS
    events: list[list[Event]] = [[] for _ in range(TEAMS)]
    if record.double_victory:
        assert record.first_out is not None
        winners = team_of(record.first_out)
        gains[winners] += DOUBLE_VICTORY
        events[winners].append(Event.DOUBLE_VICTORY)
    else:
        assert record.card_points is not None
        gains = list(record.card_points)
    for seat, call in enumerate(record.calls):
        if call is not None:
            made = seat == record.first_out
            gains[team_of(seat)] += CALLS[call] if made else -CALLS[call]
            events[team_of(seat)].append(_CALL_EVENTS[call][made])
    return tuple(gains), tuple(tuple(e) for e in events)


@dataclass(frozen=True, slots=True, kw_only=True)
class CallCount:
    """How often one player called something, and how often the call was made."""

    called: int = 0
    made: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class CallStatistics:
    """The match page's call statistics: per player per call, and double victories per team."""

    calls: tuple[dict[str, CallCount], ...]
    """Per seat: each call word of the table with its counts."""
    double_victories: tuple[int, ...]
    """Per team."""


def call_statistics(setup: Setup, rounds: Sequence[TichuRound]) -> CallStatistics:
    """Count the calls made and won by each player, and each team's double victories."""
    words = [c for c in CALLS if c != "great_grand" or setup.options.great_grand_tichu]
    counts = [{c: [0, 0] for c in words} for _ in range(SEATS)]
    doubles = [0] * TEAMS
    for r in rounds:
        for seat, call in enumerate(r.calls):
            if call is not None:
                counts[seat][call][0] += 1
                counts[seat][call][1] += seat == r.first_out
        if r.double_victory and r.first_out is not None:
            doubles[team_of(r.first_out)] += 1
    return CallStatistics(
        calls=tuple({c: CallCount(called=n, made=m) for c, (n, m) in seat.items()} for seat in counts),
        double_victories=tuple(doubles),
    )
