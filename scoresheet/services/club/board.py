"""What the board of a club night shows (CLUB.md §4): a card per table of the current round with
its players and their scores as they stand. The version its live updates follow is the night
page's, `progress.live_version`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...storage.extensions import db
from ...storage.models import Event, EventRound, Match
from .results import Result, club_game, table_result


@dataclass(frozen=True, slots=True)
class Side:
    """One line of a table's card: a player (Tichu: a team) and the score as it stands."""

    name: str
    score: int | None
    """None while the table has no match to read (it was deleted since)."""


@dataclass(frozen=True, slots=True)
class Card:
    """A table of the current round as the board shows it."""

    number: int
    sides: tuple[Side, ...]
    hands: int
    """Hands played so far at the table."""
    result: Result | None
    """The table's result once it counts (CLUB.md §4), else None: still playing."""


def cards(event: Event, round_: EventRound) -> list[Card]:
    """The round's tables, each with its sides' scores: the result once it counts, else the
    scores as its match's summary has them (kept with every change of the match, as the home
    page reads it: no match is replayed), read for the whole round in one query."""
    ids = [t.match_id for t in round_.tables if t.match_id is not None]
    wanted = db.select(Match.id, Match.summary).where(Match.id.in_(ids))
    summaries: dict[str, Any] = {i: summary for i, summary in db.session.execute(wanted)} if ids else {}
    shown = []
    for table in round_.tables:
        summary = summaries.get(table.match_id) if table.match_id is not None else None
        result = table_result(table)
        names = _names(event, table.players)
        scores: list[int | None]
        if result is not None:
            scores = list(result.scores)
        elif summary is not None:
            scores = list(summary["scores"])
        else:
            scores = [None] * len(names)
        sides = tuple(Side(name, score) for name, score in zip(names, scores, strict=True))
        shown.append(Card(table.number, sides, summary["hands"] if summary is not None else 0, result))
    return shown


def _names(event: Event, players: list[str]) -> list[str]:
    """A card's lines: the players in seat order; Tichu: the two teams (seats 0 and 2 against 1
    and 3), as the table's scores are per team."""
    if club_game(event) == "tichu":
        return [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]
    return list(players)
