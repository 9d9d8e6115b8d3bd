"""Each match's stored summary: always what its replay says, and all that lists read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scoresheet.rules import Replay, hand_from_dict, replay, setup_from_dict
from scoresheet.services import accounts, database_backup
from scoresheet.services.matches import audit, backup, commands, replay_cache
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Hand, Match, User

from .helpers import WINNING_HAND, WINNING_START, add_hand, create_match, edit_hand, played

MISSED = played(1, 100, [20, None, 20])


@pytest.fixture
def anna(app: Any) -> Iterator[User]:
    """A user, inside an app context."""
    with app.app_context():
        yield accounts.register("anna", "correct horse")


def assert_summary_is_the_replay(match_id: str) -> dict[str, Any]:
    """The summary stored for the match equals the summary of a fresh replay of its records."""
    db.session.expire_all()
    match = db.session.get(Match, match_id)
    assert match is not None
    records = db.session.execute(
        db.select(Hand.record).where(Hand.match_id == match_id).order_by(Hand.number)
    ).scalars()
    sheet = replay(setup_from_dict(match.setup), [hand_from_dict(r) for r in records])
    assert match.summary == replay_cache.summary_of(sheet)
    return match.summary


def test_the_summary_is_the_replay_after_every_kind_of_change(anna: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"], "start_scores": WINNING_START})
    assert assert_summary_is_the_replay(match.id) == {
        "status": "in_progress",
        "winner": None,
        "hands": 0,
        "scores": WINNING_START,
    }
    add_hand(match, anna, MISSED)
    add_hand(match, anna, played(2, 100, [20, 20, None]))
    assert assert_summary_is_the_replay(match.id)["hands"] == 2
    edit_hand(match, anna, 1, played(1, 120, [20, None, 20]))
    assert assert_summary_is_the_replay(match.id)["scores"][1] == -120 + 20
    commands.delete_hand(match, anna, 1)
    assert assert_summary_is_the_replay(match.id)["hands"] == 1
    entry = next(e for e in commands.restorable_ids(match, audit.entries(match)))
    commands.restore_hand(match, anna, entry)
    assert assert_summary_is_the_replay(match.id)["hands"] == 2
    add_hand(match, anna, WINNING_HAND)
    assert assert_summary_is_the_replay(match.id)["status"] == "finished"
    commands.bank(match, anna)
    summary = assert_summary_is_the_replay(match.id)
    assert summary["winner"] == 0 and summary["hands"] == 3

    ended = create_match(anna, {"players": ["D", "E", "F"]})
    add_hand(ended, anna, MISSED)
    commands.end(ended, anna)
    assert assert_summary_is_the_replay(ended.id)["scores"] == [20, -100, 20]

    doc = backup.document([db.session.get(Match, match.id), db.session.get(Match, ended.id)])
    for imported in backup.import_matches(anna, doc).matches:
        assert assert_summary_is_the_replay(imported.match.id)["hands"] in (1, 3)

    everything = database_backup.document()
    db.session.execute(db.delete(Match))
    db.session.execute(db.delete(User))
    db.session.commit()
    assert database_backup.restore(everything) == (1, 4, 0)
    for match_id in db.session.execute(db.select(Match.id)).scalars():
        assert_summary_is_the_replay(match_id)


def test_lists_read_the_summaries_and_replay_nothing(app: Any, make_user: Any, monkeypatch: Any) -> None:
    anna = make_user("anna")
    won = anna.new_match(players=["Аня", "B", "C"], start_scores=WINNING_START)["id"]
    anna.add_hand(won, MISSED)
    anna.add_hand(won, WINNING_HAND)
    assert anna.post(f"/api/matches/{won}/bank").status_code == 200
    going = anna.new_match(players=["D", "E", "F"])["id"]
    anna.add_hand(going, MISSED)
    assert anna.client.post("/login", data={"username": "anna", "password": "correct horse"}).status_code == 302
    replay_cache._cache.clear()  # a cold process

    def no_replay(*_args: Any, **_kw: Any) -> Any:
        raise AssertionError("a list replayed a match")

    monkeypatch.setattr(replay_cache, "computed", no_replay)
    monkeypatch.setattr(Replay, "add", no_replay)
    listed = anna.get("/api/matches").json["matches"]
    assert [(m["id"], m["status"], m["winner"], m["hands"]) for m in listed] == [
        (going, "in_progress", None, 1),
        (won, "banked", 0, 2),
    ]
    home = anna.client.get("/")
    assert home.status_code == 200
    assert "banked: Аня won" in home.text and "2 hands" in home.text and "1 hand " in home.text
