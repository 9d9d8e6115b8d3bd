"""The JSON shapes of the API (API.md), in one place: the match object, a hand, the standings,
a match in brief for lists, a history entry, the seats, the links, a player's profile, the
leaderboard, head to head and the guests. Each takes what it shows and reads nothing else
(but the match object, which asks for its members and its hands' versions)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Row

from ...rules import HandResult, MatchState, Setup, TichuRound, setup_to_dict
from ...rules.tichu import TICHU
from ...services.matches.audit import describe
from ...services.matches.seats import SeatView
from ...services.players.profiles import Profile
from ...services.players.ratings import Entry
from ...services.players.statistics import GuestFigures, HeadToHead
from ...storage.extensions import db
from ...storage.models import AuditEntry, Hand, Match, Member, User, isoformat


def encode(value: Any) -> str:
    """Compact JSON, as the API sends it."""
    return json.dumps(value, separators=(",", ":"))


def match_status(match: Match | Row[Any], sheet_status: str) -> str:
    """`in_progress`, `finished` (computed by the replay), `banked` or `ended` (stored)."""
    return match.status if match.status in ("banked", "ended") else sheet_status


def member_names(match: Match) -> list[str]:
    """The members' usernames in the order they joined (one query, not one per member)."""
    return list(
        db.session.execute(
            db.select(User.username)
            .join(Member, Member.user_id == User.id)
            .where(Member.match_id == match.id)
            .order_by(Member.id)
        ).scalars()
    )


def hand_json(h: HandResult, setup: Setup, version: int) -> dict[str, Any]:
    """One computed hand as API.md shows it, with its stored `version` (for edits)."""
    r = h.record
    if isinstance(r, TichuRound):
        return _round_json(h, r, version)
    played = r.kind == "played"
    marriages = r.marriages or ((),) * len(setup.players)
    return {
        "number": h.number,
        "kind": r.kind,
        "dealer": h.dealer,
        "sitting_out": h.sitting_out,
        "declarer": r.declarer,
        "bid": r.bid,
        "blind": r.blind,
        "gold": h.gold,
        "forced": r.forced,
        "points": list(h.points) if played and h.points is not None else None,
        "marriages": [list(m) for m in marriages] if played else None,
        "made": h.made if played else None,
        "took": list(h.took) if played and h.took is not None else None,
        "sitter_points": r.sitter_points,
        "results": [
            {
                "delta": s.delta,
                "entry": s.entry,
                "owed": s.owed,
                "score": s.score,
                "sheet": s.total,
                "barrel": s.barrel,
                "events": list(s.events),
            }
            for s in h.results
        ],
        "version": version,
    }


def _round_json(h: HandResult, r: TichuRound, version: int) -> dict[str, Any]:
    """One computed Tichu round (API.md "Tichu"): its record, then one result per team."""
    return {
        "number": h.number,
        "dealer": h.dealer,
        "calls": list(r.calls),
        "first_out": r.first_out,
        "double_victory": r.double_victory,
        "card_points": None if r.card_points is None else list(r.card_points),
        "results": [
            {
                "team": t,
                "delta": s.delta,
                "entry": s.entry,
                "owed": s.owed,
                "score": s.score,
                "sheet": s.total,
                "events": list(s.events),
            }
            for t, s in enumerate(h.results)
        ],
        "version": version,
    }


def _match_head(match: Match, sheet: MatchState) -> dict[str, Any]:
    """The match object of API.md without its hands."""
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
        "members": member_names(match),
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


def match_to_dict(match: Match, sheet: MatchState) -> dict[str, Any]:
    """The match object of API.md, every field."""
    versions = dict(db.session.execute(db.select(Hand.number, Hand.version).where(Hand.match_id == match.id)).all())
    return _match_head(match, sheet) | {
        "hands": [hand_json(h, sheet.setup, versions.get(h.number, 1)) for h in sheet.hands]
    }


def match_json(match: Match, sheet: MatchState, hands_text: tuple[str, ...] | None = None) -> str:
    """The match object of API.md as JSON text; `hands_text`: its hands, already encoded (the
    replay cache keeps them per revision: the bulk of a long match's JSON)."""
    if hands_text is None:
        return encode(match_to_dict(match, sheet))
    return encode(_match_head(match, sheet))[:-1] + ',"hands":[' + ",".join(hands_text) + "]}"


def match_brief(match: Row[Any]) -> dict[str, Any]:
    """A match in brief, for lists, from a row of `queries.listed_matches`: its stored
    summary, nothing replayed."""
    summary = match.summary
    assert summary is not None, "every change stores it; migration 0003 filled older matches"
    return {
        "id": match.id,
        "players": list(match.setup["players"]),
        "rules": match.setup["rules"],
        "status": match_status(match, summary["status"]),
        "winner": summary["winner"],
        "hands": summary["hands"],
        "created_at": isoformat(match.created_at),
    }


def entry_to_dict(entry: AuditEntry, players: list[str]) -> dict[str, Any]:
    """One history entry as the API shows it (and as a backup keeps it)."""
    return {
        "id": entry.id,
        "at": isoformat(entry.at),
        "user": entry.username,
        "action": entry.action,
        "hand": entry.hand_number,
        "before": entry.before,
        "after": entry.after,
        "restores": entry.restores_id,
        "words": describe(entry, players),
    }


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


def guests_json(guests: list[GuestFigures]) -> dict[str, Any]:
    """The guests of a player's banked matches, by name."""
    return {
        "guests": [
            {"name": x.name, "banked": x.banked, "won": x.won, "average_place": round(x.average_place, 3)}
            for x in guests
        ]
    }
