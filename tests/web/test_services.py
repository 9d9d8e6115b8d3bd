"""The service layer the pages and the API share: versions, races, ordering, rollbacks."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from scoresheet.rules import Malformed, Refused
from scoresheet.services import accounts
from scoresheet.services.errors import AlreadyRecorded, Conflict, NotFound
from scoresheet.services.matches import commands, queries, serialize
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Hand, User
from scoresheet.web.api import shapes

from .helpers import WINNING_HAND, WINNING_START, add_hand, create_match, edit_hand, played

MISSED = played(1, 100, [20, None, 20])


@pytest.fixture
def ctx(app: Any) -> Iterator[Any]:
    """An app context with two users, anna and boris."""
    with app.app_context():
        yield app


@pytest.fixture
def anna(ctx: Any) -> User:
    """A user."""
    return accounts.register("anna", "correct horse")


@pytest.fixture
def boris(ctx: Any) -> User:
    """Another user."""
    return accounts.register("boris", "correct horse")


def hands_in_db(match: Any) -> list[tuple[int, int]]:
    """(number, bid) of every stored hand, in order."""
    db.session.expire_all()
    return [
        (h.number, h.record["bid"])
        for h in db.session.execute(db.select(Hand).where(Hand.match_id == match.id).order_by(Hand.number)).scalars()
    ]


def test_hands_are_stored_exactly_as_entered(anna: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    add_hand(match, anna, {**MISSED, "expected_hand": 1})
    hand = queries.get_hand(match, 1)
    assert hand.record == {
        "kind": "played",
        "declarer": 1,
        "bid": 100,
        "points": [20, None, 20],
        "marriages": [[], [], []],
        "made": None,
        "blind": False,
        "sitter_points": 0,
        "forced": False,
    }
    assert hand.version == 1 and hand.created_by_id == anna.id


def test_every_edit_bumps_the_version_and_a_stale_version_is_a_conflict(anna: User, boris: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    add_hand(match, anna, MISSED)
    edit_hand(match, boris, 1, played(1, 105, [20, None, 20]), version=1)
    assert queries.get_hand(match, 1).version == 2
    with pytest.raises(Conflict, match="This hand was changed by boris meanwhile"):
        edit_hand(match, anna, 1, played(1, 110, [20, None, 20]), version=1)
    assert hands_in_db(match) == [(1, 105)]
    edit_hand(match, anna, 1, played(1, 110, [20, None, 20]))
    assert queries.get_hand(match, 1).version == 3


def test_the_same_hand_sent_again_for_its_number_is_already_recorded_but_without_a_number_is_the_next(
    anna: User, boris: User
) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    commands.join(boris, match.join_code)
    add_hand(match, anna, {**MISSED, "expected_hand": 1})
    with pytest.raises(AlreadyRecorded) as sent_again:
        add_hand(match, anna, {**MISSED, "expected_hand": 1})
    assert sent_again.value.number == 1
    with pytest.raises(Conflict) as alike:  # another player's hand alike: shown beside it, to settle
        add_hand(match, boris, {**MISSED, "expected_hand": 1})
    assert not isinstance(alike.value, AlreadyRecorded)
    other = {**MISSED, "bid": MISSED["bid"] + 5, "expected_hand": 1}
    with pytest.raises(Conflict) as clash:
        add_hand(match, anna, other)
    assert not isinstance(clash.value, AlreadyRecorded)  # another hand: a conflict to settle
    add_hand(match, anna, MISSED)  # no number asked: the same hand again is the next one
    assert hands_in_db(match) == [(1, MISSED["bid"]), (2, MISSED["bid"])]


def test_a_lost_race_on_the_unique_hand_number_is_a_conflict(anna: User, boris: User, monkeypatch: Any) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    commands.join(boris, match.join_code)
    before = commands.computed(match)
    add_hand(match, anna, MISSED)
    # boris's request read the match before anna's hand was committed
    monkeypatch.setattr(commands, "computed", lambda m: before)
    with pytest.raises(Conflict, match="Hand 1 was already recorded by anna."):
        add_hand(match, boris, {**MISSED, "expected_hand": 1})
    with pytest.raises(Conflict, match="Hand 1 was already recorded by anna."):
        add_hand(match, boris, MISSED)  # retried, but it never sees hand 1
    monkeypatch.undo()
    assert hands_in_db(match) == [(1, 100)]


def test_without_expected_hand_a_lost_race_is_retried_as_the_next_hand(
    anna: User, boris: User, monkeypatch: Any
) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    commands.join(boris, match.join_code)
    before = commands.computed(match)
    add_hand(match, anna, MISSED)
    real = commands.computed
    calls: list[int] = []

    def stale_once(m: Any) -> Any:
        calls.append(1)
        return before if len(calls) == 1 else real(m)

    monkeypatch.setattr(commands, "computed", stale_once)
    sheet = add_hand(match, boris, played(2, 120, [20, 20, None]))
    assert [h.number for h in sheet.hands] == [1, 2] and len(calls) == 2
    assert hands_in_db(match) == [(1, 100), (2, 120)]


def test_refusals_propagate_with_field_and_store_nothing(anna: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    with pytest.raises(Refused) as refused:
        add_hand(match, anna, played(1, 100, [20, None, 120]))
    assert refused.value.field == "points"
    with pytest.raises(Malformed) as malformed:
        add_hand(match, anna, {"kind": "played", "points": "lots"})
    assert malformed.value.field == "points"
    with pytest.raises(Refused) as bad_setup:
        create_match(anna, {"players": ["A", "B"]})
    assert bad_setup.value.field == "players"
    assert hands_in_db(match) == []
    assert len(queries.user_matches(anna)) == 1


def test_a_stranger_is_told_404(anna: User, boris: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    with pytest.raises(NotFound):
        queries.get_match(match.id, boris)
    with pytest.raises(NotFound):
        queries.get_match("nosuchmatch", anna)
    with pytest.raises(NotFound):
        commands.join(boris, "NOSUCHCODE")
    assert queries.get_match(match.id, anna) is match


def test_delete_renumbers_the_stored_hands(anna: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    for bid in (100, 105, 110, 115):
        add_hand(match, anna, played(1, bid, [20, None, 20]))
    commands.delete_hand(match, anna, 2)
    assert hands_in_db(match) == [(1, 100), (2, 110), (3, 115)]
    sheet = commands.delete_hand(match, anna, 3)
    assert hands_in_db(match) == [(1, 100), (2, 110)]
    assert [h.number for h in sheet.hands] == [1, 2]


def test_listed_matches_puts_open_ones_first_then_newest(anna: User, boris: User) -> None:
    old = create_match(anna, {"players": ["A", "B", "C"]})
    ended = create_match(anna, {"players": ["D", "E", "F"]})
    commands.end(ended, anna)
    banked = create_match(anna, {"players": ["G", "H", "I"], "start_scores": WINNING_START})
    add_hand(banked, anna, WINNING_HAND)
    commands.bank(banked, anna)
    new = create_match(anna, {"players": ["J", "K", "L"]})
    create_match(boris, {"players": ["M", "N", "O"]})
    assert [m.id for m in queries.listed_matches(anna)] == [new.id, old.id, banked.id, ended.id]
    assert [m.id for m in queries.listed_matches(anna, grouped=False)] == [new.id, banked.id, ended.id, old.id]
    assert queries.user_matches(anna) == [new, banked, ended, old]


def test_match_status_combines_stored_and_computed(anna: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"], "start_scores": WINNING_START})
    assert serialize.match_status(match, queries.sheet_of(match).status) == "in_progress"
    sheet = add_hand(match, anna, WINNING_HAND)
    assert serialize.match_status(match, sheet.status) == "finished"
    commands.bank(match, anna)
    assert match.status == "banked"
    assert serialize.match_status(match, queries.sheet_of(match).status) == "banked"


def test_match_to_dict_members_are_usernames_in_joining_order(anna: User, boris: User) -> None:
    match = create_match(anna, {"players": ["A", "B", "C"]})
    commands.join(boris, match.join_code.lower())
    data = shapes.match_to_dict(match, queries.sheet_of(match))
    assert data["members"] == ["anna", "boris"]


def test_session_loader_checks_the_session_secret_and_issue_time(anna: User) -> None:
    session_id = anna.get_id()
    assert accounts.load_user(session_id) is anna
    accounts.logout_everywhere(anna)
    assert accounts.load_user(session_id) is None
    assert accounts.load_user(anna.get_id()) is anna
    user_id, secret, _issued = anna.get_id().split(":")
    old = int(time.time()) - 31 * 86400
    for junk in ("", "x", "1", "1:x", "999:0", f"{user_id}:{secret}", f"{user_id}:{secret}:{old}", f"1:{secret}:x"):
        assert accounts.load_user(junk) is None


def test_tokens_can_be_created_found_and_revoked(anna: User) -> None:
    token = accounts.create_token(anna)
    assert accounts.user_for_token(token) is anna
    accounts.revoke_token(token)
    assert accounts.user_for_token(token) is None


def test_authenticate(anna: User) -> None:
    assert accounts.authenticate("anna", "correct horse") is anna
    assert accounts.authenticate("ANNA", "correct horse") is anna
    assert accounts.authenticate("anna", "wrong horse") is None
    assert accounts.authenticate("nobody", "correct horse") is None
