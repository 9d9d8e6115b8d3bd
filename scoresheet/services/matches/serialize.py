"""A match as data, in the forms the API, the backups and the replay cache share (API.md): a
computed hand, a history entry, a match's status and a match in brief for lists. Each takes
what it shows and reads nothing else."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Row

from ...rules import HandResult, Setup, TichuRound
from ...storage.models import AuditEntry, Match, isoformat
from .audit import describe


def encode(value: Any) -> str:
    """Compact JSON, as the API sends it."""
    return json.dumps(value, separators=(",", ":"))


def match_status(match: Match | Row[Any], sheet_status: str) -> str:
    """`in_progress`, `finished` (computed by the replay), `banked` or `ended` (stored)."""
    return match.status if match.status in ("banked", "ended") else sheet_status


def hand_json(h: HandResult, setup: Setup, version: int, uid: str | None = None) -> dict[str, Any]:
    """One computed hand as API.md shows it, with its stored `version` (for edits) and `uid`
    (what names it for its whole life; none for a preview, which names no stored hand)."""
    r = h.record
    if isinstance(r, TichuRound):
        return _with_uid(_round_json(h, r, version), uid)
    played = r.kind == "played"
    marriages = r.marriages or ((),) * len(setup.players)
    hand = {
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
    return _with_uid(hand, uid)


def _with_uid(hand: dict[str, Any], uid: str | None) -> dict[str, Any]:
    """The hand with its `uid`, if it is a stored one."""
    if uid is not None:
        hand["uid"] = uid
    return hand


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
