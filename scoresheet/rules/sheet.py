"""The running sheet, shared by every game: entries, owed points, the target and the winner."""

from __future__ import annotations

import copy
from collections.abc import Iterable

from .errors import Refused
from .game import Deal, Game
from .model import HandRecord, HandResult, SeatResult, Setup, Sheet
from .setup import check_setup
from .tysiacha import Tysiacha


def new_game(setup: Setup) -> Game:
    """The game behind a set-up (Tichu plugs in here, RULES.md §10)."""
    return Tysiacha(setup)


def replay(setup: Setup, records: Iterable[HandRecord]) -> Sheet:
    """Replay the hand records, in order, into the complete computed sheet.

    Raises `Refused` (with `.hand`, the 1-based number of the hand at fault) when a record
    breaks the rules where it stands.
    """
    run = Replay(setup)
    for record in records:
        run.add(record)
    return run.sheet()


class Replay:
    """A sheet being replayed hand by hand; `copy()` lets a caller try a hand on a copy."""

    def __init__(self, setup: Setup) -> None:
        check_setup(setup)
        self.setup = setup
        self.game = new_game(setup)
        self.signed = setup.options.sheet == "signed"
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
        other.scores, other.sheet_totals, other.owed = (
            list(self.scores), list(self.sheet_totals), list(self.owed))
        other.hands = list(self.hands)
        return other

    def add(self, record: HandRecord) -> HandResult:
        """Check and score the next hand, and book it on the sheet (§8); raises `Refused`."""
        game, scores, sheet, owed = self.game, self.scores, self.sheet_totals, self.owed
        deal = game.deal()
        if self.winner is not None:
            raise at_hand(deal.number, Refused(
                None, f"The match is over: {self.setup.players[self.winner]} has won. "
                      "No more hands."))
        try:
            scored = game.play(record)
        except Refused as err:
            raise at_hand(deal.number, err) from None
        results: list[SeatResult] = []
        for i, new in enumerate(scored.scores):
            d = new - scores[i]
            scores[i] = new
            if self.signed:
                entry = d
                sheet[i] += d
            elif d < 0:
                entry = 0
                owed[i] -= d
            else:
                pay = min(d, owed[i])
                entry = d - pay
                owed[i] -= pay
                sheet[i] += entry
            results.append(SeatResult(d, entry, owed[i], new, sheet[i], scored.barrel[i],
                                      scored.events[i]))
        self.winner = pick_winner(scores, game.target, deal, scored.declarer)
        if self.winner is not None:
            results[self.winner].events += ("win",)
        hand = HandResult(
            deal.number, record, deal.dealer, deal.sitting_out, deal.gold,
            scored.points, scored.took, scored.made, scored.multiplier, tuple(results),
        )
        self.hands.append(hand)
        return hand

    def sheet(self) -> Sheet:
        """The computed sheet as it stands."""
        winner = self.winner
        return Sheet(
            self.setup, tuple(self.hands),
            self.game.standings(self.setup.players, self.sheet_totals, self.owed),
            "finished" if winner is not None else "in_progress", winner,
            None if winner is not None else self.game.next_deal(),
        )


def pick_winner(scores: list[int], target: int, deal: Deal, declarer: int | None) -> int | None:
    """The seat that won with this hand, if any (RULES.md §5).

    Highest score first; on equal scores the declarer; else the earlier seat in the bidding order.
    Where RULES.md is silent: a seat that wins from the barrel (score = target) is one of the
    seats that reached the target, so a seat that jumped higher in the same hand beats it; with
    four seats the sitter-out is the dealer, so it comes last in the bidding order.
    """
    if max(scores) < target:
        return None
    reached = [i for i in deal.order if scores[i] >= target]
    if not reached:
        return None
    return min(reached, key=lambda i: (-scores[i], i != declarer, deal.order.index(i)))


def at_hand(number: int, err: Refused) -> Refused:
    """Tag a refusal with the number of the hand it concerns."""
    err.hand = number
    return err
