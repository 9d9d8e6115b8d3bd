"""The club night's pages: the director's phone (make a night, its roster, its rounds, a paper
result, the table cards), a player's table, refusals next to their fields; on both databases."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Event, EventRound, EventTable, Match

from .page_helpers import Node, Phone, all_errors, direct_errors, errors_next_to, flashes, parse, played


def api_token(app: Flask, username: str) -> dict[str, str]:
    """A new account's API headers."""
    response = app.test_client().post("/api/users", json={"username": username, "password": "correct horse"})
    return {"Authorization": f"Bearer {response.json['token']}"}


def test_a_player_sees_the_round_with_a_link_to_their_table_and_a_stranger_sees_nothing(
    csrf_app: Flask, make_phone: Any
) -> None:
    anna = make_phone("anna")
    stranger = make_phone("stranger")
    director = api_token(csrf_app, "director")
    api = csrf_app.test_client()
    event = api.post(
        "/api/events",
        json={"name": "Friday club", "game": {"rules": "squarescores"}, "time_limit": 30},
        headers=director,
    ).json
    api.post(f"/api/events/{event['id']}/roster", json={"username": "anna"}, headers=director)
    for name in ("Dana", "Egor"):
        api.post(f"/api/events/{event['id']}/roster", json={"guest": name}, headers=director)
    table = api.post(f"/api/events/{event['id']}/rounds", headers=director).json["tables"][0]
    page = anna.get(f"/events/{event['id']}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Friday club" in html
    assert f'href="/matches/{table["match_id"]}"' in html
    assert "30 minutes left" in html
    assert event["code"] not in html  # the join code is the directors'
    assert "match_points" in anna.get(f"/events/{event['id']}/standings.csv").get_data(as_text=True)
    assert stranger.get(f"/events/{event['id']}").status_code == 404
    assert csrf_app.test_client().get(f"/events/{event['id']}").status_code == 302  # log in first


def errors_of_form(html: str, button: str) -> list[str]:
    """The errors listed in the form whose button says this."""
    forms = [n for n in parse(html).walk() if n.tag == "form"]
    (form,) = [f for f in forms if any(b.tag == "button" and b.text() == button for b in f.walk())]
    return direct_errors(form)


def make_night(director: Phone, **fields: str) -> str:
    """Make a night through the page (three rounds of squarescores); its id."""
    data = {"name": "Friday club", "rules": "squarescores", "target": "", "rounds": "3", "seating": "fours"}
    response = director.post("/events/new", {**data, **fields})
    assert response.status_code == 302, all_errors(response.text)
    return str(response.location).rsplit("/", 1)[1]


def add_guests(director: Phone, night: str, names: list[str]) -> None:
    """Put these guests on the roster through the page."""
    for name in names:
        response = director.post(f"/events/{night}/roster", {"guest": name}, form_url=f"/events/{night}")
        assert response.status_code == 302, all_errors(response.text)


def the_table(director: Phone) -> tuple[str, list[str]]:
    """The match and players of the night's one table (a round of three seated)."""
    with director.client.application.app_context():
        table = db.session.execute(db.select(EventTable)).scalar_one()
        return str(table.match_id), list(table.players)


def roster_of(app: Flask, night: str) -> dict[str, str]:
    """Each roster name and its status, as stored."""
    with app.app_context():
        event = db.session.get(Event, night)
        assert event is not None
        return {p.name: p.status for p in event.roster}


def test_the_director_makes_a_night_from_the_home_page_and_sees_its_check_in(make_phone: Any) -> None:
    director = make_phone("director")
    assert 'href="/events/new"' in director.get("/").text
    night = make_night(director, hand_limit="12", time_limit="45", target="1000")
    page = director.get(f"/events/{night}").text
    assert "Club night made" in page
    assert "<svg" in page and 'class="qr"' in page  # the check-in QR
    with director.client.application.app_context():
        event = db.session.get(Event, night)
        assert event is not None
        assert (event.rounds, event.seating, event.hand_limit, event.time_limit) == (3, "fours", 12, 45)
        assert event.game == {"rules": "squarescores", "options": {"target": 1000}}
        assert event.code in page


@pytest.mark.parametrize(
    ("fields", "field", "error"),
    [
        ({"name": ""}, "name", "Give the night a name."),
        ({"rounds": "0"}, "rounds", "An event plans 1 to 20 rounds."),
        ({"rounds": "x"}, "rounds", "Enter a whole number."),
        ({"hand_limit": "61"}, "hand_limit", "Give a whole number from 1 to 60."),
        ({"time_limit": "5"}, "time_limit", "Give a whole number from 10 to 240."),
        ({"seating": "sixes"}, "seating", "Choose what happens to the players left over."),
        ({"rules": "tyzicha", "target": "500"}, "target", "Tyzicha plays to 1001, not 500."),
    ],
)
def test_a_bad_night_is_refused_next_to_its_field_and_nothing_is_stored(
    make_phone: Any, fields: dict[str, str], field: str, error: str
) -> None:
    director = make_phone("director")
    data = {"name": "Friday", "rules": "squarescores", "target": "", "rounds": "3", "seating": "fours", **fields}
    response = director.post("/events/new", data)
    assert response.status_code == 422
    html = response.text
    element = f"{field}-0" if field == "seating" else field
    assert errors_next_to(html, element) == [error]
    with director.client.application.app_context():
        assert db.session.execute(db.select(func.count(Event.id))).scalar_one() == 0


@pytest.mark.parametrize("limits", [("1", "1", "10"), ("20", "60", "240")])
def test_a_nights_numbers_at_their_bounds_are_taken_by_the_form(make_phone: Any, limits: tuple[str, ...]) -> None:
    rounds, hand_limit, time_limit = limits
    make_night(make_phone("director"), rounds=rounds, hand_limit=hand_limit, time_limit=time_limit)  # 302


def test_a_night_with_several_bad_fields_shows_every_refusal_at_once(make_phone: Any) -> None:
    # The director fixes them in one go, not one after another through as many sends.
    director = make_phone("director")
    data = {"name": "", "rules": "squarescores", "rounds": "50", "seating": "fours", "hand_limit": "0"}
    response = director.post("/events/new", data | {"time_limit": "999"})
    assert response.status_code == 422
    assert [errors_next_to(response.text, f) for f in ("name", "rounds", "hand_limit", "time_limit")] == [
        ["Give the night a name."],
        ["An event plans 1 to 20 rounds."],
        ["Give a whole number from 1 to 60."],
        ["Give a whole number from 10 to 240."],
    ]
    with director.client.application.app_context():
        assert db.session.execute(db.select(func.count(Event.id))).scalar_one() == 0


def test_the_roster_takes_guests_and_accounts_and_refuses_a_name_twice_or_an_unknown_account(make_phone: Any) -> None:
    director = make_phone("director")
    make_phone("anna")
    night = make_night(director)
    add_guests(director, night, ["Dana"])
    url, page = f"/events/{night}/roster", f"/events/{night}"
    assert director.post(url, {"username": "anna"}, form_url=page).status_code == 302
    twice = director.post(url, {"guest": "dana"}, form_url=page)
    assert twice.status_code == 422
    assert errors_next_to(twice.text, "guest") == ["dana is on the roster already: give a guest another name."]
    # The phone comes back to the box, the refusal beside the field, not to the top of a long page.
    (box,) = [n for n in parse(twice.text).walk() if n.attrs.get("id") == "check-in"]
    assert {n.attrs["action"] for n in box.walk() if n.tag == "form"} == {
        f"{url}#check-in",
        f"/events/{night}/directors#check-in",
    }
    nobody = director.post(url, {"username": "nobody"}, form_url=page)
    assert errors_next_to(nobody.text, "username") == ["There is no account of that username."]
    neither = director.post(url, {}, form_url=page)
    one_of_two = ["Type a guest's name, or an account's username: one of the two."]  # the page's words, no API key
    assert errors_next_to(neither.text, "guest") == one_of_two
    both = director.post(url, {"guest": "Egor", "username": "anna"}, form_url=page)
    assert both.status_code == 422 and errors_next_to(both.text, "guest") == one_of_two
    teamed = director.post(url, {"guest": "Egor", "team": "Reds"}, form_url=page)  # by hand: no team box here
    assert (teamed.status_code, all_errors(teamed.text)) == (422, ["Only Tichu is played in teams."])
    assert roster_of(director.client.application, night) == {"Dana": "present", "anna": "present"}


def test_the_director_marks_a_player_absent_then_dropped_and_back(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor/2"])
    app = director.client.application
    for status in ("absent", "dropped", "present"):
        response = director.post(f"/events/{night}/roster/Dana", {"status": status}, form_url=f"/events/{night}")
        assert response.status_code == 302
        assert roster_of(app, night) == {"Dana": status, "Egor/2": "present"}
    page = director.get(f"/events/{night}").text
    assert f'action="/events/{night}/roster/Egor/2"' in page  # a name with a slash has its buttons too
    director.post(f"/events/{night}/roster/Egor/2", {"status": "absent"}, form_url=f"/events/{night}")
    assert roster_of(app, night) == {"Dana": "present", "Egor/2": "absent"}
    bad = director.post(f"/events/{night}/roster/Dana", {"status": "gone"}, form_url=f"/events/{night}")
    assert flashes(director.get(bad.location).text) == ["A player's status is “present”, “absent” or “dropped”."]
    assert roster_of(app, night) == {"Dana": "present", "Egor/2": "absent"}


def test_seating_with_too_few_players_is_refused_under_the_button_and_seats_nothing(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor"])
    response = director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    assert response.status_code == 422
    assert all_errors(response.text) == ["A round needs at least 3 present players, not 2."]
    with director.client.application.app_context():
        assert db.session.execute(db.select(func.count(EventRound.id))).scalar_one() == 0


def test_after_seating_a_players_phone_shows_table_seat_and_tablemates_and_the_home_page_links_the_sheet(
    make_phone: Any,
) -> None:
    director = make_phone("director")
    anna = make_phone("anna")
    night = make_night(director)
    director.post(f"/events/{night}/roster", {"username": "anna"}, form_url=f"/events/{night}")
    add_guests(director, night, ["Dana", "Egor"])
    seated = director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    assert seated.status_code == 302
    match_id, players = the_table(director)
    seat = players.index("anna")
    others = ", ".join(p for p in players if p != "anna")
    page = anna.get(f"/events/{night}").text
    assert "Round 1 of 3: your table" in page
    assert "Seat round 2" not in director.get(f"/events/{night}").text  # not while the tables play
    assert f"Table 1</strong> · seat {seat + 1}" in page
    assert f"With {others}" in page
    assert f'id="my-table-sheet" href="/matches/{match_id}"' in page
    assert "Seat round" not in page and "Add to the roster" not in page  # the controls are the directors'
    home = anna.get("/").text
    assert f"round 1, table 1, seat {seat + 1}" in home
    assert f'href="/matches/{match_id}"' in home and f'href="/events/{night}"' in home
    assert "Your partner" not in page  # Tysiacha: nobody's partner


def two_tables_with_anna(make_phone: Any) -> tuple[Phone, Phone, str]:
    """A director, the account anna, and their night's first round seated: anna and five
    guests at two tables."""
    director = make_phone("director")
    anna = make_phone("anna")
    night = make_night(director)
    director.post(f"/events/{night}/roster", {"username": "anna"}, form_url=f"/events/{night}")
    add_guests(director, night, ["Dana", "Egor", "Fima", "Gleb", "Hana"])
    assert director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}").status_code == 302
    return director, anna, night


def test_the_night_page_links_the_tables_whose_sheets_the_reader_may_open_and_no_other(make_phone: Any) -> None:
    director, anna, night = two_tables_with_anna(make_phone)
    with director.client.application.app_context():
        tables = db.session.execute(db.select(EventRound)).scalar_one().tables
        sheets = {t.match_id: "anna" in t.players for t in tables}
    assert sorted(sheets.values()) == [False, True]  # two tables: hers and another

    def linked(phone: Phone) -> set[str]:
        """The sheets the night's list of tables links."""
        listed = next(n for n in parse(phone.get(f"/events/{night}").text).walk() if "night-tables" in n.classes())
        return {n.attrs["href"] for n in listed.walk() if n.tag == "a" and n.attrs["href"].startswith("/matches/")}

    assert linked(anna) == {f"/matches/{m}" for m, hers in sheets.items() if hers}
    assert linked(director) == {f"/matches/{m}" for m in sheets}  # a director is a member of every table


def test_joining_another_tables_sheet_by_its_code_moves_the_nights_version_and_links_it(make_phone: Any) -> None:
    director, anna, night = two_tables_with_anna(make_phone)
    with director.client.application.app_context():
        other = next(t.match for t in db.session.execute(db.select(EventTable)).scalars() if "anna" not in t.players)
        other_id, code = other.id, other.join_code
    version = anna.get(f"/events/{night}/version").json["version"]
    assert f'href="/matches/{other_id}"' not in anna.get(f"/events/{night}").text
    assert anna.post("/join", {"code": code}, form_url="/").status_code == 302  # the code on its table card
    # An open night page asks for the version: it moves, so the page shows the new link.
    assert anna.get(f"/events/{night}/version").json["version"] != version
    assert f'href="/matches/{other_id}"' in anna.get(f"/events/{night}").text


def test_a_player_not_seated_this_round_is_told_why_on_the_night_page_and_at_home(make_phone: Any) -> None:
    director, anna, boris = make_phone("director"), make_phone("anna"), make_phone("boris")
    night = make_night(director)
    director.post(f"/events/{night}/roster", {"username": "anna"}, form_url=f"/events/{night}")
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/roster/anna", {"status": "absent"}, form_url=f"/events/{night}")
    assert director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}").status_code == 302
    with director.client.application.app_context():
        code = db.session.get(Event, night).code
    assert boris.post("/events/join", {"code": code}, form_url="/").status_code == 302  # after the seating

    def told(phone: Phone) -> list[str]:
        """The night page's box of the reader's round: its heading and its words."""
        (box,) = [n for n in parse(phone.get(f"/events/{night}").text).walk() if "my-table" in n.classes()]
        return [n.text() for n in box.walk() if n.tag in ("h2", "p")]

    assert told(anna) == [
        "Round 1 of 3: not playing",
        "You were marked absent for this round: you play in the next one.",
    ]
    director.post(f"/events/{night}/roster/anna", {"status": "absent"}, form_url=f"/events/{night}")
    assert told(anna)[1] == "You are marked absent: tell the director when you are back."  # the next one too
    assert "<strong>Friday club</strong>: round 1: not playing" in anna.get("/").text
    assert told(boris) == [
        "Round 1 of 3: not playing",
        "This round was seated without you: you play in the next one.",
    ]
    director.post(f"/events/{night}/roster/anna", {"status": "dropped"}, form_url=f"/events/{night}")
    assert told(anna)[1] == "You have been dropped from the night: the rounds you played stay in the standings."
    director.post(f"/events/{night}/rounds/1/close", {"confirm": "y"}, form_url=f"/events/{night}/rounds/1/close")
    with director.client.application.app_context():  # the night's last round, boris in it, then anna back in
        db.session.get(Event, night).rounds = 2
        db.session.commit()
    assert director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}").status_code == 302
    director.post(f"/events/{night}/roster/anna", {"status": "present"}, form_url=f"/events/{night}")
    assert told(anna) == ["Round 2 of 2: not playing", "This round was seated without you."]  # no next one


def test_when_the_time_limit_runs_out_the_director_is_told_to_close_the_round(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director, time_limit="45")
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    assert "45 minutes left" in director.get(f"/events/{night}").text
    version = director.get(f"/events/{night}/version").json["version"]
    with director.client.application.app_context():
        round_ = db.session.execute(db.select(EventRound)).scalar_one()
        round_.seated_at = round_.seated_at - timedelta(hours=1)  # seated an hour ago
        db.session.commit()
    # The minute is in the night's version: an open page shows itself again as time runs out.
    assert director.get(f"/events/{night}/version").json["version"] != version
    page = director.get(f"/events/{night}").text
    assert "Time is up: close the round once the tables have finished the hand they play." in page
    assert "0 minutes left" not in page


def test_an_account_whose_name_a_guest_has_is_told_to_check_in_as_that_guest(make_phone: Any) -> None:
    # A guest "Stranger" typed in by the director, then the account "stranger" checks in by
    # the code (or the director adds it): never a second Stranger beside the first; the words
    # say what to do, next to the box that does it.
    director = make_phone("director")
    stranger = make_phone("stranger")
    night = make_night(director)
    page = f"/events/{night}"
    add_guests(director, night, ["Stranger"])
    with director.client.application.app_context():
        event = db.session.get(Event, night)
        assert event is not None
        code = event.code
    told = "Stranger is on the roster as a guest: that player checks in under that name."
    refused = stranger.post("/events/join", {"code": code}, form_url=f"/events/join/{code}")
    assert refused.status_code == 422 and errors_next_to(refused.text, "name") == [told]
    added = director.post(f"{page}/roster", {"username": "stranger"}, form_url=page)
    assert added.status_code == 422 and errors_next_to(added.text, "username") == [told]
    assert roster_of(director.client.application, night) == {"Stranger": "present"}
    joined = stranger.post("/events/join", {"code": code, "name": "Stranger"}, form_url=f"/events/join/{code}")
    assert joined.status_code == 302  # as the guest: its tables become the account's


def test_an_earlier_round_has_a_page_of_its_tables_and_a_paper_result_is_corrected_from_it(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director)
    page = f"/events/{night}"
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"{page}/rounds", {}, form_url=page)
    result = f"{page}/rounds/1/tables/1/result"
    assert director.post(result, {"score_0": "300", "score_1": "150", "score_2": "0"}).status_code == 302
    director.post(f"{page}/rounds", {}, form_url=page)  # round 2: round 1 leaves the night's page
    assert f'href="{page}/rounds/1">Round 1</a>' in director.get(page).text  # "Earlier rounds: Round 1"
    earlier = director.get(f"{page}/rounds/1").text
    assert "Round 1 of 3" in earlier and "entered by director" in earlier
    assert f'href="{result}">Correct the paper result</a>' in earlier
    assert "Тур 1" in director.get(page, headers={"Accept-Language": "ru"}).text  # a night's round, not a deal's
    assert director.get(f"{page}/rounds/7").status_code == 404
    assert make_phone("stranger").get(f"{page}/rounds/1").status_code == 404


def test_a_tichu_players_phone_names_the_partner_across_the_table(make_phone: Any) -> None:
    director = make_phone("director")
    anna = make_phone("anna")
    night = make_night(director, rules="tichu", target="")
    page = f"/events/{night}"
    assert director.post(f"{page}/roster", {"username": "anna", "team": "Red"}, form_url=page).status_code == 302
    for name, team in (("Dana", "Red"), ("Egor", "Blue"), ("Fima", "Blue")):
        assert director.post(f"{page}/roster", {"guest": name, "team": team}, form_url=page).status_code == 302
    assert director.post(f"{page}/rounds", {}, form_url=page).status_code == 302
    _match_id, players = the_table(director)
    partner = players[(players.index("anna") + 2) % 4]
    assert partner == "Dana"  # seated across the table from her partner
    assert "Your partner: Dana, across the table." in anna.get(page).text
    director.hand(_match_id, calls_0="", calls_1="", calls_2="", calls_3="", first_out="0", card_points="60")
    tables = [n.text() for n in parse(director.get(page).text).walk() if "night-table" in n.classes()]
    assert len(tables) == 1 and "1 Tichu round" in tables[0]  # the table's deals, under the night's "Round 1 of 3"


def test_a_player_checks_in_by_the_qr_link_or_the_code_and_a_wrong_code_is_refused_next_to_it(
    make_phone: Any,
) -> None:
    director = make_phone("director")
    anna = make_phone("anna")
    night = make_night(director)
    app = director.client.application
    with app.app_context():
        event = db.session.get(Event, night)
        assert event is not None
        code = event.code
    page = anna.get(f"/events/join/{code}")
    assert page.status_code == 200 and f'value="{code}"' in page.text
    assert "Friday club · Tysiacha" in page.text and 'name="team"' not in page.text  # the night, no Tichu box
    unknown = anna.get("/events/join/NOPE")  # a 404, as a match's join link: it counts against the join limit
    assert unknown.status_code == 404
    assert errors_next_to(unknown.text, "code") == ["No club night has that code: check it with the director."]
    wrong = anna.post("/events/join", {"code": "NOPE"}, form_url=f"/events/join/{code}")
    assert wrong.status_code == 422
    assert errors_next_to(wrong.text, "code") == ["No club night has that code: check it with the director."]
    assert roster_of(app, night) == {}
    spaced = f"{code[:5].lower()} {code[5:]}"  # read out in two halves, as a match's code
    assert anna.get(f"/events/join/{code[:5]}-{code[5:]}").status_code == 200
    joined = anna.post("/events/join", {"code": spaced}, form_url="/")
    assert joined.status_code == 302 and joined.location.endswith(f"/events/{night}")
    assert roster_of(app, night) == {"anna": "present"}
    # Checked in again after the director marked her: the mark stays, and the page says so.
    for status, words in (("absent", "marked absent for the next round"), ("dropped", "dropped from this night")):
        director.post(f"/events/{night}/roster/anna", {"status": status}, form_url=f"/events/{night}")
        again = anna.post("/events/join", {"code": code}, form_url="/", follow_redirects=True)
        assert any(words in f for f in flashes(again.text)) and roster_of(app, night) == {"anna": status}
        assert not any("You are checked in" in f for f in flashes(again.text))


def test_only_a_director_sees_or_uses_the_controls(make_phone: Any) -> None:
    director = make_phone("director")
    anna = make_phone("anna")
    stranger = make_phone("stranger")
    night = make_night(director)
    director.post(f"/events/{night}/roster", {"username": "anna"}, form_url=f"/events/{night}")
    for url in (f"/events/{night}/roster", f"/events/{night}/rounds", f"/events/{night}/directors"):
        assert anna.post(url, {"guest": "X", "director": "anna"}, form_url="/").status_code == 403
        assert stranger.post(url, {"guest": "X", "director": "anna"}, form_url="/").status_code == 404
    assert anna.get(f"/events/{night}/cards").status_code == 403
    assert roster_of(director.client.application, night) == {"anna": "present"}
    added = director.post(f"/events/{night}/directors", {"director": "anna"}, form_url=f"/events/{night}")
    assert added.status_code == 302
    assert "Add to the roster" in anna.get(f"/events/{night}").text
    nobody = director.post(f"/events/{night}/directors", {"director": "nobody"}, form_url=f"/events/{night}")
    assert errors_next_to(nobody.text, "director") == ["There is no account of that username."]


def test_the_table_cards_carry_number_players_in_seat_order_and_the_tables_join_code(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor", "Fima", "Gleb", "Hana", "Ivan"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    cards = director.get(f"/events/{night}/cards").text
    with director.client.application.app_context():
        tables = db.session.execute(db.select(EventTable).order_by(EventTable.number)).scalars().all()
        assert len(tables) == 2
        for table in tables:
            match = db.session.get(Match, table.match_id)
            assert match is not None
            assert f"<h1>Table {table.number}</h1>" in cards
            seats = "".join(f"<li>{p}" for p in table.players)
            assert seats in cards.replace(' <span class="hint">(deals first)</span>', "").replace("</li>", "")
            assert match.join_code in cards
    assert cards.count('class="table-card"') == 2 and cards.count("<svg") == 2
    assert "<nav" not in cards
    with director.client.application.app_context():
        event = db.session.get(Event, night)
        assert event is not None
        assert cards.count(f"seed of the draw {event.seed}") == 2  # CLUB.md §3: the draw can be checked
    # Each table's sheet names its night, round and table, a link back to the night (CLUB.md §3).
    sheet = director.get(f"/matches/{tables[0].match_id}").text
    assert f'<a href="/events/{night}">Friday club · round 1 · table 1</a>' in sheet


def test_a_paper_result_is_refused_until_every_box_holds_a_whole_number_then_counts(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    url = f"/events/{night}/rounds/1/tables/1/result"
    _match_id, players = the_table(director)
    bad = director.post(url, {"score_0": "1020", "score_1": "six", "score_2": ""})
    assert bad.status_code == 422
    assert errors_next_to(bad.text, "score_1") == ["Enter a whole number."]
    assert errors_next_to(bad.text, "score_2") == ["Enter a whole number."]
    too_big = director.post(url, {"score_0": "9999999", "score_1": "640", "score_2": "640"})
    assert too_big.status_code == 422  # a whole number, but no table's score: says which bound
    assert "A score is at most 999,999 and at least −999,999." in all_errors(too_big.text)
    # 1020, 640, 640: the first 2 match points and 1020 − 766⅔ = +253; the others share
    # the rest, 0.5 each, and 640 − 766⅔ = −127 (CLUB.md §2).
    good = director.post(url, {"score_0": "1020", "score_1": "640", "score_2": "640"})
    assert good.status_code == 302
    page = director.get(f"/events/{night}").text
    assert "entered by director" in page
    assert "Equal on both: more opponents' match points, then more first places, go first" in page.replace("&#39;", "'")
    rows = standings_rows(page)
    assert rows[0] == ["1", players[0], "2.0", "253"]
    assert sorted(rows[1:]) == sorted([["2", players[1], "0.5", "−127"], ["2", players[2], "0.5", "−127"]])
    russian = standings_rows(director.get(f"/events/{night}", headers={"Accept-Language": "ru"}).text)
    assert russian[0][2:] == ["2,0", "253"] and russian[1][2:] == ["0,5", "−127"]  # as the sheet writes numbers


def test_closing_a_round_asks_first_then_ends_every_table_where_it_stands(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    url = f"/events/{night}/rounds/1/close"
    # Its one table has no hand: the question says what closing it now means.
    assert "Table 1 has no hand yet: closed now, its players share the match points equally." in director.get(url).text
    unticked = director.post(url, {})
    assert unticked.status_code == 422 and errors_next_to(unticked.text, "confirm") == ["Tick the box to confirm."]
    app = director.client.application
    with app.app_context():
        match_id = db.session.execute(db.select(EventTable)).scalar_one().match_id
        assert db.session.get(Match, match_id).status == "open"  # type: ignore[union-attr]
    assert director.post(url, {"confirm": "y"}).status_code == 302
    with app.app_context():
        assert db.session.get(Match, match_id).status == "ended"  # type: ignore[union-attr]
    page = director.get(f"/events/{night}").text
    assert "Round 1 of 3 · closed" in page
    # Nobody scored: three at 0 share 1 match point each (CLUB.md §2).
    assert [r[2] for r in standings_rows(page)] == ["1.0", "1.0", "1.0"]


def test_a_paper_result_after_the_round_closed_is_on_the_tables_history_page(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    assert director.post(f"/events/{night}/rounds/1/close", {"confirm": "y"}).status_code == 302
    url = f"/events/{night}/rounds/1/tables/1/result"
    assert director.post(url, {"score_0": "300", "score_1": "150", "score_2": "0"}).status_code == 302
    match_id, players = the_table(director)
    history = director.get(f"/matches/{match_id}/history").text
    entered = (
        f"director entered the final scores from the paper sheet: {players[0]} 300, {players[1]} 150, {players[2]} 0"
    )
    assert entered in history
    assert "director ended the match" in history  # the round's close, before it
    form = director.get(url).text  # to correct it: the form holds what was entered
    boxes = {n.attrs["name"]: n.attrs.get("value") for n in parse(form).walk() if n.tag == "input"}
    assert [boxes[f"score_{i}"] for i in range(3)] == ["300", "150", "0"]


def test_a_hand_of_a_nights_ended_table_is_corrected_on_its_page_but_never_deleted(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    app = director.client.application
    match_id, players = the_table(director)
    assert director.hand(match_id, **played(0, 100, [None, 20, 20])).status_code == 302
    assert director.post(f"/events/{night}/rounds/1/close", {"confirm": "y"}).status_code == 302
    sheet = director.get(f"/matches/{match_id}").text
    # An ended table counts for the night as it stands: never "without a winner", no rematch.
    assert "This table has ended: its scores count for the night as they stand." in sheet
    assert "without a winner" not in sheet and "Rematch" not in sheet
    assert re.search(f'href="/matches/{match_id}/hands/1/edit[?]uid=[^"]+" aria-label="Correct hand 1"', sheet)  # §4
    form = director.get(f"/matches/{match_id}/hands/1/edit")
    assert form.status_code == 200
    assert f"/matches/{match_id}/hands/1/delete" not in form.text  # the API refuses it too
    url = f"/matches/{match_id}/hands/preview?number=1"
    preview = director.post(url, played(1, 100, [20, None, 0]), form_url=f"/matches/{match_id}/hands/1/edit")
    assert preview.json["ok"] is True
    edit = f"/matches/{match_id}/hands/1/edit"
    corrected = director.post(edit, played(1, 100, [20, None, 0]), follow_redirects=True)
    assert "Hand 1 corrected." in flashes(corrected.text)  # its only hand: none after it
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None and match.status == "ended"
        assert [h.record["declarer"] for h in match.hands] == [1]
    rows = standings_rows(director.get(f"/events/{night}").text)
    assert rows[0][1:3] == [players[1], "2.0"]  # the table's result follows the correction
    deleting = director.post(f"/matches/{match_id}/hands/1/delete", {"confirm": "y"}, follow_redirects=True)
    assert "This match has ended: its sheet can no longer change." in flashes(deleting.text)
    ordinary = director.new_match()
    director.hand(ordinary, **played(0, 100, [None, 20, 20]))
    assert director.post(f"/matches/{ordinary}/end", {"confirm": "y"}).status_code == 302
    assert f"/matches/{ordinary}/hands/1/edit" not in director.get(f"/matches/{ordinary}").text
    refused = director.get(f"/matches/{ordinary}/hands/1/edit", follow_redirects=True)
    assert "This match is closed: its hands can no longer change." in flashes(refused.text)


def test_banking_a_nights_table_never_says_its_sheet_cannot_change(make_phone: Any) -> None:
    # A club night's table is corrected at any time, banked too (CLUB.md §4): its bank page
    # says so, where an ordinary match's says nobody can change it again.
    director = make_phone("director")
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    match_id, _players = the_table(director)
    page = director.get(f"/matches/{match_id}/bank").text
    assert "a hand can still be corrected" in page and "nobody can change it again" not in page
    ordinary = director.new_match()
    assert "nobody can change it again" in director.get(f"/matches/{ordinary}/bank").text


def test_a_round_that_cannot_be_seated_again_stays_as_it_was(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director, rounds="1")
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    marked = director.post(f"/events/{night}/roster/Fima", {"status": "absent"}, form_url=f"/events/{night}")
    assert marked.status_code == 302 and roster_of(director.client.application, night)["Fima"] == "absent"
    app = director.client.application
    with app.app_context():
        before = db.session.execute(db.select(EventTable.match_id, EventTable.players)).all()
    refused = director.post(f"/events/{night}/rounds/1/reseat", {})
    assert refused.status_code == 422, all_errors(refused.text)  # two present: no table of three
    assert errors_of_form(refused.text, "Seat round 1 again") == ["A round needs at least 3 present players, not 2."]
    with app.app_context():
        assert db.session.execute(db.select(EventTable.match_id, EventTable.players)).all() == before
        assert all(db.session.get(Match, match_id) is not None for match_id, _ in before)
        event = db.session.get(Event, night)
        assert event is not None and event.reseats == 0 and [r.number for r in event.seated] == [1]


def test_the_round_is_seated_again_before_any_hand_and_a_round_is_added(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director, rounds="1")
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    app = director.client.application
    with app.app_context():
        first = db.session.execute(db.select(EventTable)).scalar_one().match_id
    again = director.post(f"/events/{night}/rounds/1/reseat", {})
    assert again.status_code == 302
    with app.app_context():
        table = db.session.execute(db.select(EventTable)).scalar_one()
        assert table.match_id != first and db.session.get(Match, first) is None
        event = db.session.get(Event, night)
        assert event is not None and event.reseats == 0 and event.seated[0].reseats == 1
    director.post(f"/events/{night}/rounds/1/close", {"confirm": "y"})
    refused = director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    assert refused.status_code == 409
    assert all_errors(refused.text) == ["All 1 planned rounds are seated: add a round first."]
    assert director.post(f"/events/{night}/rounds/more", {}, form_url=f"/events/{night}").status_code == 302
    assert director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}").status_code == 302
    with app.app_context():
        assert db.session.execute(db.select(func.count(EventRound.id))).scalar_one() == 2


def test_seating_again_or_taking_back_is_a_page_of_its_own_never_one_tap(make_phone: Any) -> None:
    # Both move players who may have sat down: the night's page links to a page that says so
    # and offers both, each its own button (CLUB.md §3: only before any hand).
    director = make_phone("director")
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    controls = list(parse(director.get(f"/events/{night}").text).walk())
    assert [n.attrs["href"] for n in controls if n.tag == "a" and n.text() == "Seat again or take back…"] == [
        f"/events/{night}/rounds/1/reseat"
    ]
    assert not [n for n in controls if n.tag == "form" and "reseat" in (n.attrs.get("action") or "")]
    page = parse(director.get(f"/events/{night}/rounds/1/reseat").text)
    buttons = [n.text() for n in page.walk() if n.tag == "button"]
    assert "Seat round 1 again" in buttons and "Take round 1 back" in buttons
    match_id, _players = the_table(director)
    taken = director.post(f"/events/{night}/rounds/1/unseat", {}, form_url=f"/events/{night}/rounds/1/reseat")
    assert taken.status_code == 302
    assert "Round 1 is taken back: seat it when the room is ready." in flashes(director.get(f"/events/{night}").text)
    app = director.client.application
    with app.app_context():
        event = db.session.get(Event, night)
        assert event is not None and event.seated == [] and event.reseats == 1
        assert db.session.get(Match, match_id) is None
    assert director.get(f"/events/{night}/rounds/1/reseat").status_code == 404
    assert director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}").status_code == 302
    match_id, players = the_table(director)
    director.hand(match_id, **played(0, 100, [None, 20, 20]))
    why = ["A table of this round has played: it can no longer be seated again or taken back."]
    late = director.get(f"/events/{night}/rounds/1/reseat")  # opened after the hand: why, and the way back
    assert all_errors(late.text) == why and "has played a hand yet" not in late.text
    assert not [n for n in parse(late.text).walk() if n.tag == "form" and "rounds/1/" in (n.attrs.get("action") or "")]
    refused = director.post(f"/events/{night}/rounds/1/unseat", {}, form_url="/")  # sent from a page opened before
    assert (refused.status_code, all_errors(refused.text)) == (409, why)
    assert the_table(director) == (match_id, players)
    stranger = make_phone("stranger")
    assert stranger.get(f"/events/{night}/rounds/1/reseat").status_code == 404
    assert stranger.post(f"/events/{night}/rounds/1/unseat", {}, form_url="/").status_code == 404


def test_the_nights_version_is_answered_304_until_a_table_plays_a_hand(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    first = director.get(f"/events/{night}/version")
    version = first.json["version"]
    assert f'data-version="{version}"' in director.get(f"/events/{night}").text
    assert director.get(f"/events/{night}/version", headers={"If-None-Match": f'"{version}"'}).status_code == 304
    match_id, _players = the_table(director)
    assert director.hand(match_id, **played(0, 100, [None, 20, 20])).status_code == 302
    assert director.get(f"/events/{night}/version").json["version"] != version
    page = director.get(f"/events/{night}").text
    assert "1 hand" in page and "Tables done: 0 of 1" in page


def standings_rows(html: str) -> list[list[str]]:
    """The night's standings table as rows of cell texts."""
    table = next(n for n in parse(html).walk() if "night-standings" in n.classes())
    return [
        [c.text() for c in row.children if isinstance(c, Node) and c.tag == "td"]
        for row in table.walk()
        if row.tag == "tr" and any(isinstance(c, Node) and c.tag == "td" for c in row.children)
    ]


def test_a_tichu_night_takes_teams_on_the_roster_and_a_paper_result_per_team(make_phone: Any) -> None:
    director = make_phone("director")
    night = make_night(director, rules="tichu", target="")
    page = f"/events/{night}"
    assert 'id="team"' in director.get(page).text  # the roster asks for the team
    for name, team in (("Dana", "Red"), ("Egor", "Blue"), ("Fima", "Red")):
        assert director.post(f"{page}/roster", {"guest": name, "team": team}, form_url=page).status_code == 302
    director.post(f"{page}/roster", {"guest": "Gleb"}, form_url=page)
    refused = director.post(f"{page}/rounds", {}, form_url=page)
    assert refused.status_code == 422
    assert all_errors(refused.text) == ["Gleb plays Tichu in no team: give every player a team of two."]
    director.post(f"{page}/roster/Gleb", {"status": "dropped"}, form_url=page)
    director.post(f"{page}/roster", {"guest": "Hana", "team": "Blue"}, form_url=page)
    assert director.post(f"{page}/rounds", {}, form_url=page).status_code == 302
    _match_id, players = the_table(director)
    url = f"{page}/rounds/1/tables/1/result"
    form = director.get(url).text
    assert f"{players[0]} &amp; {players[2]}" in form and f"{players[1]} &amp; {players[3]}" in form
    assert "score_2" not in form  # one box a team
    # 1040 against 760 (mean 900): the first team 2 match points each and +140, the other 0
    # and −140 (CLUB.md §2, Tichu).
    assert director.post(url, {"score_0": "1040", "score_1": "760"}).status_code == 302
    rows = {r[1]: r[2:] for r in standings_rows(director.get(page).text)}
    for seat, name in enumerate(players):
        assert rows[name] == (["2.0", "140"] if seat % 2 == 0 else ["0.0", "−140"])
    assert rows["Gleb"] == ["0.0", "0"]


def test_a_tichu_player_who_came_without_a_team_is_given_one_on_the_roster_and_seated(make_phone: Any) -> None:
    # A check-in (or the director) may come without a team; seating then refuses the night
    # until every player has one: the roster gives it, as the API's roster change does.
    director = make_phone("director")
    night = make_night(director, rules="tichu", target="")
    page = f"/events/{night}"
    for name, team in (("Dana", "Red"), ("Egor", "Blue"), ("Fima", "Red"), ("Gleb", "")):
        assert director.post(f"{page}/roster", {"guest": name, "team": team}, form_url=page).status_code == 302
    forms = [n for n in parse(director.get(page).text).walk() if n.tag == "form" and "team-form" in n.classes()]
    assert [f.attrs["action"] for f in forms][-1] == f"{page}/roster/Gleb"  # each player's team, Gleb's empty
    assert director.post(f"{page}/rounds", {}, form_url=page).status_code == 422
    given = director.post(f"{page}/roster/Gleb", {"team": "blue"}, form_url=page, follow_redirects=True)
    assert "Gleb plays in team Blue." in flashes(given.text)  # spelt as the roster spells it
    three = director.post(f"{page}/roster/Fima", {"team": "Blue"}, form_url=page, follow_redirects=True)
    assert any("Blue" in f for f in flashes(three.text)) and roster_teams(director, night)["Fima"] == "Red"
    assert director.post(f"{page}/rounds", {}, form_url=page).status_code == 302
    _match_id, players = the_table(director)
    assert sorted(players) == ["Dana", "Egor", "Fima", "Gleb"]


def roster_teams(director: Phone, night: str) -> dict[str, str | None]:
    """Each roster name and its team, as stored."""
    with director.client.application.app_context():
        event = db.session.get(Event, night)
        assert event is not None
        return {p.name: p.team for p in event.roster}


def test_a_player_the_director_typed_in_as_a_guest_checks_in_as_that_guest_and_takes_the_seat(
    make_phone: Any,
) -> None:
    director = make_phone("director")
    anna = make_phone("anna")
    night = make_night(director)
    add_guests(director, night, ["Anya", "Dana", "Egor"])
    director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    app = director.client.application
    with app.app_context():
        event = db.session.get(Event, night)
        assert event is not None
        code = event.code
    form = f"/events/join/{code}"
    nobody = anna.post("/events/join", {"code": code, "name": "Vera"}, form_url=form)
    assert nobody.status_code == 422 and errors_next_to(nobody.text, "name") == ["Vera is not on the roster."]
    endless = anna.post("/events/join", {"code": code, "name": "Vera" * 2500}, form_url=form)
    assert errors_next_to(endless.text, "name") == ["A name has at most 40 characters."]
    assert anna.post("/events/join", {"code": code, "name": "anya"}, form_url=form).status_code == 302
    assert roster_of(app, night) == {"Anya": "present", "Dana": "present", "Egor": "present"}
    page = anna.get(f"/events/{night}").text
    assert "Round 1 of 3: your table" in page and 'id="my-table-sheet"' in page
    taken = make_phone("boris").post("/events/join", {"code": code, "name": "Anya"}, form_url=form)
    assert errors_next_to(taken.text, "name") == ["Anya is an account's already."]


@pytest.mark.parametrize(
    ("language", "night_word", "match_word"),
    [
        ("ru", "Турнирная таблица", "Счёт"),
        ("uk", "Турнірна таблиця", "Рахунок"),
        ("pl", "Klasyfikacja", "Wyniki"),
        ("de", "Rangliste", "Stand"),
    ],
)
def test_a_nights_standings_are_its_table_of_places_and_a_matchs_its_score(
    make_phone: Any, language: str, night_word: str, match_word: str
) -> None:
    director = make_phone("director")
    director.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    night = make_night(director)
    add_guests(director, night, ["Dana", "Egor", "Fima"])
    page = parse(director.get(f"/events/{night}").text)
    headings = [n.text() for n in page.walk() if n.tag == "h2"]
    assert night_word in headings and match_word not in headings
    seated = director.post(f"/events/{night}/rounds", {}, form_url=f"/events/{night}")
    assert seated.status_code == 302, all_errors(seated.text)
    match_id, _players = the_table(director)
    sheet = parse(director.get(f"/matches/{match_id}").text)
    assert match_word in [n.text() for n in sheet.walk() if n.tag == "h2"]
