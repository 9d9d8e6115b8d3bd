"""The per-process cache of computed sheets: always the replay of what the database holds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from scoresheet.rules import Refused, hand_from_dict, replay, setup_from_dict
from scoresheet.services import accounts
from scoresheet.services.matches import commands, queries, replay_cache
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Hand, Match, User
from scoresheet.web.api import shapes

from .helpers import add_hand, create_match, edit_hand, played


@pytest.fixture
def anna(app: Any) -> Iterator[User]:
    """A user, inside an app context."""
    with app.app_context():
        yield accounts.register("anna", "correct horse")


def fresh_replay(match: Match) -> Any:
    """The sheet replayed straight from the stored records, bypassing the cache."""
    db.session.expire_all()
    rows = db.session.execute(db.select(Hand.record).where(Hand.match_id == match.id).order_by(Hand.number)).scalars()
    return replay(setup_from_dict(match.setup), [hand_from_dict(r) for r in rows])


def test_the_cached_sheet_is_the_replay_of_the_stored_records_after_every_change(anna: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    for declarer, bid in [(1, 100), (2, 120), (0, 105), (1, 140)]:
        add_hand(
            match,
            anna,
            played(
                declarer, bid, [None, 40, 40] if declarer == 0 else [40, None, 40] if declarer == 1 else [40, 40, None]
            ),
        )
        assert queries.sheet_of(match) == fresh_replay(match)
    edit_hand(match, anna, 2, played(2, 100, [30, 30, None]))
    assert queries.sheet_of(match) == fresh_replay(match)
    commands.delete_hand(match, anna, 1)
    assert queries.sheet_of(match) == fresh_replay(match)
    assert [h.record.bid for h in queries.sheet_of(match).hands] == [100, 105, 140]


def test_a_refused_hand_leaves_the_cached_replay_as_it_was(anna: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    add_hand(match, anna, played(1, 100, [20, None, 20]))
    before = queries.sheet_of(match)
    with pytest.raises(Refused):
        add_hand(match, anna, played(1, 100, [20, None, 120]))  # 140 card points
    assert queries.sheet_of(match) == before
    add_hand(match, anna, played(2, 100, [20, 20, None]))
    assert queries.sheet_of(match) == fresh_replay(match)
    assert len(queries.sheet_of(match).hands) == 2


def test_a_change_made_by_another_worker_is_seen_through_the_revision(anna: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    add_hand(match, anna, played(1, 100, [20, None, 20]))
    assert queries.sheet_of(match).hands[0].record.bid == 100  # now cached here
    # Another worker corrects hand 1: its own transaction, this process's cache untouched.
    hand = db.session.execute(db.select(Hand).where(Hand.match_id == match.id)).scalar_one()
    hand.record = {**hand.record, "bid": 120, "points": [0, None, 0]}
    db.session.execute(db.update(Match).where(Match.id == match.id).values(revision=Match.revision + 1))
    db.session.commit()
    db.session.expire_all()
    sheet = queries.sheet_of(match)
    assert sheet.hands[0].record.bid == 120 and sheet.standings[1].score == 120


def test_a_sheet_read_while_the_revision_moved_is_not_kept(anna: User, monkeypatch: Any) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    add_hand(match, anna, played(1, 100, [20, None, 20]))
    replay_cache._cache.clear()
    real_execute = db.session.execute
    calls: list[int] = []

    def racing_execute(statement: Any, *args: Any, **kw: Any) -> Any:
        # Another worker commits a change right after this request read the revision.
        if not calls:
            calls.append(1)
            real_execute(db.update(Match).where(Match.id == match.id).values(revision=Match.revision + 1))
        return real_execute(statement, *args, **kw)

    monkeypatch.setattr(db.session, "execute", racing_execute)
    replay_cache.computed(match)
    monkeypatch.undo()
    assert match.id not in replay_cache._cache


def test_the_match_json_from_cached_hands_is_the_match_object(anna: User) -> None:
    match = create_match(anna, {"players": ["Аня", "B", "C"]})
    add_hand(match, anna, played(1, 100, [20, None, 20]))
    add_hand(match, anna, {"kind": "redeal"})
    sheet = queries.sheet_of(match)
    assert replay_cache.encoded_hands(match.id, sheet) is not None
    encoded = json.loads(shapes.match_json(match, sheet, replay_cache.encoded_hands(match.id, sheet)))
    assert encoded == shapes.match_to_dict(match, sheet)
    assert [h["number"] for h in encoded["hands"]] == [1, 2]


def test_the_lock_rereads_the_match_row_another_writer_changed(anna: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    add_hand(match, anna, played(1, 100, [20, None, 20]))
    db.session.commit()
    revision = match.revision
    # Another worker changes the match after this request loaded it.
    with db.engine.begin() as other:
        other.execute(db.update(Match).where(Match.id == match.id).values(revision=Match.revision + 1))
    commands._lock(match, load=False)
    assert match.revision == revision + 1
    db.session.rollback()
