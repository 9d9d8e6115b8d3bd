"""The JSON shapes of the API (API.md): the match object with its standings, a history entry,
the seats, the links, a player's profile, the leaderboard, head to head and the guests. A hand,
a history entry's data and a match in brief are the service layer's (services/matches/
serialize.py: backups and the replay cache share them). Each takes what it shows and reads
nothing else (but the match object, which asks for its members and its hands' versions)."""

from __future__ import annotations

from typing import Any

from ...rules import MatchState, setup_to_dict
from ...rules.tichu import TICHU
from ...services.matches import queries
from ...services.matches.seats import SeatView
from ...services.matches.serialize import encode, entry_to_dict, hand_json, match_status
from ...services.players.periods import Period
from ...services.players.profiles import Profile
from ...services.players.ratings import Entry
from ...services.players.records import Record, Records
from ...services.players.statistics import GuestFigures, HeadToHead, PairFigures
from ...storage.models import AuditEntry, Match, isoformat


def _match_head(match: Match, sheet: MatchState, members: list[str] | None = None) -> dict[str, Any]:
    """The match object of API.md without its hands (`members`: their names, if known)."""
    setup = setup_to_dict(sheet.setup)
    nxt = sheet.next if match.status == "open" else None
    head = {
        "id": match.id,
        "players": setup["players"],
        "rules": setup["rules"],
        "options": setup["options"],
        "status": match_status(match, sheet.status),
        "winner": sheet.winner,
        "join_code": match.join_code,
        "members": queries.member_names(match) if members is None else members,
    }
    if sheet.setup.rules == TICHU:  # API.md "Tichu": teams, and standings per team
        return head | {
            "teams": [{"team": s.seat, "seats": [s.seat, s.seat + 2], "name": s.name} for s in sheet.standings],
            "next": None if nxt is None else {"hand": nxt.hand, "dealer": nxt.dealer},
            "standings": [
                {"team": s.seat, "name": s.name, "score": s.score, "sheet": s.total, "owed": s.owed}
                for s in sheet.standings
            ],
        }
    return head | {
        "next": None
        if nxt is None
        else {
            "hand": nxt.hand,
            "dealer": nxt.dealer,
            "first_bidder": nxt.first_bidder,
            "sitting_out": nxt.sitting_out,
            "gold": nxt.gold,
            "min_bid": nxt.min_bid,
        },
        "standings": [
            {
                "seat": s.seat,
                "name": s.name,
                "score": s.score,
                "sheet": s.total,
                "owed": s.owed,
                "barrel": s.barrel,
                "barrel_hands": s.barrel_hands,
                "locked": s.locked,
                "zeros": s.zeros,
                "forfeits": s.forfeits,
                "barrel_hands_left": s.barrel_hands_left,
                "next_zero_costs": s.next_zero_costs,
            }
            for s in sheet.standings
        ],
    }


def match_to_dict(
    match: Match,
    sheet: MatchState,
    stamps: dict[int, tuple[int, str]] | None = None,
    members: list[str] | None = None,
) -> dict[str, Any]:
    """The match object of API.md, every field; `stamps`: its hands' versions and uids by
    number, if known, else read; `members`: their names, if known."""
    if stamps is None:
        stamps = queries.hand_stamps(match)
    return _match_head(match, sheet, members) | {
        "hands": [hand_json(h, sheet.setup, *stamps[h.number]) for h in sheet.hands]
    }


def match_json(
    match: Match, sheet: MatchState, hands_text: tuple[str, ...] | None = None, members: list[str] | None = None
) -> str:
    """The match object of API.md as JSON text; `hands_text`: its hands, already encoded (the
    replay cache keeps them per revision: the bulk of a long match's JSON); `members`: their
    names, if known."""
    if hands_text is None:
        return encode(match_to_dict(match, sheet, members=members))
    return encode(_match_head(match, sheet, members))[:-1] + ',"hands":[' + ",".join(hands_text) + "]}"


def history_entry(entry: AuditEntry, players: list[str], restorable: bool) -> dict[str, Any]:
    """One history entry as `GET …/history` shows it: the stored entry and whether its deleted
    hand can be restored now."""
    return {**entry_to_dict(entry, players), "restorable": restorable}


def seats_json(seats: list[SeatView]) -> dict[str, Any]:
    """The match's seats: each seat's name and the account that claimed it (null: a guest)."""
    return {"seats": [{"seat": s.seat, "name": s.name, "username": s.username} for s in seats]}


def links_json(join_url: str, watch_url: str | None) -> dict[str, Any]:
    """The links object: `join_url`, `watch_url` (null while the match has none)."""
    return {"join_url": join_url, "watch_url": watch_url}


def _rate(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def profile_json(p: Profile) -> dict[str, object]:
    """A player's profile as the API shows it (docs/api.md "Players")."""
    return {
        "username": p.username,
        "rulesets": [
            {
                "rules": r.rules,
                "played": r.played,
                "banked": r.banked,
                "won": r.won,
                "win_rate": _rate(r.win_rate),
                "average_place": _rate(r.average_place),
                "made_rate": _rate(r.made_rate),
                "average_bid_made": _rate(r.average_bid_made),
                "barrel_won_rate": _rate(r.barrel_won_rate),
                **r.counts,
            }
            for r in p.rulesets
        ],
        "ratings": {
            g.game: {
                "rating": g.current.rating,
                "matches": g.matches,
                "history": [{"number": h.number, "match": h.match_id, "rating": h.rating} for h in g.history],
            }
            for g in p.ratings
        },
        "head_to_head": None
        if p.head_to_head is None
        else {
            "matches": p.head_to_head.matches,
            "you_ahead": p.head_to_head.ahead,
            "they_ahead": p.head_to_head.behind,
        },
    }


def played_json(username: str, period: Period, played: list[PairFigures]) -> dict[str, Any]:
    """Everyone a player played with over a period (docs/api.md "Players")."""
    return {
        "username": username,
        "period": {
            "since": None if period.since is None else period.since.isoformat(),
            "until": None if period.until is None else period.until.isoformat(),
        },
        "played": [
            {
                "username": p.username,
                "partner": p.partner,
                "matches": p.matches,
                "won": p.won,
                "ahead": p.ahead,
                "behind": p.behind,
                "average_score_difference": round(p.average_score_difference, 3),
                "calls_made": p.calls_made,
                "calls": p.calls,
                "last_played": isoformat(p.last_banked_at),
            }
            for p in played
        ],
    }


def leaderboard_json(game: str, entries: list[Entry]) -> dict[str, Any]:
    """A table's players by rating in one game."""
    return {
        "game": game,
        "players": [
            {
                "username": e.username,
                "rating": e.rating,
                "mu": round(e.mu, 4),
                "sigma": round(e.sigma, 4),
                "matches": e.matches,
            }
            for e in entries
        ],
    }


def versus_json(one: str, two: str, h: HeadToHead) -> dict[str, Any]:
    """Two players (by username) head to head."""
    return {"players": [one, two], "matches": h.matches, "first_ahead": h.ahead, "second_ahead": h.behind}


def records_json(username: str, records: Records) -> dict[str, Any]:
    """A player's records, each with its match (`null` where no match sets one)."""

    def one(r: Record | None, of: bool = False) -> dict[str, Any] | None:
        if r is None:
            return None
        return {
            "value": r.value,
            **({"of": r.of} if of else {}),
            "match": r.match_id,
            "banked_at": isoformat(r.banked_at),
        }

    return {
        "username": username,
        "matches": records.matches,
        "highest_score": one(records.highest_score),
        "highest_team_score": one(records.highest_team_score),
        "comeback": one(records.comeback),
        "team_comeback": one(records.team_comeback),
        "streak": one(records.streak),
        "barrel_wins": one(records.barrel_wins),
        "tichu_calls": one(records.tichu_calls, of=True),
    }


def guests_json(guests: list[GuestFigures]) -> dict[str, Any]:
    """The guests of a player's banked matches, by name."""
    return {
        "guests": [
            {"name": x.name, "banked": x.banked, "won": x.won, "average_place": round(x.average_place, 3)}
            for x in guests
        ]
    }
