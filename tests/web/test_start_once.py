"""A form that starts a match, or makes a club night, does it once: the same form sent again
(a second tap on "Start the match", a tap again after the answer was lost on a bad connection,
two sends at the same moment) opens the match or night the first one made. On SQLite and
PostgreSQL."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest
from flask import Flask

from scoresheet.storage import database
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Event, Match

from .helpers import missing_at_first
from .page_helpers import Phone, all_errors, count_matches, flashes

START = re.compile(r'name="start" type="hidden" value="([^"]*)"|type="hidden" name="start" value="([^"]*)"')
FORM = {"players-0": "Anna", "players-1": "Boris", "players-2": "Vera", "rules": "classic", "target": "", "sheet": ""}
FORM["first_dealer"] = "0"
ALREADY = "This match had already started: here it is."
NIGHT = {"name": "Friday club", "rules": "squarescores", "target": "", "rounds": "3", "seating": "fours"}


def start_key(html: str) -> str:
    """The key of the page's form that starts a match."""
    found = START.search(html)
    assert found, "no start key on the page"
    return found.group(1) or found.group(2)


def same_session(app: Flask, phone: Phone) -> Any:
    """A second client of the same browser (its cookies): a request sent beside the first."""
    twin = app.test_client()
    for name in ("session", "remember_token"):
        cookie = phone.client.get_cookie(name)
        if cookie is not None:
            twin.set_cookie(name, cookie.value, domain=cookie.domain, path=cookie.path)
    return twin


def test_the_start_form_sent_twice_starts_one_match_and_opens_it_the_second_time(phone: Phone, csrf_app: Flask) -> None:
    key = start_key(phone.get("/matches/new").text)
    first = phone.post("/matches/new", {**FORM, "start": key})
    assert first.status_code == 302, all_errors(first.text)
    again = phone.post("/matches/new", {**FORM, "start": key}, follow_redirects=True)
    assert again.request.path == first.location
    assert ALREADY in flashes(again.text)
    assert count_matches(csrf_app) == 1
    # The next form the page gives has a key of its own: it starts the next match.
    other = phone.post("/matches/new", {**FORM, "start": start_key(phone.get("/matches/new").text)})
    assert other.status_code == 302 and other.location != first.location
    assert count_matches(csrf_app) == 2


def test_two_sends_of_the_start_form_at_the_same_moment_start_one_match(phone: Phone, csrf_app: Flask) -> None:
    page = phone.get("/matches/new").text
    data = {**FORM, "start": start_key(page), "csrf_token": phone.token("/matches/new")}
    clients = [phone.client, same_session(csrf_app, phone)]
    ready = threading.Barrier(len(clients))
    answers: list[Any] = [None, None]

    def send(i: int) -> None:
        ready.wait()
        answers[i] = clients[i].post("/matches/new", data=data)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert [a.status_code for a in answers] == [302, 302], [all_errors(a.text) for a in answers]
    assert answers[0].location == answers[1].location
    assert count_matches(csrf_app) == 1


def test_the_usual_rules_tapped_twice_start_one_match(phone: Phone, csrf_app: Flask) -> None:
    first_id = phone.new_match(["Anna", "Boris", "Vera"])
    phone.post(f"/matches/{first_id}/usual", {}, form_url=f"/matches/{first_id}")
    home = phone.get("/").text
    key = start_key(home)
    first = phone.post("/matches/usual", {"start": key}, form_url="/")
    again = phone.post("/matches/usual", {"start": key}, form_url="/", follow_redirects=True)
    assert first.status_code == 302 and again.request.path == first.location
    assert ALREADY in flashes(again.text)
    assert count_matches(csrf_app) == 2  # the first match and one started from the usual rules
    assert start_key(phone.get("/").text) != key  # the home page's next tap starts the next one


def test_a_start_key_the_page_did_not_make_is_refused_and_starts_nothing(phone: Phone, csrf_app: Flask) -> None:
    out_of_date = "This form was out of date or not sent from this site"
    for forged in ("x" * 17, "short", "../../etc/passwd", "ключ-ключ-ключ-к"):
        refused = phone.post("/matches/new", {**FORM, "start": forged})
        assert refused.status_code == 422
        assert any(e.startswith(out_of_date) for e in all_errors(refused.text)), all_errors(refused.text)
        home = phone.post("/matches/usual", {"start": forged}, form_url="/", follow_redirects=True)
        assert any(f.startswith(out_of_date) for f in flashes(home.text))
    assert count_matches(csrf_app) == 0


def test_a_match_started_from_the_page_keeps_its_key_and_one_from_the_api_has_none(
    phone: Phone, csrf_app: Flask
) -> None:
    key = start_key(phone.get("/matches/new").text)
    started = phone.post("/matches/new", {**FORM, "start": key})
    token = phone.client.post("/api/tokens", json={"username": "anna", "password": "correct horse"}).get_json()["token"]
    api = phone.client.post(
        "/api/matches", headers={"Authorization": f"Bearer {token}"}, json={"players": ["A", "B", "C"]}
    )
    with csrf_app.app_context():
        stored = db.session.execute(db.select(Match.id, Match.start_key)).all()
    assert sorted(stored, key=lambda row: row.start_key is None) == [
        (started.location.rsplit("/", 1)[1], key),
        (api.get_json()["id"], None),
    ]


def count_events(app: Flask) -> int:
    """Club nights stored."""
    with app.app_context():
        return len(db.session.execute(db.select(Event.id)).all())


def test_the_club_night_form_sent_twice_makes_one_night(phone: Phone, csrf_app: Flask) -> None:
    key = start_key(phone.get("/events/new").text)
    first = phone.post("/events/new", {**NIGHT, "start": key})
    assert first.status_code == 302, all_errors(first.text)
    again = phone.post("/events/new", {**NIGHT, "start": key}, follow_redirects=True)
    assert again.request.path == first.location
    assert "This club night had already been made: here it is." in flashes(again.text)
    refused = phone.post("/events/new", {**NIGHT, "start": "x" * 17})
    assert refused.status_code == 422 and any(
        e.startswith("This form was out of date") for e in all_errors(refused.text)
    )
    assert count_events(csrf_app) == 1
    other = phone.post("/events/new", {**NIGHT, "start": start_key(phone.get("/events/new").text)})
    assert other.status_code == 302 and other.location != first.location
    assert count_events(csrf_app) == 2


class Once(NamedTuple):
    """A form made once: its page, its fields, a typo a player corrects, what making one says,
    what finding one made already says, and how many there are."""

    url: str
    form: dict[str, str]
    typo: dict[str, str]
    made: str
    already: str
    count: Callable[[Flask], int]


FORMS = [
    pytest.param(
        Once(
            "/matches/new",
            FORM,
            {"players-2": "Vira"},
            "Match started. Invite the table: share the link or let them scan the code.",
            ALREADY,
            count_matches,
        ),
        id="match",
    ),
    pytest.param(
        Once(
            "/events/new",
            NIGHT,
            {"name": "Friday clb"},
            "Club night made. Let the players check in with its code or QR.",
            "This club night had already been made: here it is.",
            count_events,
        ),
        id="night",
    ),
]


@pytest.mark.parametrize("once", FORMS)
def test_the_form_sent_again_corrected_makes_one_of_its_own(phone: Phone, csrf_app: Flask, once: Once) -> None:
    # The answer was lost, the player saw Vera (or the night's name) misspelt and corrected it
    # before tapping again.
    key = start_key(phone.get(once.url).text)
    first = phone.post(once.url, {**once.form, **once.typo, "start": key})
    corrected = phone.post(once.url, {**once.form, "start": key}, follow_redirects=True)
    assert corrected.request.path != first.location
    assert once.made in flashes(corrected.text)
    assert once.count(csrf_app) == 2


@pytest.mark.parametrize("once", FORMS)
def test_a_send_that_missed_its_twin_stored_meanwhile_opens_the_twins(
    phone: Phone, csrf_app: Flask, monkeypatch: pytest.MonkeyPatch, once: Once
) -> None:
    # Two sends at the same moment both look before either stores (PostgreSQL; SQLite takes
    # them in turn): the database refuses the second's key, and it opens the first's match or night.
    key = start_key(phone.get(once.url).text)
    first = phone.post(once.url, {**once.form, "start": key})
    looks = missing_at_first(monkeypatch, database, "made_with", 1, None)
    twin = phone.post(once.url, {**once.form, "start": key}, follow_redirects=True)
    assert twin.request.path == first.location and once.already in flashes(twin.text)
    assert len(looks) == 2 and once.count(csrf_app) == 1
