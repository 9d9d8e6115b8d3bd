"""The statements a request sends to the database, pinned (docs/performance.md, "A cheaper
hand"): adding a hand (through the API and the page form), correcting and deleting one,
fetching the match JSON, opening the match page and fetching its live part, and a club
night's version, each send exactly these, on SQLite and on PostgreSQL. A statement added to
one of them fails here, with the list of what was sent; a statement taken away is a gain:
lower the figure with it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from conftest import ApiUser
from flask import Flask
from sqlalchemy import event

from bench.replay import build_match
from scoresheet.rules import hand_to_dict
from scoresheet.storage.extensions import db
from scoresheet.web.pages.forms import record_to_form_data

SETUP, RECORDS = build_match(11)

ADD_HAND = {
    # BEGIN IMMEDIATE; the token's user, the match, its members and its club night's hand limit,
    # read locked at once; the hand, its audit entry and the match's revision and summary
    "sqlite": ["BEGIN", "SELECT api_tokens", "INSERT", "INSERT", "UPDATE"],
    # no BEGIN to send (the driver begins); the three writes and the NOTIFY in one statement
    "postgresql": ["SELECT api_tokens", "WITH new_hand"],
}
ADD_HAND_FROM_PAGE = {
    # the same, the user the session's, read before the match
    "sqlite": ["BEGIN", "SELECT users", "SELECT matches", "INSERT", "INSERT", "UPDATE"],
    "postgresql": ["SELECT users", "SELECT matches", "WITH new_hand"],
}
CORRECT_HAND = {
    # the session's user; the match, locked, with its club night's table; the hand for the form;
    # every hand, locked; the audit entry; the match's revision and summary; the hand
    "sqlite": ["BEGIN", "SELECT users", "SELECT matches", "SELECT hands", "SELECT hands", "INSERT", "UPDATE", "UPDATE"],
    "postgresql": ["SELECT users", "SELECT matches", "SELECT hands", "SELECT hands", "INSERT", "UPDATE", "UPDATE"]
    + ["SELECT pg_notify"],
}
DELETE_HAND = {
    # as a correction, then the hand deleted and the match's revision and summary; deleting the
    # newest hand (Undo) moves no later hand up (two steps, so that no two hands share a number)
    "sqlite": ["BEGIN", "SELECT users", "SELECT matches", "SELECT hands", "SELECT hands", "INSERT", "DELETE"]
    + ["UPDATE"],
    "postgresql": ["SELECT users", "SELECT matches", "SELECT hands", "SELECT hands", "INSERT", "DELETE"]
    + ["UPDATE", "SELECT pg_notify"],
}
MATCH_JSON = {
    "sqlite": ["BEGIN", "SELECT api_tokens"],  # the token's user, the match and its members at once
    "postgresql": ["SELECT api_tokens"],  # a reading request: no transaction
}
MATCH_PAGE = {
    # the session's user with the id of their newest notice (none newer than the page showed
    # last: no more is asked of them); the match and its members; its latest change; the uid of
    # the hand the player may undo; the seats claimed
    "sqlite": ["BEGIN", "SELECT users", "SELECT matches", "SELECT audit_entries", "SELECT hands", "SELECT seats"],
    "postgresql": ["SELECT users", "SELECT matches", "SELECT audit_entries", "SELECT hands", "SELECT seats"],
}
LIVE_PART = {kind: [s for s in sent if s != "SELECT seats"] for kind, sent in MATCH_PAGE.items()}
"""What a phone fetches after a change: the page's statements but the seats (not in its live part)."""
NIGHT_VERSION = {
    # the event by its watch token; its rounds (the countdown's); its directors; the roster's
    # columns; every round's tables with their matches' revisions, whatever the rounds
    "sqlite": ["BEGIN", "SELECT events", "SELECT event_rounds", "SELECT event_directors", "SELECT event_players"]
    + ["SELECT event_rounds"],
    "postgresql": ["SELECT events", "SELECT event_rounds", "SELECT event_directors", "SELECT event_players"]
    + ["SELECT event_rounds"],
}


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The statements sent while the block runs, each as its first two words and the table
    it reads or writes."""
    seen: list[str] = []
    with app.app_context():
        engine = db.engine

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def kinds(sent: list[str]) -> list[str]:
    """Each statement as the tables above name it: `SELECT <first table>` (of the statement,
    not of a subquery; of no table: `SELECT <function>`), `INSERT`, `UPDATE`, `WITH <first
    name>`, `BEGIN`."""
    named = []
    for statement in sent:
        while re.search(r"\([^()]*\)", statement):  # a subquery's FROM is not the statement's
            statement = re.sub(r"\([^()]*\)", "", statement)
        words = statement.split()
        if words[0] in ("SELECT", "WITH"):  # (a SELECT of no table: its function, pg_notify)
            after = words.index("FROM") + 1 if words[0] == "SELECT" and "FROM" in words else 1
            named.append(f"{words[0]} {words[after].strip('(')}")
        else:
            named.append(words[0])
    return named


@pytest.fixture
def played_match(api_user: ApiUser) -> str:
    """A match of ten hands, the tenth just added by anna."""
    match = api_user.new_match(players=list(SETUP.players), rules=SETUP.rules)
    for record in RECORDS[:10]:
        api_user.add_hand(match["id"], hand_to_dict(record))
    return str(match["id"])


def counted(app: Flask, database_url: str, request: Callable[[], Any]) -> list[str]:
    """What `request` sends, the second time (the first fills this process's kept replay,
    as a running worker has it)."""
    request()
    with statements(app) as sent:
        request()
    return kinds(sent)


def dialect(database_url: str) -> str:
    """sqlite or postgresql."""
    return "postgresql" if database_url.startswith("postgresql") else "sqlite"


def test_adding_a_hand_sends_the_pinned_statements(
    app: Flask, database_url: str, api_user: ApiUser, played_match: str
) -> None:
    body = hand_to_dict(RECORDS[10])
    url = f"/api/matches/{played_match}"
    with statements(app) as sent:
        response = api_user.post(f"{url}/hands", json=body | {"expected_hand": 11})
    assert response.status_code == 201, response.json
    assert kinds(sent) == ADD_HAND[dialect(database_url)], sent
    assert len(response.json["hands"]) == 11 and response.json["members"] == ["anna"]


def test_adding_a_hand_from_the_page_form_sends_the_pinned_statements(
    app: Flask, database_url: str, api_user: ApiUser, played_match: str
) -> None:
    """As the phone's queue sends it (static/offline.js): the form's fields, JSON answered."""
    phone = app.test_client()
    assert phone.post("/login", data={"username": "anna", "password": "correct horse"}).status_code == 302
    fields = record_to_form_data(hand_to_dict(RECORDS[10]), len(SETUP.players)) | {"expected_hand": "11"}
    with statements(app) as sent:
        response = phone.post(f"/matches/{played_match}/hands/new", data=fields, headers={"Accept": "application/json"})
    assert response.status_code == 201, response.json
    assert kinds(sent) == ADD_HAND_FROM_PAGE[dialect(database_url)], sent


def test_correcting_and_deleting_a_hand_from_the_page_forms_send_the_pinned_statements(
    app: Flask, database_url: str, api_user: ApiUser, played_match: str
) -> None:
    phone = app.test_client()
    assert phone.post("/login", data={"username": "anna", "password": "correct horse"}).status_code == 302
    url = f"/matches/{played_match}/hands/10"
    with statements(app) as sent:
        response = phone.post(f"{url}/edit", data={"kind": "redeal"}, headers={"Accept": "application/json"})
    assert response.status_code == 201, response.json
    assert kinds(sent) == CORRECT_HAND[dialect(database_url)], sent
    with statements(app) as sent:
        assert phone.post(f"{url}/delete", data={"confirm": "y"}).status_code == 302
    assert kinds(sent) == DELETE_HAND[dialect(database_url)], sent
    assert len(api_user.get(f"/api/matches/{played_match}").json["hands"]) == 9


def test_the_match_json_sends_the_pinned_statements(
    app: Flask, database_url: str, api_user: ApiUser, played_match: str
) -> None:
    def fetch() -> None:
        assert api_user.get(f"/api/matches/{played_match}").status_code == 200

    assert counted(app, database_url, fetch) == MATCH_JSON[dialect(database_url)]


def test_the_match_page_and_its_live_part_send_the_pinned_statements(
    app: Flask, database_url: str, api_user: ApiUser, played_match: str
) -> None:
    phone = app.test_client()
    assert phone.post("/login", data={"username": "anna", "password": "correct horse"}).status_code == 302
    tenth = api_user.get(f"/api/matches/{played_match}").json["hands"][9]["uid"]

    def page(url: str) -> Callable[[], None]:
        def fetch() -> None:
            response = phone.get(url)
            assert response.status_code == 200
            html = response.get_data(as_text=True)
            assert "Undo hand 10" in html and f"/hands/10/delete?uid={tenth}" in html  # the offer's hand uid is read

        return fetch

    assert counted(app, database_url, page(f"/matches/{played_match}")) == MATCH_PAGE[dialect(database_url)]
    assert counted(app, database_url, page(f"/matches/{played_match}/live")) == LIVE_PART[dialect(database_url)]


def test_a_club_nights_version_sends_the_pinned_statements_whatever_its_rounds(
    app: Flask, database_url: str, api_user: ApiUser
) -> None:
    body = {"name": "Night", "game": {"rules": "squarescores"}, "rounds": 3, "seed": 1}
    night = api_user.post("/api/events", json=body).json
    url = f"/api/events/{night['id']}"
    for name in ("Dana", "Egor", "Fima", "Gleb", "Hana", "Ivan"):
        assert api_user.post(f"{url}/roster", json={"guest": name}).status_code == 201
    version = f"/events/watch/{night['watch_url'].rsplit('/', 1)[1]}/version"

    def fetch() -> None:
        assert app.test_client().get(version).status_code == 200

    for number in (1, 2):  # two rounds of two tables: no statement more for the second
        assert api_user.post(f"{url}/rounds").status_code == 201
        assert counted(app, database_url, fetch) == NIGHT_VERSION[dialect(database_url)]
        assert api_user.post(f"{url}/rounds/{number}/close").status_code == 200
