"""Each seat's figures of a match, read from its replay: what a player's statistics add up.

Everything here is counted from the computed sheet (`MatchState`: its hands, their records and
each seat's event words), so a rule the engine learns shows up in the figures by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .events import Event
from .records import HandRecord, MatchState, TichuRound
from .tichu import CALLS, TICHU, team_of

GAMES = ("tysiacha", "tichu")
"""Ratings and leaderboards are kept per game: every Tysiacha ruleset is one game."""


def game_of(rules: str) -> str:
    """The game a ruleset belongs to: `tichu`, or `tysiacha` for every other ruleset."""
    return "tichu" if rules == TICHU else "tysiacha"


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatFigures:
    """One seat's figures in one match (Tichu: a player's, with the team's place)."""

    seat: int
    place: int
    """1 for the winner; then by score, equal scores sharing a place."""
    won: bool
    declared: int = 0
    """Hands the seat declared: played or given up (Rospisat')."""
    made: int = 0
    """Contracts the seat made as declarer."""
    bid_made_sum: int = 0
    """The bids of those contracts added up (their average is this over `made`)."""
    bid_made_max: int = 0
    """The highest of them (0 if none)."""
    barrel_on: int = 0
    """Times the seat got on the barrel."""
    barrel_won: int = 0
    """Times it reached the target from the barrel."""
    barrel_fell: int = 0
    """Times it came off without winning: the last hand on it, a contract missed on it,
    knocked off by a seat that got on (RULES.md §11.3), or sent off in a clash (§11.13)."""
    zeros: int = 0
    forfeits: int = 0
    """Rospisat's (forfeits) the seat declared."""
    tichu_called: int = 0
    tichu_made: int = 0
    grand_called: int = 0
    grand_made: int = 0
    great_grand_called: int = 0
    great_grand_made: int = 0
    double_victories: int = 0
    """Double victories of the seat's team."""


COUNTS = tuple(f.name for f in fields(SeatFigures))[3:]
"""The names of the figures that add up over matches (all but seat, place, won)."""


def places(scores: list[int], winner: int | None) -> list[int]:
    """Each side's place: the winner first, then by score, equal scores sharing a place."""

    def ahead(i: int, j: int) -> bool:
        return j == winner or (i != winner and scores[j] > scores[i])

    return [1 + sum(ahead(i, j) for j in range(len(scores)) if j != i) for i in range(len(scores))]


def seat_figures(state: MatchState) -> tuple[SeatFigures, ...]:
    """Every player seat's figures in the match as replayed."""
    side_places = places([s.score for s in state.standings], state.winner)
    if state.setup.rules == TICHU:
        return _tichu(state, side_places)
    return _tysiacha(state, side_places)


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatScores:
    """One seat's final and lowest score in a match (Tichu: its team's): what a player's
    records read (highest final score, biggest comeback)."""

    seat: int
    score: int
    """The true score at the end of the match."""
    lowest: int
    """The lowest true score the seat had: its start score, or after any hand if lower."""


def seat_scores(state: MatchState) -> tuple[SeatScores, ...]:
    """Every player seat's final and lowest true score in the match as replayed."""
    tichu = state.setup.rules == TICHU
    lowest = list(state.setup.start_scores)  # a side's (Tichu: a team's) start
    for hand in state.hands:
        for side, result in enumerate(hand.results):
            lowest[side] = min(lowest[side], result.score)
    return tuple(
        SeatScores(seat=i, score=state.standings[side].score, lowest=lowest[side])
        for i in range(len(state.setup.players))
        for side in [team_of(i) if tichu else i]
    )


def _tysiacha(state: MatchState, side_places: list[int]) -> tuple[SeatFigures, ...]:
    n = len(state.setup.players)
    counts = [dict.fromkeys(COUNTS, 0) for _ in range(n)]
    on_barrel = [False] * n
    target = state.setup.options.target
    for hand in state.hands:
        record = hand.record
        assert isinstance(record, HandRecord)
        if record.declarer is not None and record.kind != "redeal":
            mine = counts[record.declarer]
            mine["declared"] += 1
            if hand.made:
                assert record.bid is not None
                mine["made"] += 1
                mine["bid_made_sum"] += record.bid
                mine["bid_made_max"] = max(mine["bid_made_max"], record.bid)
        for seat, result in enumerate(hand.results):
            c, events = counts[seat], result.events
            c["barrel_on"] += Event.BARREL_ON in events
            # A knock-off is a fall too (RULES.md §11.6); a dump or a reset is no fall of its
            # own (a reset comes with the fall that caused it). A clash takes off a seat its
            # `barrel_on` counted (§11.13): a figure's fall, though not §11.6's.
            fell = (
                Event.BARREL_FALL in events
                or Event.BARREL_OFF in events
                or Event.KNOCKED_OFF in events
                or Event.BARREL_CLASH in events
            )
            c["barrel_fell"] += fell
            c["barrel_won"] += on_barrel[seat] and not fell and result.score >= target
            c["zeros"] += Event.ZERO in events
            c["forfeits"] += Event.FORFEIT in events
            on_barrel[seat] = result.barrel
    return tuple(SeatFigures(seat=i, place=side_places[i], won=state.winner == i, **counts[i]) for i in range(n))


def _tichu(state: MatchState, side_places: list[int]) -> tuple[SeatFigures, ...]:
    counts = [dict.fromkeys(COUNTS, 0) for _ in state.setup.players]
    for hand in state.hands:
        record = hand.record
        assert isinstance(record, TichuRound)
        for seat, call in enumerate(record.calls):
            if call in CALLS:
                counts[seat][f"{call}_called"] += 1
                counts[seat][f"{call}_made"] += seat == record.first_out
        if record.double_victory and record.first_out is not None:
            for seat, c in enumerate(counts):
                c["double_victories"] += team_of(seat) == team_of(record.first_out)
    return tuple(
        SeatFigures(seat=i, place=side_places[team_of(i)], won=state.winner == team_of(i), **c)
        for i, c in enumerate(counts)
    )
