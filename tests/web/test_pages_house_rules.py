"""Pages and the house rules of RULES.md §11: the new-match section, the rule card, the hand
form's ace marriage, and the standings' word on the next zero."""

from __future__ import annotations

import json

import pytest
from flask import Flask

from scoresheet.rules import RULESETS
from scoresheet.rules.house import HOUSE_RULES
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match

from .page_helpers import Phone, count_matches, group_errors, parse, played


def test_the_new_match_page_has_every_house_rule_in_a_closed_section(phone: Phone) -> None:
    page = phone.get("/matches/new").text
    details = [n for n in parse(page).walk() if n.tag == "details"]
    assert len(details) == 1 and "open" not in details[0].attrs
    for key in HOUSE_RULES:
        assert f'id="{key}"' in page
    assert "Three zeros in a row cost" not in page and "three zeros in a row cost" in page


def test_house_rules_chosen_on_the_page_are_stored_and_shown_as_the_rule_card(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(
        rules="classic",
        zeros="consecutive",
        zero_penalty="100",
        dump_555="both",
        barrel_miss="costs_bid",
        ace_marriage="y",
        forfeit_pays="",
        barrel_hands="",
    )
    with csrf_app.app_context():
        options = db.session.get(Match, match_id).setup["options"]
    assert (
        options["zeros"],
        options["zero_penalty"],
        options["dump_555"],
        options["barrel_miss"],
        options["ace_marriage"],
    ) == ("consecutive", 100, "both", "costs_bid", True)
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


def test_a_house_rule_the_ruleset_does_not_take_is_refused_with_the_options(phone: Phone, csrf_app: Flask) -> None:
    data = {
        "players-0": "Anna",
        "players-1": "Boris",
        "players-2": "Vera",
        "rules": "polish",
        "target": "",
        "sheet": "",
        "first_dealer": "0",
        "barrel_hands": "4",
    }
    response = phone.post("/matches/new", data)
    assert response.status_code == 422
    assert (
        "Polish has no barrel: for “Hands on the barrel before the fall”, choose “The usual for these rules”."
    ) in group_errors(response.text, "Options")
    details = [n for n in parse(response.text).walk() if n.tag == "details"]
    assert "open" in details[0].attrs  # what was chosen is not hidden
    assert count_matches(csrf_app) == 0


def test_the_standings_say_what_the_next_zero_costs(phone: Phone) -> None:
    match_id = phone.new_match(zero_penalty="100")
    for _ in range(2):
        phone.hand(match_id, **played(0, 100, [None, 20, 0]))
    page = phone.get(f"/matches/{match_id}").text
    assert "zeros 2: the next costs 100" in page


def house_words_on(html: str) -> dict[str, str]:
    """The words of the house rules that name a barrel figure, as the page shows them: a
    switch's label, a choice's text."""
    root = parse(html)
    words = {}
    for node in root.walk():
        if node.tag == "label" and "check" in node.classes():
            for child in node.walk():
                if child.attrs.get("id") in ("barrel_knock_off", "three_falls_reset"):
                    words[child.attrs["id"]] = node.text().strip()
        if node.tag == "option" and node.attrs.get("value") == "stays":
            words["barrel_miss"] = node.text().strip()
    return words


@pytest.mark.parametrize("target", [1000, 2000, 3000])
def test_the_house_rules_words_name_the_barrel_of_the_target_chosen(phone: Phone, target: int) -> None:
    barrel, fall = RULESETS["classic"].barrel_at(target), RULESETS["classic"].fall_to(target)
    data = {
        "players-0": "Anna",
        "players-1": "Boris",
        "rules": "classic",  # refused: 2 players
        "target": str(target),
        "sheet": "",
        "first_dealer": "0",
    }
    page = phone.post("/matches/new", data)
    assert page.status_code == 422
    words = house_words_on(page.text)
    assert words["barrel_knock_off"].endswith(f"whoever is on it to {fall}")
    assert words["three_falls_reset"].endswith(f"goes back to 0, not {fall}")
    assert f"stays at {barrel}," in words["barrel_miss"]
    # each target's words for the page's script, the one chosen among them
    swaps = [json.loads(n.attrs["data-by-target"]) for n in parse(page.text).walk() if "data-by-target" in n.attrs]
    assert len(swaps) == 3
    for swap in swaps:
        assert set(swap) == {"", "1000", "2000", "3000"}
        assert swap[str(target)] in words.values()
        assert swap[""] == swap["1000"] != swap["2000"] != swap["3000"]


def test_the_rule_card_names_the_barrel_of_the_matchs_target(phone: Phone) -> None:
    match_id = phone.new_match(
        rules="classic", target="3000", barrel_knock_off="y", three_falls_reset="y", barrel_miss="stays"
    )
    page = phone.get(f"/matches/{match_id}").text
    card = [n.text() for n in parse(page).walk() if "rule-card" in n.classes()]
    assert "climbing on the barrel drops whoever is on it to 2760" in card[0]
    assert "The third fall from the barrel goes back to 0, not 2760" in card[0]
    assert "760" not in card[0].replace("2760", "")
    # classic's usual is "stays": not on the card; squarescores' is "costs_bid"
    other = phone.new_match(rules="squarescores", target="2000", barrel_miss="stays")
    card = [n.text() for n in parse(phone.get(f"/matches/{other}").text).walk() if "rule-card" in n.classes()]
    assert "A missed bid on the barrel: costs nothing: the player stays at 1880" in card[0]


def test_the_new_match_page_does_not_offer_the_old_forced_rule(phone: Phone, csrf_app: Flask) -> None:
    page = phone.get("/matches/new").text
    assert "forced_any_seat" not in page
    match_id = phone.new_match(rules="tyzicha", forced_any_seat="y")  # sent anyway: not taken
    with csrf_app.app_context():
        assert db.session.get(Match, match_id).setup["options"]["forced_any_seat"] is False


def test_the_new_house_rules_are_chosen_on_the_page_and_named_on_the_rule_card(phone: Phone, csrf_app: Flask) -> None:
    # RULES.md §11.11, §11.13, §11.17: the barrel 100 below the target moves the card's fall to
    # 780; forfeit_penalty, a yes or no whose usual differs by ruleset, is offered as a choice.
    match_id = phone.new_match(
        rules="squarescores", barrel_gap="100", barrel_clash="all_fall", forfeit_penalty="false", barrel_knock_off="y"
    )
    with csrf_app.app_context():
        options = db.session.get(Match, match_id).setup["options"]
    assert (options["barrel_gap"], options["barrel_clash"], options["forfeit_penalty"]) == (100, "all_fall", False)
    card = [n.text() for n in parse(phone.get(f"/matches/{match_id}").text).walk() if "rule-card" in n.classes()]
    assert "Where the barrel sits: 100 below the target" in card[0]
    assert "Two players climbing on the barrel in the same hand: all fall off" in card[0]
    assert "Every third forfeit (Rospisat'): costs no penalty" in card[0]
    assert "climbing on the barrel drops whoever is on it to 780" in card[0]
