"""Claiming a guest's past at once: a newcomer takes the free seat of the name they played
under in every match of theirs, on the page and through the API, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from flask import Flask

from .helpers import WINNING_HAND, WINNING_START
from .page_helpers import Phone, errors_next_to, flashes, parse

PLAYERS = ["Anna", "Борис", "Vera"]


def seats(user: Any, match_id: str) -> list[str | None]:
    return [s["username"] for s in user.get(f"/api/matches/{match_id}/seats").json["seats"]]


def history(user: Any, match_id: str) -> list[dict[str, Any]]:
    entries = user.get(f"/api/matches/{match_id}/history").json["history"]
    return [{k: v for k, v in e.items() if k not in ("id", "at")} for e in entries if e["action"].startswith("seat_")]


def five_matches(make_user: Any) -> tuple[Any, Any, Any, dict[str, str]]:
    """anna starts five matches with a seat named Борис; boris joins four of them."""
    anna, boris, vera = make_user("anna"), make_user("boris"), make_user("vera")
    ids: dict[str, str] = {}
    for name in ("open", "seated", "banked", "stranger", "taken"):
        match = anna.new_match(players=PLAYERS, **({"start_scores": WINNING_START} if name == "banked" else {}))
        ids[name] = match["id"]
        if name != "stranger":  # boris cannot open that one
            assert boris.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
        if name == "taken":
            assert vera.post("/api/matches/join", json={"code": match["join_code"]}).status_code == 200
            assert vera.post(f"/api/matches/{match['id']}/seats/1/claim").status_code == 200
    assert boris.post(f"/api/matches/{ids['seated']}/seats/2/claim").status_code == 200  # he was Vera there
    assert anna.post(f"/api/matches/{ids['banked']}/seats/0/claim").status_code == 200
    anna.add_hand(ids["banked"], WINNING_HAND)
    assert anna.post(f"/api/matches/{ids['banked']}/bank").status_code == 200
    return anna, boris, vera, ids


def test_the_names_offered_are_the_free_seats_of_my_matches_where_i_have_none(make_user: Any) -> None:
    _anna, boris, _vera, _ids = five_matches(make_user)
    # Борис: free in "open" and "banked" ("seated": boris has a seat; "stranger": not his;
    # "taken": vera's). Vera: free in "open", "banked", "taken". Anna: "open", "taken".
    assert boris.get("/api/guests/claimable").json == {
        "guests": [{"name": "Vera", "matches": 3}, {"name": "Anna", "matches": 2}, {"name": "Борис", "matches": 2}]
    }


def test_claiming_a_past_takes_each_free_seat_once_as_single_claims_would(make_user: Any) -> None:
    anna, boris, _vera, ids = five_matches(make_user)
    before = {name: seats(anna, match_id) for name, match_id in ids.items()}
    assert boris.get("/api/players/boris").json["ratings"] == {}
    answer = boris.post("/api/guests/claim", json={"name": "Борис"})
    assert answer.status_code == 200 and answer.json == {"claimed": 2}
    after = {name: seats(anna, match_id) for name, match_id in ids.items()}
    assert after == before | {"open": [None, "boris", None], "banked": ["anna", "boris", None]}
    assert after["stranger"] == [None, None, None] and after["taken"] == [None, "vera", None]
    (single,) = history(anna, ids["seated"])  # his one claim there, by hand, untouched
    assert single["after"] == {"seat": 2, "user": "boris"}
    mine = single | {"after": {"seat": 1, "user": "boris"}, "words": "boris is Борис on the sheet now"}
    assert history(anna, ids["open"]) == [mine]
    assert mine in history(anna, ids["banked"]) and len(history(anna, ids["banked"])) == 2  # and anna's
    assert history(anna, ids["stranger"]) == []
    figures = boris.get("/api/players/boris").json
    (squarescores,) = figures["rulesets"]
    # open, seated and banked are his; banked counts: anna won it, he is second or third.
    assert (squarescores["played"], squarescores["banked"], squarescores["won"]) == (3, 1, 0)
    assert figures["ratings"]["tysiacha"]["matches"] == 1  # rated from the banked match on
    again = boris.post("/api/guests/claim", json={"name": "Борис"})
    assert again.status_code == 422 and again.json["field"] == "name"


def test_a_name_not_offered_or_not_text_is_refused_with_its_field(make_user: Any) -> None:
    anna, boris, _vera, ids = five_matches(make_user)
    for body, status in (({"name": "Gleb"}, 422), ({"name": 7}, 400), ({}, 400), ({"name": "Борис", "x": 1}, 400)):
        answer = boris.post("/api/guests/claim", json=body)
        assert answer.status_code == status and answer.json["field"] in ("name", "x"), (body, answer.json)
    assert seats(anna, ids["open"]) == [None, None, None]


def test_the_page_offers_the_names_asks_to_confirm_and_claims(csrf_app: Flask, make_user: Any) -> None:
    anna, _boris, _vera, ids = five_matches(make_user)
    browser = Phone(csrf_app.test_client())
    assert browser.post("/login", {"username": "boris", "password": "correct horse"}).status_code == 302
    assert 'href="/claim-past"' in browser.get("/players/boris").text
    assert 'href="/claim-past"' not in browser.get("/players/anna").text  # only on one's own page
    page = parse(browser.get("/claim-past").text)
    options = [o.text() for o in page.walk() if o.tag == "option"]
    assert options == ["Vera: 3 matches", "Anna: 2 matches", "Борис: 2 matches"]
    unconfirmed = browser.post("/claim-past", {"name": "Борис"})
    assert unconfirmed.status_code == 422
    assert errors_next_to(unconfirmed.text, "confirm") == ["Tick the box to confirm."]
    assert seats(anna, ids["open"]) == [None, None, None]
    unknown = browser.post("/claim-past", {"name": "Gleb", "confirm": "y"})
    assert unknown.status_code == 422 and errors_next_to(unknown.text, "name") == [
        "No match of yours has a free seat of that name: choose one from the list."
    ]
    done = browser.post("/claim-past", {"name": "Борис", "confirm": "y"})
    assert done.status_code == 302 and done.location.endswith("/players/boris")
    assert flashes(browser.get("/players/boris").text) == ["You claimed the seat of Борис in 2 matches."]
    assert seats(anna, ids["open"]) == [None, "boris", None]
