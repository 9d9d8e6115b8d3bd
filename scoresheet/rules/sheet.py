"""The running sheet, shared by every game: entries, owed points, the target and the winner."""

from __future__ import annotations

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
    check_setup(setup)
    game = new_game(setup)
    signed = setup.options.sheet == "signed"
    # A score below zero carried over from paper starts as owed points on the sheet (§8).
    scores = list(setup.start_scores)
    sheet = [max(s, 0) if not signed else s for s in scores]
    owed = [max(-s, 0) if not signed else 0 for s in scores]
    hands: list[HandResult] = []
    winner: int | None = None
    for record in records:
        deal = game.deal()
        if winner is not None:
            raise at_hand(deal.number, Refused(
                None, f"The match is over: {setup.players[winner]} has won. No more hands."))
        try:
            scored = game.play(record)
        except Refused as err:
            raise at_hand(deal.number, err) from None
        results: list[SeatResult] = []
        for i, new in enumerate(scored.scores):
            d = new - scores[i]
            scores[i] = new
            if signed:
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
        winner = pick_winner(scores, game.target, deal, scored.declarer)
        if winner is not None:
            results[winner].events += ("win",)
        hands.append(HandResult(
            deal.number, record, deal.dealer, deal.sitting_out, deal.gold,
            scored.points, scored.took, scored.made, scored.multiplier, tuple(results),
        ))
    standings = game.standings(setup.players, sheet, owed)
    return Sheet(
        setup, tuple(hands), standings,
        "finished" if winner is not None else "in_progress", winner,
        None if winner is not None else game.next_deal(),
    )


def pick_winner(scores: list[int], target: int, deal: Deal, declarer: int | None) -> int | None:
    """The seat that won with this hand, if any (RULES.md §5).

    Highest score first; on equal scores the declarer; else the earlier seat in the bidding order.
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
