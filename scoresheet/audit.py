"""The audit trail: every change to a match, written with the change, told in plain words."""

from __future__ import annotations

from typing import Any

from .extensions import db
from .models import AuditEntry, Match, User, isoformat
from .rules.tichu import CALL_WORDS

ACTIONS = ("match_created", "member_joined", "hand_added", "hand_edited", "hand_deleted",
           "hand_restored", "match_banked", "match_ended", "match_imported")
FIELDS = (("kind", "kind"), ("declarer", "declarer"), ("bid", "bid"), ("made", "made"),
          ("blind", "blind"), ("forced", "forced"), ("sitter_points", "sitter's points"),
          ("first_out", "out first"), ("double_victory", "double victory"),
          ("card_points", "card points"))


def log(match: Match, user: User | None, action: str, hand_number: int | None = None,
        before: Any = None, after: Any = None, restores_id: int | None = None) -> AuditEntry:
    """Add an entry to the session: it is committed (or rolled back) with the change itself."""
    assert action in ACTIONS, action
    entry = AuditEntry(match_id=match.id, user_id=user.id if user else None,
                       username=user.username if user else "someone", action=action,
                       hand_number=hand_number, before=before, after=after,
                       restores_id=restores_id)
    db.session.add(entry)
    return entry


def entries(match: Match) -> list[AuditEntry]:
    """The match's history, newest first."""
    return list(db.session.execute(
        db.select(AuditEntry).where(AuditEntry.match_id == match.id)
        .order_by(AuditEntry.id.desc())
    ).scalars())


def describe(entry: AuditEntry, players: list[str]) -> str:
    """The entry in plain words: "anna corrected hand 3: bid 120 → 140"."""
    who, n = entry.username, entry.hand_number
    match entry.action:
        case "match_created":
            return f"{who} started the match: {', '.join(players)}"
        case "match_imported":
            return f"{who} imported the match from a backup"
        case "member_joined":
            return f"{who} joined the match"
        case "match_banked":
            return f"{who} banked the match"
        case "match_ended":
            return f"{who} ended the match"
        case "hand_added":
            return f"{who} recorded hand {n}: {hand_words(entry.after, players)}"
        case "hand_deleted":
            return f"{who} deleted hand {n} ({hand_words(entry.before, players)})"
        case "hand_restored":
            return f"{who} restored a deleted hand as hand {n}: {hand_words(entry.after, players)}"
        case "hand_edited":
            changes = changed(entry.before or {}, entry.after or {}, players)
            return f"{who} corrected hand {n}: {'; '.join(changes) or 'no change'}"
    return f"{who}: {entry.action}"


def hand_words(record: dict[str, Any] | None, players: list[str]) -> str:
    """A hand record in brief: "Boris bid 120", "a redeal"."""
    if not record:
        return "?"
    if "calls" in record:
        return _round_words(record, players)
    kind, bid = record.get("kind"), record.get("bid")
    name = seat_name(record.get("declarer"), players)
    if kind == "redeal":
        return "a redeal"
    if kind == "forfeit":
        return f"{name} gave up at {bid}"
    made = record.get("made")
    outcome = "" if made is None else (", made" if made else ", missed")
    return f"{name} bid {bid}{outcome}"


def _round_words(record: dict[str, Any], players: list[str]) -> str:
    """A Tichu round in brief: "Anna out first, Anna: Tichu, cards 35 : 65"."""
    first = record.get("first_out")
    parts = [] if first is None else [f"{seat_name(first, players)} out first"]
    parts += [f"{seat_name(i, players)}: {CALL_WORDS.get(c, c)}"
              for i, c in enumerate(record.get("calls") or []) if c]
    points = record.get("card_points")
    if record.get("double_victory"):
        parts.append("double victory")
    elif isinstance(points, list) and len(points) == 2:
        parts.append(f"cards {points[0]} : {points[1]}")
    return ", ".join(parts)


def changed(before: dict[str, Any], after: dict[str, Any], players: list[str]) -> list[str]:
    """What differs between two hand records, one phrase per change."""
    out = []
    for key, label in FIELDS:
        old, new = before.get(key), after.get(key)
        if old != new:
            if key in ("declarer", "first_out"):
                old, new = seat_name(old, players), seat_name(new, players)
            out.append(f"{label} {value_words(old)} → {value_words(new)}")
    for key, label in (("points", "points"), ("marriages", "marriages"), ("calls", "call")):
        olds, news = before.get(key) or [], after.get(key) or []
        for seat in range(max(len(olds), len(news))):
            old = olds[seat] if seat < len(olds) else None
            new = news[seat] if seat < len(news) else None
            if old != new:
                if key == "calls":
                    old, new = CALL_WORDS.get(old, old), CALL_WORDS.get(new, new)
                out.append(f"{seat_name(seat, players)}'s {label} "
                           f"{value_words(old)} → {value_words(new)}")
    return out


def seat_name(seat: Any, players: list[str]) -> str:
    """A player's name for a seat number."""
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "nobody"


def value_words(value: Any) -> str:
    """A stored value as a player reads it."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def entry_to_dict(entry: AuditEntry, players: list[str]) -> dict[str, Any]:
    """One history entry as the API shows it (and as a backup keeps it)."""
    return {"id": entry.id, "at": isoformat(entry.at), "user": entry.username,
            "action": entry.action, "hand": entry.hand_number, "before": entry.before,
            "after": entry.after, "restores": entry.restores_id,
            "words": describe(entry, players)}
