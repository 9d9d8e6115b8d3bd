"""The running sheet, shared by every game: entries, owed points, the target and the winner."""

from __future__ import annotations

import copy
from collections.abc import Iterable

from .errors import RuleError
from .events import Event
from .game import Game
from .messages import refuse
from .records import HandResult, MatchState, Record, SeatResult, Setup
from .setup import check_setup
from .tichu import TICHU, Tichu
from .tysiacha import Tysiacha


def _new_game(setup: Setup) -> Game:
    """The game behind a set-up: Tichu (RULES.md §10) or Tysiacha."""
    return Tichu(setup) if setup.rules == TICHU else Tysiacha(setup)


def replay(setup: Setup, records: Iterable[Record]) -> MatchState:
    """Replay the hand records, in order, into the computed state of the match.

    Raises `Refused` (with `.hand`, the 1-based number of the hand at fault) when a record
    breaks the rules where it stands.

    >>> from scoresheet.rules import HandRecord, Options, Setup, replay
    >>> setup = Setup(players=("Anna", "Boris", "Vera"), rules="squarescores", options=Options(target=1000),
    ...               first_dealer=0, start_scores=(0, 0, 0))
    >>> boris = HandRecord("played", declarer=1, bid=120, points=(30, None, 10), marriages=((), ("hearts",), ()))
    >>> state = replay(setup, [boris])
    >>> [s.score for s in state.standings], state.hands[0].made, state.next.hand
    ([30, 120, 10], True, 2)
    >>> replay(setup, [boris, HandRecord("played", declarer=2, bid=95, points=(60, 60, None))])
    Traceback (most recent call last):
    scoresheet.rules.errors.Refused: The lowest bid is 100; 95 is too low.
    """
    run = Replay(setup)
    for record in records:
        run.add(record)
    return run.state()


class Replay:
    """A match being replayed hand by hand; `copy()` lets a caller try a hand on a copy."""

    def __init__(self, setup: Setup) -> None:
        check_setup(setup)
        self.setup = setup
        self.game = _new_game(setup)
        self.signed = setup.options.sheet_style == "signed"
        # A score below zero carried over from paper starts as owed points on the sheet (§8).
        self.scores = list(setup.start_scores)
        self.sheet_totals = [s if self.signed else max(s, 0) for s in self.scores]
        self.owed = [0 if self.signed else max(-s, 0) for s in self.scores]
        self.hands: list[HandResult] = []
        self.winner: int | None = None

    def copy(self) -> Replay:
        """An independent copy to go on from (the hands so far are shared: never changed)."""
        other = copy.copy(self)
        other.game = self.game.copy()
        other.scores, other.sheet_totals, other.owed = (list(self.scores), list(self.sheet_totals), list(self.owed))
        other.hands = list(self.hands)
        return other

    def add(self, record: Record) -> HandResult:
        """Check the next hand, score it and book it on the sheet (§8); raises `Refused`."""
        game = self.game
        number = len(self.hands) + 1
        if self.winner is not None:
            raise _at_hand(number, refuse(None, game.over, winner=game.names[self.winner]))
        try:
            game.check(record)
        except RuleError as err:
            raise _at_hand(number, err) from None
        deal = game.deal()
        scored = game.play(record)
        scores, totals, owed = self.scores, self.sheet_totals, self.owed
        signed, barrel, events = self.signed, scored.barrel, scored.events
        results: list[SeatResult] = []
        for i, new in enumerate(scored.scores):
            d = new - scores[i]
            scores[i] = new
            if signed:
                entry = d
            elif d < 0:  # deferred (§8): a loss is owed, not entered
                entry = 0
                owed[i] -= d
            elif owed[i]:  # a gain pays what is owed first
                pay = min(d, owed[i])
                entry = d - pay
                owed[i] -= pay
            else:
                entry = d
            totals[i] += entry
            results.append(_new(SeatResult, (d, entry, owed[i], new, totals[i], barrel[i], events[i])))
        # Nobody wins below the target, in any game (RULES.md §5, §10).
        winner = self.winner = game.winner(scores, deal, scored) if max(scores) >= game.target else None
        if winner is not None:
            results[winner] = results[winner]._replace(events=events[winner] + (Event.WIN,))
        hand = _new(
            HandResult,
            (
                number,
                record,
                deal.dealer,
                deal.sitting_out,
                deal.gold,
                scored.points,
                scored.took,
                scored.made,
                scored.multiplier,
                tuple(results),
            ),
        )
        self.hands.append(hand)
        return hand

    def state(self) -> MatchState:
        """The computed match as it stands."""
        winner = self.winner
        return MatchState(
            setup=self.setup,
            hands=tuple(self.hands),
            standings=self.game.standings(self.setup.players, self.sheet_totals, self.owed),
            status="finished" if winner is not None else "in_progress",
            winner=winner,
            next=None if winner is not None else self.game.next_deal(),
        )


_new = tuple.__new__
"""Builds a named tuple from a tuple of its fields, skipping its Python-level `__new__`."""


def _at_hand(number: int, err: RuleError) -> RuleError:
    """Tag a refusal with the number of the hand it concerns."""
    err.hand = number
    return err
