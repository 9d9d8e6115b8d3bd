"""Pages: home, new match, the match page, join by code, bank and end, strangers."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match

from .page_helpers import (
    Phone,
    count_hands,
    count_matches,
    errors_next_to,
    flashes,
    group_errors,
    parse,
    played,
)

WIN = played(0, 140, [None, 20, 20], {0: ["hearts"]})
"""From start scores 870/0/0, Anna wins with this hand (RULES.md §5)."""


def join_code(app: Flask, match_id: str) -> str:
    """The stored join code of a match."""
    with app.app_context():
        return db.session.get(Match, match_id).join_code


def stored_status(app: Flask, match_id: str) -> str:
    """The stored status of a match."""
    with app.app_context():
        return db.session.get(Match, match_id).status


def test_new_match_page_lists_every_ruleset_and_option(phone: Phone) -> None:
    page = phone.get("/matches/new").text
    for rules in ("squarescores", "polish", "classic", "ggtables", "tyzicha"):
        assert f'value="{rules}"' in page
    for field in (
        "players-0",
        "players-3",
        "target",
        "gold_set",
        "blind_bids",
        "sitter_bonus",
        "sheet-0",
        "first_dealer",
        "start_scores-0",
    ):
        assert f'id="{field}"' in page


def test_starting_a_match_goes_to_its_sheet(phone: Phone) -> None:
    match_id = phone.new_match(["Анна", "Bořek", "李"], first_dealer="1")
    page = phone.get(f"/matches/{match_id}").text
    assert "Match started." in " ".join(flashes(page))
    assert "Анна · Bořek · 李" in page
    assert "Hand 1: Bořek deals." in page
    assert "李 opens the bidding, at least 100." in page


def test_new_match_with_options_and_start_scores(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(
        ["A", "B", "C", "D"],
        target="2000",
        gold_set="y",
        blind_bids="y",
        sitter_bonus="y",
        sheet="signed",
        **{"start_scores-0": "120", "start_scores-2": "-40"},
    )
    with csrf_app.app_context():
        setup = db.session.get(Match, match_id).setup
    assert (
        setup["options"]
        | {"target": 2000, "gold_set": True, "blind_bids": True, "sitter_bonus": True, "sheet": "signed"}
        == setup["options"]
    )
    assert setup["options"]["zeros"] == "total"  # no house rule chosen: the usual
    assert setup["start_scores"] == [120, 0, -40, 0]
    page = phone.get(f"/matches/{match_id}").text
    assert "Gold set:" in page and "A deals and sits out." in page


@pytest.mark.parametrize(
    "fields, legend, message",
    [
        (
            {"players-0": "A", "players-1": "B", "players-2": ""},
            "Players, clockwise",
            "SquareScores is played by 3 or 4 players, not 2.",
        ),
        (
            {"players-0": "", "players-1": "", "players-2": ""},
            "Players, clockwise",
            "Type the players' names: SquareScores is played by 3 or 4 players.",
        ),
        (
            {"rules": "tichu", "players-0": "", "players-1": "", "players-2": ""},
            "Players, clockwise",
            "Type the players' names: Tichu is played by 4 players.",
        ),
        ({"players-1": "anna"}, "Players, clockwise", "Two players are called “anna”"),
        ({"players-1": "\u0410nna"}, "Players, clockwise", "mixes letters of alphabets that look alike"),
        ({"players-0": "Hope", "players-1": "Норе"}, "Players, clockwise", "Two players are called “Норе”"),
        ({"players-1": ""}, "Players, clockwise", "Every player needs a name."),
        ({"players-1": "x" * 41}, "Players, clockwise", "is too long"),
        ({"rules": "tyzicha", "players-3": "D"}, "Players, clockwise", "Tyzicha is played by 3 players, not 4."),
        ({"target": "500"}, "Options", "SquareScores plays to 1000, 2000 or 3000, not 500."),
        ({"rules": "ggtables", "gold_set": "y"}, "Options", "GGTables has no gold set."),
        ({"sitter_bonus": "y"}, "Options", "The sitter-out bonus needs four at the table."),
        ({"start_scores-0": "900"}, "Scores carried over from paper (optional)", "start score 900 is on the barrel"),
        ({"start_scores-0": "1000"}, "Scores carried over from paper (optional)", "start score must be from"),
    ],
)
def test_new_match_refusals_show_next_to_their_group(
    phone: Phone, csrf_app: Flask, fields: dict[str, str], legend: str, message: str
) -> None:
    data = {
        "players-0": "Anna",
        "players-1": "Boris",
        "players-2": "Vera",
        "rules": "squarescores",
        "target": "",
        "sheet": "deferred",
        "first_dealer": "0",
        **fields,
    }
    response = phone.post("/matches/new", data)
    assert response.status_code == 422
    assert any(message in e for e in group_errors(response.text, legend)), group_errors(response.text, legend)
    assert count_matches(csrf_app) == 0


@pytest.mark.parametrize(
    "field, value, element, message",
    [
        ("rules", "bridge", "rules", "Choose one of the rulesets."),
        ("first_dealer", "3", "first_dealer", "The first dealer must be one of the 3 players."),
        ("first_dealer", "x", "first_dealer", "Pick the first dealer from the players."),
        ("start_scores-1", "lots", "start_scores-1", "Enter a whole number."),
    ],
)
def test_new_match_field_refusals_show_next_to_the_field(
    phone: Phone, csrf_app: Flask, field: str, value: str, element: str, message: str
) -> None:
    data = {
        "players-0": "Anna",
        "players-1": "Boris",
        "players-2": "Vera",
        "rules": "squarescores",
        "target": "",
        "sheet": "deferred",
        "first_dealer": "0",
        field: value,
    }
    response = phone.post("/matches/new", data)
    assert response.status_code == 422
    assert message in errors_next_to(response.text, element)
    assert count_matches(csrf_app) == 0


def test_home_lists_matches_in_progress_before_banked_and_ended(phone: Phone) -> None:
    ended = phone.new_match(["E1", "E2", "E3"])
    phone.post(f"/matches/{ended}/end", {"confirm": "y"})
    banked = phone.new_match(["B1", "B2", "B3"], **{"start_scores-0": "870"})
    phone.hand(banked, 1, **WIN)
    phone.post(f"/matches/{banked}/bank", {"confirm": "y"})
    playing = phone.new_match(["P1", "P2", "P3"])
    page = phone.get("/").text
    links = [m for m in re.findall(r'href="/matches/([^"/]+)"', page) if m != "new"]
    assert links == [playing, banked, ended]
    assert "B1 won" in page


def test_the_match_page_shows_the_sheet_and_what_is_owed(phone: Phone) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 160, [42, None, 23], {1: ["hearts", "clubs"]}))
    phone.hand(match_id, 2, **played(2, 120, [0, 60, None]))  # Vera misses: owes 120
    page = phone.get(f"/matches/{match_id}").text
    row = [n for n in parse(page).walk() if n.tag == "tr"][1]  # newest hand first
    assert "Boris deals" in row.text() and "Vera 120" in row.text()
    assert "missed 60" in row.text()
    assert "120✗ −95 owes 120" in row.text()  # Vera: bid 120 missed, score −95 (sheet 25)
    assert "zero" in row.text()  # Anna's 0 card points
    standings = [n for n in parse(page).walk() if "standing" in n.classes()]
    assert "sheet 25, owes 120" in standings[2].text()
    assert "zeros 1" in standings[0].text()
    assert f'href="/matches/{match_id}/sheet.csv"' in page
    assert f'href="/matches/{match_id}/hands/2/edit?uid=' in page


def test_the_match_page_marks_the_barrel_and_hands_left(phone: Phone) -> None:
    match_id = phone.new_match(**{"start_scores-1": "800"})
    phone.hand(match_id, 1, **played(0, 100, [None, 100, 0]))  # Boris 800 + 100 → 880
    standings = [n for n in parse(phone.get(f"/matches/{match_id}").text).walk() if "standing" in n.classes()]
    assert "on the barrel: 3 hands left" in standings[1].text()
    phone.hand(match_id, 2, **played(2, 100, [0, 20, None]))
    standings = [n for n in parse(phone.get(f"/matches/{match_id}").text).walk() if "standing" in n.classes()]
    assert "on the barrel: 2 hands left" in standings[1].text()


def test_a_rospisat_has_a_mark_of_its_own_that_the_legend_explains(phone: Phone) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, kind="forfeit", declarer="1", bid="120")
    phone.hand(match_id, 2, **played(2, 120, [0, 60, None]))  # a missed bid, for comparison
    page = parse(phone.get(f"/matches/{match_id}").text)
    rows = [n for n in page.walk() if n.tag == "tr"][1:]
    forfeit = [n for n in rows[1].walk() if "outcome-forfeit" in n.classes()]
    assert [n.text() for n in forfeit] == ["120⊘"] and "120✗" not in rows[1].text()
    assert "Rospisat'" in rows[1].text()  # the screen reader's words, as before
    assert [n.text() for n in rows[0].walk() if "outcome-missed" in n.classes()] == ["120✗"]
    legend = next(n for n in page.walk() if "legend" in n.classes()).text()
    assert "120✓ or 120✗: the declarer's bid, made or missed" in legend
    assert "120⊘: Rospisat', the bid called off." in legend
    csv = phone.get(f"/matches/{match_id}/sheet.csv").text
    assert "⊘" not in csv and "forfeit" in csv  # the file keeps its words


def test_once_the_match_is_over_no_barrel_counts_down(phone: Phone) -> None:
    match_id = phone.new_match(**{"start_scores-0": "875", "start_scores-1": "875"})
    phone.hand(match_id, 1, **played(0, 120, [None, 10, 10], {0: ["hearts"]}))  # Anna mounts
    page = phone.get(f"/matches/{match_id}").text
    assert "on the barrel: 3 hands left" in page and "barrel: 3 left" in page  # the chip, and in words
    phone.hand(match_id, 2, **played(1, 120, [10, None, 10], {1: ["hearts"]}))  # Boris wins
    for status in ("finished", "banked"):
        page = phone.get(f"/matches/{match_id}").text
        assert "Boris wins with 1000!" in page, status
        assert "hands left" not in page and " left<" not in page and 'class="mark barrel"' not in page, status
        phone.post(f"/matches/{match_id}/bank", {"confirm": "y"})


def test_the_match_page_marks_the_polish_lock(phone: Phone) -> None:
    match_id = phone.new_match(rules="polish", **{"start_scores-0": "850"})
    phone.hand(match_id, 1, **played(0, 100, [None, 0, 0]))
    page = phone.get(f"/matches/{match_id}").text
    assert "locked: scores only as declarer" in page


def test_a_finished_match_shows_the_winner_and_can_be_banked(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(**{"start_scores-0": "870"})
    phone.hand(match_id, 1, **WIN)
    page = phone.get(f"/matches/{match_id}").text
    assert "Anna wins with 1010!" in page
    assert "Enter hand" not in page and "End the match" not in page
    confirm = phone.get(f"/matches/{match_id}/bank")
    assert confirm.status_code == 200 and 'id="confirm"' in confirm.text
    response = phone.post(f"/matches/{match_id}/bank", {})
    assert response.status_code == 422
    assert errors_next_to(response.text, "confirm") == ["Tick the box to confirm."]
    assert stored_status(csrf_app, match_id) == "open"
    response = phone.post(f"/matches/{match_id}/bank", {"confirm": "y"})
    assert response.status_code == 302
    page = phone.get(f"/matches/{match_id}").text
    assert "Match banked." in flashes(page)
    assert stored_status(csrf_app, match_id) == "banked"
    assert "hands/1/edit" not in page
    response = phone.get(f"/matches/{match_id}/hands/1/edit")
    assert response.status_code == 302


def test_a_match_in_progress_cannot_be_banked(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    phone.post(f"/matches/{match_id}/bank", {"confirm": "y"})
    page = phone.get(f"/matches/{match_id}").text
    assert "Only a finished match can be banked: nobody has won yet." in flashes(page)
    assert stored_status(csrf_app, match_id) == "open"


def test_ending_needs_the_box_ticked_then_closes_the_match(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    response = phone.post(f"/matches/{match_id}/end", {})
    assert errors_next_to(response.text, "confirm") == ["Tick the box to confirm."]
    assert stored_status(csrf_app, match_id) == "open"
    phone.post(f"/matches/{match_id}/end", {"confirm": "y"})
    assert stored_status(csrf_app, match_id) == "ended"
    page = phone.get(f"/matches/{match_id}").text
    assert "This match was ended without a winner." in page
    assert phone.get(f"/matches/{match_id}/hands/new").status_code == 302
    response = phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    assert response.status_code == 302 and count_hands(csrf_app) == 0


def test_joining_by_code_through_the_page(phone: Phone, make_phone: Any, csrf_app: Flask) -> None:
    match_id = phone.new_match()
    code = join_code(csrf_app, match_id)
    assert code in phone.get(f"/matches/{match_id}").text
    boris = make_phone("boris")
    assert boris.get(f"/matches/{match_id}").status_code == 404
    response = boris.post("/join", {"code": code.lower()[:5] + " " + code.lower()[5:]}, form_url="/")
    assert response.status_code == 302 and response.location == f"/matches/{match_id}"
    assert boris.get(f"/matches/{match_id}").status_code == 200
    assert match_id in boris.get("/").text


@pytest.mark.parametrize(
    "code, message",
    [
        ("NOSUCHCODE", "No match has that join code: check it with the table."),
        ("", "Enter the code."),
    ],
)
def test_a_wrong_join_code_is_refused_next_to_it(phone: Phone, code: str, message: str) -> None:
    phone.new_match()
    response = phone.post("/join", {"code": code}, form_url="/")
    assert response.status_code == 422
    assert errors_next_to(response.text, "code") == [message]


MATCH_ROUTES = [
    ("GET", "/matches/{id}"),
    ("GET", "/matches/{id}/hands/new"),
    ("POST", "/matches/{id}/hands/new"),
    ("GET", "/matches/{id}/hands/1/edit"),
    ("POST", "/matches/{id}/hands/1/edit"),
    ("GET", "/matches/{id}/hands/1/delete"),
    ("POST", "/matches/{id}/hands/1/delete"),
    ("GET", "/matches/{id}/bank"),
    ("POST", "/matches/{id}/bank"),
    ("GET", "/matches/{id}/end"),
    ("POST", "/matches/{id}/end"),
    ("GET", "/matches/{id}/sheet.csv"),
]


@pytest.mark.parametrize("method, route", MATCH_ROUTES)
def test_a_stranger_gets_404_on_every_match_route(
    phone: Phone, make_phone: Any, csrf_app: Flask, method: str, route: str
) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    stranger = make_phone("stranger")
    url = route.format(id=match_id)
    if method == "GET":
        response = stranger.get(url)
    else:
        response = stranger.post(url, {**played(1, 100, [40, None, 20]), "confirm": "y"}, form_url="/")
    assert response.status_code == 404
    missing = stranger.get(route.format(id="nosuchmatch")) if method == "GET" else None
    assert missing is None or missing.status_code == 404
    assert count_hands(csrf_app) == 1
    assert stored_status(csrf_app, match_id) == "open"


def test_names_are_escaped_on_every_page(phone: Phone) -> None:
    evil = "<script>alert(1)</script>"
    match_id = phone.new_match([evil, "B", "C"])
    phone.hand(match_id, 1, **played(0, 100, [None, 20, 20]))
    for url in ("/", f"/matches/{match_id}", f"/matches/{match_id}/hands/new", f"/matches/{match_id}/hands/1/edit"):
        page = phone.get(url).text
        assert evil not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/matches/new",
        "/matches/{id}",
        "/matches/{id}/hands/new",
        "/matches/{id}/hands/1/edit",
        "/matches/{id}/end",
        "/login",
        "/register",
    ],
)
def test_pages_need_no_inline_script_or_style(phone: Phone, url: str) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    page = phone.get(url.format(id=match_id)).text
    scripts = re.findall(r"<script([^>]*)>", page)
    assert scripts and all('src="/static/' in s for s in scripts)
    assert " style=" not in page and "<style" not in page
    assert " on" not in re.sub(r'"[^"]*"', "", " ".join(re.findall(r"<[^>]+>", page)))
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in page
