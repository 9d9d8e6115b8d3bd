"""Pages and the house rules of RULES.md §11: the new-match section, the rule card, the hand
form's ace marriage, and the standings' word on the next zero."""

from __future__ import annotations

from flask import Flask

from scoresheet.extensions import db
from scoresheet.models import Match
from scoresheet.rules.house import HOUSE_RULES

from .page_helpers import Phone, count_matches, group_errors, parse, played


def test_the_new_match_page_has_every_house_rule_in_a_closed_section(phone: Phone) -> None:
    page = phone.get("/matches/new").text
    details = [n for n in parse(page).walk() if n.tag == "details"]
    assert len(details) == 1 and "open" not in details[0].attrs
    for key in HOUSE_RULES:
        assert f'id="{key}"' in page
    assert "Three zeros in a row cost" not in page and "three zeros in a row cost" in page


def test_house_rules_chosen_on_the_page_are_stored_and_shown_as_the_rule_card(
        phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(rules="classic", zeros="consecutive", zero_penalty="100",
                               dump_555="both", barrel_miss="costs_bid", ace_marriage="y",
                               forfeit_pays="", barrel_hands="")
    with csrf_app.app_context():
        options = db.session.get(Match, match_id).setup["options"]
    assert (options["zeros"], options["zero_penalty"], options["dump_555"],
            options["barrel_miss"], options["ace_marriage"]) == (
        "consecutive", 100, "both", "costs_bid", True)
    assert options["forfeit_pays"] == "60" and options["barrel_hands"] == 3
    page = phone.get(f"/matches/{match_id}").text
    card = [n.text() for n in parse(page).walk() if "rule-card" in n.attrs.get("class", "")]
    assert card and "Zeros (no card points in a hand): three zeros in a row cost" in card[0]
    assert "555 dump: 555 and −555 both go back to 0" in card[0]
    assert "A missed bid on the barrel: costs the bid" in card[0]
    assert "Ace marriage: all four aces declared count 200" in card[0]
    assert "Hands on the barrel" not in card[0]  # the usual is not on the card
    form = phone.get(f"/matches/{match_id}/hands/new").text
    assert 'value="aces"' in form


def test_a_house_rule_the_ruleset_does_not_take_is_refused_with_the_options(
        phone: Phone, csrf_app: Flask) -> None:
    data = {"players-0": "Anna", "players-1": "Boris", "players-2": "Vera", "rules": "polish",
            "target": "", "sheet": "", "first_dealer": "0", "barrel_hands": "4"}
    response = phone.post("/matches/new", data)
    assert response.status_code == 422
    assert "Polish has no barrel: barrel_hands must be 3." in group_errors(response.text,
                                                                           "Options")
    details = [n for n in parse(response.text).walk() if n.tag == "details"]
    assert "open" in details[0].attrs  # what was chosen is not hidden
    assert count_matches(csrf_app) == 0


def test_the_standings_say_what_the_next_zero_costs(phone: Phone) -> None:
    match_id = phone.new_match(zero_penalty="100")
    for _ in range(2):
        phone.hand(match_id, **played(0, 100, [None, 20, 0]))
    page = phone.get(f"/matches/{match_id}").text
    assert "zeros 2: the next costs 100" in page
