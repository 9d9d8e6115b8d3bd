"""Computed sheets, replayed from the stored hand records and kept per match revision.

The records in the database are the one truth. Replaying 200 hands costs a couple of
milliseconds, so each process keeps the latest replay of the matches it served, keyed by
the match's `revision` (which every change bumps in the same transaction). A request whose
revision differs replays from the database again, so several workers never disagree.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock
from typing import Any

from .extensions import db
from .models import Hand, Match
from .rules import HandRecord, HandResult, Replay, Setup, MatchState, hand_from_dict, setup_from_dict

CACHE_SIZE = 256
"""Matches kept per process (a few hundred kB for 200-hand matches)."""


@dataclass(frozen=True, slots=True)
class Computed:
    """A match replayed at one revision, with its hands as the API shows them."""

    revision: int
    run: Replay
    """The replay after the last hand, to go on from (copy it before adding)."""
    sheet: MatchState
    hands_text: tuple[str, ...]
    """Every hand as API.md shows it, already encoded as JSON (the bulk of a match's JSON)."""


_cache: OrderedDict[str, Computed] = OrderedDict()
_lock = Lock()


def setup_of(match: Match) -> Setup:
    """The match's set-up as the engine's value object."""
    return setup_from_dict(match.setup)


def stored_records(match: Match) -> list[HandRecord]:
    """The match's hand records in order, fresh from the database (no ORM objects: cheaper)."""
    return [hand_from_dict(r) for r in db.session.execute(
        db.select(Hand.record).where(Hand.match_id == match.id).order_by(Hand.number)
    ).scalars()]


def computed(match: Match) -> Computed:
    """The match replayed at its current revision (from this process's cache when current)."""
    found = _cache.get(match.id)
    if found is not None and found.revision == match.revision:
        return found
    revision = match.revision
    rows = db.session.execute(
        db.select(Hand.record, Hand.version).where(Hand.match_id == match.id).order_by(Hand.number)
    ).all()
    # Keep it only if no change landed between reading the revision and the records.
    now = db.session.execute(db.select(Match.revision).where(Match.id == match.id)).scalar_one()
    run = Replay(setup_of(match))
    for record, _ in rows:
        run.add(hand_from_dict(record))
    return publish(match.id, revision, run, (), [v for _, v in rows], keep=now == revision)


def cached(match_id: str) -> Computed | None:
    """The latest replay this process kept of the match, whatever its revision."""
    return _cache.get(match_id)


def publish(match_id: str, revision: int, run: Replay, known: tuple[str, ...],
            versions: list[int] | None = None, keep: bool = True) -> Computed:
    """A replay as the match's sheet at `revision` (kept unless `keep` is false); `known`: its
    first hands, already encoded; `versions`: the stored hands' versions (new ones are 1)."""
    sheet = run.state()
    seats = len(sheet.setup.players)
    hands_text = known + tuple(
        encode(hand_json(h, seats, versions[h.number - 1] if versions else 1))
        for h in sheet.hands[len(known):])
    result = Computed(revision, run, sheet, hands_text)
    if not keep:
        return result
    with _lock:
        _cache[match_id] = result
        _cache.move_to_end(match_id)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return result


def encode(value: Any) -> str:
    """Compact JSON, as the API sends it."""
    return json.dumps(value, separators=(",", ":"))


def hand_json(h: HandResult, seats: int, version: int) -> dict[str, Any]:
    """One computed hand as API.md shows it, with its stored `version` (for edits)."""
    r = h.record
    played = r.kind == "played"
    marriages = r.marriages or ((),) * seats
    return {
        "number": h.number, "kind": r.kind, "dealer": h.dealer, "sitting_out": h.sitting_out,
        "declarer": r.declarer, "bid": r.bid, "blind": r.blind, "gold": h.gold,
        "forced": r.forced,
        "points": list(h.points) if played and h.points is not None else None,
        "marriages": [list(m) for m in marriages] if played else None,
        "made": h.made if played else None,
        "took": list(h.took) if played and h.took is not None else None,
        "sitter_points": r.sitter_points,
        "results": [{"delta": s.delta, "entry": s.entry, "owed": s.owed, "score": s.score,
                     "sheet": s.total, "barrel": s.barrel, "events": list(s.events)}
                    for s in h.results],
        "version": version,
    }
