"""A club night to take away (docs/club.md): the standings as a workbook, and the whole event as
a backup that imports back, after the event is gone, with the same standings and sheets."""

from __future__ import annotations

import io
import json
import sqlite3
from typing import Any

import pytest
from flask import Flask
from openpyxl import load_workbook
from sqlalchemy.exc import OperationalError

from scoresheet.services.club import events
from scoresheet.services.matches import backup
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Event, EventPlayer, Match

from .helpers import missing_at_first
from .test_api_club import add_guests, made, make_event, missed
from .test_xlsx import workbook

GUESTS = ["Dana", "Egor", "Fima", "Gleb", "Hana"]


@pytest.fixture
def director(make_user: Any) -> Any:
    """The director of the events below."""
    return make_user("director")


def _night(director: Any, make_user: Any) -> dict[str, Any]:
    """Six on the roster (an account and five guests: two tables of three), two rounds of two
    hands each (the hand limit): round 1 played, round 2 with one table kept on paper and one
    closed after a hand. The event object."""
    event = make_event(director, hand_limit=2, seed=11, rounds=3)
    make_user("anna").post("/api/events/join", json={"code": event["code"]})
    add_guests(director, event["id"], GUESTS)
    url = f"/api/events/{event['id']}"
    for table in director.post(f"{url}/rounds").json["tables"]:
        director.add_hand(table["match_id"], made(0))
        director.add_hand(table["match_id"], missed(1))
    second = director.post(f"{url}/rounds").json["tables"][1]
    assert director.put(f"{url}/rounds/2/tables/1/result", json={"scores": [300, 150, 0]}).status_code == 200
    director.add_hand(second["match_id"], made(2))
    assert director.post(f"{url}/rounds/2/close").status_code == 200
    return event


def _sheets(director: Any, event_id: str) -> list[Any]:
    """Every table of every round: its players, result, and its match's sheet (hands and standings)."""
    event = director.get(f"/api/events/{event_id}").json
    found = []
    for number in range(1, event["current_round"] + 1):
        round_ = director.get(f"/api/events/{event_id}/rounds/{number}").json
        for table in round_["tables"]:
            match = director.get(f"/api/matches/{table['match_id']}").json
            hands = [{k: v for k, v in h.items() if k != "uid"} for h in match["hands"]]  # an import draws new uids
            found.append((table["players"], table["result"], hands, match["standings"], match["status"]))
        found.append(round_["byes"])
    return found


def test_the_standings_workbook_has_the_csvs_rows_with_numbers_as_numbers(director: Any, make_user: Any) -> None:
    event = _night(director, make_user)
    book = workbook(director.get(f"/api/events/{event['id']}/standings.xlsx"))
    sheet = book.worksheets[0]
    rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert rows[0] == [
        "Place",
        "Player",
        "Match points",
        "Table score",
        "Opponents' points",
        "Firsts",
        "Rounds played",
        "Byes",
    ]
    standings = director.get(f"/api/events/{event['id']}/standings").json["standings"]
    assert [r[1] for r in rows[1:]] == [s["name"] for s in standings]
    for row, s in zip(rows[1:], standings, strict=True):
        assert row[0] == s["place"] and row[3] == s["table_score"] and row[6] == s["rounds_played"]
        assert isinstance(row[2], int | float) and f"{row[2]:.1f}" == s["match_points"]  # a number
    assert sheet.freeze_panes == "A2"
    german = director.client.get(
        f"/api/events/{event['id']}/standings.xlsx", headers={**director.headers, "Accept-Language": "de"}
    )
    assert load_workbook(io.BytesIO(german.data)).worksheets[0]["B1"].value == "Spieler"


def test_a_night_backed_up_and_imported_after_it_was_deleted_has_the_same_standings_and_sheets(
    app: Flask, director: Any, make_user: Any
) -> None:
    event = _night(director, make_user)
    url = f"/api/events/{event['id']}"
    standings = director.get(f"{url}/standings").json
    sheets = _sheets(director, event["id"])
    backup = director.get(f"{url}/backup")
    assert backup.status_code == 200
    doc = backup.json
    assert doc["format"] == "tysiacha-scoresheet-event" and doc["version"] == 1
    assert [len(r["tables"]) for r in doc["rounds"]] == [2, 2]
    assert doc["rounds"][1]["tables"][0]["entered_scores"] == [300, 150, 0]
    with app.app_context():  # the night is gone: its event and its tables' matches
        ids = [t["match"]["id"] for r in doc["rounds"] for t in r["tables"]]
        db.session.delete(db.session.get(Event, event["id"]))
        for match_id in ids:
            db.session.delete(db.session.get(Match, match_id))
        db.session.commit()
    assert director.get(url).status_code == 404

    imported = director.post("/api/events/import", json=json.loads(json.dumps(doc)))
    assert imported.status_code == 201, imported.json
    again = imported.json
    assert again["id"] != event["id"] and again["code"] != event["code"]
    assert [p["name"] for p in again["roster"]] == ["anna", *GUESTS]
    assert again["roster"][0]["username"] == "anna"  # the account is here: linked again
    assert (again["seed"], again["hand_limit"], again["rounds"], again["current_round"]) == (11, 2, 3, 2)
    assert director.get(f"/api/events/{again['id']}/standings").json == standings
    assert _sheets(director, again["id"]) == sheets


def test_an_import_refused_stores_nothing_and_names_the_place(app: Flask, director: Any, make_user: Any) -> None:
    event = _night(director, make_user)
    doc = director.get(f"/api/events/{event['id']}/backup").json

    def counts() -> tuple[int, int]:
        with app.app_context():
            return (
                db.session.execute(db.select(db.func.count(Event.id))).scalar_one(),
                db.session.execute(db.select(db.func.count(Match.id))).scalar_one(),
            )

    before = counts()
    stranger = json.loads(json.dumps(doc))
    stranger["rounds"][1]["tables"][1]["players"][0] = "Zoe"  # not on the roster
    hidden = json.loads(json.dumps(doc))  # a name PostgreSQL cannot store, on the roster and at its tables
    assert hidden["roster"][1]["name"] == "Dana"
    hidden["roster"][1]["name"] = "Dana\x00"
    for table in (t for r in hidden["rounds"] for t in r["tables"]):
        table["players"] = [p + "\x00" if p == "Dana" else p for p in table["players"]]
    long_by = json.loads(json.dumps(doc))
    long_by["rounds"][1]["tables"][0]["entered_by"] = "x" * 41
    blank = json.loads(json.dumps(doc))
    blank["roster"][1]["name"] = "  "
    seated_and_bye = json.loads(json.dumps(doc))  # round 2: table 2's first player on a bye too
    seated_and_bye["rounds"][1]["byes"] = [doc["rounds"][1]["tables"][1]["players"][0]]
    at_two_tables = json.loads(json.dumps(doc))
    at_two_tables["rounds"][0]["tables"][1]["players"][2] = doc["rounds"][0]["tables"][0]["players"][0]
    renumbered = json.loads(json.dumps(doc))
    renumbered["rounds"][0]["tables"][1]["table"] = "x"
    spaced = json.loads(json.dumps(doc))  # the engine refuses it at the tables: refused here
    spaced["roster"][1]["name"] = " Dana"
    for table in (t for r in spaced["rounds"] for t in r["tables"]):
        table["players"] = [" Dana" if p == "Dana" else p for p in table["players"]]
    username_number = json.loads(json.dumps(doc))
    username_number["roster"][0]["username"] = 7
    two_at_a_table = json.loads(json.dumps(doc))  # no match, no scores: a table of two is still no table
    table = two_at_a_table["rounds"][1]["tables"][1]
    table["players"], table["match"], table["entered_scores"] = table["players"][:2], None, None
    for bad, field in (
        ({**doc, "format": "tysiacha-scoresheet"}, "format"),
        ({**doc, "version": 2}, "version"),
        ({**doc, "roster": 5}, "/roster"),
        ({**doc, "event": {**doc["event"], "rounds": 0}}, "/event/rounds"),
        (stranger, "/rounds/1/tables/1/players"),  # refused after the matches were checked
        (hidden, "/roster/1/name"),
        (long_by, "/rounds/1/tables/0/entered_by"),
        (blank, "/roster/1/name"),
        (seated_and_bye, "/rounds/1/tables/1/players"),
        (at_two_tables, "/rounds/0/tables/1/players"),
        (renumbered, "/rounds/0/tables/1/table"),
        (spaced, "/roster/1/name"),
        (username_number, "/roster/0/username"),
        (two_at_a_table, "/rounds/1/tables/1/players"),
        ({**doc, "directors": [1]}, "/directors/0"),
        ({**doc, "event": {**doc["event"], "game": {**doc["event"]["game"], "options": []}}}, "/event/game/options"),
    ):
        answer = director.post("/api/events/import", json=bad)
        assert answer.status_code == 422, (field, answer.json)
        assert answer.json["field"] == field
        if bad is blank:
            assert answer.json["error"] == "Give a name."
        assert counts() == before


def test_an_import_the_database_fails_stores_nothing(
    app: Flask, director: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The matches, the event and its rounds are one transaction: a failure after the matches
    are written (here the event's, as a write lock waited out would) leaves none of them."""
    event = _night(director, make_user)
    doc = director.get(f"/api/events/{event['id']}/backup").json
    with app.app_context():
        before = db.session.execute(db.select(db.func.count(Match.id))).scalar_one()
    real = events.new_event

    def locked(*args: Any) -> Any:
        db.session.flush()  # the matches are sent
        raise OperationalError("INSERT INTO events", None, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(events, "new_event", locked)
    answer = director.post("/api/events/import", json=doc)
    assert answer.status_code == 503, answer.json
    with app.app_context():
        assert db.session.execute(db.select(db.func.count(Match.id))).scalar_one() == before
    monkeypatch.setattr(events, "new_event", real)
    assert director.post("/api/events/import", json=doc).status_code == 201


def test_only_a_director_backs_the_night_up_and_members_download_the_workbook(director: Any, make_user: Any) -> None:
    event = make_event(director)
    anna = make_user("anna")
    anna.post("/api/events/join", json={"code": event["code"]})
    assert anna.get(f"/api/events/{event['id']}/backup").status_code == 403
    assert make_user("zoe").get(f"/api/events/{event['id']}/backup").status_code == 404
    assert anna.get(f"/api/events/{event['id']}/standings.xlsx").status_code == 200


def test_the_pages_import_a_backup_and_download_it_and_the_workbook(
    director: Any, make_user: Any, make_phone: Any
) -> None:
    event = _night(director, make_user)
    doc = director.get(f"/api/events/{event['id']}/backup").json
    phone = make_phone("vera")
    wrong = phone.post("/events/import", {"file": (io.BytesIO(b"not json"), "night.json")})
    assert wrong.status_code == 422
    assert "it is not JSON" in wrong.get_data(as_text=True)
    sent = phone.post("/events/import", {"file": (io.BytesIO(json.dumps(doc).encode()), "night.json")})
    assert sent.status_code == 302, sent.get_data(as_text=True)
    page = phone.get(sent.location)
    assert "The club night is imported as a new event" in page.get_data(as_text=True)
    event_id = sent.location.rsplit("/", 1)[1]
    kept = phone.get(f"/events/{event_id}/backup.json")
    assert kept.status_code == 200 and kept.headers["Content-Disposition"].endswith('.json"')
    assert json.loads(kept.data)["directors"] == ["vera", "director"]  # the backup's director has an account here
    assert workbook(phone.get(f"/events/{event_id}/standings.xlsx")).worksheets[0]["A1"].value == "Place"


def test_a_night_whose_names_a_new_match_would_refuse_imports_again_as_it_was(app: Flask, director: Any) -> None:
    """An import keeps a roster's names as a stored match keeps its own (only what the engine
    refuses of any name is refused): the night's own backup always imports again."""
    event = make_event(director)
    add_guests(director, event["id"], ["Egor", "Fima"])
    with app.app_context():  # a night stored before the roster refused names alike: Egor twice, to the eye
        night = db.session.get(Event, event["id"])
        assert night is not None
        night.roster.append(EventPlayer(name="Egor\u3164", status="present"))
        db.session.commit()
    assert director.post(f"/api/events/{event['id']}/rounds").status_code == 201
    doc = director.get(f"/api/events/{event['id']}/backup").json
    imported = director.post("/api/events/import", json=doc)
    assert imported.status_code == 201, imported.json
    assert [p["name"] for p in imported.json["roster"]] == ["Egor", "Fima", "Egor\u3164"]


def test_a_night_imported_after_its_tables_matches_were_takes_those_matches_as_its_tables(
    app: Flask, director: Any, make_user: Any
) -> None:
    event = _night(director, make_user)
    standings = director.get(f"/api/events/{event['id']}/standings").json
    sheets = _sheets(director, event["id"])
    mine = director.get("/api/backup").json  # "Back up all my matches": the tables' matches too
    assert director.post("/api/matches/import", json=mine).status_code == 201

    def matches() -> int:
        with app.app_context():
            return int(db.session.execute(db.select(db.func.count(Match.id))).scalar_one())

    before = matches()
    doc = director.get(f"/api/events/{event['id']}/backup").json
    imported = director.post("/api/events/import", json=doc)
    assert imported.status_code == 201, imported.json
    assert matches() == before  # no table's match twice: the ones imported before are its tables
    assert director.get(f"/api/events/{imported.json['id']}/standings").json == standings
    assert _sheets(director, imported.json["id"]) == sheets


def test_a_night_imported_again_imports_nothing_also_when_both_imports_checked_first(
    app: Flask, director: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = _night(director, make_user)
    doc = director.get(f"/api/events/{event['id']}/backup").json
    assert director.post("/api/events/import", json=doc).status_code == 201
    again = director.post("/api/events/import", json=doc)  # a second tap on Import
    assert (again.status_code, again.json["field"]) == (409, "/rounds/0/tables/0/match")
    assert again.json["error"] == "This club night was imported already: nothing was imported again."
    # Two imports at the same moment both look before either stores: the database refuses the
    # second's matches, and its import looks again and says so (never a 500).
    with app.app_context():
        before = db.session.execute(db.select(db.func.count(Event.id))).scalar_one()
    checks = missing_at_first(monkeypatch, backup, "_imported_before", 1, set())
    raced = director.post("/api/events/import", json=doc)
    assert (raced.status_code, len(checks)) == (409, 2), raced.json
    with app.app_context():
        assert db.session.execute(db.select(db.func.count(Event.id))).scalar_one() == before
