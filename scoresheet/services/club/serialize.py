"""A club night's data forms, as the API answers with them (CLUB.md §6; docs/api.md)."""

from __future__ import annotations

from typing import Any

from ...club import Table, one_decimal, one_decimal_of_twelfths, table_points, whole, whole_of_twelfths
from ...storage.models import Event, EventRound
from ..matches.export import safe_cell
from .results import Result, club_game, engine_rounds, kept_form, standings, table_result

STANDINGS_COLUMNS = (
    "place",
    "name",
    "match_points",
    "table_score",
    "opponents_points",
    "firsts",
    "rounds_played",
    "byes",
)
"""The standings' columns, in the API and the CSV alike."""


def event_data(event: Event, watch_url: str) -> dict[str, Any]:
    """The event object: its settings, directors, roster and how far it has come."""
    rounds = engine_rounds(event)
    return {
        "id": event.id,
        "name": event.name,
        "code": event.code,
        "game": {"rules": event.game["rules"], "options": event.game["options"]},
        "rounds": event.rounds,
        "seating": event.seating,
        "hand_limit": event.hand_limit,
        "time_limit": event.time_limit,
        "seed": event.seed,
        "watch_url": watch_url,
        "directors": [d.user.username for d in event.directors],
        "roster": [
            {
                "name": p.name,
                "username": p.user.username if p.user is not None else None,
                "team": p.team,
                "status": p.status,
            }
            for p in event.roster
        ],
        "current_round": len(event.seated),
        "rounds_played": [
            r.number
            for r, seen in zip(event.seated, rounds, strict=True)
            if all(t.scores is not None for t in seen.tables)
        ],
    }


def round_data(event: Event, round_: EventRound) -> dict[str, Any]:
    """The round: its tables (seat order, each with its match and its result) and its byes."""
    return {
        "round": round_.number,
        "tables": [
            {
                "table": t.number,
                "match_id": t.match_id,
                "players": list(t.players),
                "result": _result(event, t.players, table_result(t)),
            }
            for t in round_.tables
        ],
        "byes": list(round_.byes),
        "repeats": round_.repeats,
        "closed": round_.closed_at is not None,
    }


def _result(event: Event, players: list[str], result: Result | None) -> dict[str, Any] | None:
    """A table's result: its scores, each player's match points and table score (seat order)."""
    if result is None:
        return None
    points = table_points(Table(players=tuple(players), scores=result.scores), club_game(event))
    return {
        "scores": list(result.scores),
        "match_points": [one_decimal(points[p].match_points) for p in players],
        "table_scores": [whole(points[p].table_score) for p in players],
        "entered_by": result.entered_by,
    }


def standings_data(event: Event) -> dict[str, Any]:
    """The standings after the results counted so far (CLUB.md §5, §6): the event's kept ones
    (`Event.standings`, ranked by every change that alters them), nothing read but the event."""
    kept = event.standings
    if kept is None:  # a night the engine cannot rank (migration 0020): ranked when read, as before
        rounds = engine_rounds(event)
        kept = kept_form(standings(event, rounds), len(rounds))
    return {"round": kept["round"], "standings": [_row(*row) for row in kept["rows"]]}


def standings_rows(event: Event) -> list[list[Any]]:
    """The standings as the CSV's rows, its header first; a name a spreadsheet would run as a
    formula is neutralised as on the match's sheet (`safe_cell`)."""
    return [
        list(STANDINGS_COLUMNS),
        *([safe_cell(row[c]) for c in STANDINGS_COLUMNS] for row in standings_data(event)["standings"]),
    ]


def _row(
    place: int, name: str, match: int, score: int, opponents: int, firsts: int, played: int, byes: int
) -> dict[str, Any]:
    """A kept row of the standings (its sums in twelfths) as the API shows it."""
    return {
        "place": place,
        "name": name,
        "match_points": one_decimal_of_twelfths(match),
        "table_score": whole_of_twelfths(score),
        "opponents_points": one_decimal_of_twelfths(opponents),
        "firsts": firsts,
        "rounds_played": played,
        "byes": byes,
    }
