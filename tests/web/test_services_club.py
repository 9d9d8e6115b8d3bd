"""The club nights' service layer (services/club): its refusals, byes, drops and the tables' matches."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scoresheet.club import ClubError
from scoresheet.services import accounts
from scoresheet.services.club import events, results, serialize
from scoresheet.services.errors import Conflict, Invalid
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Event, EventTable, Match, Seat, User

GAME = {"rules": "squarescores", "options": {}}


@pytest.fixture
def director(app: Any) -> Iterator[User]:
    """The director, in an app context."""
    with app.app_context():
        yield accounts.register("director", "correct horse")


def night(director: User, guests: list[str], **body: Any) -> Event:
    """An event of the director's with these guests on the roster."""
    event = events.make_event(director, {"name": "Friday", "game": GAME, "rounds": 3, **body})
    for name in guests:
        events.add_to_roster(event, guest=name)
    return event


@pytest.mark.parametrize(
    ("body", "field"),
    [({"rounds": 21}, "rounds"), ({"seating": "threes"}, "seating"), ({"hand_limit": True}, "hand_limit")],
)
def test_a_bad_setting_raises_invalid_with_its_field_and_stores_nothing(
    director: User, body: dict[str, Any], field: str
) -> None:
    with pytest.raises(Invalid) as refused:
        events.make_event(director, {"name": "Friday", "game": GAME, **body})
    assert refused.value.field == field
    assert db.session.execute(db.select(Event)).first() is None


def test_too_few_present_players_is_the_engines_refusal_and_seats_nothing(director: User) -> None:
    event = night(director, ["Dana", "Egor"])
    with pytest.raises(ClubError) as refused:
        events.seat_round(event, director)
    assert refused.value.field == "roster"
    db.session.rollback()
    assert db.session.execute(db.select(Match)).first() is None


def test_with_byes_nobody_gets_a_second_bye_while_another_has_none(director: User) -> None:
    event = night(director, ["Dana", "Egor", "Fima", "Gleb"], seating="byes", seed=5)
    had: list[str] = []
    for number in (1, 2, 3):
        round_ = events.seat_round(event, director)
        assert len(round_.byes) == 1
        had += round_.byes
        events.enter_result(event, number, 1, [30, 20, 10], director)
    assert len(set(had)) == 3
    rows = {r.name: r for r in results.standings(event)}
    assert sum(r.byes for r in rows.values()) == 3
    assert all(rows[name].rounds_played == 3 for name in ("Dana", "Egor", "Fima", "Gleb"))


def test_a_dropped_player_keeps_the_results_played_and_is_not_seated_again(director: User) -> None:
    event = night(director, ["Dana", "Egor", "Fima", "Gleb"], seed=3)
    events.seat_round(event, director)
    events.enter_result(event, 1, 1, [40, 30, 20, 10], director)
    events.change_roster(event, "Dana", {"status": "dropped"}, director)
    events.add_rounds(event, 3)
    events.change_roster(event, "Egor", {"status": "absent"}, director)
    with pytest.raises(ClubError):  # three players left, one absent: two present
        events.seat_round(event, director)
    db.session.rollback()
    events.change_roster(event, "Egor", {"status": "present"}, director)
    second = events.seat_round(event, director)
    assert sorted(second.tables[0].players) == ["Egor", "Fima", "Gleb"]
    dana = next(r for r in results.standings(event) if r.name == "Dana")
    assert dana.rounds_played == 1


def test_a_table_is_a_match_with_the_event_game_its_accounts_members_and_seats_claimed(director: User) -> None:
    anna = accounts.register("anna", "correct horse")
    event = night(director, ["Dana", "Egor"], game={"rules": "polish", "options": {}})
    events.join(anna, event.code)
    table = events.seat_round(event, director).tables[0]
    match = db.session.get(Match, table.match_id)
    assert match is not None
    assert match.setup["rules"] == "polish"
    assert match.setup["players"] == table.players
    assert {m.user_id for m in match.members} == {director.id, anna.id}
    seat = db.session.execute(db.select(Seat).where(Seat.match_id == match.id)).scalar_one()
    assert (seat.seat, seat.user_id) == (table.players.index("anna"), anna.id)


def test_the_round_waits_for_results_and_a_played_round_cannot_be_taken_back(director: User) -> None:
    event = night(director, ["Dana", "Egor", "Fima"], seed=9)
    events.seat_round(event, director)
    with pytest.raises(Conflict):
        events.seat_round(event, director)
    events.close_round(event, 1, director)
    assert serialize.round_data(event, event.seated[0])["tables"][0]["result"]["scores"] == [0, 0, 0]
    assert serialize.event_data(event, "")["rounds_played"] == [1]
    table = db.session.execute(db.select(EventTable)).scalar_one()
    match = db.session.get(Match, table.match_id)
    assert match is not None and match.status == "ended"
    events.seat_round(event, director)
    with pytest.raises(Conflict):
        events.unseat_round(event, 1)


def test_closing_a_round_ends_the_unfinished_tables_and_leaves_a_won_one_to_be_banked(director: User) -> None:
    from scoresheet.rules import record_from_dict
    from scoresheet.services.matches import commands

    event = night(director, ["Dana", "Egor", "Fima", "Gleb", "Hana", "Ivan"], seed=4)
    won, unfinished = events.seat_round(event, director).tables
    match = db.session.get(Match, won.match_id)
    assert match is not None
    match.setup = {**match.setup, "start_scores": [870, 0, 0]}
    db.session.commit()
    hand = {"kind": "played", "declarer": 0, "bid": 140, "points": [None, 20, 20], "marriages": [["hearts"], [], []]}
    commands.add_hand(match, director, record_from_dict(hand, "squarescores"))
    events.close_round(event, 1, director)
    statuses = [db.session.get(Match, t.match_id).status for t in (won, unfinished)]  # type: ignore[union-attr]
    assert statuses == ["open", "ended"]
    assert serialize.round_data(event, event.seated[0])["tables"][0]["result"]["scores"] == [1010, 20, 20]
