"""Caches of the replay: the computed sheet kept per match revision, and each match's summary.

The records in the database are the one truth. Replaying 200 hands costs a couple of
milliseconds, so each process keeps the latest replay of the matches it served, keyed by
the match's `revision` (which every change bumps in the same transaction). A request whose
revision differs replays from the database again, so several workers never disagree.

Lists (the home page, `GET /api/matches`) must not replay every match: each match stores a
small summary of its replay (`summary_of`), written in the same transaction as every change by
`store_summary`, never edited by hand.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from threading import Lock
from typing import Any

from ...rules import MatchState, Record, Replay, Setup, record_from_dict, setup_from_dict
from ...storage.extensions import db
from ...storage.models import Hand, Match
from .serialize import encode, hand_json

_CACHE_SIZE = 256
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
    uids: tuple[str, ...]
    """Every hand's uid, in order (the sheet's ✎ links name the hand by it)."""


_cache: OrderedDict[str, Computed] = OrderedDict()
_lock = Lock()


def setup_of(match: Match) -> Setup:
    """The match's set-up as the engine's value object."""
    return setup_from_dict(match.setup)


def stored_records(match: Match) -> list[Record]:
    """The match's hand records in order, fresh from the database (no ORM objects: cheaper)."""
    rules = match.setup["rules"]
    return [
        record_from_dict(r, rules)
        for r in db.session.execute(
            db.select(Hand.record).where(Hand.match_id == match.id).order_by(Hand.number)
        ).scalars()
    ]


def computed(match: Match) -> Computed:
    """The match replayed at its current revision (from this process's cache when current)."""
    found = _cache.get(match.id)
    if found is not None and found.revision == match.revision:
        return found
    revision = match.revision
    rows = db.session.execute(
        db.select(Hand.record, Hand.version, Hand.uid).where(Hand.match_id == match.id).order_by(Hand.number)
    ).all()
    # Keep it only if no change landed between reading the revision and the records.
    now = db.session.execute(db.select(Match.revision).where(Match.id == match.id)).scalar_one()
    run = Replay(setup_of(match))
    rules = match.setup["rules"]
    for record, _version, _uid in rows:
        run.add(record_from_dict(record, rules))
    stamps = {n: (version, uid) for n, (_record, version, uid) in enumerate(rows, start=1)}
    return publish(match.id, revision, run, run.state(), None, stamps, keep=now == revision)


def publish(
    match_id: str,
    revision: int,
    run: Replay,
    sheet: MatchState,
    before: Computed | None,
    stamps: Mapping[int, tuple[int, str]],
    keep: bool = True,
) -> Computed:
    """A replay and its sheet as the match's sheet at `revision` (kept unless `keep` is false);
    `before`: the sheet of its first hands, already encoded (None: no hand before); `stamps`:
    the version and uid of each stored hand after those, by number."""
    known, uids = (before.hands_text, before.uids) if before is not None else ((), ())
    later = sheet.hands[len(known) :]
    hands_text = known + tuple(encode(hand_json(h, sheet.setup, *stamps[h.number])) for h in later)
    result = Computed(revision, run, sheet, hands_text, uids + tuple(stamps[h.number][1] for h in later))
    if not keep:
        return result
    with _lock:
        _cache[match_id] = result
        _cache.move_to_end(match_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return result


def encoded_hands(match_id: str, sheet: MatchState) -> tuple[str, ...] | None:
    """The hands of `sheet`, already encoded as the API shows them, if this process keeps that
    very sheet (else None: the caller encodes them)."""
    found = _cache.get(match_id)
    return found.hands_text if found is not None and found.sheet is sheet else None


def hand_uids(match_id: str, sheet: MatchState) -> tuple[str, ...] | None:
    """The uids of the hands of `sheet`, in order, if this process keeps that very sheet (else
    None: a replay that was not kept, while another change landed)."""
    found = _cache.get(match_id)
    return found.uids if found is not None and found.sheet is sheet else None


def summary_of(sheet: MatchState) -> dict[str, Any]:
    """What lists show of a match, computed from its replay: the computed status, the winner,
    the number of hands and each seat's score."""
    return {
        "status": sheet.status,
        "winner": sheet.winner,
        "hands": len(sheet.hands),
        "scores": [s.score for s in sheet.standings],
    }


def store_summary(match: Match, sheet: MatchState) -> None:
    """Keep the summary of `sheet`, the match's new replay, with the change being recorded."""
    match.summary = summary_of(sheet)
