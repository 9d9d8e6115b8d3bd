"""A club night's table keeps its match's result (`EventTable.match_result`): always what a
replay of its hands says; and the night keeps its standings (`Event.standings`): always what
the engine ranks afresh from the tables' results, and all that reading them reads (they replay
no match and rank nothing, nor does the board, whose cards read the matches' summaries)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from scoresheet.rules import Replay, record_from_dict, replay, setup_from_dict
from scoresheet.services import accounts
from scoresheet.services.club import events, exports, results
from scoresheet.services.matches import audit, commands, members, replay_cache
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Event, EventTable, Hand, Match, User

from .helpers import WINNING_HAND, WINNING_START, add_hand, edit_hand, played

MISSED = played(1, 100, [20, None, 20])


@pytest.fixture
def director(app: Any) -> Iterator[User]:
    """The director, in an app context."""
    with app.app_context():
        yield accounts.register("director", "correct horse")


def night(director: User, players: int, **body: Any) -> Event:
    """A night of the director's with `players` guests, round 1 seated (tables of three)."""
    event = events.make_event(
        director, {"name": "Friday", "game": {"rules": "squarescores"}, "rounds": 3, "seed": 2, **body}
    )
    for n in range(players):
        events.add_to_roster(event, guest=f"Guest {n}")
    events.seat_round(event, director)
    return event


def near_the_end(match: Match) -> Match:
    """The table's match with seat 0 at 870, so that `WINNING_HAND` wins it."""
    match.setup = {**match.setup, "start_scores": WINNING_START}
    db.session.commit()
    return match


def kept_is_the_replay(table_id: int) -> list[int] | None:
    """The result kept on the table equals its match's result replayed afresh from its hands:
    the final scores once won or ended, None while it plays."""
    db.session.expire_all()
    table = db.session.get(EventTable, table_id)
    assert table is not None and table.match_id is not None
    match = db.session.get(Match, table.match_id)
    assert match is not None
    rules = match.setup["rules"]
    records = db.session.execute(db.select(Hand.record).where(Hand.match_id == match.id).order_by(Hand.number))
    sheet = replay(setup_from_dict(match.setup), [record_from_dict(r, rules) for r in records.scalars()])
    counts = sheet.winner is not None or match.status != "open"
    assert table.match_result == ([s.score for s in sheet.standings] if counts else None)
    return table.match_result


def kept_are_fresh(event_id: str) -> list[list[Any]]:
    """The standings kept on the event equal the engine's, ranked afresh from the tables'
    results and byes as they are now; their rows."""
    db.session.expire_all()
    event = db.session.get(Event, event_id)
    assert event is not None and event.standings is not None
    rounds = results.engine_rounds(event)
    assert event.standings == results.kept_form(results.standings(event, rounds), len(rounds))
    rows: list[list[Any]] = event.standings["rows"]
    return rows


def tables_of(event: Event, number: int) -> list[tuple[int, Match]]:
    """The ids and matches of a round's tables."""
    db.session.expire_all()
    round_ = events.get_round(db.session.get(Event, event.id), number)  # type: ignore[arg-type]
    return [(t.id, db.session.get(Match, t.match_id)) for t in round_.tables]  # type: ignore[misc]


def test_the_kept_result_is_the_replay_after_every_kind_of_change(director: User) -> None:
    event = night(director, 9)
    (first, a), (second, b), (third, c) = tables_of(event, 1)
    assert kept_is_the_replay(first) is None  # seated, nothing played
    assert all(row[6] == 0 for row in kept_are_fresh(event.id))
    near_the_end(a)
    add_hand(a, director, MISSED)
    add_hand(a, director, played(2, 100, [20, 20, None]))
    assert kept_is_the_replay(first) is None
    edit_hand(a, director, 1, played(1, 120, [20, None, 20]))
    commands.delete_hand(a, director, 1)  # the undo
    assert kept_is_the_replay(first) is None
    entry = next(iter(commands.restorable_ids(a, audit.entries(a))))
    commands.restore_hand(a, director, entry)  # taken back
    assert kept_is_the_replay(first) is None
    assert all(row[6] == 0 for row in kept_are_fresh(event.id))  # still playing: nothing counts
    add_hand(a, director, WINNING_HAND)  # won, not banked yet: it counts
    won = kept_is_the_replay(first)
    assert won is not None and won[0] >= 1000
    assert sum(row[6] for row in kept_are_fresh(event.id)) == 3
    commands.bank(a, director)
    assert kept_is_the_replay(first) == won
    kept_are_fresh(event.id)
    edit_hand(a, director, 1, played(1, 100, [20, None, 20]))  # a banked table's correction (CLUB.md §4)
    corrected = kept_is_the_replay(first)
    assert corrected is not None and corrected != won
    kept_are_fresh(event.id)

    add_hand(b, director, MISSED)
    commands.end(b, director)
    assert kept_is_the_replay(second) == [20, -100, 20]
    kept_are_fresh(event.id)
    edit_hand(b, director, 1, played(1, 120, [20, None, 20]))  # an ended table's correction
    assert kept_is_the_replay(second) == [20, -120, 20]
    kept_are_fresh(event.id)

    add_hand(c, director, MISSED)
    events.close_round(db.session.get(Event, event.id), 1, director)  # type: ignore[arg-type]
    assert kept_is_the_replay(third) == [20, -100, 20]
    assert sum(row[6] for row in kept_are_fresh(event.id)) == 9

    # A table whose match is deleted (its last member gone) has no result any more, as before.
    played_rounds = sum(r.rounds_played for r in results.standings(db.session.get(Event, event.id)))  # type: ignore[arg-type]
    db.session.execute(db.delete(Match).where(Match.id == c.id))
    db.session.commit()
    db.session.expire_all()
    table = db.session.get(EventTable, third)
    assert table is not None and table.match_id is None and results.table_result(table) is None
    after = sum(r.rounds_played for r in results.standings(db.session.get(Event, event.id)))  # type: ignore[arg-type]
    assert after == played_rounds - 3


def test_the_kept_standings_are_ranked_afresh_after_every_kind_of_change(director: User) -> None:
    event = night(director, 7, seating="byes")  # two tables of three and a bye
    rows = kept_are_fresh(event.id)
    assert [row[7] for row in rows].count(1) == 1  # the bye counts as soon as seated
    events.add_to_roster(db.session.get(Event, event.id), guest="Late")  # type: ignore[arg-type]
    assert "Late" in [row[1] for row in kept_are_fresh(event.id)]
    latecomer = accounts.register("latecomer", "correct horse")
    events.join(latecomer, db.session.get(Event, event.id).code)  # type: ignore[union-attr]  # checked in by the QR
    assert "latecomer" in [row[1] for row in kept_are_fresh(event.id)]
    for status in ("absent", "dropped", "present"):
        events.change_roster(db.session.get(Event, event.id), "Late", {"status": status}, director)  # type: ignore[arg-type]
        kept_are_fresh(event.id)
    events.unseat_round(db.session.get(Event, event.id), 1)  # type: ignore[arg-type]  # taken back: no bye
    assert all(row[6] == 0 for row in kept_are_fresh(event.id))
    assert db.session.get(Event, event.id).standings["round"] == 0  # type: ignore[union-attr,index]
    events.seat_round(db.session.get(Event, event.id), director)  # type: ignore[arg-type]  # 9: three tables
    kept_are_fresh(event.id)
    (first, a), (second, b), (third, c) = tables_of(event, 1)
    add_hand(a, director, MISSED)
    commands.end(a, director)
    kept_are_fresh(event.id)
    events.enter_result(db.session.get(Event, event.id), 1, 2, [500, 300, 100], director)  # type: ignore[arg-type]
    rows = kept_are_fresh(event.id)
    table = db.session.get(EventTable, second)
    assert table is not None
    assert {row[1]: row[2] for row in rows if row[1] in table.players} == dict(
        zip(table.players, [24, 12, 0], strict=True)
    )
    events.enter_result(db.session.get(Event, event.id), 1, 2, [100, 300, 500], director)  # type: ignore[arg-type]  # corrected
    rows = kept_are_fresh(event.id)
    assert {row[1]: row[2] for row in rows if row[1] in table.players} == dict(
        zip(table.players, [0, 12, 24], strict=True)
    )
    events.close_round(db.session.get(Event, event.id), 1, director)  # type: ignore[arg-type]
    assert sum(row[6] for row in kept_are_fresh(event.id)) == 9
    events.seat_round(db.session.get(Event, event.id), director)  # type: ignore[arg-type]  # round 2: a new lot
    assert db.session.get(Event, event.id).standings["round"] == 2  # type: ignore[union-attr,index]
    kept_are_fresh(event.id)

    # A table's match deleted (its last member gone): the standings lose its result.
    match = next(m for m in (a, c) if [p.user.username for p in m.members] == ["director"])  # guests only
    members.remove_member(match, director, "director")
    assert sum(row[6] for row in kept_are_fresh(event.id)) == 6

    copy = exports.import_event(director, exports.document(db.session.get(Event, event.id)))  # type: ignore[arg-type]
    assert kept_are_fresh(copy.id) == kept_are_fresh(event.id)


def test_an_account_deleted_with_its_tables_takes_their_results_from_the_standings(director: User, app: Any) -> None:
    event = night(director, 6)
    for _table_id, match in tables_of(event, 1):
        add_hand(match, director, MISSED)
    events.close_round(db.session.get(Event, event.id), 1, director)  # type: ignore[arg-type]
    assert sum(row[6] for row in kept_are_fresh(event.id)) == 6
    helper = accounts.register("helper", "correct horse")
    events.add_director(db.session.get(Event, event.id), "helper")  # type: ignore[arg-type]
    accounts.delete_account(db.session.get(User, director.id), "correct horse")  # type: ignore[arg-type]
    # the co-director is a member of every table seated before they came: the tables stay
    assert sum(row[6] for row in kept_are_fresh(event.id)) == 6
    accounts.delete_account(db.session.get(User, helper.id), "correct horse")  # type: ignore[arg-type]
    # every table's last member gone: the matches go, and their results with them
    assert sum(row[6] for row in kept_are_fresh(event.id)) == 0


def test_the_hand_limit_a_paper_result_and_an_import_keep_the_result_too(director: User) -> None:
    event = night(director, 6, hand_limit=2)
    (first, a), (second, b) = tables_of(event, 1)
    add_hand(a, director, MISSED)
    assert kept_is_the_replay(first) is None
    add_hand(a, director, MISSED)  # the hand limit ends it
    assert db.session.get(Match, a.id).status == "ended"  # type: ignore[union-attr]
    assert kept_is_the_replay(first) == [40, -200, 40]
    add_hand(b, director, MISSED)
    events.enter_result(db.session.get(Event, event.id), 1, 2, [500, 300, 100], director)  # type: ignore[arg-type]
    assert kept_is_the_replay(second) == [20, -100, 20]  # its match, ended where it stood
    rows = {r.name: r for r in results.standings(db.session.get(Event, event.id))}  # type: ignore[arg-type]
    table = db.session.get(EventTable, second)
    assert table is not None and [rows[p].match_points for p in table.players] == [2, 1, 0]  # the paper's

    copy = exports.import_event(director, exports.document(db.session.get(Event, event.id)))  # type: ignore[arg-type]
    for table_id, _ in tables_of(copy, 1):
        kept_is_the_replay(table_id)
    assert [t.match_result for t in copy.seated[0].tables] == [[40, -200, 40], [20, -100, 20]]


def test_the_standings_the_rounds_and_the_board_replay_no_match(app: Any, make_user: Any, monkeypatch: Any) -> None:
    director = make_user("director")
    event = director.post(
        "/api/events", json={"name": "Friday", "game": {"rules": "squarescores"}, "rounds": 2, "seed": 3}
    ).json
    url = f"/api/events/{event['id']}"
    for n in range(6):
        assert director.post(f"{url}/roster", json={"guest": f"Guest {n}"}).status_code == 201
    for number in (1, 2):
        for table in director.post(f"{url}/rounds").json["tables"]:
            director.add_hand(table["match_id"], MISSED)
        if number == 1:
            assert director.post(f"{url}/rounds/1/close").status_code == 200
    board = "/events/watch/" + event["watch_url"].rsplit("/", 1)[1]
    asked = [f"{url}/standings", f"{url}/standings.csv", url, f"{url}/rounds/1", f"{url}/rounds/2", board]
    before = [director.get(u) for u in asked]
    assert all(r.status_code == 200 for r in before)
    assert any(s["match_points"] != "0.0" for s in before[0].json["standings"])
    replay_cache._cache.clear()  # a cold process

    def no_replay(*_args: Any, **_kw: Any) -> Any:
        raise AssertionError("the standings replayed a match")

    def no_ranking(*_args: Any, **_kw: Any) -> Any:
        raise AssertionError("the standings were ranked on reading")

    monkeypatch.setattr(replay_cache, "computed", no_replay)
    monkeypatch.setattr(Replay, "add", no_replay)
    monkeypatch.setattr(results, "standings_after", no_ranking)
    after = [director.get(u) for u in asked]
    # the board's language form signs its CSRF token with the second it was made in
    signed = re.compile(rb'name="csrf_token" value="[^"]*"')
    assert [(r.status_code, signed.sub(b"", r.data)) for r in after] == [
        (r.status_code, signed.sub(b"", r.data)) for r in before
    ]


def test_a_night_that_cannot_be_ranked_still_takes_its_changes(director: User) -> None:
    """A night from before the checks whose table names a player off its roster (migration 0020
    leaves its standings empty): a check-in and a table's end are taken, its standings stay
    empty (ranked when read, as before), nothing refused."""
    event = night(director, 6)
    (first, a), _ = tables_of(event, 1)
    table = db.session.get(EventTable, first)
    assert table is not None
    table.players = ["Nobody", *table.players[1:]]  # as a night stored before the roster was checked
    db.session.commit()
    events.add_to_roster(db.session.get(Event, event.id), guest="Late")  # type: ignore[arg-type]
    add_hand(a, director, MISSED)
    commands.end(a, director)
    assert kept_is_the_replay(first) is not None
    assert db.session.get(Event, event.id).standings is None  # type: ignore[union-attr]


def test_the_standings_are_ranked_against_the_event_as_stored_not_as_the_request_read_it(director: User) -> None:
    """A change committed by another request after this one read the night: the ranking is
    compared with (and written over) what is stored, not the request's older copy."""
    event = night(director, 6)
    rows = kept_are_fresh(event.id)
    assert db.session.get(Event, event.id) is not None  # this request's copy, its standings as ranked
    db.session.commit()
    with db.engine.begin() as other:  # another request's change, committed meanwhile
        other.execute(db.update(Event).where(Event.id == event.id).values(standings={"round": 1, "rows": []}))
    results.keep_standings(event.id)  # ranks what this request's copy has: no change to it
    db.session.commit()
    assert kept_are_fresh(event.id) == rows
